"""Paired cells, resumable results files, the league's ratings and the statistics behind
docs/bots.md's tables (`modernart.bots.league`, cli/arena_runs.py, cli/arena_report.py)."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import pytest

from modernart.bots.league import (
    Cell,
    DealResult,
    bootstrap_elo,
    bradley_terry,
    cell_key,
    compare_seating,
    duplicate_seats,
    parse_cell_key,
    seatings_of,
)
from modernart.bots.paired import sign_test, signed_rank_test
from tests.bots.test_arena import arena

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- the tests' own statistics


def test_sign_test_is_the_exact_binomial() -> None:
    # P(X <= 2) for X ~ Bin(10, 1/2) is 56/1024; two-sided doubles it
    assert sign_test(2, 8) == pytest.approx(2 * 56 / 1024)
    assert sign_test(8, 2) == sign_test(2, 8)
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0


def _exact_signed_rank(diffs: list[float]) -> float:
    """Every sign pattern of the (mid-)ranks, enumerated: the exact two-sided p-value."""
    nonzero = sorted((d for d in diffs if d), key=abs)
    ranks = []
    for d in nonzero:
        tied = [i for i, e in enumerate(nonzero) if abs(e) == abs(d)]
        ranks.append(sum(tied) / len(tied) + 1)
    plus = sum(r for r, d in zip(ranks, nonzero) if d > 0)
    total = sum(ranks)
    low = min(plus, total - plus)
    count = sum(
        1
        for signs in itertools.product((0, 1), repeat=len(ranks))
        if sum(r for r, s in zip(ranks, signs) if s) <= low + 1e-9
    )
    return min(1.0, 2 * count / 2 ** len(ranks))


def test_signed_rank_is_exact_for_small_samples_with_ties() -> None:
    rng = random.Random(3)
    for _ in range(20):
        diffs = [rng.choice([-3, -2, -1, 0, 1, 1, 2, 4]) for _ in range(rng.randint(4, 12))]
        assert signed_rank_test(diffs) == pytest.approx(_exact_signed_rank(diffs))


def test_signed_rank_normal_approximation_handles_ties() -> None:
    """Above 50 differences: the normal approximation with the tie-corrected variance, close
    to the exact distribution (computed here by counting sign patterns of the doubled ranks)."""
    rng = random.Random(8)
    for shift in (0, 1, 2):  # from no effect to a clear one, with many tied absolute values
        diffs = [rng.choice([-2, -1, 1, 2, 3]) + (shift if rng.random() < 0.3 else 0) for _ in range(70)]
        nonzero = sorted((d for d in diffs if d), key=abs)
        doubled, i = [], 0
        while i < len(nonzero):
            j = i
            while j + 1 < len(nonzero) and abs(nonzero[j + 1]) == abs(nonzero[i]):
                j += 1
            doubled += [i + j + 2] * (j - i + 1)
            i = j + 1
        ways = [0] * (sum(doubled) + 1)
        ways[0] = 1
        for r in doubled:
            for w in range(len(ways) - 1, r - 1, -1):
                ways[w] += ways[w - r]
        plus = sum(r for r, d in zip(doubled, nonzero) if d > 0)
        low = min(plus, sum(doubled) - plus)
        exact = min(1.0, 2 * sum(ways[: low + 1]) / 2 ** len(doubled))
        approx = signed_rank_test(diffs)
        assert approx == pytest.approx(exact, abs=0.01 + 0.1 * exact)


# ---------------------------------------------------------------------- deals and cells


def test_compare_seatings_rotate_the_candidates_seats_and_keep_the_pool() -> None:
    pool = ["x", "y"]
    seen = set()
    for i in range(12):
        seats, first, second = seatings_of("compare", "A", "B", pool, 2, 4, i)
        assert [s for s in range(4) if first[s] == "A"] == list(seats)
        assert [s for s in range(4) if second[s] == "B"] == list(seats)
        assert sorted(first[s] for s in range(4) if s not in seats) == sorted(pool)
        assert all(first[s] == second[s] for s in range(4) if s not in seats)  # the same pool seats
        seen.add(seats)
    assert len(seen) == 6  # every choice of 2 of the 4 seats
    from modernart.bots.paired import deal_seating

    for i in range(30):  # one seat each: the seatings of `arena --compare` without --results
        seat, seating = deal_seating("A", ["x", "y", "z"], i)
        assert compare_seating("A", ["x", "y", "z"], 1, i) == ((seat,), seating)


def test_duplicate_deals_swap_the_two_sides() -> None:
    for n in (3, 4, 5):
        for i in range(10):
            seats, first, second = seatings_of("duplicate", "X", "Y", (), 0, n, i)
            assert seats == duplicate_seats(n, i) and len(seats) == n // 2
            assert all((first[s], second[s]) == (("X", "Y") if s in seats else ("Y", "X")) for s in range(n))


def test_cell_keys_round_trip() -> None:
    key = cell_key("compare", "hard", "medium", ["plain", "plain"], 2)
    assert key == "compare hard,medium vs plain,plain x2"
    assert parse_cell_key(key) == ("compare", "hard", "medium", ("plain", "plain"), 2, 4)
    assert parse_cell_key(cell_key("duplicate", "a", "b", n=5)) == ("duplicate", "a", "b", (), 0, 5)


def deal(cell: str, index: int, seats, money, winners) -> DealResult:
    return DealResult.of({"cell": cell, "deal": index, "seats": seats, "money": money, "winners": winners})


def test_a_compare_deal_is_scored_from_the_candidates_seats() -> None:
    cell = "compare A,B vs x,y x2"
    d = deal(cell, 0, [0, 2], [[50, 10, 40, 60], [30, 20, 35, 70]], [[3], [3]])
    assert not d.a_won() and not d.b_won() and d.a_score() == 0.5
    assert d.margin_diff() == (50 - 60) - (35 - 70)
    assert d.money_diff() == (50 + 40) - (30 + 35)
    d = deal(cell, 1, [1, 3], [[10, 80, 5, 2], [10, 5, 90, 2]], [[1], [2]])
    assert d.a_won() and not d.b_won() and d.a_score() == 1.0
    c = Cell(cell, [d, deal(cell, 2, [0, 1], [[9, 1, 5, 5], [9, 1, 5, 5]], [[0], [0]])])
    assert (c.a_only, c.b_only, c.a_wins, c.b_wins) == (1, 0, 2, 1)


def test_a_duplicate_deal_scores_both_games() -> None:
    # X at seats 0,1 in game 1 (won by seat 0), Y there in game 2 (won by seat 2, an X seat then)
    d = deal("duplicate X,Y n4", 0, [0, 1], [[60, 10, 30, 20], [20, 10, 70, 30]], [[0], [2]])
    assert d.a_score() == 1.0
    assert d.margin_diff() == (60 - 30) + (70 - 20)  # X best minus Y best, in each game
    shared = deal("duplicate X,Y n4", 1, [0, 1], [[50, 10, 50, 20], [20, 10, 70, 30]], [[0, 2], [0]])
    assert shared.a_score() == pytest.approx((0.5 + 0.0) / 2)


def test_bradley_terry_orders_a_transitive_league_and_its_intervals_hold_the_estimate() -> None:
    rng = random.Random(1)
    truth = {"a": 200.0, "b": 0.0, "c": -200.0}
    scores = {}
    for x, y in itertools.combinations(truth, 2):
        p = 1 / (1 + 10 ** ((truth[y] - truth[x]) / 400))
        scores[(x, y)] = [1.0 if rng.random() < p else 0.0 for _ in range(300)]
    elo = bradley_terry(scores, anchor="b")
    assert elo["b"] == 0 and elo["a"] > 100 > -100 > elo["c"]
    assert abs(elo["a"] - 200) < 80 and abs(elo["c"] + 200) < 80
    intervals = bootstrap_elo(scores, anchor="b", rounds=60)
    for name, (lo, hi) in intervals.items():
        assert lo <= elo[name] <= hi
    even = bradley_terry({("p", "q"): [0.5] * 10})
    assert even["p"] == pytest.approx(even["q"])
    sweep = bradley_terry({("p", "q"): [1.0] * 10})  # a clean sweep stays finite (the prior)
    assert math.isfinite(sweep["p"]) and sweep["p"] > sweep["q"]


# ---------------------------------------------------------------------- the command


@pytest.mark.timeout(300)
def test_results_file_keeps_each_deal_and_resumes(tmp_path: Path) -> None:
    results = tmp_path / "cells.jsonl"
    common = ["--compare", "medium,underbidder", "--against", "medium,plain", "--seed", "5", "--jobs", "1"]
    done = arena(*common, "--games", "3", "--results", str(results))
    assert done.returncode == 0, done.stderr
    first = results.read_text().splitlines()
    assert len(first) == 3
    done = arena(*common, "--games", "5", "--results", str(results))  # two more deals, the first three kept
    assert done.returncode == 0, done.stderr
    lines = results.read_text().splitlines()
    assert lines[:3] == first and len(lines) == 5
    assert "5 of 5 paired deals" in " ".join(done.stdout.split())
    fresh = tmp_path / "fresh.jsonl"
    done = arena(*common, "--games", "5", "--jobs", "2", "--results", str(fresh))
    assert done.returncode == 0, done.stderr

    def by_deal(text: str) -> list[dict]:
        records = [json.loads(line) for line in text.splitlines()]
        return sorted(({k: v for k, v in r.items() if k != "cpu"} for r in records), key=lambda r: r["deal"])

    assert by_deal(fresh.read_text()) == by_deal(results.read_text())  # the same deals, however played
    with results.open("a") as f:
        f.write('{"cell": "cut short')  # a line a crash cut off is skipped, not fatal
    done = arena(*common, "--games", "5", "--results", str(results))
    assert done.returncode == 0, done.stderr
    record = json.loads(lines[0])
    assert set(record) >= {"cell", "deal", "seats", "money", "winners", "cpu", "seed"}


@pytest.mark.timeout(300)
def test_compare_with_candidate_pairs(tmp_path: Path) -> None:
    results = tmp_path / "pairs.jsonl"
    done = arena(
        "--compare", "medium,underbidder", "--against", "plain,plain", "--candidate-seats", "2",
        "--games", "4", "--results", str(results), "--jobs", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert all(len(r["seats"]) == 2 for r in records)
    assert "x2" in records[0]["cell"] and all(len(line) <= 80 for line in done.stdout.splitlines())


@pytest.mark.timeout(300)
def test_league_prints_shares_and_ratings_and_resumes(tmp_path: Path) -> None:
    results = tmp_path / "league.jsonl"
    args = ["--league", "--league-bots", "medium,underbidder,plain", "--games", "2", "--results", str(results)]
    done = arena(*args, "--jobs", "1", "--progress", "on")
    assert done.returncode == 0, done.stderr
    assert "games" in done.stderr  # the progress bar (on request: stderr is not a terminal here)
    assert len(results.read_text().splitlines()) == 3 * 2  # three pairs, two deals each
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    rows = {line.split()[0]: line.split() for line in lines if line.split()[:1] in (["medium"], ["plain"])}
    assert rows["medium"][1] == "4" and 0 <= float(rows["medium"][2]) <= 1
    assert float(rows["medium"][-3]) == 0  # medium anchors the ratings
    again = arena(*args, "--jobs", "1")
    assert again.returncode == 0 and len(results.read_text().splitlines()) == 6  # nothing played twice


def test_league_needs_a_results_file() -> None:
    done = arena("--league", timeout=30)
    assert done.returncode == 2 and "--league needs --results FILE" in done.stderr


def test_docs_tables_are_the_reports_of_the_stored_results() -> None:
    """docs/bots.md's generated block is `modernart arena --report` over benchmarks/results/
    (the same files, the same order): it is not written by hand."""
    from modernart.cli.arena_report import DOCS_BEGIN, DOCS_END, docs_block

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    start, end = text.index(DOCS_BEGIN), text.index(DOCS_END)
    assert text[start : end + len(DOCS_END)] == docs_block(ROOT / "benchmarks" / "results")
