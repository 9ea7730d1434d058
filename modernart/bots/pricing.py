"""How much a lot is worth paying for, and what an auctioneer expects to earn from it.

Everything is measured as *relative* money: a seat's own gain minus the average gain of
the other seats, because only the ranking of the final money matters.  With n seats:

* a bidder who buys a lot of value L at price P from another seat gains L - P, and the
  auctioneer gains P; compared with letting a third seat buy at that price, buying is
  better up to P = L, compared with the auctioneer keeping it, up to P = nL/(n+1);
* an auctioneer who keeps its own lot at P (paying the bank) gains L - P; selling it at P
  gains P while the buyer gains L - P, so keeping is better up to P = nL/(2n-1).

The constants below sit inside those bounds with a margin for the error in L.
"""

from __future__ import annotations

from ..cards import AuctionType

#: a bidder's limit as a share of the lot's value (Open, Once-around, accepting a fixed price)
BIDDER_LIMIT = 0.85
#: a bidder's sealed bid as a share of its limit (first-price: shade the bid)
SEALED_SHADE = 0.75
#: a non-final Once-around bid as a share of the limit (later seats may still outbid)
ONCE_SHADE = 0.8
#: the auctioneer's sealed bid as a share of the lot's value (it wins ties)
AUCTIONEER_SEALED = 0.45
#: the fixed price as a share of the lot's value
FIXED_SHARE = 0.6
#: expected price as a share of the lot's value, by the auction type of the lot
EXPECTED_PRICE = {
    AuctionType.OPEN: 0.8,
    AuctionType.ONCE_AROUND: 0.7,
    AuctionType.SEALED: 0.7,
    AuctionType.FIXED_PRICE: 0.65,
    AuctionType.DOUBLE: 0.7,
}


def bidder_limit(lot_value: float) -> float:
    return BIDDER_LIMIT * lot_value


def auctioneer_limit(lot_value: float, n: int) -> float:
    """Most an auctioneer should pay the bank for its own lot."""
    return lot_value * n / (2 * n - 1)


def sale_gain(lot_value: float, kind: AuctionType, n: int) -> float:
    """Relative money an auctioneer expects from putting up a lot of this value and type."""
    tau = EXPECTED_PRICE[kind]
    return lot_value * (tau - (1.0 - tau) / (n - 1))


def fixed_price(lot_value: float, money: int, share: float = FIXED_SHARE) -> int:
    """The price to announce, `share` of the lot's value (1..money; 0 only when holding
    nothing, docs/rules.md §12.4)."""
    if money <= 0:
        return 0
    return max(1, min(money, round(share * lot_value)))


#: an Open bidder opens at this share of its limit, then jumps this share of the way from the
#: high bid to its limit (at least one step), and bids its limit once it is within
#: `OPEN_CLOSE_STEPS` steps of it: a person who wants a painting bids towards its price in a
#: few jumps, so a table of bots settles an Open auction in a few bids
OPEN_OPENING = 0.6
OPEN_JUMP = 0.5
OPEN_CLOSE_STEPS = 2
#: the old manners (until 2026-12-04): open at about a third of the limit, then steps only
CREEP_OPENING = 0.35


def open_step(high: int) -> int:
    """The least raise a person would make at this price: 1 under 10, 2 under 30, else 5."""
    return 1 if high < 10 else 2 if high < 30 else 5


def open_raise(
    high: int, limit: int, jumps: bool = True, opening: float = OPEN_OPENING, close_steps: int = OPEN_CLOSE_STEPS
) -> int:
    """Next bid in an Open auction, never above `limit` (0 when the limit does not beat the
    high bid): open at 0.6 of the limit, then jump half the way to the limit, or raise by one
    step (`open_step`) where that is more, and bid the limit itself once it is within two
    steps.  With `jumps=False` the old manners: open at about a third of the limit and
    raise by one step at a time.  `opening`, `close_steps`: the opening share and the steps
    from the limit at which it bids the limit, with jumps (for the arena's experiments).

    >>> [open_raise(h, 40) for h in (0, 21, 26, 32, 40)]
    [24, 31, 33, 40, 0]
    >>> [open_raise(h, 40, jumps=False) for h in (0, 21, 32, 38)]
    [14, 23, 37, 40]
    """
    if limit <= high:
        return 0
    if high == 0:
        return max(1, min(limit, round(limit * (opening if jumps else CREEP_OPENING))))
    step = open_step(high)
    if jumps:
        if limit - high <= close_steps * step:
            return limit
        step = max(step, round(OPEN_JUMP * (limit - high)))
    return min(limit, high + step)


def hand_card_worth(round_index: int) -> float:
    """Relative money a card kept in hand is worth (a later auction of one's own)."""
    return 8.0 if round_index < 3 else 4.0
