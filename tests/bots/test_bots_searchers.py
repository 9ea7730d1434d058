"""Searching rivals (`bots/searchers.py`): the hard bot's rollouts play the other hard seats
by the policy fitted to hard's own decisions, the arena says which seats search, and the
fit itself reads hard's amounts against medium's."""

from __future__ import annotations

import random

import pytest

from modernart.bots import make_bot, searcher_fit, searchers
from modernart.bots.hard import HardBot
from modernart.bots.rollout import RolloutPolicy
from modernart.phase import Phase
from modernart.rules import RuleOptions
from tests.engine.test_determinize import random_positions


def open_auction(seed: int = 0):
    for s in range(seed, seed + 100):
        for state in random_positions(4, RuleOptions(), seed=s):
            if state.phase == Phase.OPEN and not state.bids and state.round == 0:
                return state.clone()
    raise AssertionError("no Open auction")


def test_a_searching_seat_bids_by_the_fitted_ratios(monkeypatch: pytest.MonkeyPatch) -> None:
    state = open_auction()
    bidder = (state.auctioneer + 1) % 4
    value = RolloutPolicy(random.Random(0)).lot_value(state)
    plain = RolloutPolicy(random.Random(5)).limit(state, bidder, value)
    monkeypatch.setitem(searchers.RATIOS, searchers.BID, (2.0,) * 20)
    searching = RolloutPolicy(random.Random(5), searching=frozenset({bidder})).limit(state, bidder, value)
    other = RolloutPolicy(random.Random(5), searching=frozenset({bidder})).limit(state, (bidder + 1) % 4, value)
    assert plain > 0
    assert searching == min(state.money[bidder], int(2.0 * plain)) or abs(searching - 2 * plain) <= 2
    assert other == RolloutPolicy(random.Random(5)).limit(state, (bidder + 1) % 4, value)  # only that seat
    monkeypatch.setitem(searchers.RATIOS, searchers.BID, (0.0,) * 20)
    assert RolloutPolicy(random.Random(5), searching=frozenset({bidder})).limit(state, bidder, value) == 0


def test_the_fitted_ratios_are_a_distribution_of_hards_amounts() -> None:
    for role in searchers.ROLES:
        table = searchers.RATIOS[role]
        assert len(table) == 20 and list(table) == sorted(table)
        assert table[0] <= 1.0 <= table[-1]
    for role in (searchers.BID, searchers.KEEP):
        assert searchers.RATIOS[role][10] == 1.0  # bids: mostly medium's own amount
    assert max(searchers.RATIOS[searchers.BID]) > 1.1  # and sometimes well above it
    rng = random.Random(1)
    draws = [searchers.draw(searchers.BID, rng) for _ in range(2000)]
    assert set(draws) <= set(searchers.RATIOS[searchers.BID])


def test_fit_reads_hards_amounts_against_mediums() -> None:
    found = searcher_fit.fit(1, seed=3, players=3, max_passes=3)
    assert found[searchers.BID], found
    assert all(r >= 0 for values in found.values() for r in values)
    assert searchers.quantiles(found[searchers.BID]) == tuple(sorted(searchers.quantiles(found[searchers.BID])))


def test_the_arena_tells_a_hard_bot_which_seats_search() -> None:
    from modernart.cli.cmd_arena import build_bot

    seating = ("hard", "medium", "hard:rivals=off", "random")
    bot = build_bot("hard", 7, {}, seating)
    assert isinstance(bot, HardBot) and bot.searching == frozenset({0, 2})
    assert not isinstance(build_bot("medium", 7, {}, seating), HardBot)


def test_the_model_changes_decisions_and_is_off_when_asked() -> None:
    """With other hard seats known, some decisions change; with searchers=off, none does."""
    changed = 0
    asked = 0
    for i, state in enumerate(random_positions(4, RuleOptions(), seed=11)):
        if state.is_over() or asked >= 40:
            break
        if state.phase not in (Phase.OPEN, Phase.SEALED, Phase.FIXED_SET, Phase.ONCE_AROUND):
            continue
        seat = state.to_move()[0]
        obs = state.observation(seat)
        others = {s for s in range(4) if s != seat}
        base = make_bot("hard", seed=i, max_passes=4).choose(obs)
        off = make_bot("hard", seed=i, max_passes=4, searching=others, searchers=False).choose(obs)
        on = make_bot("hard", seed=i, max_passes=4, searching=others).choose(obs)
        assert off == base
        changed += on != base
        asked += 1
    assert asked >= 20 and changed >= 1, (asked, changed)
