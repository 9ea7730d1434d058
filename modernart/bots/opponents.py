"""How each rival bids, read from what it did in this game: `Rivals.read(obs)`.

Every finished sale in the observation is public (docs/rules.md §8): the seats that bid
and how much (every Open and Once-around bid, every Sealed bid once revealed), the price
a Fixed-price auctioneer asked, who bought at what price.  Each such number is set against
a *reference value* of the lot at that moment, computed from public facts only (the
round's paintings so far, the earlier tiles, the cards not yet played, `valuation.py`),
and the log of the ratio is compared with what the medium bot's own play gives for the
same kind of number (the `CALIBRATION` table, measured in medium self-play by
`calibrate`).  A seat's *bid factor* is exp(mean excess), shrunk towards 1 by a prior
worth `PRIOR` observations; a factor per artist catches a seat that collects one artist,
a *price factor* the Fixed prices it asks and a *keep factor* what it bids as the
auctioneer of its own lot (a bidder's limit and an auctioneer's are different habits: a
seat that prices its own lots high need not overpay for others').  A seat that bid
nothing in an Open or Once-around auction it could have bid in also counts (its limit was
at most the price).  The buyer of an Open auction paid about the runner-up's limit, not
its own, so its bid is skipped (counting it made an overbidder among cautious bidders read
like a medium bot: it wins, at their limits).  An Open auction sold at its only bid (the auctioneer hammered at
once) says nothing about the other seats, which may not have had a turn, nor about the
bidder's limit (it made an opening bid): its readings are skipped.  How often a seat
did that, hammering its own Open auction at another seat's first bid, is its *early*
share: against such an auctioneer the first bid may take the lot, so the hard bot opens
with the least bid there (`hard.py`).

A factor of 1 means "bids like the medium bot"; 1.3 means limits about 30% higher.  The
hard bot's rollouts scale each rival's limits, sealed bids and prices by its factors
(`rollout.py`), so the search plays against the opponents as they play.  Nothing here
looks beyond the observation.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

from ..cards import ARTISTS, AuctionType
from ..events import Sale
from ..views import Observation
from .valuation import artist_values

NARTISTS = len(ARTISTS)
#: observations a factor of 1 is worth (shrinks the first few readings towards medium play).
#: A reading's spread in medium self-play is about 0.15-0.3 in log, the styles' differences
#: 0.3-0.5 (`docs/bots.md`), so a prior of about one reading is what the numbers support;
#: until 2026-12-01 it was 4 for every factor, which left the price factor of a seat asking
#: 1.67 times medium's Fixed prices at 1.10 by the end of a game (it asks 1-2 per game).
PRIOR = 1.5
#: the same for a seat's per-artist factor, shrunk towards its overall factor (was 3: a
#: hoarder's favourite artist read 1.02 where it bids 1.41 times medium)
ARTIST_PRIOR = 1.0
#: the same for the Fixed prices a seat asks and for what it pays to keep its own lots
PRICE_PRIOR = 1.0
KEEP_PRIOR = 1.5
#: Open auctions of a seat's own, sold at their first bid, that the early-closing share's
#: prior of 0 is worth (the medium bot never hammers at once: 0 of 119 such sales in 40
#: games against a styled pool, an early closer 26 of 87)
EARLY_PRIOR = 2.0
#: factors are kept inside this range
LOW, HIGH = 0.4, 2.0
#: share of the cards not yet played that are still in some hand (for the reference value)
IN_HANDS = 0.45
#: a sealed bid of 0 is read as this share of the reference value (log needs a positive)
FLOOR = 0.05

#: kinds of reading: what a number was, by auction type and the seat's role
BID, AUCTIONEER_BID, SILENT, PRICE = "bid", "auctioneer bid", "silent", "price"

#: mean log(number / reference value) in medium self-play, per (auction type, kind of
#: reading); measured with `calibrate` over 200 games of four medium bots (default rules,
#: game seeds 0-199, 2026-12-01, with the skips of `_sale_readings`); a kind of reading not
#: in the table is not used (the medium auctioneer hardly bids Once-around)
CALIBRATION: dict[tuple[AuctionType, str], float] = {
    (AuctionType.OPEN, BID): -0.346,
    (AuctionType.OPEN, AUCTIONEER_BID): -0.743,
    (AuctionType.OPEN, SILENT): -0.178,
    (AuctionType.ONCE_AROUND, BID): -0.339,
    (AuctionType.ONCE_AROUND, SILENT): -0.225,
    (AuctionType.SEALED, BID): -0.422,
    (AuctionType.SEALED, AUCTIONEER_BID): -0.769,
    (AuctionType.FIXED_PRICE, PRICE): -0.483,
}


class Reading(NamedTuple):
    """One public number about one seat: log(number / reference value) and its kind."""

    seat: int
    kind: AuctionType
    what: str
    log_ratio: float
    artists: tuple[int, ...]


def readings(obs: Observation) -> list[Reading]:
    """Every public reading about every seat, in the order of the sales."""
    table = obs.options.deck_table
    remaining = [float(table.artist_total(a)) for a in ARTISTS]
    prev = [0] * NARTISTS
    out: list[Reading] = []
    current_round = -1
    counts = [0] * NARTISTS
    money = [obs.options.start_money] * obs.players  # everyone's money before each sale (§8)
    paid_rounds = 0
    for sale in obs.sales:
        if sale.round != current_round:
            for result in obs.results[max(0, current_round) : sale.round]:
                for card in result.ending_cards:  # unsold round-ending cards are played too
                    remaining[card.artist] -= 1
            for result in obs.results[paid_rounds : sale.round]:
                for seat, pay in enumerate(result.payouts):
                    money[seat] += pay
            paid_rounds = max(paid_rounds, sale.round)
            current_round = sale.round
            counts = [0] * NARTISTS
            prev = [0] * NARTISTS
            for row in obs.tiles[: sale.round] if obs.options.cumulative_values else ():
                for a in range(NARTISTS):
                    prev[a] += row[a]
        for card in sale.cards:
            counts[card.artist] += 1
            remaining[card.artist] -= 1
        supply = [max(0.0, r * IN_HANDS) for r in remaining]
        values = artist_values(counts, prev, supply, quick=True, ends_at_five=obs.options.fifth_ends_round)
        ref = sum(values[c.artist] for c in sale.cards)
        if ref > 1.0:
            out.extend(_sale_readings(sale, ref, money))
        for payer, payee, amount in sale.payments:
            if payer >= 0:
                money[payer] -= amount
            if payee >= 0:
                money[payee] += amount
    return out


def _sale_readings(sale: Sale, ref: float, money: Sequence[int]) -> list[Reading]:
    """The readings of one sale; `money` is everyone's money before it.  A number a seat's
    money capped (it bid or asked all it had, or could not pay the price) says nothing of
    its habit and is skipped."""
    kind = sale.kind
    artists = tuple(sorted({c.artist for c in sale.cards}))
    out: list[Reading] = []
    if kind == AuctionType.FIXED_PRICE:
        if sale.bids:
            seat, price = sale.bids[0]
            if price < money[seat]:
                out.append(Reading(seat, kind, PRICE, math.log(max(price, FLOOR * ref) / ref), artists))
        return out
    if kind == AuctionType.DOUBLE:
        return out
    top: dict[int, int] = {}
    for seat, amount in sale.bids:
        top[seat] = max(amount, top.get(seat, 0))
    for seat, amount in top.items():
        if kind == AuctionType.OPEN and seat == sale.buyer:
            continue  # the winner paid about the runner-up's limit: its own is somewhere above
        if amount >= money[seat]:
            continue  # all it had
        what = AUCTIONEER_BID if seat == sale.auctioneer else BID
        out.append(Reading(seat, kind, what, math.log(max(amount, FLOOR * ref) / ref), artists))
    if kind == AuctionType.OPEN and len(sale.bids) == 1 and sale.bids[0][0] != sale.auctioneer:
        return []  # hammered at its opening bid: neither a limit nor a chance to bid for the rest
    if kind in (AuctionType.OPEN, AuctionType.ONCE_AROUND) and sale.price > 0:
        for seat in range(len(money)):
            if seat not in top and seat != sale.auctioneer and money[seat] > sale.price:
                # bid nothing: its limit was below the price (a reading capped at the price)
                out.append(Reading(seat, kind, SILENT, math.log(sale.price / ref), artists))
    return out


class Rivals(NamedTuple):
    """Per seat: the bid factor (as a bidder), the per-artist bid factors, the price factor
    (Fixed prices it asks) and the keep factor (its bids as the auctioneer of its own lot)."""

    bid: tuple[float, ...]
    artist_bid: tuple[tuple[float, ...], ...]
    price: tuple[float, ...]
    keep: tuple[float, ...]
    readings: tuple[int, ...]  # how many readings each seat's bid factor rests on
    #: per seat: the share of its own Open auctions it hammered at another seat's first bid
    early: tuple[float, ...] = ()

    @classmethod
    def neutral(cls, n: int) -> Rivals:
        """Every seat bids like the medium bot."""
        return cls((1.0,) * n, ((1.0,) * NARTISTS,) * n, (1.0,) * n, (1.0,) * n, (0,) * n, (0.0,) * n)

    @classmethod
    def read(cls, obs: Observation, found: Sequence[Reading] | None = None) -> Rivals:
        """The factors of every seat from the observation's sales (the own seat stays 1)."""
        n = obs.players
        found = readings(obs) if found is None else found
        sums = [0.0] * n
        counts = [0] * n
        by_artist = [[[] for _ in range(NARTISTS)] for _ in range(n)]  # type: list[list[list[float]]]
        price_sum = [0.0] * n
        price_n = [0] * n
        keep_sum = [0.0] * n
        keep_n = [0] * n
        for r in found:
            base = CALIBRATION.get((r.kind, r.what))
            if base is None or r.seat == obs.seat:
                continue
            excess = r.log_ratio - base
            if r.what == PRICE:
                price_sum[r.seat] += excess
                price_n[r.seat] += 1
                continue
            if r.what == AUCTIONEER_BID:
                keep_sum[r.seat] += excess
                keep_n[r.seat] += 1
                continue
            sums[r.seat] += excess
            counts[r.seat] += 1
            for a in r.artists:
                by_artist[r.seat][a].append(excess)
        bid: list[float] = []
        artist_bid: list[tuple[float, ...]] = []
        price: list[float] = []
        keep: list[float] = []
        for s in range(n):
            mean = sums[s] / (counts[s] + PRIOR)
            bid.append(_clamp(math.exp(mean)))
            row = []
            for a in range(NARTISTS):
                xs = by_artist[s][a]
                row.append(_clamp(math.exp((sum(xs) + ARTIST_PRIOR * mean) / (len(xs) + ARTIST_PRIOR))))
            artist_bid.append(tuple(row))
            price.append(_clamp(math.exp(price_sum[s] / (price_n[s] + PRICE_PRIOR))))
            keep.append(_clamp(math.exp(keep_sum[s] / (keep_n[s] + KEEP_PRIOR))))
        early = early_shares(obs)
        return cls(tuple(bid), tuple(artist_bid), tuple(price), tuple(keep), tuple(counts), early)


