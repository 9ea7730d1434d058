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

from modernart.cli.i18n import _
from modernart.cli.words import auction_word, describe_card, local_edition


def _list(items: Sequence[str]) -> str:
    """Items of a list in one line: 'Ana 12, Bea 0' ('Ana 12、Bea 0' in Chinese)."""
    return _(", ").join(items)


def _ordinal(place: int) -> str:
    return (_("1st"), _("2nd"), _("3rd"), _("4th"), _("5th"))[place]


def describe_event(event: object, names: Sequence[str], edition: Edition, deck) -> str | None:
    """One log line for an engine event or move, in this context's language; None for
    events not worth a line."""
    edition = local_edition(edition)
    if isinstance(event, Move):
        if event.action == Action.FLIP_MYSTERY:
            return None  # the MysteryFlipped event that follows says which card
        if event.action == Action.ANNOUNCE:
            return None  # the AuctionStarted event that follows names the auction
        return _describe_move(event, names, edition, deck)
    if isinstance(event, AuctionStarted):
        cards = " + ".join(describe_card(edition, c) for c in event.cards)
        return _("{seller} auctions {cards}: {auction} auction").format(
            seller=names[event.auctioneer], cards=cards, auction=auction_word(event.kind)
        )
    if isinstance(event, SealedRevealed):
        shown = _list([_("{player} {bid}").format(player=names[s], bid=b) for s, b in enumerate(event.bids)])
        if event.offenders:
            forfeited = _list([names[s] for s in event.offenders])
            return _("Sealed bids revealed: {bids}; forfeited: {players}").format(bids=shown, players=forfeited)
        return _("Sealed bids revealed: {bids}").format(bids=shown)
    if isinstance(event, Sale):
        cards = " + ".join(edition.artists[c.artist] for c in event.cards)
        if event.buyer == BANK:
            return _("Nobody buys {cards}: it is discarded and does not count").format(cards=cards)
        if event.price == 0:
            return _("{buyer} takes {cards} for free").format(buyer=names[event.buyer], cards=cards)
        return _("SOLD: {cards} to {buyer} for {price} ({paid})").format(
            cards=cards, buyer=names[event.buyer], price=event.price, paid=_paid(event, names)
        )
    if isinstance(event, RoundEnded):
        r = event.result
        ranks = _list(
            [
                _("{place} {artist} ({value} each)").format(
                    place=_ordinal(i), artist=edition.artists[a], value=r.values[a]
                )
                for i, a in enumerate(r.ranking)
            ]
        )
        pays = _list([_("{player} +{amount}").format(player=names[s], amount=p) for s, p in enumerate(r.payouts)])
        if r.ended_by == "fifth":
            text = _("Round {round} ends (fifth painting). {ranking}. Payouts: {payouts}")
        else:
            text = _("Round {round} ends (all hands empty). {ranking}. Payouts: {payouts}")
        return text.format(round=r.round + 1, ranking=ranks, payouts=pays)
    if isinstance(event, GameEnded):
        money = _list([_("{player} {money}").format(player=names[s], money=m) for s, m in enumerate(event.money)])
        win = _(" and ").join(names[s] for s in event.winners)
        return _("Game over. Final money: {money}. Winner: {winners}").format(money=money, winners=win)
    if isinstance(event, MysteryFlipped):
        return _("{player} turns up the mystery hand: {card} counts").format(
            player=names[event.seat], card=describe_card(edition, event.card)
        )
    if isinstance(event, CardsDealt):
        return None
    return None


