"""What the table expects now, in words: the status line, and why a key cannot act.

Everything here reads an `Observation` (what the seat may know) and returns sentences.
Whether a key acts is decided elsewhere, from `obs.legal_moves()`, `obs.amount_range()`,
`obs.amount_action()` and `obs.card_action()` (cli/tui/actions.py); the words here may
name the step ("In a sealed auction ..."), but they never decide what is legal.
"""

from __future__ import annotations

from typing import Callable, Sequence

from modernart.cards import Edition
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.views import Observation

Names = Callable[[int], str]


def expectation(obs: Observation, name: Names, edition: Edition, owed: Sequence[int] = ()) -> tuple[bool, str]:
    """(whether this seat should act now, what is expected, in words); `owed` names the
    seats whose sealed-bid reveal the host still waits for (the Observation cannot know)."""
    me = obs.seat
    phase = obs.phase
    mine = me in obs.to_move
    lot = obs.lot[0] if obs.lot else None
    artist = edition.artists[lot.artist] if lot is not None else ""
    if phase == Phase.GAME_OVER:
        return False, "Game over"
    if me < 0:
        return False, "WATCHING: " + _others(obs, name, artist, owed)
    if phase == Phase.PLAY_CARD:
        if mine:
            return True, "YOUR TURN: put up a painting (<- -> choose, Enter)"
        return False, _others(obs, name, artist)
    if phase == Phase.DOUBLE_OFFER:
        if obs.turn == me:
            return True, f"YOUR TURN: add a second {artist} (Enter) or p to pass"
        return False, _others(obs, name, artist)
    if phase == Phase.OPEN:
        return _open(obs)
    if phase == Phase.ONCE_AROUND:
        if obs.turn == me:
            return True, f"YOUR TURN: bid above {obs.high} or p to pass (once around)"
        return False, _others(obs, name, artist)
    if phase == Phase.SEALED:
        if obs.amount_range() is not None:
            return True, f"YOUR TURN: seal a bid 0-{obs.money} (type + Enter)"
        if len(obs.sealed_done) == obs.players:
            return False, "All bids are sealed; " + _reveals(obs, name, owed)
        waiting = [name(s) for s in range(obs.players) if s not in obs.sealed_done]
        return False, "Your sealed bid is in; waiting for " + ", ".join(waiting)
    if phase == Phase.FIXED_SET:
        if obs.auctioneer == me:
            lo, hi = _range(obs)
            return True, f"YOUR TURN: set the price {lo}-{hi} (type + Enter)"
        return False, _others(obs, name, artist)
    if phase == Phase.FIXED_OFFER:
        if obs.turn == me:
            if Move.accept(me) not in obs.legal_moves(amounts=False):
                return True, f"YOUR TURN: you cannot pay {obs.price}: p to decline"
            return True, f"YOUR TURN: buy for {obs.price}? a = accept, p = decline"
        return False, _others(obs, name, artist)
    return False, ""


def _open(obs: Observation) -> tuple[bool, str]:
    """An Open auction, for a seated player: everyone may bid at any time."""
    me = obs.seat
    if obs.high_seat == me:
        return False, f"You hold the high bid ({obs.high}); wait or be outbid"
    can_bid = obs.amount_range() is not None
    if me == obs.auctioneer:
        return True, "OPEN AUCTION: bid, p to pass, h to sell now" if can_bid else "OPEN AUCTION: h to sell now"
    if can_bid:
        return True, "OPEN AUCTION: bid any time, or p to pass"
    return False, f"OPEN AUCTION: you cannot beat {obs.high} (you have {obs.money})"


def _reveals(obs: Observation, name: Names, owed: Sequence[int]) -> str:
    """Words for the wait between the last commitment and the result."""
    if not owed:
        return "opening them"
    return "waiting for the reveal of " + ", ".join(name(s) for s in owed)


def _others(obs: Observation, name: Names, artist: str, owed: Sequence[int] = ()) -> str:
    """What the table waits for from someone else (the words for a watcher, and for a
    player whose turn it is not, where they are the same)."""
    phase = obs.phase
    if phase == Phase.PLAY_CARD:
        return f"{name(obs.auctioneer)} is choosing a painting to sell"
    if phase == Phase.DOUBLE_OFFER:
        return f"{name(obs.turn)} may add a second {artist} to the Double"
    if phase == Phase.OPEN:
        high = f"high bid {obs.high} by {name(obs.high_seat)}" if obs.high_seat >= 0 else "no bid yet"
        return f"open auction, {high}"
    if phase == Phase.ONCE_AROUND:
        return f"{name(obs.turn)} bids next (once around)"
    if phase == Phase.SEALED:
        if len(obs.sealed_done) == obs.players:
            return "all bids sealed, " + _reveals(obs, name, owed)
        return "sealed bids from " + ", ".join(name(s) for s in range(obs.players) if s not in obs.sealed_done)
    if phase == Phase.FIXED_SET:
        return f"{name(obs.auctioneer)} is setting the price"
    return f"{name(obs.turn)} decides whether to buy at {obs.price}"


