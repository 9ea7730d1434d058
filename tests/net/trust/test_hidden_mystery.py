"""The mystery hand (docs/rules.md §10.3) at a table that hides hands: its cards are dealt
to nobody (net/trust/hidden_deck.py `MYSTERY`), no share of one is owed or taken until the
player who decides has asked, signed, to turn the top card up (event `flip`); then every
seat publishes its share of that one slot, the card is public when turned up, and every
client checks that it is the card those shares read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.moves import Action
from modernart.rules import RuleOptions

from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_files
from modernart.net.trust.hidden_deck import MYSTERY, DeckLedger, DeckStepError, SeatDeck, step_from_wire, step_to_wire
from modernart.net.trust.deck import make_share

from tests.net_helpers import in_process_host, run, seat_bots, until

GAME = bytes(range(16))


def mystery_ledger() -> tuple[DeckLedger, list[SeatDeck]]:
    ledger = DeckLedger(GAME, 3, 70, mystery=True)
    seats = [SeatDeck(GAME, s, 70) for s in range(3)]
    for seat in seats:
        ledger.add_key(seat.key)
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    ledger.deal([9, 9, 9])
    return ledger, seats


def test_the_mystery_hand_is_dealt_to_nobody_and_no_share_of_it_is_owed_or_taken_before_a_flip() -> None:
    ledger, seats = mystery_ledger()
    assert ledger.dealt == 36 and all(ledger.owner[k] == MYSTERY for k in range(27, 36))
    for seat in seats:
        assert not [k for k in ledger.owed(seat.seat) if k >= 27]
        for share in seat.shares(ledger):
            ledger.add_share(share)
    # a seat (or a host asking for one) cannot get a mystery card read before it is turned up
    early = make_share(GAME, 0, seats[0].secret, 27, ledger.deck[27])
    with pytest.raises(DeckStepError) as refused:
        ledger.add_share(early)
    assert refused.value.code == "not_flipped" and 0 not in ledger.shares[27]
    assert ledger.start_flip() == 27
    with pytest.raises(DeckStepError, match="already"):
        ledger.start_flip()
    for seat in seats:
        assert ledger.owed(seat.seat) == [27]  # every seat, none excepted, and that slot only
    for seat in seats[:2]:
        ledger.add_shares(seat.shares(ledger))
    with pytest.raises(DeckStepError) as waiting:
        ledger.mystery_card()
    assert waiting.value.code == "not_readable"
    ledger.add_shares(seats[2].shares(ledger))
    card = ledger.mystery_card()
    ledger.commit_flip(card)
    assert ledger.opened[27] == card and ledger.mystery_top() == 28 and ledger.flipping is None
    # the record of it (the request, then the card) reads back, and is checked again
    wire = [step_to_wire(step) for step in ledger.steps]
    back = DeckLedger.from_steps(GAME, 3, 70, [step_from_wire(w, 70) for w in wire], checking=True, mystery=True)
    assert back.opened == ledger.opened and back.mystery_top() == 28
    forged = [
        w if "flip" not in w or w["flip"]["card"] is None else {"flip": {"slot": 27, "card": (card + 1) % 70}}
        for w in wire
    ]
    with pytest.raises(DeckStepError) as wrong:
        DeckLedger.from_steps(GAME, 3, 70, [step_from_wire(w, 70) for w in forged], checking=True, mystery=True)
    assert wrong.value.code == "wrong_card"


def _flips(table: Any) -> list[tuple[int, int]]:
    """(slot, card) of every mystery card the host turned up, from its event log."""
    out, slot = [], None
    for event in table.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == "flip":
            slot = pub["slot"]
        elif pub["k"] == "move" and pub["m"][1] == Action.FLIP_MYSTERY:
            assert pub["by"] == "flip" and slot is not None
            out += [(slot, e["card"]) for e in pub.get("ev", []) if e.get("k") == "mystery"]
            slot = None
    return out


def test_a_hidden_hands_table_plays_the_mystery_hand_to_the_end_and_the_audit_passes(tmp_path: Path) -> None:
    """Three bots over real sockets, a mystery hand in the HiG reading: each card turned up
    was asked for in a signed `flip`, opened with every seat's share, and is the same card
    on every client; the audit, with every deck key, finds the deal and each flip true."""

    async def main() -> None:
        host, table = await in_process_host(tmp_path, hidden_hands=True, options=RuleOptions(mystery_hand="hig"))
        try:
            seat_bots(host, table, 3)
            await until(lambda: table.game is not None and table.game.is_over, 240)
            await until(lambda: table.record_path is not None, 30)
            flips = _flips(table)
            assert flips, "no bot turned up a mystery card in a whole game"
            ledger = table.game.hidden.ledger
            assert all(ledger.owner[slot] == MYSTERY for slot, _card in flips)
            report = audit_files(table.record_path)
            assert report.ok, report.problems
            bots = [bot for _task, bot in host.bot_clients.running.values()]
            assert len(bots) == 3
            for bot in bots:  # every client turned up the same cards, each read from every share
                deck = bot.client.receiving.game.deck
                assert [deck.opened.get(slot) for slot, _card in flips] == [card for _slot, card in flips]
                assert not [e for e in bot.client.state.errors if e[0] == "untrusted_host"]
        finally:
            await host.close()

    run(main(), 300)


async def _until_untrusted(host: Any, table: Any, timeout: float) -> list[str]:
    """The untrusted_host errors the bots' clients report, once one has (or the game ends)."""

    def errors() -> list[str]:
        return [
            text
            for _task, bot in host.bot_clients.running.values()
            for code, text in bot.client.state.errors
            if code == "untrusted_host"
        ]

    await until(lambda: bool(errors()) or (table.game is not None and table.game.is_over), timeout)
    return errors()


