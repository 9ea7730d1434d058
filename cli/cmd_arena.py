"""`modernart arena`: bots play each other; win rates with 95% intervals, money, speed.

Two ways to run it:

* `--bots A,B,C,D` (default hard,medium,random,random): seats rotate through every
  permutation of the list (four bots: 24 seatings, game i uses seating i mod 24);
* `--compare A,B --against POOL`: a paired comparison, both candidates playing the same
  deals from the same seat against the pool (`modernart.bots.paired`): both win rates,
  the discordant deals and the exact sign test.

A bot is a level name, optionally with options: `hard:budget=0.1`, `hard:rivals=off`.
Games run in worker processes (every core by default) with a progress bar and the time
left on a terminal.  Game i's deal and bot seeds depend only on --seed and i, so results
do not depend on the number of processes; hard bots search a fixed number of samples
per decision (--passes) unless a time budget is given (--budget, which makes the search,
and so the results, depend on the machine's speed; with --budget-clock cpu the budget is
the deciding thread's CPU time, what an idle machine gives, so the load does not matter).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Sequence

from modernart.cli.arena_games import HardOptions, Task, build_bot, parse_spec, play_one
from modernart.cli.progress import Progress
from modernart.cli.subcommands import Subcommands
from modernart.cli.variant_args import add_variant_arguments, options_from_args

log = logging.getLogger("modernart.arena")

DEFAULT_BOTS = "hard,medium,random,random"
#: the width the tables and lines printed are kept to (a terminal's, issue 27)
COLUMNS = 80
#: the table's hard bot searches this many samples a decision (`modernart.bots.hard.DEFAULT_PASSES`,
#: not imported here: the command line loads no bot before it runs one; a test checks they agree)
DEFAULT_PASSES = 12
#: the most seconds one decision may take in --passes mode (a guard, never reached in play)
PASSES_BUDGET = 600.0


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "arena",
        help="bots play each other; print win rates",
        description="Play bot-only games and print each bot's win rate (95% Wilson interval), "
        "mean final money and decision speed.  With --bots, seats rotate through every "
        "permutation of the list; with --compare A,B --against POOL, both candidates play the "
        "same deals from the same seat and a sign test says which is stronger.  A bot is a "
        "level, optionally with options: hard:budget=0.1, hard:rivals=off.",
    )
    p.add_argument(
        "--bots", default=None, help=f"comma-separated bots, one per seat (default {DEFAULT_BOTS}; 3 to 5 seats)"
    )
    p.add_argument("--compare", default=None, metavar="A,B", help="two candidate bots to compare on the same deals")
    p.add_argument(
        "--against",
        default=None,
        metavar="POOL",
        help="with --compare: the other seats' bots, comma-separated (2 to 4)",
    )
    p.add_argument("--games", type=int, default=24, help="games, or deals with --compare (default 24)")
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    p.add_argument(
        "--budget",
        type=float,
        default=None,
        help="hard bots: seconds per decision instead of the table's fixed number of samples",
    )
    p.add_argument(
        "--budget-clock",
        choices=("wall", "cpu"),
        default=None,
        help="with --budget: count it in the deciding thread's CPU time (default; what an idle machine "
        "gives, figures that do not depend on the load) or in wall-clock time (results then depend on the machine)",
    )
    p.add_argument(
        "--passes",
        type=int,
        default=None,
        help=f"hard bots: samples searched per decision, no clock (default {DEFAULT_PASSES}, the table's hard bot)",
    )
    p.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--progress",
        choices=("auto", "on", "off"),
        default="auto",
        help="progress bar on stderr: auto shows it on a terminal only (default auto)",
    )
    p.add_argument(
        "--candidate-seats",
        type=int,
        default=1,
        metavar="K",
        help="with --compare: each candidate holds K seats (2: as a pair, 2 vs 2 at four seats; default 1)",
    )
    p.add_argument(
        "--results",
        default=None,
        metavar="FILE",
        help="with --compare or --league: append each paired deal to FILE as it is played (JSON lines); "
        "the same command again plays only the deals not yet there",
    )
    p.add_argument(
        "--league",
        action="store_true",
        help="self-play league: every pair of --league-bots on --games duplicate deals each (seats swapped), "
        "then win shares and Elo-style ratings with 95%% intervals (needs --results)",
    )
    p.add_argument(
        "--league-bots",
        default=None,
        metavar="LIST",
        help="the league's bots, comma-separated (default: every level but random, the old hard bot, every style)",
    )
    p.add_argument("--players", type=int, default=4, help="with --league: seats per game (default 4)")
    p.add_argument(
        "--report",
        nargs="+",
        default=None,
        metavar="FILE",
        help="print the tables of docs/bots.md (markdown) from results files, and play nothing",
    )
    add_variant_arguments(p)
    p.set_defaults(func=run)


def parse_bots(text: str, *, count: tuple[int, int] = (3, 5), what: str = "--bots") -> list[str]:
    """Bot specs from a comma-separated list, each checked by building one bot."""
    specs = [b.strip() for b in text.split(",") if b.strip()]
    for spec in specs:
        try:
            build_bot(spec, 0, {})
        except TypeError as exc:
            raise ValueError(f"bad options in {spec!r}: {exc}") from None
    lo, hi = count
    if not lo <= len(specs) <= hi:
        if what == "--bots":
            raise ValueError(f"a game has {lo} to {hi} seats; --bots names {len(specs)}")
        takes = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{what} takes {takes} bots (a game has 3 to 5 seats); it names {len(specs)}")
    return specs


def play_all(tasks: Sequence[Task], jobs: int, progress: Progress) -> list[Any]:
    """Every task's outcome, in task order whatever the order they finish in."""
    from modernart.bots.arena import GameOutcome

    results: list[dict[str, Any] | None] = [None] * len(tasks)
    if jobs == 1:
        for i, task in enumerate(tasks):
            results[i] = play_one(task)
            progress.advance()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_one, task): i for i, task in enumerate(tasks)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                progress.advance()
    progress.close()
    return [
        GameOutcome(tuple(r["seating"]), tuple(r["money"]), tuple(r["winners"]), r["times"], r["moves"], r["cpu"])
        for r in results
        if r is not None
    ]


