"""Paired cells of bot games and what they show: the arena's comparisons, the self-play
league, and the tables of docs/bots.md, all from one kind of record.

A *cell* is a set of paired deals.  Each deal is played twice with the same game seed and
the same bot seeds by seat, so the luck of the deal hits both games alike:

* a **compare** cell (`A,B` against a pool): candidate A holds `k` seats of game 1 and
  candidate B the same seats of game 2; the pool holds the other seats in both games.
  The seats rotate over every choice of `k` seats and the pool over its orders.
* a **duplicate** cell (X against Y, the league): X holds half the seats of game 1 (the
  extra seat of an odd table alternating) and Y the rest; game 2 swaps them.  X's score
  in a deal is its share of the wins over both games (co-winners split a win), 0.5 when
  both play alike.

A deal's record (`deal_record`) is a plain dict, written one JSON line per deal by the
arena (`modernart arena --results FILE`), so that a run can stop and resume and runs can
be pooled.  From records: sign tests on the deals one side won and the other did not,
signed-rank tests on margins (a side's best final money minus the best of the rest) and
on money, and for the league a Bradley-Terry fit of every bot's strength from the deal
scores, as Elo points (400 log10 of the strength ratio), with bootstrap intervals.

>>> elo = bradley_terry({("a", "b"): [1.0, 1.0, 0.0, 1.0]})
>>> round(elo["a"] - elo["b"])
147
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .paired import sign_test, signed_rank_test

COMPARE, DUPLICATE = "compare", "duplicate"
#: virtual deals at 0.5 that each pair of a Bradley-Terry fit starts from, so that a bot
#: that won every deal of a pair gets a finite rating (a prior worth one drawn deal)
PRIOR_DEALS = 1.0


def compare_seating(a: str, pool: Sequence[str], k: int, index: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(the candidate's seats, game 1's seating) of deal `index` of a compare cell in which
    candidate `a` holds `k` seats and `pool` the rest."""
    n = len(pool) + k
    choices = list(itertools.combinations(range(n), k))
    seats = choices[index % len(choices)]
    orders = list(itertools.permutations(range(len(pool))))
    order = orders[(index // len(choices)) % len(orders)]
    rest = iter(pool[i] for i in order)
    return seats, tuple(a if s in seats else next(rest) for s in range(n))


def duplicate_seats(n: int, index: int) -> tuple[int, ...]:
    """X's seats in game 1 of deal `index` of a duplicate cell at an n-seat table: n // 2 of
    them, every choice in turn (at an odd table X holds the extra seat in game 2).

    >>> [duplicate_seats(4, i) for i in range(3)]
    [(0, 1), (0, 2), (0, 3)]
    """
    choices = list(itertools.combinations(range(n), n // 2))
    return choices[index % len(choices)]


def seatings_of(
    kind: str, a: str, b: str, pool: Sequence[str], k: int, n: int, index: int
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]:
    """(side A's seats in game 1, game 1's seating, game 2's seating) of one deal."""
    if kind == COMPARE:
        seats, first = compare_seating(a, pool, k, index)
        second = tuple(b if s in seats else first[s] for s in range(len(first)))
        return seats, first, second
    seats = duplicate_seats(n, index)
    first = tuple(a if s in seats else b for s in range(n))
    second = tuple(b if s in seats else a for s in range(n))
    return seats, first, second


def cell_key(kind: str, a: str, b: str, pool: Sequence[str] = (), k: int = 1, n: int = 4) -> str:
    """The name a cell's records carry: 'compare A,B vs POOL xK' or 'duplicate X,Y nN'."""
    if kind == COMPARE:
        return f"compare {a},{b} vs {','.join(pool)} x{k}"
    return f"duplicate {a},{b} n{n}"


def parse_cell_key(key: str) -> tuple[str, str, str, tuple[str, ...], int, int]:
    """(kind, a, b, pool, k, n) of a cell key."""
    kind, rest = key.split(" ", 1)
    if kind == COMPARE:
        pair, _vs, pool, k = rest.split(" ")
        a, b = pair.split(",")
        names = tuple(pool.split(","))
        return kind, a, b, names, int(k[1:]), len(names) + int(k[1:])
    pair, n = rest.split(" ")
    a, b = pair.split(",")
    return kind, a, b, (), 0, int(n[1:])


# ---------------------------------------------------------------------- one deal


def side_money(money: Sequence[int], seats: Iterable[int]) -> int:
    return sum(money[s] for s in seats)


def side_margin(money: Sequence[int], seats: Sequence[int]) -> int:
    """The side's best final money minus the best of the other seats (>= 0: it won)."""
    others = [m for s, m in enumerate(money) if s not in seats]
    return max(money[s] for s in seats) - max(others)


def side_share(winners: Sequence[int], seats: Sequence[int]) -> float:
    """The side's share of the game's win (co-winners split it)."""
    return sum(1 for w in winners if w in seats) / len(winners) if winners else 0.0


@dataclass(frozen=True)
class DealResult:
    """One deal seen from side A: its seats in game 1 and both games' money and winners."""

    cell: str
    index: int
    seats: tuple[int, ...]
    money: tuple[tuple[int, ...], tuple[int, ...]]
    winners: tuple[tuple[int, ...], tuple[int, ...]]

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> DealResult:
        return cls(
            record["cell"],
            int(record["deal"]),
            tuple(record["seats"]),
            (tuple(record["money"][0]), tuple(record["money"][1])),
            (tuple(record["winners"][0]), tuple(record["winners"][1])),
        )

    @property
    def duplicate(self) -> bool:
        return self.cell.startswith(DUPLICATE)

    def other_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.money[0])) if s not in self.seats)

    def a_won(self) -> bool:
        """Side A won game 1 (a co-winner counts)."""
        return any(w in self.seats for w in self.winners[0])

    def b_won(self) -> bool:
        """Side B won: in a compare cell, game 2 from the same seats; in a duplicate, game 2
        from A's seats of game 1 (where B sat then)."""
        return any(w in self.seats for w in self.winners[1])

    def a_score(self) -> float:
        """Side A's share of the deal's wins: compare, game 1 against game 2 (1: only A's
        seats won, 0.5: both or neither); duplicate, A's share of both games' wins."""
        if self.duplicate:
            other = self.other_seats()
            return (side_share(self.winners[0], self.seats) + side_share(self.winners[1], other)) / 2.0
        return 0.5 + (self.a_won() - self.b_won()) / 2.0

    def margin_diff(self) -> int:
        """A's margin minus B's on the same deal."""
        if self.duplicate:
            other = self.other_seats()
            return side_margin(self.money[0], self.seats) + side_margin(self.money[1], other)
        return side_margin(self.money[0], self.seats) - side_margin(self.money[1], self.seats)

    def money_diff(self) -> int:
        """A's side's final money minus B's side's on the same seats."""
        if self.duplicate:
            other = self.other_seats()
            return (
                side_money(self.money[0], self.seats)
                - side_money(self.money[0], other)
                + side_money(self.money[1], other)
                - side_money(self.money[1], self.seats)
            )
        return side_money(self.money[0], self.seats) - side_money(self.money[1], self.seats)


def deal_record(
    cell: str, index: int, seats: Sequence[int], games: Sequence[Mapping[str, Any]], cpu: Mapping[str, float]
) -> dict[str, Any]:
    """The JSON record of one deal: both games' money and winners, and per bot spec the
    most CPU seconds one of its decisions took and its p95 (`cpu`)."""
    return {
        "cell": cell,
        "deal": index,
        "seats": list(seats),
        "money": [list(g["money"]) for g in games],
        "winners": [list(g["winners"]) for g in games],
        "cpu": dict(cpu),
    }


# ---------------------------------------------------------------------- a cell


@dataclass
class Cell:
    """The totals of one cell's deals, seen from side A."""

    key: str
    deals: list[DealResult] = field(default_factory=list)

    @property
    def a(self) -> str:
        return parse_cell_key(self.key)[1]

    @property
    def b(self) -> str:
        return parse_cell_key(self.key)[2]

    @property
    def a_only(self) -> int:
        """Deals A won and B did not (duplicate: A's score above one half)."""
        if self.deals and self.deals[0].duplicate:
            return sum(d.a_score() > 0.5 for d in self.deals)
        return sum(d.a_won() and not d.b_won() for d in self.deals)

    @property
    def b_only(self) -> int:
        if self.deals and self.deals[0].duplicate:
            return sum(d.a_score() < 0.5 for d in self.deals)
        return sum(d.b_won() and not d.a_won() for d in self.deals)

    @property
    def a_wins(self) -> int:
        return sum(d.a_won() for d in self.deals)

    @property
    def b_wins(self) -> int:
        return sum(d.b_won() for d in self.deals)

    @property
    def score(self) -> float:
        return sum(d.a_score() for d in self.deals) / len(self.deals) if self.deals else 0.5

    @property
    def sign_p(self) -> float:
        return sign_test(self.a_only, self.b_only)

    @property
    def margin_diffs(self) -> list[int]:
        return [d.margin_diff() for d in self.deals]

    @property
    def margin_p(self) -> float:
        return signed_rank_test(self.margin_diffs)

    @property
    def money_diffs(self) -> list[int]:
        return [d.money_diff() for d in self.deals]

    @property
    def money_p(self) -> float:
        return signed_rank_test(self.money_diffs)

    def margin_counts(self) -> tuple[int, int]:
        diffs = self.margin_diffs
        return sum(x > 0 for x in diffs), sum(x < 0 for x in diffs)


def cells_of(records: Iterable[Mapping[str, Any]]) -> dict[str, Cell]:
    """Every cell of the records (a deal recorded twice counts once), in order of first
    appearance, its deals in deal order."""
    cells: dict[str, dict[int, DealResult]] = {}
    for record in records:
        deal = DealResult.of(record)
        cells.setdefault(deal.cell, {})[deal.index] = deal
    return {key: Cell(key, [deals[i] for i in sorted(deals)]) for key, deals in cells.items()}


# ---------------------------------------------------------------------- ratings


def bradley_terry(
    scores: Mapping[tuple[str, str], Sequence[float]], anchor: str | None = None, iterations: int = 500
) -> dict[str, float]:
    """Elo-style ratings (400 log10 of the Bradley-Terry strength) from per-deal scores of
    pairs: scores[(x, y)] lists x's score against y in each deal (0..1).  Each pair starts
    from `PRIOR_DEALS` virtual drawn deals.  The ratings average 0, or `anchor` is 0."""
    names = sorted({name for pair in scores for name in pair})
    won = {name: 0.0 for name in names}
    games: dict[tuple[str, str], float] = {}
    for (x, y), values in scores.items():
        total = len(values) + PRIOR_DEALS
        got = sum(values) + PRIOR_DEALS / 2.0
        won[x] += got
        won[y] += total - got
        key = (x, y) if x < y else (y, x)
        games[key] = games.get(key, 0.0) + total
    strength = {name: 1.0 for name in names}
    for _ in range(iterations):
        new = {}
        for i in names:
            denom = 0.0
            for (x, y), count in games.items():
                if i == x:
                    denom += count / (strength[i] + strength[y])
                elif i == y:
                    denom += count / (strength[i] + strength[x])
            new[i] = won[i] / denom if denom > 0 else strength[i]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {k: math.exp(math.log(v) - mean_log) for k, v in new.items()}
    elo = {k: 400.0 * math.log10(v) for k, v in strength.items()}
    if anchor is not None and anchor in elo:
        shift = elo[anchor]
        elo = {k: v - shift for k, v in elo.items()}
    return elo


def bootstrap_elo(
    scores: Mapping[tuple[str, str], Sequence[float]], anchor: str | None = None, rounds: int = 200, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95% intervals of the ratings: the deals of every pair resampled with replacement."""
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {}
    for _ in range(rounds):
        sample = {pair: [rng.choice(values) for _ in values] for pair, values in scores.items() if values}
        for name, value in bradley_terry(sample, anchor, iterations=200).items():
            draws.setdefault(name, []).append(value)
    out = {}
    for name, values in draws.items():
        values.sort()
        out[name] = (values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))])
    return out


def league_scores(cells: Iterable[Cell]) -> dict[tuple[str, str], list[float]]:
    """The duplicate cells' per-deal scores by pair (x, y)."""
    out: dict[tuple[str, str], list[float]] = {}
    for cell in cells:
        if cell.deals and cell.deals[0].duplicate:
            out.setdefault((cell.a, cell.b), []).extend(d.a_score() for d in cell.deals)
    return out
