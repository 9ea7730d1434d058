"""The game's own words in the client's language: artists, auction types, cards.

The engine names artists and auction types in English (`Edition`, `AuctionType.label`)
for records and logs; what a player reads comes from here, through the catalogs of
modernart.cli.i18n.  Chinese uses the Chinese rule sheet's names (轻金属 Lite Metal,
公开竞价 Open, ...), Persian the Persian sheet's where it has them.  The one-letter
initials (L Y C G K) and auction letters (O 1 S F D) stay Latin in every language: they
are the colourless twins of the colours, and read the same in a right-to-left line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Sequence

from modernart.cards import AuctionType, Card, Edition

from modernart.cli.i18n import _, language, pgettext


def _artist_words() -> dict[str, tuple[str, str]]:
    """Each edition's artist (its English name) -> its name and its short column name in
    this context's language.  Written out call by call so that Babel extracts them."""
    return {
        "Lite Metal": (pgettext("artist", "Lite Metal"), pgettext("artist short", "LM")),
        "Yoko": (pgettext("artist", "Yoko"), pgettext("artist short", "Y")),
        "Christin P.": (pgettext("artist", "Christin P."), pgettext("artist short", "CP")),
        "Karl Gitter": (pgettext("artist", "Karl Gitter"), pgettext("artist short", "KG")),
        "Krypto": (pgettext("artist", "Krypto"), pgettext("artist short", "K")),
        "Manuel Carvalho": (pgettext("artist", "Manuel Carvalho"), pgettext("artist short", "MC")),
        "Sigrid Thaler": (pgettext("artist", "Sigrid Thaler"), pgettext("artist short", "ST")),
        "Daniel Melim": (pgettext("artist", "Daniel Melim"), pgettext("artist short", "DM")),
        "Ramon Martins": (pgettext("artist", "Ramon Martins"), pgettext("artist short", "RM")),
        "Rafael Silveira": (pgettext("artist", "Rafael Silveira"), pgettext("artist short", "RS")),
    }


def auction_word(kind: AuctionType) -> str:
    """'Open', '公开竞价', 'حراج آزاد': an auction type as the rule sheets name it."""
    names = (
        pgettext("auction", "Open"),
        pgettext("auction", "Once-around"),
        pgettext("auction", "Sealed"),
        pgettext("auction", "Fixed price"),
        pgettext("auction", "Double"),
    )
    return names[kind]


def local_edition(edition: Edition) -> Edition:
    """`edition` with its artists' names (full and short) in this context's language; the
    initials stay as they are."""
    if language() == "en":
        return edition
    words = _artist_words()
    named = [words.get(name, (name, short)) for name, short in zip(edition.artists, edition.short)]
    artists = tuple(full for full, _ in named)
    short = tuple(brief for _, brief in named)
    return replace(edition, artists=artists, short=short)  # type: ignore[arg-type]  # five of each, as given


def describe_card(edition: Edition, card: Card) -> str:
    """'Yoko (Sealed)', readable without colour, for an edition from `local_edition`."""
    return pgettext("card", "{artist} ({auction})").format(
        artist=edition.artists[card.artist], auction=auction_word(card.kind)
    )


def distinct_names(names: Sequence[str]) -> tuple[str, ...]:
    """Player names by seat, each told apart: a name two seats share (two logins "root",
    both "Player") gets its seat's number ("Player #1", "Player #3").

    >>> distinct_names(["Player", "Bot A", "Player"])
    ('Player #1', 'Bot A', 'Player #3')
    """
    counts = Counter(names)
    return tuple(
        _("{name} #{seat}").format(name=name, seat=seat + 1) if counts[name] > 1 else name
        for seat, name in enumerate(names)
    )
