"""`modernart bench bots`: the medium bot's decision time (target p95 < 5 ms) and the hard
bot's decision time against its budget (target: never over it), measured by
modernart/bots/bench.py."""

from __future__ import annotations

import argparse
import json

from modernart.bots.bench import figures


def run(args: argparse.Namespace) -> int:
    from modernart.cli.cmd_bench import machine

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
        f"{hard['cpu_over_budget']:.0f} over); {hard['rollouts_per_search']:.0f} rollouts per searched decision"
    )
    return 0
