"""The coach's review (modernart/coach.py) in the client's language: each decision, the
costliest five and the one-line summary, for `modernart review` and the screens.

Every line is one sentence of the catalog with named placeholders, never glued from
fragments, so that a right-to-left language reorders it as a whole."""

from __future__ import annotations

from typing import Sequence

from modernart.cards import AUCTION_TYPES, Card, Edition
from modernart.coach import Decision, Estimate, Review, Summary
from modernart.moves import Action, Move

from modernart.cli.i18n import _
from modernart.cli.words import auction_word, describe_card, local_edition


def move_words(move: Move, names: Sequence[str], edition: Edition, deck: Sequence[Card], price: int = 0) -> str:
    """What a move does, said to its player: 'bid 12', 'put up Yoko (Sealed)', 'pass'."""
    action, arg = move.action, move.arg
    edition = local_edition(edition)
    if action == Action.PLAY:
        return _("put up {card}").format(card=describe_card(edition, deck[arg]))
    if action == Action.ADD_SECOND:
        return _("add {card} to the Double").format(card=describe_card(edition, deck[arg]))
    if action == Action.DECLINE_SECOND:
        return _("add no second card")
    if action == Action.BID:
        return _("bid {amount}").format(amount=arg)
    if action == Action.PASS:
        return _("pass")
    if action == Action.HAMMER:
        return _("sell at once")
    if action == Action.SEALED_BID:
        return _("seal a bid of {amount}").format(amount=arg)
    if action == Action.SET_PRICE:
        return _("set the price at {price}").format(price=arg)
    if action == Action.ACCEPT:
        return _("buy at {price}").format(price=price)
    if action == Action.DECLINE:
        return _("decline")
    if action == Action.CHOOSE_BUYER:
        return _("sell to {player}").format(player=names[arg] if 0 <= arg < len(names) else arg)
    if action == Action.ANNOUNCE:
        return _("announce a {auction} auction").format(auction=auction_word(AUCTION_TYPES[arg]))
    if action == Action.FLIP_MYSTERY:
        return _("turn up the mystery hand's top card")
    if action == Action.KEEP_MYSTERY:
        return _("leave the mystery hand")
    return _("forfeit the sealed bid")


def estimate_words(cost: Estimate) -> str:
    """'+14 (95%: +6 to +22)': the bot's move against the player's, in final money."""
    return _("{mean} (95%: {low} to {high})").format(
        mean=_signed(cost.mean), low=_signed(cost.low), high=_signed(cost.high)
    )


def _signed(value: float) -> str:
    return f"{round(value):+d}"


def decision_line(d: Decision, names: Sequence[str], edition: Edition, deck: Sequence[Card]) -> str:
    """'Round 2, move 87: you bid 40; the strongest bot would bid 25: +9 (95%: +2 to +16)'."""
    where = _("Round {round}, move {move}").format(round=d.round + 1, move=d.index + 1)
    mine = move_words(d.played, names, edition, deck, d.price)
    if d.agreed:
        return _("{where}: you {mine}, as the strongest bot would").format(where=where, mine=mine)
    if d.advised is None:  # the bot would have waited in the Open auction (no pass was open)
        return _("{where}: you {mine}; the strongest bot would wait and let the others bid: {estimate}").format(
            where=where, mine=mine, estimate=estimate_words(d.cost)
        )
    theirs = move_words(d.advised, names, edition, deck, d.price)
    return _("{where}: you {mine}; the strongest bot would {theirs}: {estimate}").format(
        where=where, mine=mine, theirs=theirs, estimate=estimate_words(d.cost)
    )


def summary_line(summary: Summary | None) -> str:
    """'You overpaid most in Sealed auctions: about 23 of final money over 4 decisions (41 in all)'."""
    if summary is None:
        return _("The strongest bot would not have done better at any of your decisions")
    values = {
        "auction": auction_word(summary.kind) if summary.kind is not None else "",
        "cost": round(summary.total),
        "count": summary.count,
        "total": round(summary.game_total),
    }
    kind = summary.kind
    if summary.topic == "overpaid" and kind is not None:
        text = _(
            "You overpaid most in {auction} auctions: about {cost} of final money in {count} decisions ({total} in all)"
        )
    elif summary.topic == "underbid" and kind is not None:
        text = _(
            "You bid too little most in {auction} auctions: about {cost} of final money in {count} decisions ({total} in all)"
        )
    elif summary.topic == "price_high":
        text = _("Your prices were too high: about {cost} of final money in {count} decisions ({total} in all)")
    elif summary.topic == "price_low":
        text = _("Your prices were too low: about {cost} of final money in {count} decisions ({total} in all)")
    elif summary.topic == "painting":
        text = _(
            "The paintings you put up cost you most: about {cost} of final money in {count} decisions ({total} in all)"
        )
    elif summary.topic == "auction":
        text = _(
            "The auctions you announced cost you most: about {cost} of final money in {count} decisions ({total} in all)"
        )
    else:
        text = _(
            "Your other decisions cost you most: about {cost} of final money in {count} decisions ({total} in all)"
        )
    return text.format(**values)


def review_heading(review: Review) -> str:
    """Whose decisions, against which bot, with how many samples."""
    agreed = sum(1 for d in review.decisions if d.agreed)
    return _(
        "{player}: {count} decisions, {agreed} as the {level} bot would play; each other one measured by "
        "up to {samples} paired games played out from what you saw"
    ).format(
        player=review.players[review.seat],
        count=len(review.decisions),
        agreed=agreed,
        level=_(review.level),
        samples=review.samples,
    )