def run_arena(
    names: list[str],
    games: int,
    seed: int,
    hard: HardOptions,
    jobs: int,
    progress: Progress,
    rules: dict[str, Any] | None = None,
) -> list[Any]:
    from modernart.bots.arena import seatings

    orders = seatings(names)
    tasks = [(seed, i, orders[i % len(orders)], hard, dict(rules or {})) for i in range(games)]
    return play_all(tasks, jobs, progress)


def run_compare(
    candidates: list[str],
    pool: list[str],
    deals: int,
    seed: int,
    hard: HardOptions,
    jobs: int,
    progress: Progress,
    rules: dict[str, Any] | None = None,
) -> tuple[list[int], list[Any], list[Any]]:
    """Both candidates over the same deals: (seats, a's outcomes, b's outcomes)."""
    from modernart.bots.paired import deal_seating

    a, b = candidates
    seats, tasks = [], []
    for i in range(deals):
        seat, seating_a = deal_seating(a, pool, i)
        seating_b = seating_a[:seat] + (b,) + seating_a[seat + 1 :]
        seats.append(seat)
        tasks += [(seed, i, seating_a, hard, dict(rules or {})), (seed, i, seating_b, hard, dict(rules or {}))]
    outcomes = play_all(tasks, jobs, progress)
    return seats, outcomes[0::2], outcomes[1::2]


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def hard_options(budget: float | None, passes: int | None, clock: str = "cpu") -> HardOptions:
    """The search settings of every hard bot in the run (`clock`: what the budget counts);
    none given: the table's hard bot (`hard.DEFAULT_PASSES` samples within its CPU budget)."""
    if budget is not None:
        return {"budget": budget, "max_passes": passes, "clock": clock}
    if passes is not None:
        return {"budget": PASSES_BUDGET, "max_passes": passes}
    return {}


def _lineup(args: argparse.Namespace) -> tuple[list[str], list[str], list[str]]:
    """The run's bots: (candidates, pool, []) for `--compare`, ([], [], names) for a plain run;
    raises ValueError with what is wrong in the command line."""
    compare = args.compare is not None
    if args.candidate_seats != 1 and not (compare and args.results):
        raise ValueError("--candidate-seats goes with --compare and --results")
    if compare:
        if args.bots is not None:
            raise ValueError("--compare plays against --against, not --bots")
        if args.against is None:
            raise ValueError("--compare needs --against POOL (the other seats' bots)")
        candidates = parse_bots(args.compare, count=(2, 2), what="--compare")
        return candidates, parse_bots(args.against, count=(2, 4), what="--against"), []
    if args.against is not None:
        raise ValueError("--against goes with --compare")
    return [], [], parse_bots(args.bots or DEFAULT_BOTS)


