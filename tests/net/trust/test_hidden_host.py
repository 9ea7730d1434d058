"""The host of a hidden-hands table (net/host/hidden_hands.py, HostedGame), driven directly
with the seats' own keys: every deck step and card play it refuses gets its own code and
changes nothing; the deal waits for every shuffle; the host's events and journal never
carry a hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from modernart.moves import Move
from modernart.net.clocks import ClockSettings
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError, decode_host_inner
from modernart.net.protocol.signed import ACT_TAG, encode_action_body
from modernart.net.trust.deck import DeckKey, make_share
from modernart.net.trust.group import base, scalar_bytes
from modernart.net.trust.hidden_deck import SeatDeck
from modernart.net.trust.identity import Keys

from tests.net_helpers import SessionDriver, play_hidden_card, signed_deck_step


def hidden_session(
    tmp: Path, players: int = 3, clocks: ClockSettings | None = None
) -> tuple[Any, list[Keys], list[SeatDeck], SessionDriver]:
    host = Keys.generate()
    keys = [Keys.generate() for _ in range(players)]
    lobby = Lobby(clocks=clocks or ClockSettings(open_countdown=0, decision=0))
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "test", host, journal_dir=str(tmp), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    decks = [SeatDeck(sess.game_id, s, 70) for s in range(players)]
    return sess, keys, decks, SessionDriver(sess, keys)


def deck(sess: Any, keys: list[Keys], seat: int, **part: Any) -> list[Any]:
    return sess.submit_deck(keys[seat].vk, seat, signed_deck_step(sess, keys[seat], seat, **part), 0.0)


def keyed(sess: Any, keys: list[Keys], decks: list[SeatDeck], driver: SessionDriver) -> None:
    """Every seat's seed, then its deck key, as their clients send them."""
    driver.seed_all()
    for s, d in enumerate(decks):
        deck(sess, keys, s, key=d.key.to_wire())


def keyed_and_shuffled(sess: Any, keys: list[Keys], decks: list[SeatDeck], driver: SessionDriver) -> None:
    """`keyed`, then every seat's shuffle in seat order."""
    keyed(sess, keys, decks, driver)
    for s, d in enumerate(decks):
        deck(sess, keys, s, shuffle=d.shuffle(sess.hidden.ledger)[0].to_wire())


def refused(code: str, fn: Any, *args: Any, **kwargs: Any) -> None:
    with pytest.raises(ProtocolError) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code, exc.value


def shuffled(tmp: Path) -> tuple[Any, list[Keys], list[SeatDeck]]:
    sess, keys, decks, driver = hidden_session(tmp)
    keyed_and_shuffled(sess, keys, decks, driver)
    for s, d in enumerate(decks):
        deck(sess, keys, s, shares=[x.to_wire() for x in d.shares(sess.hidden.ledger)])
    return sess, keys, decks


def test_the_deal_waits_for_every_seats_shuffle_and_refused_steps_change_nothing(tmp_path: Path) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path)
    driver.seed_all()
    assert sess.state is None  # every seed is in, but the deck is not shuffled
    ledger = sess.hidden.ledger
    refused("not_your_seat", deck, sess, keys, 0, key=decks[1].key.to_wire())
    rogue = DeckKey(0, base(5), decks[0].key.e, decks[0].key.z)
    refused("bad_deck_key", deck, sess, keys, 0, key=rogue.to_wire())
    refused("bad_deck", deck, sess, keys, 0, key={"seat": 0})
    refused("bad_deck", deck, sess, keys, 0, key=decks[0].key.to_wire(), secret=bytes(32))
    seq = sess.seq
    for s, d in enumerate(decks):
        deck(sess, keys, s, key=d.key.to_wire())
    assert sess.seq == seq + 3 and ledger.keyed
    refused("not_your_shuffle", deck, sess, keys, 1, shuffle=decks[1].shuffle(ledger)[0].to_wire())
    good = decks[0].shuffle(ledger)[0]
    bad = replace(good, deck=good.deck[1:] + good.deck[:1])
    refused("bad_shuffle", deck, sess, keys, 0, shuffle=bad.to_wire())
    assert ledger.shuffles == []
    deck(sess, keys, 0, shuffle=good.to_wire())
    for s in (1, 2):
        assert sess.state is None
        deck(sess, keys, s, shuffle=decks[s].shuffle(ledger)[0].to_wire())
    assert sess.state is not None and ledger.dealt == 30  # dealt once the last seat shuffled
    # a stand-in (a delegate key) holds no deck key: it cannot send the seat's steps
    stand_in = Keys.generate()
    sess.set_delegate(1, stand_in.vk, 0.0)
    refused("not_your_seat", sess.submit_deck, stand_in.vk, 1, {"shares": []}, 0.0)
    wrong = make_share(sess.game_id, 1, decks[2].secret, 0, ledger.deck[0])
    refused("bad_share", deck, sess, keys, 1, shares=[wrong.to_wire()])
    refused("too_early", deck, sess, keys, 1, secret=scalar_bytes(decks[1].secret))
    assert all(not ledger.shares[k] for k in range(30))