def _range(obs: Observation) -> tuple[int, int]:
    r = obs.amount_range()
    return (r[1], r[2]) if r is not None else (0, 0)


def not_now(obs: Observation, name: Names, edition: Edition) -> str:
    """Why this seat cannot act at all now (a key pressed at the wrong time)."""
    mine, text = expectation(obs, name, edition)
    if obs.is_over:
        return "The game is over"
    return f"Not your turn: {text}" if not mine else text


def amount_problem(obs: Observation, typed: str, name: Names, edition: Edition) -> tuple[Action, int] | str:
    """The amount move for `typed`, or a sentence saying why it cannot be sent."""
    r = obs.amount_range()
    phase = obs.phase
    if r is None:
        if phase == Phase.OPEN and obs.high_seat == obs.seat:
            return f"You already hold the high bid ({obs.high})"
        if obs.amount_action() == Action.BID and obs.seat in obs.to_move and obs.money <= obs.high:
            return f"You cannot beat the high bid of {obs.high}: you have {obs.money}"
        if phase == Phase.SEALED and obs.seat in obs.sealed_done:
            return "You have already sealed your bid"
        if phase == Phase.FIXED_OFFER and obs.turn == obs.seat:
            return "No amount to type: a to accept the price, p to decline"
        return not_now(obs, name, edition)
    action, lo, hi = r
    if not typed:
        what = {Action.BID: "a bid", Action.SEALED_BID: "a sealed bid", Action.SET_PRICE: "a price"}[action]
        return f"Type {what} first ({lo}-{hi}), then Enter"
    if not typed.isdigit() or len(typed) > 9:
        return f"{typed!r} is not a number"
    amount = int(typed)
    if amount > obs.money:
        return f"{amount} is above your money ({obs.money})"
    if amount > hi:
        return f"{amount} is too high: at most {hi}"
    if amount < lo:
        if action == Action.BID:
            return f"Bid more than {obs.high}: at least {lo}"
        return f"{amount} is too low: at least {lo}"
    return action, amount


def why_no_card(obs: Observation, edition: Edition) -> str:
    """Why Enter cannot put up (or add to the Double) the chosen card, when a card is asked for."""
    if obs.card_action() == Action.PLAY:
        return "You have no painting to put up"
    artist = edition.artists[obs.lot[0].artist]
    if not any(m.action == Action.ADD_SECOND for m in obs.legal_moves(amounts=False)):
        return f"You have no other {artist} to add: p to pass"
    return f"Choose a {artist} that is not a Double (<- ->), or p to pass"


def why_no_enter(obs: Observation, name: Names, edition: Edition) -> str:
    """Why Enter does nothing when neither an amount nor a card is asked of this seat."""
    if Move.decline(obs.seat) in obs.legal_moves(amounts=False):  # a price is offered to it
        return f"a = accept the price of {obs.price}, p = decline"
    return not_now(obs, name, edition)


def why_no_pass(obs: Observation, name: Names, edition: Edition) -> str:
    """Why `p` (pass, decline) is not a legal move of this seat now."""
    me = obs.seat
    if obs.phase == Phase.OPEN and obs.high_seat == me:
        return f"You hold the high bid ({obs.high}): you cannot pass"
    if obs.phase == Phase.OPEN and me in obs.passed:
        return "You have already passed; a new bid lets you back in"
    r = obs.amount_range()
    if r is not None and r[0] == Action.SEALED_BID:
        return "In a sealed auction you bid nothing by sealing 0: type 0, Enter"
    if obs.card_action() == Action.PLAY:
        return "You must put up a painting: passing is not allowed"
    if obs.amount_action() == Action.SET_PRICE:
        return "You must set a price: type it, then Enter"
    return not_now(obs, name, edition)


def why_no_accept(obs: Observation, name: Names, edition: Edition) -> str:
    """Why `a` (accept the price) is not a legal move of this seat now."""
    if Move.decline(obs.seat) in obs.legal_moves(amounts=False):  # offered, but too dear
        return f"You cannot pay {obs.price}: you have {obs.money}"
    if obs.phase == Phase.FIXED_OFFER:
        return not_now(obs, name, edition)
    return "There is no price to accept now"


def why_no_hammer(obs: Observation, name: Names) -> str:
    """Why `h` (sell now) is not a legal move of this seat now."""
    if obs.phase != Phase.OPEN:
        return "Only an Open auction can be closed early"
    return f"Only the auctioneer ({name(obs.auctioneer)}) can sell now"
