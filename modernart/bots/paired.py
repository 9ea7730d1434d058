"""Paired comparisons: two candidate bots play the same deals from the same seat against
the same opponents (`modernart arena --compare A,B --against POOL`).

Deal i puts the candidate in seat i mod n and the pool's other seats in one of the pool's
orders (all of them in turn), so every candidate meets every opponent from every seat.
Both candidates play deal i with the same game seed and the same bot seeds, so luck of
the deal hits both alike and only their play differs.  What is compared is the win (a
co-winner counts as a winner): of the deals where exactly one of the two candidates won,
how many went each way (the *discordant* deals), and the exact two-sided sign test of
those counts (a binomial test with p = 1/2; the concordant deals say nothing about which
candidate is stronger).  Each candidate's win rate gets a 95% Wilson interval.

Where both candidates win (nearly) every deal, or nearly none, wins cannot tell them
apart.  So each deal is also scored by a finer outcome, the candidate's *margin*: its final
money minus the richest other seat's (positive: it won by that much; negative: it lost by
that much).  The paired test on it is the Wilcoxon signed-rank test of the per-deal
differences of margin (A's margin minus B's on the same deal; deals with equal margins
dropped, tied differences given their mean rank; exact up to 50 differing deals, the
normal approximation above): it asks whether one candidate's margin is larger on the same
deals more often and by more than chance would give.

>>> round(sign_test(60, 29), 4)
0.0013
>>> sign_test(5, 5)
1.0
>>> round(signed_rank_test([3, 5, -1, 7, 2, 4]), 4)
0.0625
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from .arena import GameOutcome, seatings, wilson


def deal_seating(candidate: str, pool: Sequence[str], index: int) -> tuple[int, tuple[str, ...]]:
    """(the candidate's seat, the whole seating) of deal `index`."""
    n = len(pool) + 1
    orders = seatings(pool)
    seat = index % n
    order = list(orders[(index // n) % len(orders)])
    order.insert(seat, candidate)
    return seat, tuple(order)


def sign_test(a_only: int, b_only: int) -> float:
    """Exact two-sided sign test: the chance of a split at least this uneven if both
    candidates were equally strong (each discordant deal a fair coin)."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def signed_rank_test(diffs: Sequence[float]) -> float:
    """Two-sided Wilcoxon signed-rank test that the paired differences are centred on 0.

    Zero differences are dropped; tied absolute values share their mean rank.  With at most
    50 non-zero differences the p-value is exact (every sign pattern of the given ranks
    equally likely); above that, the normal approximation with the variance corrected for
    ties.
    """
    nonzero = [d for d in diffs if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0
    ordered = sorted(nonzero, key=abs)
    doubled: list[int] = []  # twice each rank, so that mean ranks of ties stay integers
    tie_term = 0  # sum of t^3 - t over the groups of tied absolute values
    i = 0
    while i < n:
        j = i
        while j + 1 < n and abs(ordered[j + 1]) == abs(ordered[i]):
            j += 1
        doubled += [i + j + 2] * (j - i + 1)  # ranks i+1 .. j+1, their mean times two
        t = j - i + 1
        tie_term += t * t * t - t
        i = j + 1
    plus = sum(r for r, d in zip(doubled, ordered) if d > 0)  # twice W+
    total = sum(doubled)  # twice n(n+1)/2
    if n <= 50:
        ways = [0] * (total + 1)  # ways[w]: sign patterns whose doubled W+ is w
        ways[0] = 1
        for r in doubled:
            for w in range(total, r - 1, -1):
                ways[w] += ways[w - r]
        low = min(plus, total - plus)
        tail = sum(ways[: low + 1]) / 2.0**n
        return min(1.0, 2.0 * tail)
    mean = total / 2.0  # of doubled W+: 2 * n(n+1)/4
    variance = 4.0 * (n * (n + 1) * (2 * n + 1) / 24.0 - tie_term / 48.0)
    if variance <= 0.0:
        return 1.0
    z = abs(plus - mean) / math.sqrt(variance)
    return math.erfc(z / math.sqrt(2.0))


def margin(outcome: GameOutcome, seat: int) -> int:
    """The seat's final money minus the richest other seat's (>= 0: it won)."""
    money = outcome.money
    return money[seat] - max(m for s, m in enumerate(money) if s != seat)


@dataclass
class Side:
    """One candidate's totals over the deals."""

    name: str
    deals: int = 0
    wins: int = 0
    share: float = 0.0
    money: int = 0
    decisions: int = 0
    think: float = 0.0
    margins: list[int] = field(default_factory=list)  # per deal, its margin over the richest rival

    def add(self, outcome: GameOutcome, seat: int) -> None:
        self.deals += 1
        if seat in outcome.winners:
            self.wins += 1
            self.share += 1.0 / len(outcome.winners)
        self.money += outcome.money[seat]
        self.margins.append(margin(outcome, seat))
        self.decisions += len(outcome.times[seat])
        self.think += sum(outcome.times[seat])

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.deals)

    @property
    def mean_money(self) -> float:
        return self.money / self.deals if self.deals else 0.0

    @property
    def mean_margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0


@dataclass
class Paired:
    """Two candidates over the same deals: their totals and the discordant counts."""

    a: Side
    b: Side
    a_only: int = 0  # deals candidate a won and b did not
    b_only: int = 0
    both: int = 0
    neither: int = 0

    @property
    def p_value(self) -> float:
        return sign_test(self.a_only, self.b_only)

    @property
    def margin_diffs(self) -> list[int]:
        """Per deal: a's margin over its richest rival minus b's."""
        return [x - y for x, y in zip(self.a.margins, self.b.margins)]

    @property
    def margin_counts(self) -> tuple[int, int, int]:
        """Deals where a's margin was larger, where b's was, and where they were equal."""
        diffs = self.margin_diffs
        return sum(d > 0 for d in diffs), sum(d < 0 for d in diffs), sum(d == 0 for d in diffs)

    @property
    def margin_p_value(self) -> float:
        """The Wilcoxon signed-rank test on the per-deal differences of margin."""
        return signed_rank_test(self.margin_diffs)

    def verdict(self, level: float = 0.05) -> str:
        """Which candidate is stronger by wins at the given significance level, in words."""
        if self.p_value >= level:
            return f"no significant difference at {level:.0%}"
        better = self.a.name if self.a_only > self.b_only else self.b.name
        return f"{better} stronger (significant at {level:.0%})"

    def margin_verdict(self, level: float = 0.05) -> str:
        """The same by the margin over the richest rival (the signed-rank test)."""
        if self.margin_p_value >= level:
            return f"no significant difference at {level:.0%}"
        better = self.a.name if sum(self.margin_diffs) > 0 else self.b.name
        return f"{better} wins by more (significant at {level:.0%})"


def pair(
    a: str, b: str, seats: Sequence[int], a_outcomes: Sequence[GameOutcome], b_outcomes: Sequence[GameOutcome]
) -> Paired:
    """The paired totals of deals where candidate a (b) played `seats[i]` in `a_outcomes[i]`
    (`b_outcomes[i]`)."""
    if not len(seats) == len(a_outcomes) == len(b_outcomes):
        raise ValueError("every deal needs a seat and both candidates' outcomes")
    result = Paired(Side(a), Side(b))
    for seat, oa, ob in zip(seats, a_outcomes, b_outcomes):
        result.a.add(oa, seat)
        result.b.add(ob, seat)
        wa, wb = seat in oa.winners, seat in ob.winners
        if wa and wb:
            result.both += 1
        elif wa:
            result.a_only += 1
        elif wb:
            result.b_only += 1
        else:
            result.neither += 1
    return result