def act(sess: Any, keys: list[Keys], seat: int, move: Move, opening: Any, ctr: int, extra: Any = None) -> Any:
    body = encode_action_body(sess.game_id, seat, ctr, move.to_list(), sess.seq, extra)
    return sess.submit(keys[seat].vk, seat, body, keys[seat].sign(ACT_TAG, body), 0.0, opening)


def test_a_card_play_is_committed_by_its_slot_then_opened_and_the_host_learns_only_that_card(tmp_path: Path) -> None:
    """Protocol 3: the signed action names the slot; the host checks all it can without the
    card and commits to the play (a `play` event); only then is the card opened, and a bad
    opening changes nothing (the play still waits for its own card)."""
    sess, keys, decks = shuffled(tmp_path)
    ledger = sess.hidden.ledger
    seat = sess.state.auctioneer
    hand = decks[seat].hand(ledger)
    slot, card = min(hand.items())
    other_slot = max(hand)
    opening = decks[seat].opening(ledger, card).to_wire()
    nxt = (seat + 1) % 3
    deck0 = {"deck": 0}
    refused("open_later", act, sess, keys, seat, Move.of(seat, 0, slot), opening, 1, deck0)
    refused("needs_slot", act, sess, keys, seat, Move.of(seat, 0, slot), None, 2)
    refused("wrong_deck", act, sess, keys, seat, Move.of(seat, 0, slot), None, 3, {"deck": 1})
    theirs_slot = min(decks[nxt].hand(ledger))
    refused("not_your_card", act, sess, keys, seat, Move.of(seat, 0, theirs_slot), None, 4, deck0)
    refused("not_your_turn", act, sess, keys, nxt, Move.of(nxt, 0, theirs_slot), None, 1, deck0)
    refused("no_play", sess.submit_opening, keys[seat].vk, seat, opening, 0.0)  # nothing committed yet
    assert ledger.opened == {} and sess.state.lot == [] and sess.hidden.pending is None
    events, _ctr = act(sess, keys, seat, Move.of(seat, 0, slot), None, 5, deck0)
    assert [decode_host_inner(e.public)["k"] for e in events] == ["play"]
    assert decode_host_inner(events[0].public)["m"] == [seat, 0, slot]
    refused("play_pending", act, sess, keys, seat, Move.of(seat, 0, other_slot), None, 6, deck0)
    forged = {**opening, "z": scalar_bytes(12345)}
    refused("bad_opening", sess.submit_opening, keys[seat].vk, seat, forged, 0.0)
    wrong = decks[seat].opening(ledger, hand[other_slot]).to_wire()
    refused("bad_opening", sess.submit_opening, keys[seat].vk, seat, wrong, 0.0)  # another slot of its own
    refused("no_play", sess.submit_opening, keys[nxt].vk, nxt, opening, 0.0)
    assert ledger.opened == {} and sess.state.lot == [] and sess.hidden.pending is not None
    events = sess.submit_opening(keys[seat].vk, seat, opening, 0.0)
    assert ledger.opened == {slot: card} and sess.hidden.pending is None
    played = decode_host_inner(events[0].public)
    assert played["open"] == opening and played["m"] == [seat, 0, card] and played["play"] == sess.seq - len(events)
    # no event and no private part the host made holds a hand
    for event in sess.log:
        for part in event.privates:
            assert part is None or set(decode_host_inner(part)) == {"salt", "money"}
    sess.journal.sync()
    written = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.is_file())
    # the journal and the event log: no part names a hand (as a msgpack or a JSON key)
    assert written and b"\xa4hand" not in written and b'"hand"' not in written


