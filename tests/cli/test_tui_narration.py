"""The table's own log lines (cli/tui/narration.py `TableNarrator`), event by event: what
only a networked table says (the hammer call, stand-ins, forfeits and timeouts, a deal held
until its cards can be read), each event told once.  The events are the verified client's
`EventInfo` values, as `NetSession` hands them over; the end-to-end wording over a real host
is in test_tui_narrate.py."""

from __future__ import annotations

from modernart.events import CardsDealt
from modernart.moves import Action, Move
from modernart.net.client.state import ConnectionState
from modernart.net.trust.verified_game import EventInfo

from modernart.cli.tui.narration import TableNarrator
from modernart.cli.tui.session import LogEntry

PLAYERS = [{"name": "Ana", "bot": False}, {"name": "Bea", "bot": False}, {"name": "Cem", "bot": "random"}]


def table(seat: int = 0) -> ConnectionState:
    return ConnectionState(status="connected", seat=seat, role="player", players=[dict(p) for p in PLAYERS])


def info(seq: int, kind: str, move: Move | None = None, by: str | None = None, events=(), **public) -> EventInfo:
    return EventInfo(seq, kind, move, by, tuple(events), dict(public))


def lines(log: list[LogEntry]) -> list[str]:
    return [entry.text for entry in log]


def test_each_event_is_told_once_and_in_order():
    log: list[LogEntry] = []
    narrator = TableNarrator(log)
    st = table()
    narrator.event(info(1, "start"), st, hand_ready=True)
    narrator.event(info(1, "start"), st, hand_ready=True)  # the same event again (a catch-up)
    narrator.event(info(2, "move", Move.bid(1, 5), "player"), st, hand_ready=True)
    narrator.event(info(2, "move", Move.bid(1, 5), "player"), st, hand_ready=True)
    narrator.event(info(1, "start"), st, hand_ready=True)  # an older one changes nothing
    assert lines(log) == ["The game begins: Ana, Bea, Cem", "Bea bids 5"]
    assert log[0].kind == "system" and log[1].kind == "event"


def test_a_hammer_call_is_told_and_a_bid_stops_it_but_a_pass_does_not():
    log: list[LogEntry] = []
    narrator = TableNarrator(log)
    st = table()
    narrator.event(info(5, "call", Move.hammer(0), "call", clk={"call": 3.0}), st, hand_ready=True)
    narrator.event(info(6, "move", Move.pass_(2), "player"), st, hand_ready=True)
    narrator.event(info(7, "move", Move.bid(1, 9), "player"), st, hand_ready=True)
    narrator.event(info(8, "move", Move.bid(2, 10), "player"), st, hand_ready=True)  # no call runs now
    assert lines(log) == [
        "Ana calls: going once, going twice... (3 s; a bid stops it)",
        "Cem passes",
        "Bea's bid stops the hammer",
        "Bea bids 9",
        "Cem bids 10",
    ]


def test_forfeits_and_timeouts_of_a_settlement_name_the_player_and_the_reason():
    log: list[LogEntry] = []
    narrator = TableNarrator(log)
    bids = [
        {"m": [0, int(Action.SEALED_BID), 0], "by": "offender", "why": "missing"},
        {"m": [1, int(Action.SEALED_BID), 0], "by": "clock"},
        {"m": [2, int(Action.SEALED_BID), 0], "by": "offender"},
        {"m": [7, int(Action.SEALED_BID), 0], "by": "clock"},  # a seat the table does not have
    ]
    narrator.event(info(9, "settle", bids=bids, auction=3), table(), hand_ready=True)
    assert lines(log) == [
        "Ana's sealed bid is forfeited: no reveal arrived before the deadline",
        "Time is up for Bea",
        "Cem's sealed bid is forfeited",
        "Time is up for a player",
    ]


def test_a_stand_in_is_told_for_a_person_and_not_for_a_bot_seat():
    log: list[LogEntry] = []
    narrator = TableNarrator(log)
    st = table()
    narrator.event(info(3, "delegate", seat=2, vk=b"k" * 32), st, hand_ready=True)  # Cem is a bot
    narrator.event(info(4, "delegate", seat=1, vk=b"k" * 32), st, hand_ready=True)
    narrator.event(info(5, "delegate", seat=1, vk=None), st, hand_ready=True)  # the return: told by presence
    assert lines(log) == ["A bot plays for Bea until they return"]


def test_a_hidden_deal_is_told_once_its_cards_can_be_read():
    log: list[LogEntry] = []
    narrator = TableNarrator(log)
    dealt = CardsDealt(0, 0, ())  # this seat's copy at a hidden-hands table names no card
    public_deal = [{"k": "dealt", "seat": 0, "count": 10}]
    narrator.event(info(2, "deal", events=[dealt], ev=public_deal), table(seat=0), hand_ready=False)
    assert lines(log) == []
    narrator.cards_readable()
    narrator.cards_readable()  # told once
    assert lines(log) == ["Round 1: you receive 10 paintings"]
