"""Game events in words, for the log pane, the bot-only game and screen readers."""

from __future__ import annotations

from typing import Sequence

from modernart.cards import Edition
from modernart.events import (
    BANK,
    AuctionStarted,
    CardsDealt,
    GameEnded,
    MysteryFlipped,
    RoundEnded,
    Sale,
    SealedRevealed,
)
from modernart.moves import Action, Move

_ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")


def describe_event(event: object, names: Sequence[str], edition: Edition, deck) -> str | None:
    """One log line for an engine event or move; None for events not worth a line."""
    if isinstance(event, Move):
        if event.action == Action.FLIP_MYSTERY:
            return None  # the MysteryFlipped event that follows says which card
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
        if event.buyer == BANK:
            return f"Nobody buys {cards}: it is discarded and does not count"
        if event.price == 0:
            return f"{names[event.buyer]} takes {cards} for free"
        return f"SOLD: {cards} to {names[event.buyer]} for {event.price} ({_paid(event, names)})"
    if isinstance(event, RoundEnded):
        r = event.result
        ranks = ", ".join(f"{_ORDINAL[i]} {edition.artists[a]} ({r.values[a]} each)" for i, a in enumerate(r.ranking))
        pays = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(r.payouts))
        how = "fifth painting" if r.ended_by == "fifth" else "all hands empty"
        return f"Round {r.round + 1} ends ({how}). {ranks}. Payouts: {pays}"
    if isinstance(event, GameEnded):
        money = ", ".join(f"{names[s]} {m}" for s, m in enumerate(event.money))
        win = " and ".join(names[s] for s in event.winners)
        return f"Game over. Final money: {money}. Winner: {win}"
    if isinstance(event, MysteryFlipped):
        return f"{names[event.seat]} turns up the mystery hand: {edition.describe(event.card)} counts"
    if isinstance(event, CardsDealt):
        return None
    return None


def describe_events(items: Sequence[object], names: Sequence[str], edition: Edition, deck) -> list[str]:
    """Log lines for a run of moves and events in order, one line per happening: a card
    put up and the auction it starts are one line, and so are a card and the end of the
    round it causes (the card is not sold)."""
    lines: list[str] = []
    i = 0
    while i < len(items):
        item = items[i]
        after = items[i + 1] if i + 1 < len(items) else None
        if isinstance(item, Move) and item.action in (Action.PLAY, Action.ADD_SECOND):
            who, card = names[item.seat], edition.describe(deck[item.arg])
            verb = "puts up" if item.action == Action.PLAY else "adds"
            if isinstance(after, AuctionStarted):
                both = " to the Double" if item.action == Action.ADD_SECOND else ""
                lines.append(f"{who} {verb} {card}{both}: {after.kind.label} auction")
                i += 2
                continue
            if isinstance(after, RoundEnded):
                lines.append(
                    f"{who} {verb} {card}: the fifth {edition.artists[deck[item.arg].artist]} ends the round, unsold"
                )
                i += 1
                continue
        text = describe_event(item, names, edition, deck)
        if text:
            lines.append(text)
        i += 1
    return lines


def _paid(sale: Sale, names: Sequence[str]) -> str:
    """'paid to Bob', 'paid to the bank', 'paid 14 to Bob and 14 to Cem' (a split Double)."""
    payees = [(to, amount) for _, to, amount in sale.payments]
    if not payees:
        return "paid to nobody"
    words = ["the bank" if to == BANK else names[to] for to, _ in payees]
    if len(payees) == 1:
        return f"paid to {words[0]}"
    return "paid " + " and ".join(f"{amount} to {w}" for (_, amount), w in zip(payees, words))


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
    if action == Action.CHOOSE_BUYER:
        return f"{who} sells to {names[move.arg]}" if 0 <= move.arg < len(names) else f"{who} chooses the buyer"
    if action == Action.KEEP_MYSTERY:
        return f"{who} leaves the mystery hand"
    return f"{who} declines the price"


def describe_timeout(high: int, high_seat: int, names: Sequence[str]) -> str:
    """The line logged when the host's Open countdown runs out (the hammer falls by itself)."""
    if high_seat < 0:
        return "Time is up: nobody bid, the auctioneer keeps the lot"
    return f"Time is up: going, going, gone at {high} to {names[high_seat]}"


def timeout_of(events: Sequence[object], names: Sequence[str]) -> str:
    """`describe_timeout` for the Open countdown whose hammer caused `events` (its Sale)."""
    sale = next((e for e in events if isinstance(e, Sale)), None)
    if sale is None or sale.buyer == BANK or (sale.price == 0 and sale.buyer == sale.auctioneer):
        return describe_timeout(0, -1, names)
    return describe_timeout(sale.price, sale.buyer, names)
