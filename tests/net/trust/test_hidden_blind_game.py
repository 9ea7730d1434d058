"""A host that does not see hands (net/trust/blind_game.py) runs the real game: whole games
played through the hidden deck give, after every move, the public view, hand sizes and
result of the same game run with the real deck; card plays whose proof fails, or that the
rules refuse, change nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from modernart.bots import make_bot
from modernart.errors import IllegalMove, NotYourTurn
from modernart.game import GameState
from modernart.moves import CARD_ACTIONS, Move
from modernart.phase import Phase
from modernart.rules import RuleOptions

from modernart.net.trust.blind_game import BlindGame
from modernart.net.protocol.game_data import public_view
from modernart.net.trust.deck import card_lookup, decrypt
from modernart.net.trust.group import L, mul
from modernart.net.trust.deck import DeckError
from modernart.net.trust.hidden_deck import DeckLedger, DeckStepError, SeatDeck, step_from_wire, step_to_wire

GAME = bytes(range(16))


def start(n: int, first: int = 0) -> tuple[BlindGame, list[SeatDeck], GameState]:
    """A shuffled hidden deck, the blind game on it with round 1's shares in, and the
    reference game on the real deck (read with every secret: only a test can)."""
    options = RuleOptions()
    size = options.deck_table.size
    ledger = DeckLedger(GAME, n, size)
    seats = [SeatDeck(GAME, s, size) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    blind = BlindGame(ledger, options, first)
    share_all(ledger, seats)
    x = sum(s.secret for s in seats) % L
    lookup = card_lookup(GAME, size)
    order = [lookup[decrypt(c, [mul(x, c.c1)])] for c in ledger.deck]
    return blind, seats, GameState(n, options, deck_order=order, first_auctioneer=first)


def share_all(ledger: DeckLedger, seats: list[SeatDeck]) -> None:
    for seat in seats:
        for share in seat.shares(ledger):
            ledger.add_share(share)


def snapshot(blind: BlindGame) -> tuple[object, ...]:
    state = blind.state
    return (
        public_view(state),
        [list(h) for h in state.hands],
        list(state.stock),
        dict(blind.stand_in),
        dict(blind.ledger.opened),
    )


def try_a_wrong_second_card(blind: BlindGame, seats: list[SeatDeck], ref: GameState) -> bool:
    """At a Double's offer, a card of the wrong artist from the seat's real hand is refused
    by the rules after its opening, and changes nothing."""
    seat = ref.turn
    double = ref.lot[0]
    wrong = [c for c in ref.hands[seat] if c.artist != double.artist]
    if not wrong:
        return False
    before = snapshot(blind)
    move = Move.of(seat, Move.add_second(seat, wrong[0]).action, int(wrong[0]))
    with pytest.raises(IllegalMove):
        blind.play(move, seats[seat].opening(blind.ledger, int(wrong[0])))
    assert snapshot(blind) == before
    return True


@pytest.mark.parametrize("n", [3, 5])
def test_a_whole_game_run_blind_is_the_real_game(n: int) -> None:
    blind, seats, ref = start(n, first=1)
    # the host's engine holds stand-ins: seat s holds the slot ids dealt to it, not its cards
    assert [sorted(int(c) for c in h) for h in blind.state.hands] == [blind.ledger.slots_of(s) for s in range(n)]
    bot = make_bot("random", seed=n)
    moves = 0
    while not ref.is_over():
        seat = ref.to_move()[0]
        for s in seats:  # every seat reads exactly its own hand
            assert sorted(s.hand(blind.ledger).values()) == sorted(int(c) for c in ref.hands[s.seat])
        if ref.phase == Phase.DOUBLE_OFFER:
            try_a_wrong_second_card(blind, seats, ref)
        move = bot.choose(ref.observation(seat))
        assert move is not None
        if move.action in CARD_ACTIONS:
            assert blind.needs_owner() == ((seat,) if ref.phase == Phase.PLAY_CARD else ())
            assert blind.play(move, seats[seat].opening(blind.ledger, move.arg)) == move.arg
        else:
            blind.apply(move)
        ref.apply(move)
        moves += 1
        share_all(blind.ledger, seats)  # a new round's shares
        assert public_view(blind.state) == public_view(ref)
        assert blind.hand_sizes == [len(h) for h in ref.hands]
    assert blind.state.is_over()
    assert blind.state.money == ref.money and blind.state.winners() == ref.winners()
    sizes = RuleOptions().deal_sizes(n)
    assert blind.ledger.deals == [(k,) * n for k in sizes] and moves > 50


def test_a_card_play_whose_proof_fails_changes_nothing() -> None:
    blind, seats, ref = start(3, first=0)
    card = int(ref.hands[0][0])
    opening = seats[0].opening(blind.ledger, card)
    before = snapshot(blind)
    other = int(ref.hands[0][1])
    with pytest.raises(DeckStepError) as exc:
        blind.play(Move.play(0, other), opening)  # the opening is of another card
    assert exc.value.code == "wrong_card"
    with pytest.raises(DeckStepError) as exc:
        blind.play(Move.play(0, card), replace(opening, e=1, z=2))
    assert exc.value.code == "bad_opening"
    with pytest.raises(NotYourTurn):
        blind.play(Move.play(1, int(ref.hands[1][0])), seats[1].opening(blind.ledger, int(ref.hands[1][0])))
    with pytest.raises(DeckStepError) as exc:
        blind.apply(Move.play(0, card))  # a card always comes with its opening
    assert exc.value.code == "needs_opening"
    assert snapshot(blind) == before
    assert blind.play(Move.play(0, card), opening) == card
    assert blind.state.lot == [card] and card in blind.ledger.cards_opened
    with pytest.raises((DeckStepError, IllegalMove)):
        blind.play(Move.play(0, card), opening)  # played already


def test_the_blind_game_starts_only_on_a_shuffled_deck() -> None:
    ledger = DeckLedger(GAME, 3, 70)
    with pytest.raises(DeckStepError, match="not shuffled"):
        BlindGame(ledger, RuleOptions(), 0)


def test_the_hosts_memory_never_holds_what_opens_an_unplayed_card() -> None:
    """Everything the host holds (the blind game, its engine and the ledger, pickled) has no
    seat's secret key and, for every card not played, not the share of the seat it was
    dealt to, the one value nobody else has; and the host's engine holds stand-ins, whose
    ids in a seat's hand are its slot numbers, not its cards."""
    import pickle

    from modernart.net.trust.deck import own_share
    from modernart.net.trust.group import scalar_bytes

    blind, seats, ref = start(4, first=2)
    bot = make_bot("random", seed=3)
    for _ in range(25):  # some cards played, some auctions run
        seat = ref.to_move()[0]
        move = bot.choose(ref.observation(seat))
        assert move is not None
        if move.action in CARD_ACTIONS:
            blind.play(move, seats[seat].opening(blind.ledger, move.arg))
        else:
            blind.apply(move)
        ref.apply(move)
    memory = pickle.dumps(blind)
    for seat in seats:
        assert scalar_bytes(seat.secret) not in memory
        assert scalar_bytes(seat.secret)[::-1] not in memory
        for slot in blind.ledger.slots_of(seat.seat):
            assert own_share(seat.secret, blind.ledger.deck[slot]) not in memory
    for s in range(4):
        held = sorted(blind.stand_in[slot] for slot in blind.ledger.slots_of(s))
        assert sorted(int(c) for c in blind.state.hands[s]) == held


