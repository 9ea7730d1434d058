"""What happened, beyond the move itself: values the engine appends to `GameState.events`.

Every event is public except `CardsDealt`, which only its seat may see.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import AuctionType, Card
from .scoring import RoundResult

BANK = -1  # payee/payer id of the bank in `Sale.payments`


class AuctionStarted(NamedTuple):
    """A lot goes under the hammer: `auctioneer` conducts it with `kind` rules."""

    auction: int
    kind: AuctionType
    auctioneer: int
    cards: tuple[Card, ...]


class SealedRevealed(NamedTuple):
    """All sealed bids of one auction, revealed together; offenders' bids counted as 0."""

    auction: int
    bids: tuple[int, ...]
    offenders: tuple[int, ...]
    fines: tuple[int, ...]


class Sale(NamedTuple):
    """A lot changes hands.  `payments` lists (from, to, amount) with BANK = -1."""

    auction: int
    round: int
    kind: AuctionType
    auctioneer: int
    original: int  # seat that played the Double, or -1
    cards: tuple[Card, ...]
    bids: tuple[tuple[int, int], ...]  # every public bid of the auction: (seat, amount)
    buyer: int  # BANK (-1): nobody bought it and it was discarded (option unsold_discarded)
    price: int
    payments: tuple[tuple[int, int, int], ...]


class MysteryFlipped(NamedTuple):
    """Mystery hand (§10.3): `seat` turned up its top card, which counts for its artist."""

    round: int
    seat: int
    card: Card


class RoundEnded(NamedTuple):
    result: RoundResult


class CardsDealt(NamedTuple):
    """Private: `seat` receives `cards` at the start of `round`."""

    round: int
    seat: int
    cards: tuple[Card, ...]


class GameEnded(NamedTuple):
    money: tuple[int, ...]
    winners: tuple[int, ...]
