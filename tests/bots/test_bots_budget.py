"""The hard bot never takes longer than its time budget and uses the time it has: a longer
budget buys more rollouts.  The budget's logic is checked on a clock injected into the bot
(the same on a busy machine as on an idle one); the CPU clock's own test checks only what
the bot's thread spent of its CPU time."""

from __future__ import annotations

import pytest

from modernart.bots import Bot, make_bot
from modernart.bots.arena import play_game
from modernart.rules import RuleOptions
from tests.engine.test_determinize import random_positions


class TickingClock:
    """A clock for the bot's budget that moves only when read: `tick` seconds a reading.  The
    bot's search reads its clock as it works, so the time a decision takes on it is a count
    of the work done, the same on a busy machine as on an idle one."""

    def __init__(self, tick: float = 1e-4) -> None:
        self.t, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.t += self.tick
        return self.t


class Timed(Bot):
    """Wraps a bot and records how long each decision took on `clock`."""

    def __init__(self, inner: Bot, clock: TickingClock) -> None:
        super().__init__(0)
        self.inner, self.clock = inner, clock
        self.level = inner.level
        self.took: list[float] = []

    def choose(self, obs):
        start = self.clock.t
        move = self.inner.choose(obs)
        self.took.append(self.clock.t - start)
        return move


@pytest.mark.timeout(300)
def test_every_decision_of_a_game_stays_within_the_budget() -> None:
    """On the bot's own injected clock: every decision of a game stops within the budget (a
    tick of slack: the last reading), and a search uses the time it has."""
    budget, clock = 0.05, TickingClock()
    hard = Timed(make_bot("hard", seed=1, budget=budget, max_passes=None, clock=clock), clock)
    play_game([hard] + [make_bot("medium", seed=s) for s in range(3)], seed=12)
    assert len(hard.took) > 30
    assert max(hard.took) <= budget + clock.tick, sorted(hard.took)[-5:]
    assert sum(t > budget / 2 for t in hard.took) > 10  # and it does use its time when it searches


def test_a_longer_budget_buys_more_rollouts() -> None:
    state = next(s for s in random_positions(4, RuleOptions(), seed=6) if s.phase.name == "SEALED")
    # a bidder, not the auctioneer: its spread of sealed bids is wide enough that the search
    # does not settle on one before the longer budget is out
    obs = state.observation(next(s for s in state.to_move() if s != state.auctioneer))
    counts = []
    for budget in (0.02, 0.2):
        bot = make_bot("hard", seed=3, budget=budget, max_passes=None, clock=TickingClock())
        bot.choose(obs)
        counts.append(bot.last_rollouts)
    assert counts[1] > 3 * max(1, counts[0])


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        make_bot("hard", budget=0)


def test_a_cpu_clock_budget_counts_the_threads_cpu_time_under_contention() -> None:
    """clock="cpu": the budget is the deciding thread's CPU time, so a thread competing for
    the interpreter (a busy machine, in small) does not shorten the search; it stays within
    the budget of CPU time all the same."""
    import threading

    state = next(s for s in random_positions(4, RuleOptions(), seed=6) if s.phase.name == "SEALED")
    obs = state.observation(state.to_move()[0])
    budget = 0.1
    stop = threading.Event()

    def busy() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    rival = threading.Thread(target=busy, daemon=True)
    rival.start()
    try:
        bot = make_bot("hard", seed=3, budget=budget, max_passes=None, clock="cpu")
        bot.choose(obs)
    finally:
        stop.set()
        rival.join(5)
    assert bot.last_rollouts > 0
    assert 0.5 * budget < bot.last_search_cpu < budget + 0.005, bot.last_search_cpu


def test_the_clock_must_be_known() -> None:
    with pytest.raises(ValueError, match="clock is one of wall, cpu"):
        make_bot("hard", clock="sundial")
