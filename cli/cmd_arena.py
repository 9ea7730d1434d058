"""`modernart arena`: bots play each other; win rates with 95% intervals, money, speed.

Seats rotate through every permutation of the bot list (four bots: 24 seatings, game i
uses seating i mod 24), games run in parallel worker processes, and everything but the
time-budgeted search is deterministic given --seed.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from modernart.cli.subcommands import Subcommands
from modernart.cli.variant_args import add_variant_arguments, options_from_args

log = logging.getLogger("modernart.arena")


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "arena",
        help="bots play each other; print win rates",
        description="Play bot-only games with seats rotated through every permutation "
        "and print each bot's win rate (95%% Wilson interval), mean final "
        "money and decision speed.",
    )
    p.add_argument("--bots", required=True, help="comma-separated levels, one per seat, e.g. hard,medium,random,random")
    p.add_argument("--games", type=int, default=24, help="number of games (default 24)")
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    p.add_argument("--budget", type=float, default=None, help="hard bot: seconds per decision (default: the bot's own)")
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: all cores)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_variant_arguments(p)
    p.set_defaults(func=run)


def parse_bots(text: str) -> list[str]:
    from modernart.bots import bot_levels

    names = [b.strip() for b in text.split(",") if b.strip()]
    levels = bot_levels()
    unknown = [b for b in names if b not in levels]
    if unknown:
        raise ValueError(f"unknown bot level(s) {', '.join(unknown)}; choose from {', '.join(levels)}")
    if not 3 <= len(names) <= 5:
        raise ValueError(f"a game has 3 to 5 seats; --bots names {len(names)}")
    return names


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & ((1 << 62) - 1)


def play_one(task: tuple[int, int, tuple[str, ...], float | None, dict[str, Any]]) -> dict[str, Any]:
    """Worker: play game `index` of the run with the given seating and rule options."""
    from modernart.bots import make_bot
    from modernart.bots.arena import play_game
    from modernart.rules import RuleOptions

    seed, index, seating, budget, rules = task
    gseed = game_seed(seed, index)
    bots = []
    for seat, level in enumerate(seating):
        options = {"budget": budget} if level == "hard" and budget is not None else {}
        bots.append(make_bot(level, seed=gseed * 8 + seat, **options))
    outcome = play_game(bots, seed=gseed, names=seating, options=RuleOptions.from_dict(rules))
    return {
        "seating": seating,
        "money": outcome.money,
        "winners": outcome.winners,
        "times": outcome.times,
        "moves": outcome.moves,
        "cpu": outcome.cpu,
    }


def run_arena(
    names: list[str], games: int, seed: int, budget: float | None, jobs: int, options: dict[str, Any] | None = None
) -> tuple[list, float]:
    from modernart.bots.arena import GameOutcome, seatings

    orders = seatings(names)
    tasks = [(seed, i, orders[i % len(orders)], budget, dict(options or {})) for i in range(games)]
    start = time.perf_counter()
    if jobs == 1:
        results = [play_one(t) for t in tasks]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(play_one, tasks, chunksize=1))
    elapsed = time.perf_counter() - start
    outcomes = [
        GameOutcome(tuple(r["seating"]), tuple(r["money"]), tuple(r["winners"]), r["times"], r["moves"], r["cpu"])
        for r in results
    ]
    return outcomes, elapsed


def run(args: argparse.Namespace) -> int:
    from modernart.bots.arena import tally

    from modernart.cli.machine import machine

    try:
        names = parse_bots(args.bots)
    except ValueError as exc:
        print(f"modernart arena: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("modernart arena: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        options = options_from_args(args)
        from modernart.rules import RuleOptions

        RuleOptions.from_dict(options).check_players(len(names))
    except ValueError as exc:
        print(f"modernart arena: {exc}", file=sys.stderr)
        return 2
    if args.budget is not None and not 0 < args.budget <= 60:
        print("modernart arena: --budget must be in (0, 60] seconds", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    log.info(
        "arena start bots=%s games=%d seed=%d budget=%s jobs=%d",
        ",".join(names),
        args.games,
        args.seed,
        args.budget,
        jobs,
    )
    outcomes, elapsed = run_arena(names, args.games, args.seed, args.budget, jobs, options)
    stats = tally(outcomes)
    log.info("arena done games=%d seconds=%.1f", len(outcomes), elapsed)
    m = machine()
    if args.json:
        print(
            json.dumps(
                {
                    "bots": names,
                    "variant": args.variant,
                    "options": options,
                    "games": args.games,
                    "seed": args.seed,
                    "budget": args.budget,
                    "jobs": jobs,
                    "seconds": elapsed,
                    "machine": m,
                    "stats": [
                        {
                            "bot": s.name,
                            "games": s.games,
                            "wins": s.wins,
                            "win_share": s.share,
                            "win_rate": s.win_rate,
                            "ci95": list(s.interval),
                            "mean_money": s.mean_money,
                            "decisions": s.decisions,
                            "decisions_per_s": s.decisions_per_s,
                            "p95_ms": s.percentile(0.95) * 1000,
                            "max_ms": s.percentile(1.0) * 1000,
                            "cpu_max_ms": s.cpu_max * 1000,
                        }
                        for s in stats.values()
                    ],
                },
                indent=1,
            )
        )
        return 0
    print(
        f"arena: {args.games} games, bots {','.join(names)}, seed {args.seed}, variant {args.variant}"
        + (f" with {', '.join(args.rule)}" if args.rule else "")
        + (f", hard budget {args.budget:g} s" if args.budget is not None else "")
        + f"; {len(set(map(tuple, (o.seating for o in outcomes))))} seatings, {jobs} processes, {elapsed:.1f} s"
    )
    print(f"machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}, {m['date']}")
    print("wins: co-winners count as a win each; share: a win split 1/k between k co-winners")
    print("times are wall-clock per decision; cpu max is the most CPU time one decision used")
    print(
        f"{'bot':<8}{'games':>7}{'wins':>7}{'share':>8}{'win rate':>10}{'95% CI':>17}"
        f"{'money':>8}{'dec/s':>9}{'p95 ms':>9}{'max ms':>9}{'cpu max':>9}"
    )
    for s in stats.values():
        lo, hi = s.interval
        print(
            f"{s.name:<8}{s.games:>7}{s.wins:>7}{s.share:>8.1f}{s.win_rate:>9.1%} "
            f"{f'[{lo:.1%}, {hi:.1%}]':>17}{s.mean_money:>8.1f}{s.decisions_per_s:>9.0f}"
            f"{s.percentile(0.95) * 1000:>9.2f}{s.percentile(1.0) * 1000:>9.2f}{s.cpu_max * 1000:>9.2f}"
        )
    return 0