def test_a_host_resuming_from_its_journal_rebuilds_the_blind_game_and_plays_on() -> None:
    """What a host journals (the deck's steps, every move with its opening, the first
    auctioneer) rebuilds the same blind game, and the game goes on to the same end."""
    blind, seats, ref = start(3, first=1)
    bot = make_bot("random", seed=11)
    moves: list[tuple[Move, object]] = []

    def step() -> None:
        seat = ref.to_move()[0]
        move = bot.choose(ref.observation(seat))
        assert move is not None
        if move.action in CARD_ACTIONS:
            opening = seats[seat].opening(blind.ledger, move.arg)
            blind.play(move, opening)
            moves.append((move, opening))
        else:
            blind.apply(move)
            moves.append((move, None))
        ref.apply(move)
        share_all(blind.ledger, seats)

    while ref.round < 1 or len(moves) < 40:  # into round 2: a second deal and its shares
        step()
    wire = [step_to_wire(s) for s in blind.ledger.steps]
    steps = [step_from_wire(w, 70) for w in wire]
    assert steps == blind.ledger.steps
    again = BlindGame.replay(GAME, 3, RuleOptions(), 1, steps, moves)  # type: ignore[arg-type]
    assert snapshot(again) == snapshot(blind) and again.ledger.checking
    assert again.ledger.steps == blind.ledger.steps
    blind = again
    while not ref.is_over():
        step()
    assert blind.state.money == ref.money


def test_a_journal_whose_moves_do_not_give_its_deals_is_refused() -> None:
    blind, seats, ref = start(3, first=0)
    card = int(ref.hands[0][0])
    opening = seats[0].opening(blind.ledger, card)
    blind.play(Move.play(0, card), opening)
    steps = list(blind.ledger.steps)
    with pytest.raises(ValueError, match="do not follow"):
        BlindGame.replay(GAME, 3, RuleOptions(), 0, steps, [])


def test_a_deck_step_off_the_wire_is_checked_for_shape() -> None:
    with pytest.raises(DeckError, match="one of"):
        step_from_wire({"key": {}, "deal": []}, 70)
    with pytest.raises(DeckError, match="unknown deck step"):
        step_from_wire({"peek": 1}, 70)
    with pytest.raises(DeckError, match="card counts"):
        step_from_wire({"deal": [1, "2"]}, 70)
    with pytest.raises(DeckError, match="a card of the deck"):
        step_from_wire({"play": {"slot": 1, "card": 70, "share": {}}}, 70)
