"""Everything specific to Sealed auctions on the wire, behind one small interface.

For now a sealed bid travels to the host as a signed action, like any other move.  What
the other seats see is only that the seat has bid: the public event carries a hash of the
signed action (its body holds a random nonce, so the hash does not give the amount
away), and the signed actions themselves are published in the event that resolves the
auction, so everyone can check every bid.  The next issue replaces this module with
commit-reveal (the host then never holds an amount before all commitments are in);
callers use only `client_extra`, `SealedBox.public_action`, `public_move` and
`SealedBox.reveal`.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from modernart.events import SealedRevealed
from modernart.moves import Action, Move


def is_sealed(move: Move) -> bool:
    return move.action in (Action.SEALED_BID, Action.SEALED_FORFEIT)


def client_extra(move: Move) -> dict[str, Any] | None:
    """Extra fields a client puts in the signed body of `move` (a nonce for sealed bids)."""
    return {"n": secrets.token_bytes(16)} if move.action == Action.SEALED_BID else None


def public_move(move: Move) -> list[int]:
    """The move as others may see it now: a sealed amount is withheld (-1)."""
    if move.action == Action.SEALED_BID:
        return [move.seat, int(move.action), -1]
    return move.to_list()


class SealedBox:
    """Host side: withholds signed sealed bids until the engine resolves the auction."""

    def __init__(self) -> None:
        self.withheld: list[list[bytes]] = []

    def public_action(self, move: Move, body: bytes, sig: bytes) -> dict[str, Any]:
        if move.action == Action.SEALED_BID:
            self.withheld.append([body, sig])
            return {"sealed": hashlib.sha256(body + sig).digest()}
        return {"b": body, "s": sig}

    def reveal(self, engine_events: list[Any]) -> list[list[bytes]] | None:
        """The withheld signed bids, once `engine_events` hold the auction's resolution."""
        if any(isinstance(e, SealedRevealed) for e in engine_events):
            out, self.withheld = self.withheld, []
            return out
        return None