def _checked_rules(args: argparse.Namespace, players: int) -> dict[str, Any]:
    """The run's rule options for `players` seats, once the games and the hard bots' search
    settings are checked; raises ValueError with what is wrong."""
    from modernart.rules import RuleOptions

    if args.games < 1:
        raise ValueError("--games must be at least 1")
    rules = options_from_args(args)
    RuleOptions.from_dict(rules).check_players(players)
    if args.budget is not None and not 0 < args.budget <= 60:
        raise ValueError("--budget must be in (0, 60] seconds")
    if args.passes is not None and not 1 <= args.passes <= 10_000:
        raise ValueError("--passes must be 1 to 10000")
    if args.budget_clock is not None and args.budget is None:
        raise ValueError(
            "--budget-clock goes with --budget (without it the hard bots search a fixed number of samples)"
        )
    return rules


def _search_words(args: argparse.Namespace, specs: list[str], clock: str) -> str:
    """The variant and the hard bots' search, as the run's heading says them."""
    variant = f", variant {args.variant}" + (f" with {', '.join(args.rule)}" if args.rule else "")
    if not any(parse_spec(spec)[0] == "hard" for spec in specs):
        return variant
    if args.budget is not None:
        return (
            variant
            + f", hard budget {args.budget:g} s"
            + (" of CPU time (what an idle machine gives)" if clock == "cpu" else " of wall clock")
            + (f" and at most {args.passes} samples" if args.passes else "")
        )
    return (
        variant
        + f", hard searches {args.passes or DEFAULT_PASSES} samples per decision"
        + ("" if args.passes else " (the table's hard bot)")
    )


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    def fail(message: str) -> int:
        print(f"modernart arena: {message}", file=sys.stderr)
        return 2

    if args.report is not None:
        from modernart.cli.arena_report import print_report

        return print_report(args.report)
    if args.results is None and args.league:
        return fail("--league needs --results FILE (its deals are kept there, so that it can resume)")
    if args.league:
        return run_league_command(args, fail)
    compare = args.compare is not None
    try:
        candidates, pool, names = _lineup(args)
        rules = _checked_rules(args, len(pool) + 1 if compare else len(names))
    except ValueError as exc:
        return fail(str(exc))
    clock = args.budget_clock or "cpu"
    hard = hard_options(args.budget, args.passes, clock)
    jobs = args.jobs if args.jobs > 0 else default_jobs()
    shown = {"auto": None, "on": True, "off": False}[args.progress]
    total = args.games * (2 if compare else 1)
    progress = Progress(total, "games", sys.stderr, enabled=shown)
    search = _search_words(args, candidates + pool if compare else names, clock)
    m = machine()
    start = time.perf_counter()
    if compare and args.results is not None:
        return _compare_cell(args, candidates, pool, hard, rules, jobs, progress, search, m, fail)
    if compare:
        log.info("arena compare %s against %s deals=%d seed=%d jobs=%d", candidates, pool, args.games, args.seed, jobs)
        seats, a_out, b_out = run_compare(candidates, pool, args.games, args.seed, hard, jobs, progress, rules)
        elapsed = time.perf_counter() - start
        return print_compare(args, candidates, pool, seats, a_out, b_out, elapsed, jobs, search, m)
    log.info("arena start bots=%s games=%d seed=%d jobs=%d", ",".join(names), args.games, args.seed, jobs)
    outcomes = run_arena(names, args.games, args.seed, hard, jobs, progress, rules)
    elapsed = time.perf_counter() - start
    log.info("arena done games=%d seconds=%.1f", len(outcomes), elapsed)
    return print_table(args, names, outcomes, elapsed, jobs, search, m)


