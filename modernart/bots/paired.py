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

>>> round(sign_test(60, 29), 4)
0.0013
>>> sign_test(5, 5)
1.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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

    def add(self, outcome: GameOutcome, seat: int) -> None:
        self.deals += 1
        if seat in outcome.winners:
            self.wins += 1
            self.share += 1.0 / len(outcome.winners)
        self.money += outcome.money[seat]
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

    def verdict(self, level: float = 0.05) -> str:
        """Which candidate is stronger at the given significance level, in words."""
        if self.p_value >= level:
            return f"no significant difference at {level:.0%}"
        better = self.a.name if self.a_only > self.b_only else self.b.name
        return f"{better} stronger (significant at {level:.0%})"


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
