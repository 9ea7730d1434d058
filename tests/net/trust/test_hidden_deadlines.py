"""No hidden-hands table waits unnoticed (docs/fair-play.md "No table waits for ever"):
every deck step has a deadline on the host's clock (the `deck_step` clock; the tests drive
the clock by hand), and a seat that misses it is named in the host's log, in an event
`dlate` that every client checks and shows, and in the audit's notes.  Before a2b2fc2 was
changed, a seat that never sent its key, shuffle or shares stalled the table with nobody
named (the host logged nothing, no event said it, the screen said only that it waited)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from modernart.net.clocks import ClockSettings
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.trust.hidden_deck import SeatDeck
from modernart.net.trust.identity import Keys
from modernart.net.protocol import decode_host_inner
from modernart.net.protocol.frames import decode_event_public
from modernart.net.trust.audit import audit_files
from modernart.net.trust.verified_game import VerifiedGame

from tests.net_helpers import SessionDriver
from tests.net.trust.test_hidden_host import HiddenDriver, deck, hidden_session

CLOCKS = ClockSettings(open_countdown=0, decision=0, reveal=0, deck_step=30)


def hidden_table(tmp: Path) -> tuple[Any, Any, list[Keys], list[SeatDeck], SessionDriver]:
    keys = [Keys.generate() for _ in range(3)]
    lobby = Lobby(clocks=CLOCKS)
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    return table, sess, keys, [SeatDeck(sess.game_id, s, 70) for s in range(3)], SessionDriver(sess, keys)


def kinds(events: list[Any]) -> list[str]:
    return [decode_host_inner(e.public)["k"] for e in events]


def follower(sess: Any) -> VerifiedGame:
    """An honest client's checked copy of the game (a spectator's: every public part)."""
    game = VerifiedGame(sess.game_id, sess.host.vk)
    for event in sess.log:
        game.apply(event.frame_for(None), None)
    return game


def test_a_seat_that_never_sends_its_key_is_named_late_once_on_the_hosts_clock(tmp_path: Path, caplog) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path, clocks=CLOCKS)
    driver.seed_all()
    for s in (0, 1):
        deck(sess, keys, s, key=decks[s].key.to_wire())
    assert sess.apply_defaults(100.0) == []  # seat 2's key is owed from now on
    assert sess.next_deadline() == 130.0
    assert sess.apply_defaults(129.9) == []
    with caplog.at_level(logging.WARNING, logger="modernart.net.host.game"):
        late = sess.apply_defaults(130.0)
    assert kinds(late) == ["dlate"]
    pub = decode_event_public(late[0].public)
    assert (pub["seat"], pub["step"], pub["waited"]) == (2, "key", 30.0)
    assert "seat=2" in caplog.text and "step=key" in caplog.text and sess.players[2].name in caplog.text
    assert sess.apply_defaults(500.0) == []  # named once per step
    game = follower(sess)
    assert game.late == {2: "key"}
    # the player's client comes back and sends it: not late any more, and the next step's clock starts
    deck(sess, keys, 2, key=decks[2].key.to_wire())
    assert sess.apply_defaults(501.0) == [] and sess.next_deadline() == 531.0
    assert follower(sess).late == {}


def test_each_step_of_the_deck_has_its_deadline_and_the_audit_names_the_late_seat(tmp_path: Path) -> None:
    """A shuffle, then shares, then a card to put up, each late in turn; the game is then
    played to its end, and the audit's notes name every late seat and step."""
    table, sess, keys, decks, driver = hidden_table(tmp_path)
    driver.seed_all()
    for s, d in enumerate(decks):
        deck(sess, keys, s, key=d.key.to_wire())
    now = 0.0
    sess.apply_defaults(now)
    late: list[tuple[int, str]] = []

    def tick(seconds: float) -> None:
        nonlocal now
        now += seconds
        for event in sess.apply_defaults(now):
            pub = decode_event_public(event.public)
            if pub["k"] == "dlate":
                late.append((pub["seat"], pub["step"]))

    tick(31)  # seat 0 owes its shuffle
    for s, d in enumerate(decks):
        deck(sess, keys, s, shuffle=d.shuffle(sess.hidden.ledger)[0].to_wire())
        tick(1)
    assert sess.state is not None  # dealt: every seat owes shares
    for s in (0, 1):
        deck(sess, keys, s, shares=[x.to_wire() for x in decks[s].shares(sess.hidden.ledger)])
    tick(31)  # seat 2 late with its shares
    deck(sess, keys, 2, shares=[x.to_wire() for x in decks[2].shares(sess.hidden.ledger)])
    tick(1)
    tick(31)  # the auctioneer late with its card
    assert late == [(0, "shuffle"), (2, "shares"), (sess.state.auctioneer, "card")]
    play = HiddenDriver(sess, keys, decks, driver)
    play.finish()
    record = table.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems
    named = [n for n in report.notes if "has not sent" in n]
    assert len(named) == 3 and sess.players[0].name in named[0] and "shuffle" in named[0]


def _line_text(line: list[tuple[str, str]]) -> str:
    return "".join(text for _style, text in line)


def test_at_an_absent_sellers_turn_the_status_line_says_only_that_player_can_and_counts_down() -> None:
    """The words and the countdown come from the session (a hidden-hands table, Bea to put
    up a card, her deadline 90 s away; then late).  Before, the line said only "Bea is
    choosing a painting to sell", with no countdown, for as long as she was away."""
    from modernart.game import GameState
    from modernart.phase import Phase

    from modernart.cli.tui.panels import status_line
    from modernart.cli.tui.session import SessionBase
    from modernart.cli.tui.state import ClientState

    state = GameState(3, first_auctioneer=1)
    assert state.phase == Phase.PLAY_CARD
    session = SessionBase("Ana")
    session.names = ("Ana", "Bea", "Cem")
    session.obs = state.observation(0)
    now = [1000.0]
    cs = ClientState(session, clock=lambda: now[0])
    assert "Bea is choosing a painting to sell" in _line_text(status_line(cs, 120))  # an open table
    session.hidden_hands = True
    session.deck_deadline = 1090.0
    text = _line_text(status_line(cs, 120))
    assert "[90s] Only Bea can put up one of their paintings (hands are hidden)" in text, text
    now[0] = 1100.0
    session.deck_late = (1,)
    text = _line_text(status_line(cs, 120))
    assert "Bea is late: only Bea can put up one of their paintings" in text and "[0s]" in text, text
    session.hidden_hands = False  # an open table: the host's stand-in could play, no such words
    assert "Bea is choosing a painting to sell" in _line_text(status_line(cs, 120))
