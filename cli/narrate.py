"""Game events in words, for the log pane, the bot-only game and screen readers."""

from __future__ import annotations

from typing import Sequence

from modernart.cards import Edition
from modernart.events import AuctionStarted, CardsDealt, GameEnded, RoundEnded, Sale, SealedRevealed
from modernart.moves import Action, Move

_ORDINAL = ("1st", "2nd", "3rd")


def describe_event(event: object, names: Sequence[str], edition: Edition, deck) -> str | None:
    """One log line for an engine event or move; None for events not worth a line."""
    if isinstance(event, Move):
        return _describe_move(event, names, edition, deck)
    if isinstance(event, AuctionStarted):
        cards = " + ".join(edition.describe(c) for c in event.cards)
        return f"{names[event.auctioneer]} auctions {cards}: {event.kind.label} auction"
    if isinstance(event, SealedRevealed):
        shown = ", ".join(f"{names[s]} {b}" for s, b in enumerate(event.bids))
        line = f"Sealed bids revealed: {shown}"
        if event.offenders:
            line += "; forfeited: " + ", ".join(names[s] for s in event.offenders)
        return line
    if isinstance(event, Sale):
        cards = " + ".join(edition.artists[c.artist] for c in event.cards)
        if event.price == 0:
            return f"{names[event.buyer]} takes {cards} for free"
        payee = "the bank" if event.buyer == event.auctioneer else names[event.auctioneer]
        return f"SOLD: {cards} to {names[event.buyer]} for {event.price} (paid to {payee})"
    if isinstance(event, RoundEnded):
        r = event.result
        ranks = ", ".join(
            f"{_ORDINAL[i]} {edition.artists[a]} ({r.values[a]} each)" for i, a in enumerate(r.ranking)
        )
        pays = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(r.payouts))
        how = "fifth painting" if r.ended_by == "fifth" else "all hands empty"
        return f"Round {r.round + 1} ends ({how}). {ranks}. Payouts: {pays}"
    if isinstance(event, GameEnded):
        money = ", ".join(f"{names[s]} {m}" for s, m in enumerate(event.money))
        win = " and ".join(names[s] for s in event.winners)
        return f"Game over. Final money: {money}. Winner: {win}"
    if isinstance(event, CardsDealt):
        return None
    return None


def _describe_move(move: Move, names: Sequence[str], edition: Edition, deck) -> str:
    who = names[move.seat]
    action = move.action
    if action == Action.PLAY:
        return f"{who} puts up {edition.describe(deck[move.arg])}"
    if action == Action.ADD_SECOND:
        return f"{who} adds {edition.describe(deck[move.arg])} to the Double"
    if action == Action.DECLINE_SECOND:
        return f"{who} adds no second card"
    if action == Action.BID:
        return f"{who} bids {move.arg}"
    if action == Action.PASS:
        return f"{who} passes"
    if action == Action.HAMMER:
        return f"{who} brings the hammer down"
    if action == Action.SEALED_BID:
        return f"{who} seals a bid"
    if action == Action.SEALED_FORFEIT:
        return f"{who}'s sealed bid is forfeited"
    if action == Action.SET_PRICE:
        return f"{who} sets the price at {move.arg}"
    if action == Action.ACCEPT:
        return f"{who} accepts the price"
    return f"{who} declines the price"


def describe_timeout(high: int, high_seat: int, names: Sequence[str]) -> str:
    """The line logged when the host's Open countdown runs out."""
    if high_seat < 0:
        return "Time is up: nobody bid"
    return f"Time is up: going, going, gone at {high} to {names[high_seat]}"
