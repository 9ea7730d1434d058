"""Resumable paired runs of `modernart arena`: `--results FILE` and `--league`.

Each deal (two games, `modernart.bots.league`) is one task for the worker processes; its
record is appended to FILE as one JSON line as soon as it is played, so a run that stops
(a deadline, a reboot, Ctrl-C) keeps every deal it finished, and the same command run
again plays only the deals not yet in FILE.  Records of the same cell from several runs
pool (a deal index is played once per seed: the seed is part of the cell's records).
`--report FILE...` prints the tables of docs/bots.md from such files.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Iterable, Sequence

from modernart.cli.progress import Progress

#: the league's bots: every level a table offers but random (which every bot beats every
#: time: its games say nothing), the old hard bot (no searching rivals, Open raises by one
#: step, keeps its own lots up to 1.15 of their value) and the old medium bot (one step),
#: every styled arena opponent and the outside-style `plain`
LEAGUE_BOTS = (
    "hard",
    "hard:searchers=off:jumps=off:keep_cap=off:outbid_searchers=on",
    "medium",
    "medium:jumps=off",
    "overbidder",
    "underbidder",
    "hoarder",
    "highseller",
    "earlycloser",
    "plain",
)

#: one deal: (run seed, cell key, deal index, seats, game 1's and game 2's seatings,
#: hard options, rule options)
DealTask = tuple[int, str, int, tuple[int, ...], tuple[str, ...], tuple[str, ...], dict[str, Any], dict[str, Any]]


def play_deal(task: DealTask) -> dict[str, Any]:
    """Worker: both games of one deal, as a record (`league.deal_record`)."""
    from modernart.cli.arena_games import play_one
    from modernart.bots.league import deal_record

    seed, cell, index, seats, first, second, hard, rules = task
    games = [play_one((seed, index, seating, hard, rules)) for seating in (first, second)]
    cpu: dict[str, list[float]] = {}
    for game in games:
        for spec, times in zip(game["seating"], game["cpu"]):
            cpu.setdefault(spec, []).extend(times)
    summary = {}
    for spec, times in cpu.items():
        times.sort()
        summary[spec] = [round(times[-1], 5), round(times[min(len(times) - 1, int(0.95 * len(times)))], 5), len(times)]
    record = deal_record(cell, index, seats, games, {})
    record["seed"] = seed
    record["cpu"] = summary  # per spec: [most CPU s of one decision, p95, decisions]
    return record


def read_records(path: str) -> list[dict[str, Any]]:
    """The records of a results file (a line cut short by a crash is skipped)."""
    if not os.path.exists(path):
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def plan_cell(
    kind: str,
    a: str,
    b: str,
    pool: Sequence[str],
    k: int,
    n: int,
    deals: int,
    seed: int,
    hard: dict[str, Any],
    rules: dict[str, Any],
) -> tuple[str, list[DealTask]]:
    """The cell's key and its deals' tasks."""
    from modernart.bots.league import cell_key, seatings_of

    key = cell_key(kind, a, b, pool, k, n)
    tasks = []
    for i in range(deals):
        seats, first, second = seatings_of(kind, a, b, pool, k, n, i)
        tasks.append((seed, key, i, seats, first, second, dict(hard), dict(rules)))
    return key, tasks


def league_cells(bots: Sequence[str], n: int) -> list[tuple[str, str]]:
    """Every pair of the league's bots, once."""
    return [(bots[i], bots[j]) for i in range(len(bots)) for j in range(i + 1, len(bots))]


def run_tasks(tasks: Sequence[DealTask], path: str, jobs: int, progress: Progress) -> list[dict[str, Any]]:
    """Play the tasks whose deal is not yet in `path` (same cell, deal index and seed),
    appending each record as it comes; returns every record of the file for these cells."""
    done = {(r["cell"], r["deal"], r.get("seed")) for r in read_records(path)}
    todo = [t for t in tasks if (t[1], t[2], t[0]) not in done]
    progress.total = max(1, len(todo) * 2)  # nothing left to play: a bar of one, closed at once
    with open(path, "a", encoding="utf-8") as out:

        def keep(record: dict[str, Any]) -> None:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            out.flush()
            progress.advance(2)

        if jobs == 1:
            for task in todo:
                keep(play_deal(task))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending = {pool.submit(play_deal, t) for t in todo[: jobs * 2]}
                queue = iter(todo[jobs * 2 :])
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        keep(future.result())
                        nxt = next(queue, None)
                        if nxt is not None:
                            pending.add(pool.submit(play_deal, nxt))
    progress.close()
    keys = {t[1] for t in tasks}
    seeds = {t[0] for t in tasks}
    return [r for r in read_records(path) if r["cell"] in keys and r.get("seed") in seeds]


def summary_lines(records: Iterable[dict[str, Any]]) -> list[str]:
    """One paragraph per cell: wins, the sign test, margins, money, for the terminal."""
    from modernart.bots.league import cells_of

    lines = []
    for cell in cells_of(records).values():
        bigger_a, bigger_b = cell.margin_counts()
        n = len(cell.deals)
        money = sum(cell.money_diffs) / n if n else 0.0
        lines += [
            f"{cell.key}: {n} paired deals",
            f"  {cell.a} won {cell.a_wins}, {cell.b} won {cell.b_wins}; only {cell.a} : only {cell.b} "
            f"{cell.a_only} : {cell.b_only}, sign test p = {cell.sign_p:.3g}",
            f"  margin larger {bigger_a} : {bigger_b}, signed-rank p = {cell.margin_p:.3g}; "
            f"{cell.a}'s side money minus {cell.b}'s {money:+.1f} a deal, signed-rank p = {cell.money_p:.3g}",
        ]
    return lines
