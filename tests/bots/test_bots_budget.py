"""The hard bot never takes longer than its time budget (with slack for a shared machine),
and uses the time it has: a longer budget buys more rollouts."""

from __future__ import annotations

import time

import pytest

from modernart.bots import Bot, make_bot
from modernart.bots.arena import play_game
from modernart.rules import RuleOptions
from tests.engine.test_determinize import random_positions


class Timed(Bot):
    """Wraps a bot and records the wall-clock and CPU time of each decision (the CPU time of
    the deciding thread: the process's would count other threads of a test run too)."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.level = inner.level
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def choose(self, obs):
        wall, cpu = time.perf_counter(), time.thread_time()
        move = self.inner.choose(obs)
        self.cpu.append(time.thread_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return move


@pytest.mark.timeout(300)
def test_every_decision_of_a_game_stays_within_the_budget() -> None:
    """CPU time is what the bot controls: it must stay within the budget every time.  Wall
    time also includes the machine's other work, so it gets slack for a shared machine."""
    budget = 0.05
    hard = Timed(make_bot("hard", seed=1, budget=budget, max_passes=None, clock="wall"))
    play_game([hard] + [make_bot("medium", seed=s) for s in range(3)], seed=12)
    assert len(hard.cpu) > 30
    assert max(hard.cpu) < budget + 0.005, f"slowest decision used {max(hard.cpu):.3f} s of CPU"
    # wall time: the bot stops at its budget, but on a shared machine (four test workers on
    # two cores here) a decision may also wait for a core, so only a bound on the slowest
    assert max(hard.wall) < budget + 0.25, sorted(hard.wall)[-5:]
    assert sum(w > budget / 2 for w in hard.wall) > 10  # and it does use its time when it searches


def test_a_longer_budget_buys_more_rollouts() -> None:
    state = next(s for s in random_positions(4, RuleOptions(), seed=6) if s.phase.name == "SEALED")
    # a bidder, not the auctioneer: its spread of sealed bids is wide enough that the search
    # does not settle on one before the longer budget is out
    obs = state.observation(next(s for s in state.to_move() if s != state.auctioneer))
    counts = []
    for budget in (0.02, 0.2):
        bot = make_bot("hard", seed=3, budget=budget, max_passes=None, clock="wall")
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