def describe_events(items: Sequence[object], names: Sequence[str], edition: Edition, deck) -> list[str]:
    """Log lines for a run of moves and events in order, one line per happening: a card
    put up and the auction it starts are one line, and so are a card and the end of the
    round it causes (the card is not sold)."""
    edition = local_edition(edition)
    lines: list[str] = []
    i = 0
    while i < len(items):
        item = items[i]
        after = items[i + 1] if i + 1 < len(items) else None
        if isinstance(item, Move) and item.action in (Action.PLAY, Action.ADD_SECOND):
            who, card = names[item.seat], describe_card(edition, deck[item.arg])
            if isinstance(after, AuctionStarted):
                if item.action == Action.ADD_SECOND:
                    text = _("{player} adds {card} to the Double: {auction} auction")
                else:
                    text = _("{player} puts up {card}: {auction} auction")
                lines.append(text.format(player=who, card=card, auction=auction_word(after.kind)))
                i += 2
                continue
            if isinstance(after, RoundEnded):
                if item.action == Action.ADD_SECOND:
                    text = _("{player} adds {card}: the fifth {artist} ends the round, unsold")
                else:
                    text = _("{player} puts up {card}: the fifth {artist} ends the round, unsold")
                lines.append(text.format(player=who, card=card, artist=edition.artists[deck[item.arg].artist]))
                i += 1
                continue
        said = describe_event(item, names, edition, deck)
        if said:
            lines.append(said)
        i += 1
    return lines


def _paid(sale: Sale, names: Sequence[str]) -> str:
    """'paid to Bob', 'paid to the bank', 'paid 14 to Bob and 14 to Cem' (a split Double)."""
    payees = [(to, amount) for _seller, to, amount in sale.payments]
    if not payees:
        return _("paid to nobody")
    words = [_("the bank") if to == BANK else names[to] for to, _amount in payees]
    if len(payees) == 1:
        return _("paid to {payee}").format(payee=words[0])
    shares = _(" and ").join(
        _("{amount} to {payee}").format(amount=amount, payee=w) for (_to, amount), w in zip(payees, words)
    )
    return _("paid {shares}").format(shares=shares)


def _describe_move(move: Move, names: Sequence[str], edition: Edition, deck) -> str:
    who = names[move.seat]
    action = move.action
    if action == Action.PLAY:
        return _("{player} puts up {card}").format(player=who, card=describe_card(edition, deck[move.arg]))
    if action == Action.ADD_SECOND:
        return _("{player} adds {card} to the Double").format(player=who, card=describe_card(edition, deck[move.arg]))
    if action == Action.DECLINE_SECOND:
        return _("{player} adds no second card").format(player=who)
    if action == Action.BID:
        return _("{player} bids {amount}").format(player=who, amount=move.arg)
    if action == Action.PASS:
        return _("{player} passes").format(player=who)
    if action == Action.HAMMER:
        return _("{player} brings the hammer down").format(player=who)
    if action == Action.SEALED_BID:
        return _("{player} seals a bid").format(player=who)
    if action == Action.SEALED_FORFEIT:
        return _("{player}'s sealed bid is forfeited").format(player=who)
    if action == Action.SET_PRICE:
        return _("{player} sets the price at {price}").format(player=who, price=move.arg)
    if action == Action.ACCEPT:
        return _("{player} accepts the price").format(player=who)
    if action == Action.CHOOSE_BUYER:
        if 0 <= move.arg < len(names):
            return _("{player} sells to {buyer}").format(player=who, buyer=names[move.arg])
        return _("{player} chooses the buyer").format(player=who)
    if action == Action.KEEP_MYSTERY:
        return _("{player} leaves the mystery hand").format(player=who)
    return _("{player} declines the price").format(player=who)


def describe_timeout(high: int, high_seat: int, names: Sequence[str]) -> str:
    """The line logged when the host's Open countdown runs out (the hammer falls by itself)."""
    if high_seat < 0:
        return _("Time is up: nobody bid, the auctioneer keeps the lot")
    return _("Time is up: going, going, gone at {price} to {buyer}").format(price=high, buyer=names[high_seat])


def timeout_of(events: Sequence[object], names: Sequence[str]) -> str:
    """`describe_timeout` for the Open countdown whose hammer caused `events` (its Sale)."""
    sale = next((e for e in events if isinstance(e, Sale)), None)
    if sale is None or sale.buyer == BANK or (sale.price == 0 and sale.buyer == sale.auctioneer):
        return describe_timeout(0, -1, names)
    return describe_timeout(sale.price, sale.buyer, names)
