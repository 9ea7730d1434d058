"""The hard bot never takes longer than its time budget (with slack for a shared machine),
and uses the time it has: a longer budget buys more rollouts."""

from __future__ import annotations

import pytest

from modernart.bots import make_bot
from modernart.bots.arena import play_game
from modernart.rules import RuleOptions
from tests.test_determinize import random_positions

SLACK = 0.03  # seconds: scheduling noise on a busy 2-core machine, not search time


@pytest.mark.timeout(300)
def test_every_decision_of_a_game_stays_within_the_budget() -> None:
    budget = 0.05
    bots = [make_bot("hard", seed=1, budget=budget)] + [make_bot("medium", seed=s) for s in range(3)]
    outcome = play_game(bots, seed=12)
    times = outcome.times[0]
    assert len(times) > 30
    assert max(times) < budget + SLACK, f"slowest decision {max(times):.3f} s"


def test_a_longer_budget_buys_more_rollouts() -> None:
    state = next(s for s in random_positions(4, RuleOptions(), seed=6) if s.phase.name == "SEALED")
    obs = state.observation(state.to_move()[0])
    counts = []
    for budget in (0.02, 0.2):
        bot = make_bot("hard", seed=3, budget=budget)
        bot.choose(obs)
        counts.append(bot.last_rollouts)
    assert counts[1] > 3 * max(1, counts[0])


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        make_bot("hard", budget=0)