def test_a_hidden_table_refuses_a_fixed_deal() -> None:
    from modernart.net.host.game import HostedGame, Player
    from modernart.rules import RuleOptions
    from modernart.net.trust.shuffle import FixedDeal

    players = [Player(f"p{i}", Keys.generate().vk) for i in range(3)]
    with pytest.raises(ValueError, match="cannot hide hands"):
        HostedGame(
            bytes(16),
            players,
            RuleOptions(),
            ClockSettings(),
            Keys.generate(),
            None,
            0.0,
            fixed_deal=FixedDeal.of(range(70), 0),
            hidden_hands=True,
        )


class HiddenDriver:
    """Plays a hidden-hands `HostedGame` as its players' clients would: each seat's cards
    from its own deck (played with their openings), its shares as soon as it owes them, bids
    and Sealed auctions as `SessionDriver` plays them."""

    def __init__(self, sess: Any, keys: list[Keys], decks: list[SeatDeck], driver: SessionDriver) -> None:
        import random

        self.sess, self.keys, self.decks, self.driver = sess, keys, decks, driver
        self.rng = random.Random(5)
        self.ctr = driver.ctr  # one counter per seat for every action it signs

    def share(self) -> None:
        ledger = self.sess.hidden.ledger
        while ledger.keyed and ledger.next_shuffler is not None and self.sess.state is not None:
            seat = ledger.next_shuffler  # a new deck (fresh deals each round): every seat shuffles it
            deck(self.sess, self.keys, seat, shuffle=self.decks[seat].shuffle(ledger)[0].to_wire())
        for s, d in enumerate(self.decks):
            owed = d.shares(ledger)
            if owed:
                deck(self.sess, self.keys, s, shares=[x.to_wire() for x in owed])

    def step(self, share: bool = True) -> None:
        from modernart.phase import Phase

        sess = self.sess
        state = sess.state
        pending = sess.hidden.pending
        if pending is not None:  # a play the host committed to (a resumed host still holds it): open it
            ledger = sess.hidden.ledger
            card = self.decks[pending.seat].hand(ledger)[pending.slot]
            opening = self.decks[pending.seat].opening(ledger, card).to_wire()
            sess.submit_opening(self.keys[pending.seat].vk, pending.seat, opening, 0.0)
        elif state.phase == Phase.PLAY_CARD:
            seat = state.auctioneer
            ledger = sess.hidden.ledger
            card = self.rng.choice(sorted(self.decks[seat].hand(ledger).values()))
            self.ctr[seat] += 1
            play_hidden_card(sess, self.keys[seat], seat, self.decks[seat], Move.play(seat, card), self.ctr[seat])
        elif state.phase == Phase.DOUBLE_OFFER:
            seat = state.turn
            move = Move.decline_second(seat)
            state.apply(move)
            sess.move_events(move, 0.0, {"m": move.to_list(), "by": "clock"})
        else:
            self.driver.step()
        if share:
            self.share()

    def finish(self) -> None:
        while not self.sess.state.is_over():
            self.step()
        for s, d in enumerate(self.decks):
            deck(self.sess, self.keys, s, secret=scalar_bytes(d.secret))


