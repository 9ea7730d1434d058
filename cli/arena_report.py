"""`modernart arena --report FILE...`: the tables of docs/bots.md, from results files.

docs/bots.md's league and per-cell tables are this command's output over the results
files in benchmarks/results/ (a test renders them again and compares): nothing in them
is written by hand.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from modernart.cli.arena_runs import read_records


def _p(value: float) -> str:
    return f"{value:.2g}" if value < 0.01 else f"{value:.3f}".rstrip("0").rstrip(".")


def league_rows(
    records: Sequence[dict[str, Any]], anchor: str = "medium"
) -> list[tuple[str, int, float, float, float, float, float]]:
    """Per bot of the duplicate cells: (bot, deals, win share, its 95% interval low and
    high, Elo-style rating, its interval low and high...), best first.  The win share is
    the mean deal score against every other bot (0.5: even)."""
    from modernart.bots.league import bootstrap_elo, bradley_terry, cells_of, league_scores

    scores = league_scores(cells_of(records).values())
    if not scores:
        return []
    elo = bradley_terry(scores, anchor)
    interval = bootstrap_elo(scores, anchor)
    per_bot: dict[str, list[float]] = {}
    for (x, y), values in scores.items():
        per_bot.setdefault(x, []).extend(values)
        per_bot.setdefault(y, []).extend(1.0 - v for v in values)
    rows = []
    for bot, values in per_bot.items():
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n > 1 else 0.5
        lo, hi = interval[bot]
        rows.append((bot, n, mean, max(0.0, mean - half), min(1.0, mean + half), elo[bot], lo, hi))
    rows.sort(key=lambda r: -r[5])
    return rows  # type: ignore[return-value]


def league_markdown(records: Sequence[dict[str, Any]]) -> list[str]:
    rows = league_rows(records)
    if not rows:
        return []
    out = [
        "| bot | deals | win share [95%] | rating [95%] |",
        "|---|---|---|---|",
    ]
    for bot, n, mean, lo, hi, elo, elo_lo, elo_hi, *_ in rows:  # type: ignore[misc]
        out.append(f"| `{bot}` | {n} | {mean:.3f} [{lo:.3f}, {hi:.3f}] | {elo:+.0f} [{elo_lo:+.0f}, {elo_hi:+.0f}] |")
    return out


def league_lines(records: Sequence[dict[str, Any]]) -> list[str]:
    """The league's table for a terminal (under 80 columns)."""
    rows = league_rows(records)
    width = max([len(r[0]) for r in rows] + [3]) + 1
    out = [
        "share: mean deal score against the others (0.5 even); rating: Elo-style, medium 0",
        f"{'bot':<{width}}{'deals':>6}{'share':>7}{'95% CI':>15}{'rating':>7}{'95% CI':>13}",
    ]
    for bot, n, mean, lo, hi, elo, elo_lo, elo_hi, *_ in rows:  # type: ignore[misc]
        out.append(
            f"{bot:<{width}}{n:>6}{mean:>7.3f}{f'[{lo:.2f}, {hi:.2f}]':>15}{elo:>+7.0f}"
            f"{f'[{elo_lo:+.0f}, {elo_hi:+.0f}]':>13}"
        )
    return out


def cells_markdown(records: Iterable[dict[str, Any]]) -> list[str]:
    """One row per compare cell: deals, wins, the sign test, margins, the side's money."""
    from modernart.bots.league import cells_of, parse_cell_key

    rows = []
    for cell in cells_of(records).values():
        kind, a, b, pool, k, _n = parse_cell_key(cell.key)
        if kind != "compare" or not cell.deals:
            continue
        n = len(cell.deals)
        bigger_a, bigger_b = cell.margin_counts()
        money = sum(cell.money_diffs) / n
        seats = "" if k == 1 else f" x{k}"
        rows.append(
            f"| `{a}`{seats} | `{b}`{seats} | {','.join(pool)} | {n} | {cell.a_wins / n:.1%} | {cell.b_wins / n:.1%} "
            f"| {cell.a_only} : {cell.b_only} | {_p(cell.sign_p)} | {bigger_a} : {bigger_b} | {_p(cell.margin_p)} "
            f"| {money:+.1f} | {_p(cell.money_p)} |"
        )
    if not rows:
        return []
    return [
        "| A | B | pool | deals | A wins | B wins | only A : only B | sign p | margin larger A : B "
        "| signed-rank p | money A - B a deal | signed-rank p |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
    ]


def report_markdown(paths: Sequence[str]) -> list[str]:
    """The league table, then the compare cells' table, of every record in `paths`."""
    records = [r for path in paths for r in read_records(path)]
    league = league_markdown(records)
    cells = cells_markdown(records)
    return league + ([""] if league and cells else []) + cells


def print_report(paths: Sequence[str]) -> int:
    print("\n".join(report_markdown(paths)))
    return 0


#: the generated block of docs/bots.md: `docs_block(benchmarks/results)` between these lines
DOCS_BEGIN = "<!-- generated: modernart arena --report benchmarks/results/*.jsonl (do not edit by hand) -->"
DOCS_END = "<!-- end of the generated tables -->"
#: what each results file holds, as the block's headings say it
SECTIONS = {
    "league.jsonl": "The league: every bot against every other, duplicate deals (seats swapped)",
    "hard-vs-old.jsonl": "The hard bot against the old one (no searching rivals, Open raises by one step, keeps its own lots up to 1.15 of their value)",
    "pools.jsonl": "hard against medium, pool by pool (x2: a pair of each against two of the pool)",
    "rivals.jsonl": "The opponent model on and off",
    "jumps.jsonl": "medium's Open jumps on and off",
}


def docs_block(directory: Any) -> str:
    """The block of docs/bots.md: every results file of `directory` in `SECTIONS`' order."""
    from pathlib import Path

    out = [DOCS_BEGIN]
    for name, heading in SECTIONS.items():
        path = Path(directory) / name
        lines = report_markdown([str(path)]) if path.exists() else []
        if lines:
            out += ["", f"**{heading}** (`{name}`)", "", *lines]
    out += ["", DOCS_END]
    return "\n".join(out)
