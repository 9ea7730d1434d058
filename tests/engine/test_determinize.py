"""determinize(): a full state consistent with one seat's observation."""

from __future__ import annotations

import random
from typing import Iterator

import pytest

from modernart.auctions import NO_BID
from modernart.bots.random_bot import random_step
from modernart.determinize import determinize, unseen_cards
from modernart.game import GameState
from modernart.moves import Move
from modernart.phase import Phase
from modernart.rules import RuleOptions

OPTION_SETS = [
    RuleOptions(),
    RuleOptions(double_split=True),
    RuleOptions(open_pass_is_final=True),
    RuleOptions(three_player_first_deal=11),
    RuleOptions(deck="bgg239213", edition="cmon2017"),
    RuleOptions(sealed_offender_fine=5),
    RuleOptions(start_money=30),
]


def random_positions(players: int, options: RuleOptions, seed: int, forfeit: float = 0.05) -> Iterator[GameState]:
    """Every position of a random game (the same state object, advanced in place).

    Now and then a sealed bid is forfeited instead, so that offenders' fines appear.
    """
    rng = random.Random(seed)
    state = GameState(players, options, seed=rng.getrandbits(32))
    while not state.is_over():
        yield state
        if state.phase == Phase.SEALED and rng.random() < forfeit:
            state.apply(Move.sealed_forfeit(state.to_move()[0]))
        else:
            state.apply(random_step(state, rng.random))
    yield state


def hidden_swap(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of `state` that differs only in what `seat` cannot see: the other hands and
    the stock reshuffled among themselves (sizes kept), other seats' sealed bids redrawn."""
    other = state.clone()
    pool = [c for s in range(state.n) if s != seat for c in state.hands[s]] + state.stock
    rng.shuffle(pool)
    at = 0
    for s in range(state.n):
        if s != seat:
            size = len(state.hands[s])
            other.hands[s] = pool[at : at + size]
            at += size
    other.stock = pool[at:]
    if state.phase == Phase.SEALED:
        for s in range(state.n):
            if s != seat and state.sealed[s] >= 0:
                other.sealed[s] = rng.randint(0, state.money[s])
    return other


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.changed().items()) or "default"
)
def test_sampled_state_shows_the_same_observation(players: int, options: RuleOptions) -> None:
    rng = random.Random(players * 100 + len(options.changed()))
    phases = set()
    checked = 0
    for game in range(3):
        for state in random_positions(players, options, seed=rng.getrandbits(32)):
            if state.is_over():
                with pytest.raises(ValueError):
                    determinize(state.observation(0), rng)
                continue
            seat = rng.randrange(players)
            obs = state.observation(seat)
            sample = determinize(obs, rng)
            for slot in GameState.FIELDS:  # every field of the engine's state is set
                getattr(sample, slot)
            assert sample.observation(seat) == obs
            assert sample.hands[seat] == state.hands[seat]
            assert sample.money == state.money  # rebuilt from public payments alone
            phases.add(state.phase)
            checked += 1
    assert checked > 100
    assert {Phase.PLAY_CARD, Phase.OPEN, Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET, Phase.FIXED_OFFER} <= phases


def test_unseen_cards_are_exactly_the_other_hands_and_the_stock() -> None:
    rng = random.Random(5)
    for state in random_positions(4, RuleOptions(), seed=11):
        if state.is_over():
            break
        seat = rng.randrange(4)
        hidden = [c for s in range(4) if s != seat for c in state.hands[s]] + state.stock
        assert sorted(unseen_cards(state.observation(seat))) == sorted(hidden)


def test_samples_vary_only_in_hidden_cards_and_play_on_to_the_end() -> None:
    rng = random.Random(7)
    positions = [s.clone() for i, s in enumerate(random_positions(4, RuleOptions(), seed=3)) if i % 17 == 5]
    assert positions
    for state in positions:
        if state.is_over():
            continue
        obs = state.observation(1)
        samples = [determinize(obs, rng) for _ in range(6)]
        hidden = {tuple(tuple(h) for h in s.hands) + (tuple(s.stock),) for s in samples}
        if len(unseen_cards(obs)) > 1:
            assert len(hidden) > 1  # the hidden part is really sampled
        for sample in samples:
            play = random.Random(rng.getrandbits(32))
            while not sample.is_over():  # a sampled state is a full, legal game
                sample.apply(random_step(sample, play.random))
            assert sample.round == 3


def test_sealed_bids_already_made_are_guessed_and_own_bid_is_kept() -> None:
    rng = random.Random(9)
    for state in random_positions(4, RuleOptions(), seed=21):
        if state.phase == Phase.SEALED and 2 <= sum(b != NO_BID for b in state.sealed) < 4:
            break
    else:
        pytest.fail("no sealed auction with some bids made")
    done = [s for s in range(4) if state.sealed[s] != NO_BID]
    seat = done[0]
    obs = state.observation(seat)
    sample = determinize(obs, rng, own_sealed=state.sealed[seat], sealed_guess=lambda st, s: 10_000)
    assert sample.sealed[seat] == state.sealed[seat]
    for s in done[1:]:
        assert sample.sealed[s] == sample.money[s]  # the guess, capped at the bidder's money
    assert sample.nsealed == len(done)
    assert sample.observation(seat) == obs


def test_inconsistent_observation_is_rejected() -> None:
    state = GameState(4, seed=1)
    obs = state.observation(0)
    from dataclasses import replace

    with pytest.raises(ValueError, match="inconsistent"):
        determinize(replace(obs, stock_size=obs.stock_size + 1), random.Random(1))


def test_hidden_swap_keeps_the_observation() -> None:
    """The helper the observation-only bot tests rely on."""
    rng = random.Random(13)
    changed = 0
    for state in random_positions(5, RuleOptions(), seed=8):
        if state.is_over():
            break
        seat = rng.randrange(5)
        other = hidden_swap(state, seat, rng)
        assert other.observation(seat) == state.observation(seat)
        changed += other.hands != state.hands
    assert changed > 10