def test_a_host_that_names_another_card_as_the_mystery_card_turned_up_is_caught(tmp_path: Path, monkeypatch) -> None:
    """The host runs changed code: the mystery card it announces (in the engine's event,
    under its own signature) is not the one every seat's share reads.  Every client finds
    it and stops trusting the host.  (a2b2fc2 refused the mystery hand at such a table.)"""
    import modernart.net.host.game as host_game

    honest = host_game.event_to_wire

    def lying(event: Any) -> Any:
        wire = honest(event)
        if wire is not None and wire.get("k") == "mystery":
            wire = {**wire, "card": (wire["card"] + 1) % 70}
        return wire

    monkeypatch.setattr(host_game, "event_to_wire", lying)

    async def main() -> list[str]:
        host, table = await in_process_host(tmp_path, hidden_hands=True, options=RuleOptions(mystery_hand="hig"))
        try:
            seat_bots(host, table, 3)
            return await _until_untrusted(host, table, 240)
        finally:
            await host.close()

    errors = run(main(), 300)
    assert errors and all("mystery" in text for text in errors), errors


def test_a_host_that_turns_up_a_mystery_card_before_every_share_is_in_is_caught(tmp_path: Path, monkeypatch) -> None:
    """The host runs changed code: it turns the mystery card up as soon as it is asked for,
    naming a card of its choice, without the seats' shares.  The clients refuse the event:
    the card cannot be read without every seat's share.  (a2b2fc2 refused the mystery hand
    at such a table.)"""
    from modernart.net.host.hidden_hands import HiddenHands
    from modernart.net.trust import hidden_deck

    monkeypatch.setattr(HiddenHands, "flip_ready", property(lambda self: self.ledger.flipping is not None))
    real_card = hidden_deck.DeckLedger.mystery_card

    def guess(self: Any) -> int:
        if self.checks is not None and getattr(self, "host_side", False):
            return min(set(range(70)) - self.cards_opened)
        return real_card(self)

    monkeypatch.setattr(hidden_deck.DeckLedger, "mystery_card", guess)

    async def main() -> list[str]:
        host, table = await in_process_host(tmp_path, hidden_hands=True, options=RuleOptions(mystery_hand="hig"))
        try:
            seat_bots(host, table, 3)
            await until(lambda: table.game is not None and table.game.hidden is not None, 60)
            table.game.hidden.ledger.host_side = True  # the changed code runs in the host only
            return await _until_untrusted(host, table, 240)
        finally:
            await host.close()

    errors = run(main(), 300)
    assert errors and all("mystery" in text for text in errors), errors


def test_a_host_resumed_mid_game_rebuilds_its_mystery_flips_and_plays_on(tmp_path: Path) -> None:
    """A crash after mystery cards were turned up (and one asked for, its shares half in):
    the resumed host rebuilds the flips from its event log (the request, every share, the
    card), asks nothing again, plays on to the end, and the audit passes."""
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.lobby import Lobby
    from modernart.net.host.table import Table
    from modernart.net.protocol.game_data import public_view
    from modernart.net.trust.identity import Keys
    from modernart.phase import Phase

    from tests.net_helpers import SessionDriver
    from tests.net.trust.test_hidden_host import HiddenDriver, act, deck, keyed_and_shuffled

    keys = [Keys.generate() for _ in range(3)]
    lobby = Lobby(RuleOptions(mystery_hand="hig"), ClockSettings(open_countdown=0, decision=0))
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp_path), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    decks = [SeatDeck(sess.game_id, s, 70) for s in range(3)]
    driver = SessionDriver(sess, keys)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()

    def step(share_all: bool = True) -> None:
        state = play.sess.state
        if state.phase == Phase.MYSTERY_FLIP:
            seat = state.turn
            play.ctr[seat] += 1
            act(play.sess, keys, seat, Move.flip_mystery(seat), None, play.ctr[seat])
            if share_all:
                play.share()
            return
        play.step()

    from modernart.moves import Move

    flipped = lambda: [s for s in play.sess.hidden.ledger.steps if getattr(s, "card", None) is not None]  # noqa: E731
    while len(flipped()) < 2 and not sess.state.is_over():
        step()
    while sess.state.phase != Phase.MYSTERY_FLIP and not sess.state.is_over():
        step()
    assert not sess.state.is_over()
    step(share_all=False)  # asked for; one seat's share only
    ledger = sess.hidden.ledger
    assert ledger.flipping is not None
    deck(sess, keys, 0, shares=[x.to_wire() for x in decks[0].shares(ledger)])
    before = (public_view(sess.state), list(ledger.steps), ledger.flipping)
    path = str(next(tmp_path.glob("*.jsonl")))
    sess.journal.close()
    # `modernart resume`'s list replays the journal on the stand-ins, each flip with its card
    from modernart.cli.saved_games import summarise
    from modernart.net.trust.blind_game import replay_stand_ins
    from modernart.net.host.journal import read_events, read_journal

    from modernart.cli.saved_games import _mystery_cards  # the list's own reading of the event log

    listed = replay_stand_ins(read_journal(path), _mystery_cards(read_events(path)))
    assert (listed.counts, listed.flipped, listed.money) == (sess.state.counts, sess.state.flipped, sess.state.money)
    summary = summarise(path)
    assert summary is not None and summary.round == sess.state.round
    resumed = Table.resume(path, sess.host, 0.0, fsync=False)
    again = resumed.game
    assert (public_view(again.state), list(again.hidden.ledger.steps), again.hidden.ledger.flipping) == before
    play.sess = driver.sess = again
    play.share()  # the other two seats' shares: the card is turned up
    assert again.hidden.ledger.flipping is None
    while not again.state.is_over():
        step()
    play.finish()
    record = resumed.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems


