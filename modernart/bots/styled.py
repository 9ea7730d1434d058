"""Styled opponents: the medium bot with one habit changed, so that strength is measured
against more than one way of playing.

Each plays legally and plausibly (a person could play so) but differently from the medium
bot, whose valuation and choice of card to put up they keep:

* `overbidder` bids beyond a lot's worth (limit 1.15 of its value, sealed bids shaded less);
* `underbidder` bids cautiously (limit 0.55 of the value) and prices its own lots low;
* `hoarder` collects one artist (the one it holds most of at its first decision): it
  bids up to 1.2 of a lot's value for that artist and 0.6 for the others;
* `highseller` asks a lot for its own lots: fixed prices at the full value, and as the
  auctioneer it pays the bank up to 0.8 of the value rather than sell cheaper;
* `earlycloser` ends its Open auctions at the first bid of another seat (the hammer
  falls at once) and, as a bidder, opens Open auctions near its limit.

They are arena opponents (`modernart arena --against overbidder,...`); `levels.py`
registers them for the arena only, so the tables do not offer them to players.
"""

from __future__ import annotations

from ..moves import Move
from ..views import Observation
from .medium import MediumBot, Situation


class OverBidder(MediumBot):
    """Pays more than a lot is worth: limit 1.15 of the value, sealed bids 0.85 of that."""

    level = "overbidder"
    bid_share = 1.15
    sealed_shade = 0.85


class UnderBidder(MediumBot):
    """Pays little: limit 0.55 of the value, sealed bids 0.7 of that, fixed prices 0.45."""

    level = "underbidder"
    bid_share = 0.55
    sealed_shade = 0.7
    fixed_share = 0.45


class Hoarder(MediumBot):
    """Collects one artist: up to 1.2 of the value for its lots, 0.6 for the others."""

    level = "hoarder"
    FAVOURITE = 1.2 / MediumBot.bid_share
    OTHERS = 0.6 / MediumBot.bid_share

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.favourite = -1  # chosen at the first decision: the artist most held

    def choose(self, obs: Observation) -> Move | None:
        if self.favourite < 0:
            held = [0] * 5
            for card in obs.hand:
                held[card.artist] += 1
            self.favourite = max(range(5), key=lambda a: (held[a], -a))
        return super().choose(obs)

    def _taste(self, obs: Observation) -> float:
        if obs.lot and any(card.artist == self.favourite for card in obs.lot):
            return self.FAVOURITE
        return self.OTHERS


class HighSeller(MediumBot):
    """Prices its own lots high: fixed prices at the value, keeps its lots up to 0.8 of it."""

    level = "highseller"
    fixed_share = 1.0
    auctioneer_sealed = 0.7

    def _auctioneer_limit(self, obs: Observation, value: float) -> float:
        return 0.8 * value


class EarlyCloser(MediumBot):
    """Hammers its Open auctions at the first bid of another seat; opens others' Open
    auctions at 0.9 of its limit instead of a third."""

    level = "earlycloser"
    OPENING = 0.9

    def _open(self, obs: Observation) -> Move | None:
        seat = obs.seat
        if seat == obs.auctioneer and obs.high_seat >= 0 and obs.high_seat != seat:
            return Move.hammer(seat)
        if seat != obs.auctioneer and obs.high == 0 and obs.amount_range() is not None:
            limit = self._limit_for(obs, Situation(obs))
            if limit > 0:
                return Move.bid(seat, max(1, round(limit * self.OPENING)))
        return super()._open(obs)


#: every styled bot by level name
STYLED: dict[str, type[MediumBot]] = {
    cls.level: cls for cls in (OverBidder, UnderBidder, Hoarder, HighSeller, EarlyCloser)
}
