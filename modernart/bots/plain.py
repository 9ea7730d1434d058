"""An outside-style arena opponent: a plain heuristic that shares nothing with the medium
bot (no artist-value model, no relative money, no pricing module), so that the other bots
are measured against a way of playing the project never tuned to.

It values a painting at the tile its artist would get if the round ended now (the
artist's rank by paintings this round, the lot included, plus its earlier tiles), times
how sure that is (the artist's count over 5).  It puts up the card of the artist it holds
most of (ties: the better-valued artist), adds a second card to a Double when it has one,
bids up to 0.8 of a lot's value (Open: raises by 2; Once-around: that limit at once;
Sealed: 0.6 of the value), asks 0.7 of the value as a Fixed price and accepts a price up
to 0.8 of it; as the auctioneer it bids for its own lot up to 0.5 of the value.  Every
other step takes the first legal move.
"""

from __future__ import annotations

from ..cards import RANK_VALUES, AuctionType
from ..moves import Move
from ..phase import Phase
from ..views import Observation, price_range_from
from .base import Bot

LIMIT = 0.8
SEALED = 0.6
PRICE = 0.7
KEEP = 0.5


class PlainBot(Bot):
    """A plain heuristic (see the module docstring); level `plain`, for the arena only."""

    level = "plain"

    def value(self, obs: Observation, artist: int, extra: int = 0) -> float:
        """What one painting of `artist` is worth if the round ended with `extra` more of it."""
        counts = list(obs.counts)
        counts[artist] += extra
        ranked = sorted(range(5), key=lambda a: (-counts[a], a))[:3]
        if counts[artist] == 0 or artist not in ranked:
            return 0.0
        earlier = sum(row[artist] for row in obs.tiles) if obs.options.cumulative_values else 0
        sure = min(1.0, counts[artist] / 5.0)
        return (RANK_VALUES[ranked.index(artist)] + earlier) * (0.4 + 0.6 * sure)

    def lot_value(self, obs: Observation) -> float:
        return sum(self.value(obs, card.artist) for card in obs.lot[:1]) * len(obs.lot)

    def choose(self, obs: Observation) -> Move | None:
        seat = obs.seat
        if seat not in obs.to_move:
            return None
        phase = obs.phase
        if phase == Phase.PLAY_CARD:
            held = [0] * 5
            for card in obs.hand:
                held[card.artist] += 1
            card = max(sorted(obs.hand), key=lambda c: (held[c.artist], self.value(obs, c.artist, 1)))
            return Move.play(seat, card)
        if phase == Phase.DOUBLE_OFFER:
            for card in sorted(obs.hand):
                if card.artist == obs.lot[0].artist and card.kind != AuctionType.DOUBLE:
                    return Move.add_second(seat, card)
            return Move.decline_second(seat)
        return self._auction_move(obs)

    def _auction_move(self, obs: Observation) -> Move | None:
        """Its move in an auction (or a variant's step): everything is a share of the lot's value."""
        seat = obs.seat
        phase = obs.phase
        value = self.lot_value(obs)
        limit = min(obs.money, int(value * (KEEP if seat == obs.auctioneer else LIMIT)))
        if phase == Phase.OPEN:
            return self._open(obs, limit)
        if phase == Phase.ONCE_AROUND:
            return Move.bid(seat, limit) if limit > obs.high else Move.pass_(seat)
        if phase == Phase.SEALED:
            share = KEEP if seat == obs.auctioneer else SEALED
            return Move.sealed_bid(seat, max(0, min(obs.money, int(value * share))))
        if phase == Phase.FIXED_SET:
            low, high = price_range_from(obs)  # the rules' range: one's own money, or the richest other's
            return Move.set_price(seat, max(low, min(high, round(value * PRICE))))
        if phase in (Phase.FIXED_OFFER, Phase.POSTED_OFFER):
            return Move.accept(seat) if obs.price <= limit else Move.decline(seat)
        moves = obs.legal_moves(amounts=False)
        return moves[0] if moves else None

    @staticmethod
    def _open(obs: Observation, limit: int) -> Move | None:
        """Open: raise by 2 up to the limit; the auctioneer hammers once everyone passed."""
        seat = obs.seat
        if seat == obs.high_seat:
            return None
        if limit > obs.high and obs.amount_range() is not None:
            return Move.bid(seat, min(limit, obs.high + 2))
        if seat == obs.auctioneer and not obs.options.open_autoclose:
            if all(s in obs.passed or s == obs.high_seat for s in range(obs.players)):
                return Move.hammer(seat)
        return Move.pass_(seat) if seat not in obs.passed else None

    def pace(self, obs: Observation, move: Move) -> float:
        return 0.6 + self.rng.random()
