"""What a seat knows, derived from its `Observation` alone: the cards it has not seen,
everyone's money (every payment is public, docs/rules.md §8), the paintings each seat owns this
round and the value tiles already on the board.

`Knowledge` is the bots' common starting point; it never looks at a `GameState`.
"""

from __future__ import annotations

from ..cards import ARTISTS, AuctionType
from ..determinize import unseen_cards
from ..views import Observation, public_money

NARTISTS = len(ARTISTS)
DOUBLE = AuctionType.DOUBLE


def earlier_tiles(obs: Observation) -> list[int]:
    """Sum of the value tiles of the rounds already scored, per artist (none count when
    values do not add up from round to round, option cumulative_values)."""
    prev = [0] * NARTISTS
    for row in obs.tiles if obs.options.cumulative_values else ():
        for a in range(NARTISTS):
            prev[a] += row[a]
    return prev


class Knowledge:
    """Numbers a bot reasons with, computed once per observation."""

    __slots__ = (
        "seat",
        "n",
        "round",
        "counts",
        "prev",
        "hand_by_artist",
        "unseen",
        "unseen_by_artist",
        "unseen_plain_by_artist",
        "share",
        "money",
        "owned",
    )

    def __init__(self, obs: Observation) -> None:
        n = obs.players
        self.seat = obs.seat
        self.n = n
        self.round = obs.round
        self.counts = list(obs.counts)
        self.prev = earlier_tiles(obs)
        hand = [0] * NARTISTS
        for c in obs.hand:
            hand[c.artist] += 1
        self.hand_by_artist = hand
        unseen = unseen_cards(obs)
        self.unseen = unseen
        by_artist = [0] * NARTISTS
        plain = [0] * NARTISTS
        for c in unseen:
            by_artist[c.artist] += 1
            if c.kind != DOUBLE:
                plain[c.artist] += 1
        self.unseen_by_artist = by_artist
        self.unseen_plain_by_artist = plain
        others = sum(obs.hand_sizes) - obs.hand_sizes[obs.seat]
        #: chance that a given unseen card is in another player's hand (not the stock)
        self.share = others / len(unseen) if unseen else 0.0
        self.money = public_money(obs)
        owned = [[0] * NARTISTS for _ in range(n)]
        for s, cards in enumerate(obs.bought):
            row = owned[s]
            for c in cards:
                row[c.artist] += 1
        self.owned = owned

    def supply(self, minus_artist: int = -1, minus: int = 0) -> list[float]:
        """Expected cards of each artist still in some hand (own hand exactly, the others'
        share of the unseen cards), optionally after this seat gives up `minus` cards of
        `minus_artist`."""
        share = self.share
        out = [self.hand_by_artist[a] + self.unseen_by_artist[a] * share for a in range(NARTISTS)]
        if minus_artist >= 0:
            out[minus_artist] -= minus
        return out

    def chance_nobody_adds(self, artist: int) -> float:
        """Chance that no other hand holds a non-Double card of `artist` (a Double offered
        round the table comes back unanswered)."""
        return (1.0 - self.share) ** self.unseen_plain_by_artist[artist]
