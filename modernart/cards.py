"""Artists, auction types, cards, deck tables and editions (docs/rules.md §1-§2).

The engine identifies an artist by board position (0 = leftmost) and a card by an
integer id 0..69 within a deck table.  Names are presentation only and live in
`Edition`s, so the classic and the 2017 names share one engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Mapping, TypeAlias


class Artist(IntEnum):
    """Board position of an artist, leftmost first; lower wins ranking ties (§1.1)."""

    A1 = 0
    A2 = 1
    A3 = 2
    A4 = 3
    A5 = 4


ARTISTS: tuple[Artist, ...] = tuple(Artist)


class AuctionType(IntEnum):
    """The auction symbol printed on a card (§1.2)."""

    OPEN = 0
    ONCE_AROUND = 1
    SEALED = 2
    FIXED_PRICE = 3
    DOUBLE = 4

    @property
    def letter(self) -> str:
        """One-character symbol, readable without colour: O 1 S F D."""
        return "O1SFD"[self]

    @property
    def label(self) -> str:
        return _TYPE_LABELS[self]


_TYPE_LABELS = ("Open", "Once-around", "Sealed", "Fixed price", "Double")
AUCTION_TYPES: tuple[AuctionType, ...] = tuple(AuctionType)
#: The auctions a seller may announce whatever the card (option seller_chooses_auction,
#: docs/rules.md FA-15), as AuctionType values: every type but the Double.
ANNOUNCED_KINDS: tuple[int, ...] = (0, 1, 2, 3)


class Card(int):
    """A painting: an integer id within its deck, carrying its artist and auction type.

    Cards compare and hash as their id, so hands and moves stay plain integers on the
    wire while reading well in a repr.
    """

    artist: Artist
    kind: AuctionType

    def __new__(cls, card_id: int, artist: Artist, kind: AuctionType) -> "Card":
        card = super().__new__(cls, card_id)
        card.__dict__["artist"] = artist
        card.__dict__["kind"] = kind
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type["Card"], tuple[int, "Artist", "AuctionType"]]:  # exact pickles/copies
        return (Card, (int(self), self.artist, self.kind))

    @property
    def code(self) -> str:
        """Edition-independent short code: artist position (1-5) and type letter, e.g. '3S'."""
        return f"{self.artist + 1}{self.kind.letter}"

    def __repr__(self) -> str:
        return f"Card({int(self)}, {self.artist.name}, {self.kind.name})"

    __str__ = __repr__


@dataclass(frozen=True)
class DeckTable:
    """Per-artist, per-auction-type card counts: the whole deck as data (§1.2)."""

    name: str
    counts: tuple[tuple[int, int, int, int, int], ...]  # [artist][auction type]

    def __post_init__(self) -> None:
        if len(self.counts) != len(ARTISTS) or any(len(row) != len(AUCTION_TYPES) for row in self.counts):
            raise ValueError(f"deck table {self.name!r} must be 5 artists x 5 auction types")
        if any(n < 0 for row in self.counts for n in row):
            raise ValueError(f"deck table {self.name!r} has a negative count")

    def artist_total(self, artist: Artist) -> int:
        return sum(self.counts[artist])

    def type_total(self, kind: AuctionType) -> int:
        return sum(row[kind] for row in self.counts)

    @property
    def size(self) -> int:
        return sum(map(sum, self.counts))

    def build(self) -> tuple[Card, ...]:
        """All cards of this deck, ids 0..size-1, artist-major then type order."""
        cards: list[Card] = []
        for artist in ARTISTS:
            for kind in AUCTION_TYPES:
                for _ in range(self.counts[artist][kind]):
                    cards.append(Card(len(cards), artist, kind))
        return tuple(cards)


#: The consensus table (docs/rules.md §1.2; the published implementations agree on it).  Default.
CONSENSUS = DeckTable(
    "consensus",
    (
        (3, 3, 2, 2, 2),
        (3, 2, 3, 3, 2),
        (3, 3, 3, 3, 2),
        (3, 3, 3, 3, 3),
        (4, 3, 3, 3, 3),
    ),
)

#: markfickett's table (citing BGG thread 239213): Once/Sealed of the two smallest artists swapped.
BGG_239213 = DeckTable(
    "bgg239213",
    (
        (3, 2, 3, 2, 2),
        (3, 3, 2, 3, 2),
        (3, 3, 3, 3, 2),
        (3, 3, 3, 3, 3),
        (4, 3, 3, 3, 3),
    ),
)

DECK_TABLES: Mapping[str, DeckTable] = {t.name: t for t in (CONSENSUS, BGG_239213)}


@dataclass(frozen=True)
class Edition:
    """Presentation names for the five artists, in board order, with one-letter initials."""

    name: str
    title: str
    artists: tuple[str, str, str, str, str]
    initials: tuple[str, str, str, str, str]
    short: tuple[str, str, str, str, str]

    def describe(self, card: Card) -> str:
        """'Yoko (Sealed)': readable without colour."""
        return f"{self.artists[card.artist]} ({card.kind.label})"


CLASSIC = Edition(
    "classic",
    "Hans im Glueck 1992 / Mayfair",
    ("Lite Metal", "Yoko", "Christin P.", "Karl Gitter", "Krypto"),
    ("L", "Y", "C", "G", "K"),  # as the board reads: Karl Gitter is G (K is Krypto), readable without a legend
    ("LM", "Y", "CP", "KG", "K"),
)

CMON_2017 = Edition(
    "cmon2017",
    "CMON 2017",
    ("Manuel Carvalho", "Sigrid Thaler", "Daniel Melim", "Ramon Martins", "Rafael Silveira"),
    ("C", "T", "M", "R", "S"),
    ("MC", "ST", "DM", "RM", "RS"),
)

EDITIONS: Mapping[str, Edition] = {e.name: e for e in (CLASSIC, CMON_2017)}

#: Cards dealt to each player at the start of rounds 1-4, by player count (§2.1).
STANDARD_DEALS: Mapping[int, tuple[int, int, int, int]] = {
    3: (10, 6, 6, 0),
    4: (9, 4, 4, 0),
    5: (8, 3, 3, 0),
}

#: Value tiles for the first, second and third ranked artist of a round (§6.3).
RANK_VALUES: tuple[int, int, int] = (30, 20, 10)

ROUNDS = 4
MIN_PLAYERS = 3
MAX_PLAYERS = 5


#: A deck's cards and the engine's plain-int tables of them: (cards by id, the artist of
#: each card id, the auction type of each card id).  Indexing a tuple of ints is cheaper
#: than reading a Card's attributes, and compiles to native code (docs/engine-performance.md).
CardTables: TypeAlias = tuple[tuple[Card, ...], tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=None)
def deck_cards(table: DeckTable) -> tuple[Card, ...]:
    """The cards of `table`, built once: every game played with one table shares the tuple."""
    return table.build()


def tables_of(cards: tuple[Card, ...]) -> CardTables:
    """The plain-int tables of any tuple of cards (see `CardTables`)."""
    return cards, tuple([int(c.artist) for c in cards]), tuple([int(c.kind) for c in cards])


@lru_cache(maxsize=None)
def card_tables(deck_name: str) -> CardTables:
    """The tables of the deck table named `deck_name`, made once and shared by every game."""
    return tables_of(deck_cards(DECK_TABLES[deck_name]))