def early_shares(obs: Observation) -> tuple[float, ...]:
    """Per seat (its own seat 0): of its Open auctions that another seat bid in, the share
    sold at that first bid (the hammer fell at once), shrunk by `EARLY_PRIOR` towards 0."""
    n = obs.players
    sold_at_once = [0] * n
    auctions = [0] * n
    for sale in obs.sales:
        if sale.kind != AuctionType.OPEN or sale.auctioneer == obs.seat:
            continue
        if not any(seat != sale.auctioneer for seat, _ in sale.bids):
            continue
        auctions[sale.auctioneer] += 1
        sold_at_once[sale.auctioneer] += len(sale.bids) == 1
    return tuple(sold_at_once[s] / (auctions[s] + EARLY_PRIOR) for s in range(n))


def _clamp(x: float) -> float:
    return LOW if x < LOW else HIGH if x > HIGH else x


def calibrate(observations: Sequence[Observation]) -> dict[tuple[AuctionType, str], float]:
    """Mean log ratio per kind of reading over the final observations of some games (the
    `CALIBRATION` table comes from medium self-play this way)."""
    totals: dict[tuple[AuctionType, str], list[float]] = {}
    for obs in observations:
        for r in readings(obs):
            totals.setdefault((r.kind, r.what), []).append(r.log_ratio)
    return {key: sum(xs) / len(xs) for key, xs in totals.items()}
