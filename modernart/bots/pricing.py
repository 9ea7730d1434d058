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
#: `OPEN_CLOSE_STEPS` steps of it (0: only a jump that reaches it): a person who wants a
#: painting bids towards its price in a few quick jumps, so a table of bots settles an Open
#: auction in a few bids.  Measured against the old creeping bidder on 400 paired deals a
#: pool (docs/bots.md): opening higher, jumping half the way or bidding the limit from two
#: steps away paid more than the runner-up's limit, and lost margin to bidders who creep.
OPEN_OPENING = 0.35
OPEN_JUMP = 0.25
OPEN_CLOSE_STEPS = 0
#: the old manners (`jumps=False`): open at about a third of the limit, then steps only
CREEP_OPENING = 0.35


def open_step(high: int) -> int:
    """The least raise a person would make at this price: 1 under 10, 2 under 30, else 5."""
    return 1 if high < 10 else 2 if high < 30 else 5


def open_raise(
    high: int,
    limit: int,
    jumps: bool = True,
    opening: float = OPEN_OPENING,
    close_steps: int = OPEN_CLOSE_STEPS,
    target: int | None = None,
    jump: float = OPEN_JUMP,
) -> int:
    """Next bid in an Open auction, never above `limit` (0 when the limit does not beat the
    high bid): open at `opening` of the limit (0.35), then jump `jump` of the way to the limit
    (a quarter), or raise by one step (`open_step`) where that is more; within `close_steps`
    steps of the limit bid the limit itself.  With a `target` below the limit (what the
    rivals are expected to pay at most, `MediumBot._open_target`) the jumps aim at the
    target, and past it the bidder raises one step at a time: a jump above the runner-up's
    limit is money given away.  With `jumps=False` the old manners: open at about a third of
    the limit and raise by one step at a time.

    >>> [open_raise(h, 40) for h in (0, 21, 26, 32, 40)]
    [14, 26, 30, 37, 0]
    >>> [open_raise(h, 40, target=24) for h in (0, 20, 26)]
    [8, 22, 28]
    >>> [open_raise(h, 40, jumps=False) for h in (0, 21, 32, 38)]
    [14, 23, 37, 40]
    """
    if limit <= high:
        return 0
    if jumps and target is not None and target < limit:
        if high >= target:  # the rivals went past what they were expected to pay: one step at a time
            return min(limit, high + open_step(high))
        return open_raise(high, target, jumps, opening, close_steps, None, jump)
    if high == 0:
        return max(1, min(limit, round(limit * (opening if jumps else CREEP_OPENING))))
    step = open_step(high)
    if jumps:
        if limit - high <= close_steps * step:
            return limit
        step = max(step, round(jump * (limit - high)))
    return min(limit, high + step)


def hand_card_worth(round_index: int) -> float:
    """Relative money a card kept in hand is worth (a later auction of one's own)."""
    return 8.0 if round_index < 3 else 4.0
