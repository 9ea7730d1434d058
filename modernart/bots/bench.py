"""Bot speed figures: the medium bot's decision time (target: p95 under 5 ms) and the
hard bot's decision time against its budget (target: never over it).

Measurement only; `modernart bench bots` (cli/bench_bots.py) prints them.
"""

from __future__ import annotations

import time

from ..game import GameState
from ..moves import Move
from .arena import play_game
from .base import make_bot
from .hard import HardBot


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def medium_times(seconds: float, seed: int = 0) -> list[float]:
    """Decision times of four medium bots playing each other for about `seconds`."""
    times: list[float] = []
    start = time.perf_counter()
    game = 0
    while time.perf_counter() - start < seconds:
        bots = [make_bot("medium", seed=seed * 100 + game * 4 + s) for s in range(4)]
        outcome = play_game(bots, seed=seed * 100 + game)
        for t in outcome.times:
            times.extend(t)
        game += 1
    return times


def hard_times(budget: float, games: int, seed: int = 0) -> tuple[list[float], list[int], list[float]]:
    """Decision times (wall clock), rollouts per searched decision and CPU times of one hard
    bot against three medium bots."""
    times: list[float] = []
    rollouts: list[int] = []
    cpu: list[float] = []
    for game in range(games):
        hard = make_bot("hard", seed=seed + game, budget=budget)
        assert isinstance(hard, HardBot)
        bots = [hard] + [make_bot("medium", seed=seed + game * 4 + s) for s in range(3)]

        def count(state: GameState, move: Move, hard: HardBot = hard) -> None:
            if move.seat == 0 and hard.last_rollouts:
                rollouts.append(hard.last_rollouts)
                hard.last_rollouts = 0

        outcome = play_game(bots, seed=seed + 1000 + game, on_move=count)
        times.extend(outcome.times[0])
        cpu.extend(outcome.cpu[0])
    return times, rollouts, cpu


def figures(seconds: float, budget: float, hard_games: int) -> dict[str, dict[str, float]]:
    """{"medium": decision-time percentiles, "hard": decision times against `budget`}."""
    med = medium_times(seconds)
    hard, rollouts, hard_cpu = hard_times(budget, hard_games)
    return {
        "medium": {
            "decisions": len(med),
            "p50_ms": _percentile(med, 0.5) * 1e3,
            "p95_ms": _percentile(med, 0.95) * 1e3,
            "p99_ms": _percentile(med, 0.99) * 1e3,
            "max_ms": max(med) * 1e3,
        },
        "hard": {
            "budget_s": budget,
            "games": hard_games,
            "decisions": len(hard),
            "p95_ms": _percentile(hard, 0.95) * 1e3,
            "max_ms": max(hard) * 1e3,
            "over_budget": sum(t > budget for t in hard),
            "cpu_max_ms": max(hard_cpu) * 1e3,
            "cpu_over_budget": sum(t > budget for t in hard_cpu),
            "searched_decisions": len(rollouts),
            "rollouts_per_search": sum(rollouts) / len(rollouts) if rollouts else 0.0,
        },
    }
