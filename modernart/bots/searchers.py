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
#: medium's amount; measured with `fit(24)` (the hard bot at the table's setting, four a
#: game: 1,843 bidder decisions, 320 as auctioneer, 122 Fixed prices).  A fifth of its bids
#: are 1.23-1.49 times medium's and one in twenty is none; as the auctioneer it never goes
#: above medium's amount (the break-even of keeping its own lot, `HardBot(keep_cap=True)`);
#: it asks 1.24-1.83 times medium's Fixed price half the time.
RATIOS: dict[str, tuple[float, ...]] = {
    BID: (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.231, 1.262, 1.357, 1.487),
    KEEP: (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    PRICE: (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.237, 1.25, 1.25, 1.273, 1.471, 1.485, 1.5, 1.5, 1.531, 1.833),
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