def test_a_host_resumed_from_its_files_plays_a_hidden_game_on_and_the_audit_passes(tmp_path: Path) -> None:
    """A crash (the journal as a kill -9 leaves it) in round 2: the resumed host rebuilds the
    deck from its event log and the blind engine from its moves and openings, the game goes
    on to the end, the record is on the real deck and the audit passes."""
    from modernart.net.protocol.game_data import public_view
    from modernart.net.trust.audit import audit_files

    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    while sess.state.round < 1 or sess.state.move_count < 40:
        play.step()
    before = (public_view(sess.state), [sorted(h) for h in sess.state.hands], list(sess.hidden.ledger.steps))
    path = str(next(tmp_path.glob("*.jsonl")))
    sess.journal.close()
    resumed = Table.resume(path, sess.host, 0.0, fsync=False)
    again = resumed.game
    assert again.hidden is not None
    assert (public_view(again.state), [sorted(h) for h in again.state.hands], list(again.hidden.ledger.steps)) == before
    play.sess = driver.sess = again
    play.finish()
    assert again.disclosed and again.deck_disclosed
    record = resumed.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems
    assert report.facts["hidden_hands"] is True


def test_a_hidden_table_with_a_fresh_deal_each_round_starts(tmp_path: Path) -> None:
    """FA-2 deals every round from the whole reshuffled deck: a hidden-hands table deals each
    later round from a new deck that every seat shuffles again (tests/net/trust/test_hidden_fresh_deal.py
    plays such games); it used to refuse to start."""
    from modernart.rules import RuleOptions

    lobby = Lobby(RuleOptions(fresh_deal_each_round=True), ClockSettings(open_countdown=0, decision=0))
    for _ in range(3):
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, Keys.generate().vk)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp_path), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    assert table.game is not None and table.game.hidden is not None and table.game.hidden.ledger.fresh


def test_hidden_hands_play_the_mystery_hand(tmp_path):
    """The mystery hand's cards are dealt to nobody in the deck (tests/net/trust/test_hidden_mystery.py
    plays it): a hidden-hands table starts with it (a2b2fc2 refused to)."""
    from modernart.net.trust.hidden_deck import MYSTERY
    from modernart.rules import RuleOptions

    lobby = Lobby(RuleOptions(mystery_hand="hig"), ClockSettings(open_countdown=0, decision=0))
    for _ in range(3):
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, Keys.generate().vk)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp_path), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    assert table.game is not None and table.game.hidden is not None and table.game.hidden.ledger.mystery
    assert MYSTERY == -1


def test_an_open_auction_without_a_countdown_passes_for_the_seats_away_and_only_for_them(tmp_path: Path) -> None:
    """Without an Open countdown only bids and passes end an Open auction, and at a
    hidden-hands table no stand-in makes them for a seat away: the decision clock passes for
    the seats away (docs/fair-play.md "Absent seats"), never for one that is here, and no
    clock is shown for it (it plays nobody who is here)."""
    from modernart.moves import Action
    from modernart.phase import Phase

    decision = 5.0
    sess, keys, decks, driver = hidden_session(tmp_path, clocks=ClockSettings(open_countdown=0, decision=decision))
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    while sess.state.phase != Phase.OPEN or len(sess.state.to_move()) < 2:
        assert not sess.state.is_over(), "no Open auction in this game"
        play.step()
    state = sess.state
    waiting = state.to_move()
    away, here = waiting[0], waiting[1:]
    assert sess.clock_view(0.0)["decide"] is None and sess.clock_view(0.0)["open"] is None
    assert sess.next_deadline(set()) is None  # nobody away: no clock runs in this auction
    due = sess.next_deadline({away})
    assert due == decision  # the last event was at 0.0
    seq = sess.seq
    assert sess.apply_defaults(due - 0.1, {away}) == [] and sess.seq == seq  # not yet
    events = sess.apply_defaults(due, {away})
    moves = [decode_host_inner(e.public) for e in events if decode_host_inner(e.public).get("k") == "move"]
    assert [m["m"] for m in moves] == [[away, int(Action.PASS), 0]] and moves[0]["by"] == "clock"
    if state.phase == Phase.OPEN:  # the seats here still decide: nobody passes for them
        assert all(seat in state.to_move() for seat in here)
        assert sess.apply_defaults(due + 100 * decision, {away}) == []
