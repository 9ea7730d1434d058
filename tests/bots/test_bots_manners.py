"""Real-time manners in an Open auction: a bot raises in sensible steps, takes time to
think (more near its limit), waits while it holds the high bid, and stops at its limit."""

from __future__ import annotations

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


@pytest.mark.parametrize("level,options", [("medium", {}), ("hard", {"budget": 0.3})])
def test_open_auction_raises_in_steps_and_stops_at_the_limit(level: str, options: dict) -> None:
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
        for high, amount, _ in bids[1:]:
            assert high < amount <= high + 5  # then raises in small steps
            assert amount <= limit  # never above its limit
        assert bids[-1][1] <= limit < bids[-1][1] + 2  # the rival's +1 took it to the limit
        assert last is not None and last.action == Action.PASS  # and there it stops
        paces = [p for _, _, p in bids]
        assert all(0.5 <= p <= 5.0 for p in paces)  # never instant, never asleep
        if len(paces) >= 6:  # slower near the limit than at the start
            assert sum(paces[-3:]) > sum(paces[:3])


def test_pace_is_never_instant_in_any_phase() -> None:
    bot = make_bot("medium", seed=1)
    seen = set()
    for state in random_positions(4, RuleOptions(), seed=2):
        if state.is_over():
            break
        for seat in state.to_move():
            obs = state.observation(seat)
            move = bot.choose(obs)
            if move is not None:
                assert bot.pace(obs, move) >= 0.5
                seen.add(state.phase)
    assert len(seen) == 7  # every phase but the end