def _compare_cell(
    args: argparse.Namespace,
    candidates: list[str],
    pool: list[str],
    hard: HardOptions,
    rules: dict[str, Any],
    jobs: int,
    progress: Progress,
    search: str,
    m: dict[str, str],
    fail: Callable[[str], int],
) -> int:
    """`--compare` with `--results`: paired deals kept in the results file (resumable), with
    `--candidate-seats` seats of each candidate at every table."""
    from modernart.cli.arena_runs import plan_cell, run_tasks, summary_lines
    from modernart.rules import RuleOptions

    k = args.candidate_seats
    if not 1 <= k <= len(pool):
        return fail(f"--candidate-seats must be 1 to {len(pool)} (the pool keeps at least as many seats)")
    RuleOptions.from_dict(rules).check_players(len(pool) + k)
    _key, tasks = plan_cell(
        "compare", candidates[0], candidates[1], pool, k, len(pool) + k, args.games, args.seed, hard, rules
    )
    records = run_tasks(tasks, args.results, jobs, progress)
    say(f"arena: {len(records)} of {args.games} paired deals in {args.results}, seed {args.seed}{search}")
    say(f"machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}, {m['date']}")
    for line in summary_lines(records):
        say(line)
    return 0


def run_league_command(args: argparse.Namespace, fail: Any) -> int:
    """`--league`: every pair of the league's bots on duplicate deals, then the ratings."""
    from modernart.cli.arena_report import league_lines
    from modernart.cli.arena_runs import LEAGUE_BOTS, league_cells, plan_cell, run_tasks
    from modernart.cli.machine import machine

    try:
        bots = (
            parse_bots(args.league_bots, count=(2, 40), what="--league-bots") if args.league_bots else list(LEAGUE_BOTS)
        )
        from modernart.rules import RuleOptions

        rules = options_from_args(args)
        RuleOptions.from_dict(rules).check_players(args.players)
    except ValueError as exc:
        return fail(str(exc))
    if args.compare or args.against or args.bots:
        return fail("--league plays its own pairs: not with --bots, --compare or --against")
    if args.games < 1:
        return fail("--games must be at least 1")
    hard = hard_options(args.budget, args.passes, args.budget_clock or "cpu")
    jobs = args.jobs if args.jobs > 0 else default_jobs()
    tasks = []
    for a, b in league_cells(bots, args.players):
        tasks += plan_cell("duplicate", a, b, (), 0, args.players, args.games, args.seed, hard, rules)[1]
    shown = {"auto": None, "on": True, "off": False}[args.progress]
    progress = Progress(len(tasks) * 2, "games", sys.stderr, enabled=shown)
    records = run_tasks(tasks, args.results, jobs, progress)
    m = machine()
    say(
        f"league: {len(bots)} bots, {args.games} duplicate deals a pair, {args.players} seats, seed {args.seed}; "
        f"{len(records)} deals in {args.results}"
    )
    say(f"machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}, {m['date']}")
    for line in league_lines(records):
        say(line)
    return 0


# ---------------------------------------------------------------------- output


