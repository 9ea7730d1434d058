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
and a *price factor* the Fixed prices it asks.  A seat that bid nothing in an Open or
Once-around auction it could have bid in also counts (its limit was at most the price).

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
#: observations a factor of 1 is worth (shrinks the first few readings towards medium play)
PRIOR = 4.0
#: the same for a seat's per-artist factor, shrunk towards its overall factor
ARTIST_PRIOR = 3.0
#: factors are kept inside this range
LOW, HIGH = 0.4, 2.0
#: share of the cards not yet played that are still in some hand (for the reference value)
IN_HANDS = 0.45
#: a sealed bid of 0 is read as this share of the reference value (log needs a positive)
FLOOR = 0.05

#: kinds of reading: what a number was, by auction type and the seat's role
BID, AUCTIONEER_BID, SILENT, PRICE = "bid", "auctioneer bid", "silent", "price"

#: mean log(number / reference value) in medium self-play, per (auction type, kind of
#: reading); measured with `calibrate` over 200 games of four medium bots (default rules); a kind
#: of reading not in the table is not used (the medium auctioneer hardly bids Once-around)
CALIBRATION: dict[tuple[AuctionType, str], float] = {
    (AuctionType.OPEN, BID): -0.279,
    (AuctionType.OPEN, AUCTIONEER_BID): -0.743,
    (AuctionType.OPEN, SILENT): -0.259,
    (AuctionType.ONCE_AROUND, BID): -0.339,
    (AuctionType.ONCE_AROUND, SILENT): -0.225,
    (AuctionType.SEALED, BID): -0.423,
    (AuctionType.SEALED, AUCTIONEER_BID): -0.776,
    (AuctionType.FIXED_PRICE, PRICE): -0.488,
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
    for sale in obs.sales:
        if sale.round != current_round:
            for result in obs.results[max(0, current_round) : sale.round]:
                for card in result.ending_cards:  # unsold round-ending cards are played too
                    remaining[card.artist] -= 1
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
        if ref <= 1.0:
            continue
        out.extend(_sale_readings(sale, ref, obs.players))
    return out


def _sale_readings(sale: Sale, ref: float, n: int) -> list[Reading]:
    kind = sale.kind
    artists = tuple(sorted({c.artist for c in sale.cards}))
    out: list[Reading] = []
    if kind == AuctionType.FIXED_PRICE:
        if sale.bids:
            seat, price = sale.bids[0]
            out.append(Reading(seat, kind, PRICE, math.log(max(price, FLOOR * ref) / ref), artists))
        return out
    if kind == AuctionType.DOUBLE:
        return out
    top: dict[int, int] = {}
    for seat, amount in sale.bids:
        top[seat] = max(amount, top.get(seat, 0))
    for seat, amount in top.items():
        what = AUCTIONEER_BID if seat == sale.auctioneer else BID
        out.append(Reading(seat, kind, what, math.log(max(amount, FLOOR * ref) / ref), artists))
    if kind in (AuctionType.OPEN, AuctionType.ONCE_AROUND) and sale.price > 0:
        for seat in range(n):
            if seat not in top and seat != sale.auctioneer:
                # bid nothing: its limit was below the price (a reading capped at the price)
                out.append(Reading(seat, kind, SILENT, math.log(sale.price / ref), artists))
    return out


class Rivals(NamedTuple):
    """Per seat: the bid factor, the per-artist bid factors and the price factor."""

    bid: tuple[float, ...]
    artist_bid: tuple[tuple[float, ...], ...]
    price: tuple[float, ...]
    readings: tuple[int, ...]  # how many readings each seat's factor rests on

    @classmethod
    def neutral(cls, n: int) -> Rivals:
        """Every seat bids like the medium bot."""
        return cls((1.0,) * n, ((1.0,) * NARTISTS,) * n, (1.0,) * n, (0,) * n)

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
        for r in found:
            base = CALIBRATION.get((r.kind, r.what))
            if base is None or r.seat == obs.seat:
                continue
            excess = r.log_ratio - base
            if r.what == PRICE:
                price_sum[r.seat] += excess
                price_n[r.seat] += 1
                continue
            sums[r.seat] += excess
            counts[r.seat] += 1
            for a in r.artists:
                by_artist[r.seat][a].append(excess)
        bid: list[float] = []
        artist_bid: list[tuple[float, ...]] = []
        price: list[float] = []
        for s in range(n):
            mean = sums[s] / (counts[s] + PRIOR)
            bid.append(_clamp(math.exp(mean)))
            row = []
            for a in range(NARTISTS):
                xs = by_artist[s][a]
                row.append(_clamp(math.exp((sum(xs) + ARTIST_PRIOR * mean) / (len(xs) + ARTIST_PRIOR))))
            artist_bid.append(tuple(row))
            price.append(_clamp(math.exp(price_sum[s] / (price_n[s] + PRIOR))))
        return cls(tuple(bid), tuple(artist_bid), tuple(price), tuple(counts))


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
