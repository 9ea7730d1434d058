"""How a searching rival bids: a policy fitted to the hard bot's own decisions in self-play.

The hard bot's rollouts play every rival by the medium bot's rules, scaled by what the
rival has been seen to do (`opponents.py`).  A rival that is itself a hard bot does not
bid like a scaled medium bot: it searches, and when its search finds a lot worth more
than medium's limit it bids up to 1.15 times the lot's value.  Two hard bots that each
took the other for a medium bot both bid high, and the money went to the auctioneer or
the bank (issue 28: 2 hard + 2 heuristic bots ended with less money than 2 medium).

So a seat known to search (another hard bot: at a table the lobby shows which seats are
bots and of what level; in the arena the seating says it) is rolled out by this policy:
each time it would set a limit, a sealed bid or a Fixed price, its medium amount is
multiplied by a ratio drawn from `RATIOS`, the ratios of the amount the hard bot chose to
the amount the medium bot would have chosen in the same position, recorded over hard
self-play games (`searcher_fit.fit`; ratio 0: it passed or bid nothing where medium would bid).  The
draws keep the hard bot's mixture: mostly medium's own amount (ratio 1), sometimes far
above or below it, so the searching rival in a rollout overpays where the real one would.

>>> sorted(RATIOS) == sorted(ROLES)
True
>>> all(0.0 <= r <= 3.0 for rs in RATIOS.values() for r in rs)
True
"""

from __future__ import annotations

import random
from typing import Sequence

from ..phase import Phase

#: roles of an amount decision: a bidder's limit or bid (Open limit, Once-around bid,
#: Sealed bid), an auctioneer's for its own lot, a Fixed price asked
BID, KEEP, PRICE = "bid", "keep", "price"
ROLES = (BID, KEEP, PRICE)
#: the steps with an amount the hard bot searches (the Open limit is noted where it is found)
AMOUNT_PHASES = (Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET)

#: per role, 20 quantiles (the 2.5th to the 97.5th percentile) of the ratio hard's amount /
#: medium's amount; measured with `fit(24)` (the hard bot at the table's setting, searching
#: rivals not yet modelled, four a game: 1,857 bidder decisions, 356 as auctioneer, 124
#: Fixed prices; 2026-12-04).  A quarter of its bids are 1.18-1.49 times medium's and one in
#: twenty is none; it asks 1.2-1.8 times medium's Fixed price four times in ten.
RATIOS: dict[str, tuple[float, ...]] = {
    BID: (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.179, 1.243, 1.263, 1.37, 1.486),
    KEEP: (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.483, 1.759),
    PRICE: (1, 1, 1, 1, 1, 1, 1, 1, 1.222, 1.242, 1.25, 1.265, 1.429, 1.476, 1.488, 1.5, 1.5, 1.509, 1.517, 1.829),
}


def draw(role: str, rng: random.Random) -> float:
    """One ratio of the role's fitted distribution."""
    table = RATIOS[role]
    return table[int(rng.random() * len(table))]


def quantiles(values: Sequence[float], count: int = 20) -> tuple[float, ...]:
    """`count` evenly spaced quantiles (midpoints of `count` equal slices) of `values`.

    >>> quantiles([1.0, 2.0, 3.0, 4.0], 2)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    if not ordered:
        return (1.0,) * count
    return tuple(ordered[min(len(ordered) - 1, int((i + 0.5) / count * len(ordered)))] for i in range(count))
