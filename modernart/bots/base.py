"""The interface every bot implements, and the random player; `levels.py` builds one by level name.

A bot decides from an `Observation` alone (never the hidden state).  `choose` returns
the move to make now, or None to wait: waiting is only a choice in an Open auction,
where anyone may act at any time; in every other step the bot must return a move when
it is one of `obs.to_move`.  `pace` says how long a person would take before making
the move, so that a bot at a live table does not answer every bid instantly; arenas
and self-play ignore it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..moves import Move
from ..views import Observation


class Bot(ABC):
    """A player that chooses moves from what its seat may see."""

    level = "base"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, obs: Observation) -> Move | None:
        """The move to make now, or None to wait (Open auctions only)."""

    def pace(self, obs: Observation, move: Move) -> float:
        """Seconds to wait before sending `move` at a live table."""
        return 0.0

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level}>"


class RandomBot(Bot):
    """Uniform over the legal moves (a bid range counts as one move), from the observation."""

    level = "random"

    def choose(self, obs: Observation) -> Move | None:
        if obs.seat not in obs.to_move:
            return None
        moves = obs.legal_moves(amounts=False)
        amount = obs.amount_range()
        i = self.rng.randrange(len(moves) + (amount is not None))
        if i < len(moves):
            return moves[i]
        assert amount is not None
        action, lo, hi = amount
        return Move.of(obs.seat, action, self.rng.randint(lo, hi))

    def pace(self, obs: Observation, move: Move) -> float:
        return 0.3 + self.rng.random()
