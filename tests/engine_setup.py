"""Building exact game situations for rules tests.

`table(...)` starts a real game, then gives each seat the hand a scenario needs, moving
every displaced card to the stock, so all 70 cards stay accounted for.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from modernart.cards import Artist, AuctionType, Card
from modernart.game import GameState
from modernart.moves import Move
from modernart.rules import RuleOptions

LM, Y, CP, KG, K = Artist.A1, Artist.A2, Artist.A3, Artist.A4, Artist.A5
O, ONCE, S, F, D = (
    AuctionType.OPEN,
    AuctionType.ONCE_AROUND,
    AuctionType.SEALED,
    AuctionType.FIXED_PRICE,
    AuctionType.DOUBLE,
)
A, B, C, D_ = 0, 1, 2, 3  # seats of docs/rules.md §11 (D_ because D is the Double type)


def table(
    players: int = 4,
    *,
    hands: Mapping[int, Sequence[tuple[Artist, AuctionType]]] | None = None,
    money: Sequence[int] | None = None,
    counts: Mapping[Artist, int] | None = None,
    auctioneer: int = 0,
    options: RuleOptions | None = None,
) -> GameState:
    """A game at its first card, with the given hands, money and counts this round."""
    state = GameState(players, options, seed=1, first_auctioneer=auctioneer, track_events=True)
    if hands is not None:
        for seat in hands:  # every hand being set gives its cards back first
            state.stock.extend(state.hands[seat])
            state.hands[seat] = []
        for seat, wanted in hands.items():
            state.hands[seat] = [take(state, artist, kind, keep=hands) for artist, kind in wanted]
    if money is not None:
        state.money[:] = list(money)
    if counts is not None:
        for artist, n in counts.items():
            state.counts[artist] = n
    state.events.clear()
    return state


_FILLERS = (
    ((K, O), (K, S)),
    ((K, O), (K, F)),
    ((K, O), (KG, O)),
    ((K, O), (KG, S)),
    ((KG, F), (KG, O)),
)


def filler(seat: int) -> list[tuple[Artist, AuctionType]]:
    """Two spare cards for `seat`, different for each seat, so nobody runs out by accident."""
    return list(_FILLERS[seat])


def take(state: GameState, artist: Artist, kind: AuctionType, keep: Iterable[int] = ()) -> Card:
    """Remove a card of that artist and type from the stock or a hand (stock first),
    never from the hands of the seats in `keep` (hands a scenario has set)."""
    kept = set(keep)
    for pile in [state.stock] + [h for s, h in enumerate(state.hands) if s not in kept]:
        for card in pile:
            if card.artist == artist and card.kind == kind:
                pile.remove(card)
                return card
    raise LookupError(f"no {artist.name} {kind.name} card left outside the table")


def card_in_hand(state: GameState, seat: int, artist: Artist, kind: AuctionType) -> Card:
    for card in state.hands[seat]:
        if card.artist == artist and card.kind == kind:
            return card
    raise LookupError(f"seat {seat} holds no {artist.name} {kind.name}")


def play(state: GameState, seat: int, artist: Artist, kind: AuctionType) -> None:
    state.apply(Move.play(seat, card_in_hand(state, seat, artist, kind)))


def add(state: GameState, seat: int, artist: Artist, kind: AuctionType) -> None:
    state.apply(Move.add_second(seat, card_in_hand(state, seat, artist, kind)))


def apply_all(state: GameState, moves: Iterable[Move]) -> None:
    for move in moves:
        state.apply(move)


def fingerprint(state: GameState) -> tuple:
    """Everything observable about a state, to show that an illegal move changed nothing."""
    return (
        state.phase,
        tuple(state.money),
        tuple(tuple(h) for h in state.hands),
        tuple(state.stock),
        state.round,
        tuple(state.counts),
        tuple(tuple(t) for t in state.tiles),
        tuple(tuple(b) for b in state.bought),
        tuple(state.discard),
        tuple(state.lot),
        state.auctioneer,
        state.original,
        state.kind,
        state.turn,
        state.high,
        state.high_seat,
        tuple(state.passed),
        state.npassed,
        tuple(state.sealed),
        state.nsealed,
        state.price,
        tuple(state.bids),
        state.auction_no,
        tuple(state.results),
        tuple(state.sales),
        tuple(state.offenders),
        state.move_count,
        len(state.events or ()),
    )


def all_cards(state: GameState) -> list[Card]:
    """Every card, wherever it is: hands, stock, purchases, the table, the discard pile."""
    cards = list(state.stock) + list(state.lot) + list(state.discard)
    for hand in state.hands:
        cards += hand
    for bought in state.bought:
        cards += bought
    return cards
