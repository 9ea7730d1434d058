"""`python -m benchmarks bots`: each level's decision time (p50, p95; target: medium p95
under 5 ms; hard at the table's setting: p95 of its CPU time per decision at most 1 s) and
the hard bot's rollouts per second.

Every level but hard plays seat 0 of four-player games against three medium bots for
about `--seconds` each (the styled arena opponents too); the hard bot plays
`--hard-games` such games, as a table plays it (12 samples a decision on the CPU clock)
or, with `--budget`, searching that many seconds of wall clock a decision.  Rollouts per second are
the rollouts of every searched decision over the wall-clock time those searches took, and
over the CPU time they used (what an idle core would give).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from modernart.bots import arena_levels, make_bot
from modernart.bots.arena import play_game
from modernart.bots.hard import HardBot
from modernart.game import GameState
from modernart.moves import Move

from modernart.cli.machine import machine


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def level_times(level: str, seconds: float, seed: int = 0) -> list[float]:
    """Decision times of one `level` bot against three medium bots for about `seconds`
    (for medium: four medium bots, every seat timed)."""
    times: list[float] = []
    start = time.perf_counter()
    game = 0
    while time.perf_counter() - start < seconds or not times:
        bots = [make_bot(level, seed=seed * 100 + game * 4)] + [
            make_bot("medium", seed=seed * 100 + game * 4 + s) for s in range(1, 4)
        ]
        outcome = play_game(bots, seed=seed * 100 + game)
        for seat_times in outcome.times if level == "medium" else outcome.times[:1]:
            times.extend(seat_times)
        game += 1
    return times


def medium_times(seconds: float, seed: int = 0) -> list[float]:
    """Decision times of four medium bots playing each other for about `seconds`."""
    return level_times("medium", seconds, seed)


def hard_times(
    budget: float | None, games: int, seed: int = 0
) -> tuple[list[float], list[int], list[float], list[float], list[float]]:
    """Decision times (wall clock); rollouts, wall and CPU times of the searched decisions;
    CPU times of every decision: one hard bot against three medium bots."""
    times: list[float] = []
    rollouts: list[int] = []
    searched: list[float] = []
    searched_cpu: list[float] = []
    cpu: list[float] = []
    for game in range(games):
        options = {} if budget is None else {"budget": budget, "max_passes": None, "clock": "wall"}
        hard = make_bot("hard", seed=seed + game, **options)
        assert isinstance(hard, HardBot)
        bots = [hard] + [make_bot("medium", seed=seed + game * 4 + s) for s in range(3)]

        def count(state: GameState, move: Move, hard: HardBot = hard) -> None:
            if move.seat == 0 and hard.last_rollouts:
                rollouts.append(hard.last_rollouts)
                searched.append(hard.last_search_seconds)
                searched_cpu.append(hard.last_search_cpu)
                hard.last_rollouts = 0

        outcome = play_game(bots, seed=seed + 1000 + game, on_move=count)
        times.extend(outcome.times[0])
        cpu.extend(outcome.cpu[0])
    return times, rollouts, searched, searched_cpu, cpu


def figures(seconds: float, budget: float | None, hard_games: int) -> dict[str, dict[str, Any]]:
    """Per level its decision-time percentiles; for hard also its budget and rollout rate."""
    out: dict[str, dict[str, Any]] = {}
    for level in arena_levels():
        if level == "hard":
            continue
        t = level_times(level, seconds if level == "medium" else seconds / 4)
        out[level] = {
            "decisions": len(t),
            "p50_ms": _percentile(t, 0.5) * 1e3,
            "p95_ms": _percentile(t, 0.95) * 1e3,
            "p99_ms": _percentile(t, 0.99) * 1e3,
            "max_ms": max(t) * 1e3,
        }
    hard, rollouts, searched, searched_cpu, hard_cpu = hard_times(budget, hard_games)
    limit = budget if budget is not None else HardBot().budget
    out["hard"] = {
        "setting": "the table's" if budget is None else f"{budget:g} s of wall clock a decision",
        "budget_s": limit,
        "games": hard_games,
        "decisions": len(hard),
        "p50_ms": _percentile(hard, 0.5) * 1e3,
        "p95_ms": _percentile(hard, 0.95) * 1e3,
        "max_ms": max(hard) * 1e3,
        "over_budget": sum(t > limit for t in hard),
        "cpu_p95_ms": _percentile(hard_cpu, 0.95) * 1e3,
        "cpu_max_ms": max(hard_cpu) * 1e3,
        "cpu_over_budget": sum(t > limit for t in hard_cpu),
        "searched_decisions": len(rollouts),
        "rollouts_per_search": sum(rollouts) / len(rollouts) if rollouts else 0.0,
        "rollouts_per_s": sum(rollouts) / sum(searched) if sum(searched) > 0 else 0.0,
        "rollouts_per_cpu_s": sum(rollouts) / sum(searched_cpu) if sum(searched_cpu) > 0 else 0.0,
        "search_cpu_share": sum(searched_cpu) / sum(searched) if sum(searched) > 0 else 0.0,
    }
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--budget",
        type=float,
        default=None,
        help="hard bot: seconds of wall clock per decision (default: the table's setting, 12 samples on the CPU clock)",
    )
    p.add_argument("--hard-games", type=int, default=2, help="games of hard vs 3 medium (default 2)")


def run(args: argparse.Namespace) -> int:
    budget = getattr(args, "budget", None)
    f = figures(args.seconds, budget, getattr(args, "hard_games", 2) or 2)
    m = machine()
    if getattr(args, "json", False):
        print(json.dumps({"machine": m, **f}, indent=1))
        return 0
    print(f"modernart bot benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}")
    for level, row in f.items():
        if level == "hard":
            continue
        where = "in 4-player self-play" if level == "medium" else "in seat 0 against 3 medium"
        print(
            f"{level}: {row['decisions']:.0f} decisions {where}: p50 {row['p50_ms']:.2f} ms, "
            f"p95 {row['p95_ms']:.2f} ms, p99 {row['p99_ms']:.2f} ms, max {row['max_ms']:.2f} ms"
            + (" (target p95 < 5 ms)" if level == "medium" else "")
        )
    hard = f["hard"]
    print(
        f"hard ({hard['setting']} setting, at most {hard['budget_s']:g} s): {hard['decisions']:.0f} decisions in "
        f"{hard['games']:.0f} games vs 3 medium: wall p50 {hard['p50_ms']:.1f} ms, p95 {hard['p95_ms']:.1f} ms, "
        f"max {hard['max_ms']:.1f} ms, {hard['over_budget']:.0f} over budget (CPU time: p95 {hard['cpu_p95_ms']:.1f} ms, "
        f"max {hard['cpu_max_ms']:.1f} ms, {hard['cpu_over_budget']:.0f} over; target p95 at most 1 s); "
        f"{hard['rollouts_per_search']:.0f} rollouts per searched decision, "
        f"{hard['rollouts_per_s']:.0f} rollouts per second of search ({hard['rollouts_per_cpu_s']:.0f} per CPU "
        f"second; the search got {hard['search_cpu_share']:.0%} of a core)"
    )
    return 0
