"""Round scoring (docs/rules.md §6.3): ranking, value tiles, artist values and payouts."""

from __future__ import annotations

from typing import Final, NamedTuple, Sequence

from .cards import ARTISTS, RANK_VALUES, Card


_ARTIST_IDS: Final = tuple([int(a) for a in ARTISTS])
_RANK_VALUES: Final[tuple[int, ...]] = RANK_VALUES
_new: Final = tuple.__new__  # builds a NamedTuple from a tuple without its Python-level __new__


class RoundResult(NamedTuple):
    """Everything a player wants to see when a round is scored."""

    round: int  # 0-based round index
    ended_by: str  # "fifth" (an artist's fifth painting), "exhausted" (all hands empty), "early" (§12.9)
    ender: int  # seat that played the round-ending card
    ending_cards: tuple[Card, ...]  # unsold card(s) that ended the round; they count
    counts: tuple[int, ...]  # paintings per artist this round (board order)
    ranking: tuple[int, ...]  # ranked artists, first to third at most (or to the last rank value)
    tiles: tuple[int, ...]  # tile placed this round per artist (30/20/10, the variant's values, or 0)
    values: tuple[int, ...]  # value of one painting per artist this round
    sold: tuple[tuple[int, ...], ...]  # per seat: paintings bought this round, per artist
    payouts: tuple[int, ...]  # money each seat received from the bank


def rank_artists(counts: Sequence[int], places: int = 3) -> tuple[int, ...]:
    """Artists with at least one painting, most first, ties to the leftmost; the top
    `places` (three, or as many as the variant's rank values)."""
    # a stable sort keeps board order among equal counts, even with reverse=True
    ranked = sorted(_ARTIST_IDS, key=counts.__getitem__, reverse=True)[:places]
    while ranked and not counts[ranked[-1]]:
        ranked.pop()
    return tuple(ranked)


def score_round(
    round_index: int,
    counts: Sequence[int],
    earlier_tiles: Sequence[Sequence[int]],
    bought: Sequence[Sequence[Card]],
    ended_by: str,
    ender: int,
    ending_cards: Sequence[Card],
    artist_of: tuple[int, ...] | None = None,
    rank_values: tuple[int, ...] = _RANK_VALUES,
) -> RoundResult:
    """Score one round.  `earlier_tiles` are the tile rows of the rounds before this one
    (none when values do not add up, FA-8); `rank_values` the tiles of ranks 1, 2, ...

    `artist_of` gives the artist of each card id (the game passes its deck's table, which
    is cheaper than reading the cards' attributes).
    """
    ranking = rank_artists(counts, len(rank_values))
    tiles = [0, 0, 0, 0, 0]
    values = [0, 0, 0, 0, 0]
    for place in range(len(ranking)):
        artist = ranking[place]
        tile = tiles[artist] = rank_values[place]
        for row in earlier_tiles:
            tile += row[artist]
        values[artist] = tile
    sold: list[tuple[int, ...]] = []
    payouts: list[int] = []
    for cards in bought:
        per_artist = [0, 0, 0, 0, 0]
        pay = 0
        for card in cards:
            if artist_of is None:
                artist = card.artist
            else:
                card_id: int = card
                artist = artist_of[card_id]
            per_artist[artist] += 1
            pay += values[artist]
        sold.append(tuple(per_artist))
        payouts.append(pay)
    return _new(
        RoundResult,
        (
            round_index,
            ended_by,
            ender,
            tuple(ending_cards),
            tuple(counts),
            ranking,
            tuple(tiles),
            tuple(values),
            tuple(sold),
            tuple(payouts),
        ),
    )
