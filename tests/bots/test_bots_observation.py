"""Bots decide from the observation alone: two states that differ only in what the seat
may not see (other hands, the stock, sealed bids not yet revealed) give the same decision
with the same seed."""

from __future__ import annotations

import random

import pytest

from modernart.bots import make_bot
from modernart.bots.opponents import Rivals
from modernart.bots.styled import STYLED
from modernart.rules import RuleOptions
from tests.engine.test_determinize import hidden_swap, random_positions

LEVELS = {
    "random": {},
    "medium": {},
    # a fixed number of samples (and a budget it never reaches) makes the search repeatable
    "hard": {"budget": 30.0, "max_passes": 3},
    # the styled arena opponents (`styled.py`)
    **{level: {} for level in STYLED},
}


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_hidden_information_does_not_change_the_decision(level: str, players: int) -> None:
    rng = random.Random(players * 31)
    every = 1 if level != "hard" else 5
    compared = differing = 0
    decisions = set()
    for i, state in enumerate(random_positions(players, RuleOptions(), seed=rng.getrandbits(32))):
        if state.is_over() or i % every:
            continue
        for seat in state.to_move():
            other = hidden_swap(state, seat, rng)
            obs_a, obs_b = state.observation(seat), other.observation(seat)
            assert obs_a == obs_b
            differing += other.hands != state.hands or other.sealed != state.sealed
            a = make_bot(level, seed=i, **LEVELS[level]).choose(obs_a)
            b = make_bot(level, seed=i, **LEVELS[level]).choose(obs_b)
            assert a == b, f"{level} decided {a!r} and {b!r} from the same observation"
            decisions.add(a)
            compared += 1
    assert compared > 30
    assert differing > compared // 2  # the hidden parts really differed
    assert len(decisions) > 5  # and the decisions are not all alike


def test_the_opponent_model_reads_the_observation_only() -> None:
    """The rivals' factors are the same whatever the hidden parts hold, and they do change
    with what the seat sees (the sales): the model really reads them."""
    rng = random.Random(8)
    seen = set()
    compared = 0
    for i, state in enumerate(random_positions(4, RuleOptions(), seed=23)):
        if state.is_over() or i % 4:
            continue
        seat = state.to_move()[0]
        other = hidden_swap(state, seat, rng)
        a, b = Rivals.read(state.observation(seat)), Rivals.read(other.observation(seat))
        assert a == b
        assert a.bid[seat] == 1.0 and a.price[seat] == 1.0  # its own seat is not modelled
        seen.add(a.bid)
        compared += 1
    assert compared > 20 and len(seen) > 5


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_what_the_seat_sees_does_change_the_decision(level: str) -> None:
    """The counterpart: the same position with a different own hand is decided differently
    at least sometimes, so the test above is not passed by a bot ignoring its input."""
    random.Random(2)
    changed = compared = 0
    for i, state in enumerate(random_positions(4, RuleOptions(), seed=17)):
        if state.is_over() or state.phase.name != "PLAY_CARD" or len(state.hands[state.auctioneer]) < 3:
            continue
        seat = state.auctioneer
        other = state.clone()
        nxt = (seat + 1) % 4
        other.hands[seat], other.hands[nxt] = state.hands[nxt][:], state.hands[seat][:]
        if not other.hands[seat]:
            continue
        a = make_bot(level, seed=i, **LEVELS[level]).choose(state.observation(seat))
        b = make_bot(level, seed=i, **LEVELS[level]).choose(other.observation(seat))
        changed += a != b
        compared += 1
        if compared >= 12:
            break
    assert compared >= 6 and changed >= compared // 2


def test_medium_reading_its_rivals_decides_from_the_observation_only() -> None:
    """`read_rivals` (sealed bids shaded to the rivals' factors): same decision whatever the
    hidden parts hold, and a legal one."""
    rng = random.Random(12)
    compared = 0
    for i, state in enumerate(random_positions(4, RuleOptions(), seed=29)):
        if state.is_over():
            continue
        for seat in state.to_move():
            other = hidden_swap(state, seat, rng)
            a = make_bot("medium", seed=i, read_rivals=True).choose(state.observation(seat))
            b = make_bot("medium", seed=i, read_rivals=True).choose(other.observation(seat))
            assert a == b
            assert a is None or state.is_legal(a)
            compared += 1
    assert compared > 30


def _final_observation(bots: list, seed: int, seat: int = 0):
    from modernart.bots.arena import play_game

    last = {}

    def keep_state(state, move) -> None:
        last["state"] = state

    play_game(bots, seed=seed, on_move=keep_state)
    return last["state"].observation(seat)


def test_the_opponent_model_tells_the_styles_apart() -> None:
    """Read from the public sales of a game against styled bots: an overbidder's bid factor
    is above 1 and an underbidder's below, a highseller's keep and price factors (its own
    lots) above its bid factor, an early closer's early share above 0 and the medium bot's 0;
    the own seat is never modelled."""
    seats = ["medium", "overbidder", "underbidder", "highseller"]
    rivals = Rivals.read(_final_observation([make_bot(s, seed=i) for i, s in enumerate(seats)], seed=6))
    assert rivals.bid[0] == rivals.keep[0] == rivals.price[0] == 1.0 and rivals.early[0] == 0.0
    assert rivals.bid[1] > 1.1 and rivals.bid[2] < 0.85
    assert rivals.keep[3] > rivals.bid[3] and rivals.price[3] > 1.0
    seats = ["medium", "earlycloser", "medium", "earlycloser"]
    rivals = Rivals.read(_final_observation([make_bot(s, seed=i) for i, s in enumerate(seats)], seed=10))
    assert rivals.early[1] > 0.15 and rivals.early[3] > 0.15 and rivals.early[2] == 0.0


def test_the_hard_bot_opens_low_only_against_an_early_closer() -> None:
    """Against an auctioneer seen to hammer at the first bid the hard bot opens with the least
    bid (that bid may take the lot); against one that never did, and without the opponent
    model, it opens like the medium bot (at about a third of its limit)."""
    from modernart.bots.arena import play_game
    from modernart.bots.hard import EARLY_SHARE
    from modernart.phase import Phase

    for pool in ("earlycloser", "medium"):
        openings = []

        def watch(state, move) -> None:
            if state.phase == Phase.OPEN and state.high_seat < 0 and state.auctioneer != 0 and 0 in state.to_move():
                openings.append(state.clone())

        play_game([make_bot("medium", seed=0)] + [make_bot(pool, seed=s) for s in (1, 2, 3)], seed=21, on_move=watch)
        low = normal = 0
        for state in openings:
            obs = state.observation(0)
            early = Rivals.read(obs).early[obs.auctioneer]
            hard = make_bot("hard", seed=1, budget=30.0, max_passes=3)
            move = hard.choose(obs)
            if move is None or move.action.name != "BID":
                continue
            plain = make_bot("hard", seed=1, budget=30.0, max_passes=3, rivals=False).choose(obs)
            if early >= EARLY_SHARE:
                assert move.arg == 1, (early, move)
                low += 1
            else:
                assert plain is None or plain.action.name != "BID" or plain.arg >= 1
                normal += move.arg > 1
        if pool == "earlycloser":
            assert low >= 2
        else:
            assert low == 0 and normal >= 2
