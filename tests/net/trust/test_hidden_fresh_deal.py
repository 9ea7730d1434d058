"""Hidden hands with a fresh deal each round (FA-2, docs/rules.md §10.2; docs/fair-play.md
"The hidden deck"): every round after the first is dealt from a new deck that every seat
shuffles again (`NewDeck`); the blind engine plays the real game, the audit checks every
deck, and a whole game of bots plays over real sockets to its end and audits."""

from __future__ import annotations

import random
from pathlib import Path

from modernart.game import GameState
from modernart.moves import CARD_ACTIONS, Move
from modernart.phase import Phase
from modernart.presets import preset_options
from modernart.rules import RuleOptions

from modernart.net.clocks import ClockSettings
from modernart.net.trust.blind_game import BlindGame
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.protocol import pack
from modernart.net.protocol.frames import MAX_TAIL_EVENT
from modernart.net.protocol.game_data import public_view
from modernart.net.trust.audit import audit_files
from modernart.net.trust.hidden_deck import DeckLedger, NewDeck, SeatDeck, audit_deal, step_from_wire, step_to_wire
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, run, seat_bots, until

GAME = bytes(range(16, 32))
FRESH = RuleOptions(fresh_deal_each_round=True)


def shuffle_all(ledger: DeckLedger, seats: list[SeatDeck]) -> None:
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])


def share_all(ledger: DeckLedger, seats: list[SeatDeck]) -> None:
    for seat in seats:
        for share in seat.shares(ledger):
            ledger.add_share(share)


