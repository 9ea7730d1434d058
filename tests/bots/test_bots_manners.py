"""Real-time manners in an Open auction: a bot that wants the painting jumps towards its
price (a few bids, not a creep by 1-2), takes time to think (more near its limit), waits
while it holds the high bid, and stops at its limit."""

from __future__ import annotations

import math

import pytest

from modernart.bots import make_bot
from modernart.bots import pricing
from modernart.bots.medium import Situation
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.rules import RuleOptions
from tests.engine.test_determinize import random_positions


def open_auctions(min_value: float, count: int) -> list[tuple[GameState, int, int]]:
    """Fresh Open auctions (no bid yet) whose lot is worth at least `min_value` to a
    bidder: (state, bidder, rival)."""
    found = []
    for seed in range(200):
        for state in random_positions(4, RuleOptions(), seed=seed):
            if state.phase == Phase.OPEN and not state.bids:
                bidder = (state.auctioneer + 1) % 4
                rival = (state.auctioneer + 2) % 4
                value = Situation(state.observation(bidder)).lot_value()
                if value >= min_value and state.money[bidder] >= value and state.money[rival] > 2 * value:
                    found.append((state.clone(), bidder, rival))
                    break
        if len(found) >= count:
            return found
    pytest.fail("no suitable Open auctions found")


def duel(
    state: GameState, level: str, bidder: int, rival: int, **options
) -> tuple[list[tuple[int, int, float]], Move | None, int]:
    """A rival outbids the bot by 1 every time; returns the bot's bids as (high before,
    amount, pace), its final answer, and its limit."""
    bot = make_bot(level, seed=5, **options)
    bids = []
    while True:
        obs = state.observation(bidder)
        move = bot.choose(obs)
        if move is None or move.action != Action.BID:
            return bids, move, bot._limit
        bids.append((state.high, move.arg, bot.pace(obs, move)))
        state.apply(move)
        assert bot.choose(state.observation(bidder)) is None  # holding the high bid: nothing to do
        state.apply(Move.bid(rival, state.high + 1))


@pytest.mark.parametrize("level,options", [("medium", {}), ("hard", {"max_passes": 4})])
def test_open_auction_jumps_towards_the_limit_and_stops_there(level: str, options: dict) -> None:
    for state, bidder, rival in open_auctions(min_value=20, count=4):
        value = Situation(state.observation(bidder)).lot_value()
        bids, last, limit = duel(state, level, bidder, rival, **options)
        if level == "medium":
            assert limit == min(state.money[bidder], int(pricing.BIDDER_LIMIT * value))
        if limit < 3:
            continue
        assert bids, "a bot with a limit opens the bidding"
        first_high, first, _ = bids[0]
        assert first_high == 0 and 1 <= first < limit  # opens below its limit, not at it
        assert first >= 0.3 * limit  # but near enough to it to mean it
        for high, amount, _ in bids[1:]:
            assert high < amount <= limit  # raises, never above its limit
            assert amount - high >= min(pricing.open_step(high), limit - high)  # at least a step
            step = pricing.open_step(high)
            assert amount - high <= max(step, round(pricing.OPEN_JUMP * (limit - high)))  # a quarter of the way
        # jumps: against a rival that outbids it by 1 it reaches its limit in a few bids (each
        # jump closes a quarter of the gap)
        assert len(bids) <= 3 + math.ceil(math.log(max(2, limit)) / math.log(4 / 3)), bids
        assert bids[-1][1] <= limit < bids[-1][1] + 2  # the rival's +1 took it to the limit
        assert last is not None and last.action == Action.PASS  # and there it stops
        paces = [p for _, _, p in bids]
        assert all(0.4 <= p <= 2.0 for p in paces)  # never instant, never long
        if len(paces) >= 4:  # slower near the limit than at the start
            assert sum(paces[-2:]) > sum(paces[:2])


def test_open_auction_creeps_by_steps_with_jumps_off() -> None:
    """jumps=False keeps the old manners (for the arena's before/after comparison)."""
    for state, bidder, rival in open_auctions(min_value=20, count=2):
        bids, last, limit = duel(state, "medium", bidder, rival, jumps=False)
        assert bids and bids[0][1] == max(1, min(limit, round(limit * pricing.CREEP_OPENING)))
        for high, amount, _ in bids[1:]:
            assert amount == min(limit, high + pricing.open_step(high))
        assert last is not None and last.action == Action.PASS


def test_pace_is_never_instant_in_any_phase() -> None:
    bot = make_bot("medium", seed=1)
    seen = set()
    for state in random_positions(4, RuleOptions(), seed=2):
        if state.is_over():
            break
        for seat in state.to_move():
            obs = state.observation(seat)
            move = bot.choose(obs)
            if move is not None:  # an Open bid answers an outbid at once: 0.4 s at least
                assert bot.pace(obs, move) >= (0.4 if obs.phase == Phase.OPEN else 0.5)
                seen.add(state.phase)
    assert len(seen) == 7  # every phase but the end