def _mystery_session(tmp: Path) -> tuple[Any, list[Any], list[SeatDeck], Any]:
    """A 3-seat hidden-hands game with a mystery hand, keyed, shuffled and dealt, driven as
    its clients would (tests/net/trust/test_hidden_host.py `HiddenDriver`)."""
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.lobby import Lobby
    from modernart.net.host.table import Table
    from modernart.net.trust.identity import Keys

    from tests.net_helpers import SessionDriver
    from tests.net.trust.test_hidden_host import HiddenDriver, keyed_and_shuffled

    keys = [Keys.generate() for _ in range(3)]
    lobby = Lobby(RuleOptions(mystery_hand="cmon"), ClockSettings(open_countdown=0, decision=0))
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    decks = [SeatDeck(sess.game_id, s, 70) for s in range(3)]
    driver = SessionDriver(sess, keys)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    return sess, keys, decks, play


def test_a_share_asked_of_the_mystery_hand_or_a_move_while_it_is_turned_up_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """A seat (or a host that asks its client) cannot get a mystery card's share into the
    record before the card is asked for (`not_flipped`), nor ask twice or move on while it
    is being turned up (`flipping`); each refusal leaves the log as it was.  (a2b2fc2 had no
    mystery hand at such a table.)"""
    from modernart.moves import Move
    from modernart.phase import Phase

    from tests.net.trust.test_hidden_host import act, deck, refused

    sess, keys, decks, play = _mystery_session(tmp_path)
    ledger = sess.hidden.ledger
    top = ledger.mystery_top()
    assert top is not None
    early = make_share(sess.game_id, 1, decks[1].secret, top, ledger.deck[top])
    seq = sess.seq
    refused("not_flipped", deck, sess, keys, 1, shares=[early.to_wire()])
    assert sess.seq == seq and 1 not in ledger.shares[top]
    while sess.state.phase != Phase.MYSTERY_FLIP:
        play.step()
    seat = sess.state.turn
    play.ctr[seat] += 1
    act(sess, keys, seat, Move.flip_mystery(seat), None, play.ctr[seat])
    assert ledger.flipping == top and sess.state.phase == Phase.MYSTERY_FLIP
    seq = sess.seq
    play.ctr[seat] += 1
    refused("flipping", act, sess, keys, seat, Move.flip_mystery(seat), None, play.ctr[seat])
    play.ctr[seat] += 1
    refused("flipping", act, sess, keys, seat, Move.keep_mystery(seat), None, play.ctr[seat])
    assert sess.seq == seq and sess.state.phase == Phase.MYSTERY_FLIP
    play.share()  # every seat's share: the card is turned up
    assert ledger.flipping is None and top in ledger.opened and sess.state.phase != Phase.MYSTERY_FLIP


def test_while_a_mystery_card_is_turned_up_the_status_line_says_so_and_asks_nothing() -> None:
    """The request is in, the shares are on their way: the screen does not ask the player
    to decide again (the host would refuse it: `flipping`), it says what the table waits for."""
    from modernart.game import GameState

    from modernart.cli.tui.panels import status_line
    from modernart.cli.tui.session import SessionBase
    from modernart.cli.tui.state import ClientState

    session = SessionBase("Ana")
    session.names = ("Ana", "Bea", "Cem")
    session.obs = GameState(3, RuleOptions(mystery_hand="hig"), first_auctioneer=0).observation(0)
    cs = ClientState(session)
    assert "YOUR TURN" in "".join(t for _s, t in status_line(cs, 120))
    session.mystery_coming = True
    text = "".join(t for _s, t in status_line(cs, 120))
    assert "The mystery card is being turned up: each player unlocks their share" in text and "YOUR TURN" not in text