def test_every_round_of_a_fresh_deal_comes_from_a_new_joint_shuffle_and_the_blind_game_is_the_real_one() -> None:
    n, size = 4, FRESH.deck_table.size
    ledger = DeckLedger(GAME, n, size, fresh=True)
    seats = [SeatDeck(GAME, s, size) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    shuffle_all(ledger, seats)
    blind = BlindGame(ledger, FRESH, 1)
    share_all(ledger, seats)
    rng = random.Random(7)
    played: list[tuple[Move, object]] = []
    decks = 1
    while not blind.state.is_over():
        state = blind.state
        if ledger.waiting:  # a new round waits for its new deck's shuffles: nobody can read a card
            assert all(not seat.hand(ledger) for seat in seats) and blind.needs_owner()
            shuffle_all(ledger, seats)
            share_all(ledger, seats)
            decks += 1
        for seat in seats:  # every seat reads as many cards as the engine deals it
            assert len(seat.hand(ledger)) == len(state.hands[seat.seat])
        seat = state.to_move()[0]
        if state.phase == Phase.PLAY_CARD:
            card = rng.choice(sorted(seats[seat].hand(ledger).values()))
            move = Move.play(seat, card)
            blind.play(move, seats[seat].opening(ledger, card))
        elif state.phase == Phase.DOUBLE_OFFER:
            move = Move.decline_second(seat)
            blind.apply(move)
        else:
            move = rng.choice([m for m in state.legal_moves(seat) if m.action not in CARD_ACTIONS])
            blind.apply(move)
        played.append((move, public_view(blind.state)))
        share_all(ledger, seats)
    assert decks == 4 and ledger.epoch == 3 and len(ledger.earlier_decks) == 3
    assert sum(isinstance(step, NewDeck) for step in ledger.steps) == 3
    # the real game, on the four real decks read with every key, is the one the host ran blind
    order = ledger.card_order([seat.secret for seat in seats])
    assert len(order) == 4 * size and all(
        sorted(order[r * size : (r + 1) * size]) == list(range(size)) for r in range(4)
    )
    ref = GameState(n, FRESH, deck_order=[int(c) for c in order if c is not None], first_auctioneer=1)
    for move, view in played:
        ref.apply(move)
        assert public_view(ref) == view
    assert ref.money == blind.state.money
    # the audit re-checks every deck from the record's wire form
    recorded = DeckLedger.from_steps(
        GAME, n, size, [step_from_wire(step_to_wire(s), size) for s in ledger.steps], checking=False
    )
    assert audit_deal(recorded, [seat.secret for seat in seats]) == []


def test_the_audit_names_a_false_shuffle_of_a_later_rounds_deck() -> None:
    from dataclasses import replace

    n, size = 3, FRESH.deck_table.size
    ledger = DeckLedger(GAME, n, size, fresh=True, checking=False)
    seats = [SeatDeck(GAME, s, size) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    shuffle_all(ledger, seats)
    ledger.deal([10] * n)
    ledger.deal([10] * n)  # round 2: a new deck, waiting for its shuffles
    assert ledger.waiting == [(10,) * n] and ledger.epoch == 1
    good = seats[0].shuffle(ledger)[0]
    ledger.add_shuffle(replace(good, deck=(good.deck[1],) + good.deck[1:]))  # card 0's place taken by a copy
    for seat in seats[1:]:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    assert ledger.dealt == 30 and ledger.waiting == []
    problems = audit_deal(ledger, [seat.secret for seat in seats])
    assert len(problems) == 1 and problems[0].startswith("seat 0's shuffle duplicates card"), problems


def test_a_game_of_bots_with_fresh_deals_and_hidden_hands_plays_to_the_end(tmp_path: Path) -> None:
    async def main() -> None:
        host = Host(Keys.generate(), bot_pace=0.0)
        await host.start()
        lobby = Lobby(preset_options("fa_seed"), clocks=ClockSettings.from_dict(dict(FAST)))
        assert lobby.options.fresh_deal_each_round
        table = host.open_table(
            "fresh", journal_dir=str(tmp_path / "games"), lobby=lobby, autostart=True, fsync=False, hidden_hands=True
        )
        seat_bots(host, table, 3)
        try:
            await until(lambda: table.game is not None and table.game.is_over, 200)
            game = table.game
            assert game.hidden.ledger.epoch == 3  # four decks, each shuffled by every seat
            # a later round's shuffle event carries the public view too: still within what a
            # client may give back to a host after a power loss (docs/protocol.md)
            biggest = max(len(pack({**e.frame_for(None), "priv": None})) for e in game.log)
            assert biggest <= MAX_TAIL_EVENT, biggest
            await until(lambda: table.record_path is not None, 30)
            report = audit_files(table.record_path)
            assert report.ok, report.problems
            assert report.facts["hidden_hands"] is True
        finally:
            await host.close()

    run(main(), 260)


def test_a_host_killed_in_a_later_rounds_deck_resumes_and_the_game_ends_and_audits(tmp_path: Path) -> None:
    """A crash (the journal as a kill -9 leaves it) while round 2's new deck is being
    shuffled, and again later in round 2: the resumed host rebuilds every deck from its
    event log, the game goes on to the end and the audit passes."""
    from modernart.net.host.table import Table
    from modernart.net.trust.group import scalar_bytes

    from tests.net.trust.test_hidden_host import HiddenDriver, deck, keyed_and_shuffled
    from tests.net_helpers import SessionDriver

    keys = [Keys.generate() for _ in range(3)]
    lobby = Lobby(FRESH, ClockSettings(open_countdown=0, decision=0))
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
    while sess.state.round < 1:  # round 1 ends: round 2's deck waits for its shuffles
        play.step(share=False)
        if sess.hidden.ledger.waiting:
            break
        play.share()
    ledger = sess.hidden.ledger
    assert ledger.epoch == 1 and ledger.waiting and not ledger.shuffled
    deck(sess, keys, 0, shuffle=decks[0].shuffle(ledger)[0].to_wire())  # one seat has shuffled it
    for crash in range(2):
        steps = [step_to_wire(s) for s in sess.hidden.ledger.steps]
        view = public_view(sess.state)
        sess.journal.close()
        table = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
        sess = table.game
        assert [step_to_wire(s) for s in sess.hidden.ledger.steps] == steps and public_view(sess.state) == view
        play.sess = driver.sess = sess
        play.share()
        for _ in range(10):
            play.step()
    play.finish()
    assert sess.hidden.ledger.epoch == 3
    for s, d in enumerate(decks):
        assert sess.hidden.secrets[s] is not None or deck(sess, keys, s, secret=scalar_bytes(d.secret))
    record = table.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems
