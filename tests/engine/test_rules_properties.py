"""Property tests over random legal play (docs/rules.md §9)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from modernart.auctions import NO_BID
from modernart.bots.random_bot import random_step
from modernart.events import BANK, RoundEnded, Sale, SealedRevealed
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.views import observation, public_money

from tests.engine_setup import all_cards

options_strategy = st.builds(
    RuleOptions,
    double_split=st.booleans(),
    three_player_first_deal=st.sampled_from([10, 11]),
    open_pass_is_final=st.booleans(),
    sealed_offender_fine=st.sampled_from([0, 5]),
    deck=st.sampled_from(["consensus", "bgg239213"]),
)


def _policy_move(state: GameState, rng: random.Random) -> Move:
    """Random play that also uses full enumeration, hammers and sealed forfeits."""
    roll = rng.random()
    if state.phase == Phase.SEALED and roll < 0.05:
        seat = rng.choice(state.to_move())
        return Move.sealed_forfeit(seat)
    if roll < 0.3:
        return rng.choice(state.legal_moves())
    return random_step(state, rng.random)


def _play_checked(players: int, options: RuleOptions, seed: int, check_views: bool) -> GameState:
    rng = random.Random(seed)
    state = GameState(players, options, seed=seed, track_events=True)
    deck = sorted(state.deck)
    start_total = options.start_money * players
    played_this_round = 0
    for _ in range(10_000):
        if state.is_over():
            break
        move = _policy_move(state, rng)
        round_before = state.round
        if move.action in (Action.PLAY, Action.ADD_SECOND):
            played_this_round += 1
        state.apply(move)
        # every card is somewhere, exactly once
        assert sorted(all_cards(state)) == deck
        assert min(state.money) >= 0
        assert all(c <= 5 for c in state.counts)
        # money: the bank's flows explain every change of the total
        bank = sum(r.result.payouts[s] for r in state.events if isinstance(r, RoundEnded) for s in range(players))
        bank -= sum(p[2] for e in state.events if isinstance(e, Sale) for p in e.payments if p[1] == BANK)
        bank -= sum(f for e in state.events if isinstance(e, SealedRevealed) for f in e.fines)
        assert sum(state.money) - start_total == bank
        if state.round != round_before or state.is_over():
            assert played_this_round <= 21
            played_this_round = 0
        if check_views:
            _check_views(state)
    assert state.is_over(), "the game must end"
    for result in state.results:
        placed = sorted(t for t in result.tiles if t)
        assert placed in ([10, 20, 30], [20, 30], [30], []) and len(result.ranking) == len(placed)
        for artist in range(5):
            if artist not in result.ranking:
                assert result.values[artist] == 0
        if result.ended_by == "fifth":
            ending_artist = result.ending_cards[-1].artist
            assert result.counts[ending_artist] == 5 and result.ranking[0] == ending_artist
            assert sorted(result.counts)[-2] <= 4
        else:
            assert result.round == 3, "all hands can only run out in round 4 with the standard deals"
    return state


def _check_views(state: GameState) -> None:
    for seat in range(state.n):
        obs = observation(state, seat)
        assert obs.hand == tuple(state.hands[seat]) and obs.money == state.money[seat]
        assert public_money(obs) == tuple(state.money)
        legal = [m for m in state.legal_moves(seat)]
        assert obs.legal_moves() == legal
        if state.phase == Phase.SEALED:
            assert set(obs.sealed_done) == {s for s in range(state.n) if state.sealed[s] != NO_BID}


@settings(max_examples=120, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_every_invariant(players, options, seed):
    _play_checked(players, options, seed, check_views=False)


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
def test_observations_agree_with_the_state_throughout_a_game(players, seed):
    _play_checked(players, RuleOptions(), seed, check_views=True)


def test_random_moves_are_always_among_the_legal_moves():
    rng = random.Random(11)
    for game in range(40):
        state = GameState(3 + game % 3, seed=game)
        while not state.is_over():
            move = random_step(state, rng.random)
            assert move in state.legal_moves(move.seat)
            state.apply(move)


def test_every_enumerated_legal_move_is_accepted():
    rng = random.Random(12)
    for game in range(15):
        state = GameState(4, seed=game)
        while not state.is_over():
            for move in rng.sample(state.legal_moves(), min(4, len(state.legal_moves()))):
                assert state.is_legal(move), move
            state.apply(random_step(state, rng.random))
