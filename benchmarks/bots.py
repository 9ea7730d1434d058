"""`python -m benchmarks bots`: the medium bot's decision time (target: p95 under 5 ms) and
the hard bot's decision time against its budget (target: never over it), with its
rollouts per searched decision and per second of its CPU time."""

from __future__ import annotations

import argparse
import json
import time

from modernart.bots.arena import play_game
from modernart.bots import make_bot
from modernart.bots.hard import HardBot
from modernart.game import GameState
from modernart.moves import Move

from modernart.cli.machine import machine


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
            # rollouts per second of the hard bot's CPU time (its decisions, searched or not)
            "rollouts_per_s": sum(rollouts) / sum(hard_cpu) if sum(hard_cpu) > 0 else 0.0,
        },
    }


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--budget", type=float, default=0.1, help="hard bot budget per decision (default 0.1)")
    p.add_argument("--hard-games", type=int, default=2, help="games of hard vs 3 medium (default 2)")


def run(args: argparse.Namespace) -> int:
    budget = getattr(args, "budget", 0.1) or 0.1
    f = figures(args.seconds, budget, getattr(args, "hard_games", 2) or 2)
    m = machine()
    if getattr(args, "json", False):
        print(json.dumps({"machine": m, **f}, indent=1))
        return 0
    med, hard = f["medium"], f["hard"]
    print(f"modernart bot benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}")
    print(
        f"medium: {med['decisions']:.0f} decisions in 4-player self-play: p50 {med['p50_ms']:.2f} ms, "
        f"p95 {med['p95_ms']:.2f} ms, p99 {med['p99_ms']:.2f} ms, max {med['max_ms']:.2f} ms (target p95 < 5 ms)"
    )
    print(
        f"hard: budget {hard['budget_s']:g} s, {hard['decisions']:.0f} decisions in {hard['games']:.0f} games "
        f"vs 3 medium: p95 {hard['p95_ms']:.1f} ms, max {hard['max_ms']:.1f} ms, "
        f"{hard['over_budget']:.0f} over budget (CPU time: max {hard['cpu_max_ms']:.1f} ms, "
        f"{hard['cpu_over_budget']:.0f} over); {hard['rollouts_per_search']:.0f} rollouts per searched decision, "
        f"{hard['rollouts_per_s']:.0f} rollouts per CPU second"
    )
    return 0