def print_table(
    args: argparse.Namespace,
    names: list[str],
    outcomes: list[Any],
    elapsed: float,
    jobs: int,
    search: str,
    m: dict[str, str],
) -> int:
    from modernart.bots.arena import tally

    stats = tally(outcomes)
    if args.json:
        print(
            json.dumps(
                {
                    "bots": names,
                    "variant": args.variant,
                    "rules": args.rule,
                    "games": args.games,
                    "seed": args.seed,
                    "budget": args.budget,
                    "budget_clock": (args.budget_clock or "cpu") if args.budget is not None else None,
                    "passes": args.passes,
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
    width = max(8, max(len(s.name) for s in stats.values()) + 1)
    say(
        f"arena: {args.games} games, bots {','.join(names)}, seed {args.seed}{search}"
        f"; {len(set(o.seating for o in outcomes))} seatings, {jobs} processes, {elapsed:.1f} s"
    )
    say(f"machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}, {m['date']}")
    print("wins: a co-winner counts a win; share: a win split 1/k among k co-winners")
    print("p95: wall clock of a decision (ms); cpu max: the most CPU ms one decision used")
    print(
        f"{'bot':<{width}}{'games':>6}{'wins':>6}{'share':>7}{'win %':>7}{'95% CI':>14}"
        f"{'money':>7}{'dec/s':>7}{'p95':>7}{'cpu max':>8}"
    )
    for s in stats.values():
        lo, hi = s.interval
        print(
            f"{s.name:<{width}}{s.games:>6}{s.wins:>6}{s.share:>7.1f}{s.win_rate * 100:>7.1f}"
            f"{f'[{lo * 100:.1f}, {hi * 100:.1f}]':>14}{s.mean_money:>7.1f}{min(s.decisions_per_s, 999999):>7.0f}"
            f"{s.percentile(0.95) * 1000:>7.2f}{s.cpu_max * 1000:>8.2f}"
        )
    return 0


def say(text: str, width: int = COLUMNS) -> None:
    """Print a long line wrapped to the terminal's 80 columns (continuations indented)."""
    print(textwrap.fill(text, width, subsequent_indent="  ", break_on_hyphens=False))


def print_compare(
    args: argparse.Namespace,
    candidates: list[str],
    pool: list[str],
    seats: list[int],
    a_out: list[Any],
    b_out: list[Any],
    elapsed: float,
    jobs: int,
    search: str,
    m: dict[str, str],
) -> int:
    from modernart.bots.paired import pair

    result = pair(candidates[0], candidates[1], seats, a_out, b_out)
    sides = (result.a, result.b)
    if args.json:
        print(
            json.dumps(
                {
                    "compare": candidates,
                    "against": pool,
                    "deals": args.games,
                    "seed": args.seed,
                    "budget": args.budget,
                    "budget_clock": (args.budget_clock or "cpu") if args.budget is not None else None,
                    "passes": args.passes,
                    "jobs": jobs,
                    "seconds": elapsed,
                    "machine": m,
                    "candidates": [
                        {
                            "bot": s.name,
                            "deals": s.deals,
                            "wins": s.wins,
                            "win_share": s.share,
                            "win_rate": s.win_rate,
                            "ci95": list(s.interval),
                            "mean_money": s.mean_money,
                            "mean_margin": s.mean_margin,
                            "decisions": s.decisions,
                        }
                        for s in sides
                    ],
                    "a_only": result.a_only,
                    "b_only": result.b_only,
                    "both": result.both,
                    "neither": result.neither,
                    "sign_test_p": result.p_value,
                    "verdict": result.verdict(),
                    "margin_a_larger": result.margin_counts[0],
                    "margin_b_larger": result.margin_counts[1],
                    "margin_equal": result.margin_counts[2],
                    "signed_rank_p": result.margin_p_value,
                    "margin_verdict": result.margin_verdict(),
                    # deal by deal, so that runs of other seeds or deals can be pooled
                    "per_deal": [
                        {"seat": seat, "won": [seat in oa.winners, seat in ob.winners], "margin": [ma, mb]}
                        for seat, oa, ob, ma, mb in zip(seats, a_out, b_out, result.a.margins, result.b.margins)
                    ],
                },
                indent=1,
            )
        )
        return 0
    n = len(pool) + 1
    say(
        f"arena: {candidates[0]} and {candidates[1]} on the same {args.games} deals against {','.join(pool)}, "
        f"seed {args.seed}{search}; {n} seats rotated, {jobs} processes, {elapsed:.1f} s"
    )
    say(f"machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}, {m['date']}")
    say(f"fair share of wins: {1 / n:.0%}; wins: co-winners count as a win each; share splits a win 1/k")
    width = max(10, max(len(s.name) for s in sides) + 1)
    print("margin: final money minus the richest other seat's, per deal (>= 0: won)")
    print(
        f"{'candidate':<{width}}{'deals':>6}{'wins':>6}{'share':>7}{'win %':>7}{'95% CI':>14}{'money':>8}{'margin':>8}"
    )
    for s in sides:
        lo, hi = s.interval
        print(
            f"{s.name:<{width}}{s.deals:>6}{s.wins:>6}{s.share:>7.1f}{s.win_rate * 100:>7.1f}"
            f"{f'[{lo * 100:.1f}, {hi * 100:.1f}]':>14}{s.mean_money:>8.1f}{s.mean_margin:>8.1f}"
        )
    say(
        f"discordant deals: {result.a.name} won and {result.b.name} lost {result.a_only}, "
        f"{result.b.name} won and {result.a.name} lost {result.b_only} "
        f"(both won {result.both}, neither {result.neither})"
    )
    say(f"sign test (exact, two-sided): p = {result.p_value:.4g}; {result.verdict()}")
    larger_a, larger_b, equal = result.margin_counts
    say(
        f"margins: {result.a.name}'s larger on {larger_a} deals, {result.b.name}'s on {larger_b}, equal on {equal}; "
        f"Wilcoxon signed-rank (two-sided): p = {result.margin_p_value:.4g}; {result.margin_verdict()}"
    )
    return 0
