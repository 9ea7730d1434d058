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

from modernart.cli.i18n import _

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
        return False, _("Game over")
    if me < 0:
        return False, _("WATCHING: {what}").format(what=_others(obs, name, artist, owed))
    if phase == Phase.OPEN:
        return _open(obs)
    if phase == Phase.SEALED:
        return _sealed(obs, name, owed)
    if phase in (Phase.POSTED_OFFER, Phase.CHOOSE_BUYER, Phase.MYSTERY_FLIP, Phase.ANNOUNCE):
        return (True, _variant_turn(obs)) if mine else (False, _others(obs, name, artist))
    if phase not in _TURNS:
        return False, ""
    asked = _asked(obs, artist)
    return (True, asked) if asked is not None else (False, _others(obs, name, artist))


#: The steps taken in turn by one seat (the others wait for it)
_TURNS = (Phase.PLAY_CARD, Phase.DOUBLE_OFFER, Phase.ONCE_AROUND, Phase.FIXED_SET, Phase.FIXED_OFFER)


def _asked(obs: Observation, artist: str) -> str | None:
    """What a step of `_TURNS` asks of this seat, if it is this seat's turn (None: another's)."""
    me, phase = obs.seat, obs.phase
    if phase == Phase.PLAY_CARD:
        return _("YOUR TURN: put up a painting (<- -> choose, Enter)") if me in obs.to_move else None
    if phase == Phase.FIXED_SET:
        if obs.auctioneer != me:
            return None
        lo, hi = _range(obs)
        return _("YOUR TURN: set the price {low}-{high} (type + Enter)").format(low=lo, high=hi)
    if obs.turn != me:
        return None
    if phase == Phase.DOUBLE_OFFER:
        return _("YOUR TURN: add a second {artist} (Enter) or p to pass").format(artist=artist)
    if phase == Phase.ONCE_AROUND:
        return _("YOUR TURN: bid above {high} or p to pass (once around)").format(high=obs.high)
    if Move.accept(me) not in obs.legal_moves(amounts=False):  # a fixed price offered to this seat
        return _("YOUR TURN: you cannot pay {price}: p to decline").format(price=obs.price)
    return _("YOUR TURN: buy for {price}? a = accept, p = decline").format(price=obs.price)


def _sealed(obs: Observation, name: Names, owed: Sequence[int]) -> tuple[bool, str]:
    """A Sealed auction, for a seated player: seal a bid, or whom the table waits for."""
    if obs.amount_range() is not None:
        return True, _("YOUR TURN: seal a bid 0-{money} (type + Enter)").format(money=obs.money)
    if len(obs.sealed_done) == obs.players:
        return False, _("All bids are sealed; {reveals}").format(reveals=_reveals(obs, name, owed))
    waiting = [name(s) for s in range(obs.players) if s not in obs.sealed_done]
    if obs.options.sealed_excludes_seller and obs.seat == obs.auctioneer:
        return False, _("You are the seller; waiting for the bids of {players}").format(players=_(", ").join(waiting))
    return False, _("Your sealed bid is in; waiting for {players}").format(players=_(", ").join(waiting))


def _variant_turn(obs: Observation) -> str:
    """What the variants' own steps ask of this seat (docs/rules.md §10)."""
    if obs.phase == Phase.POSTED_OFFER:
        if Move.accept(obs.seat) not in obs.legal_moves(amounts=False):
            return _("YOUR TURN: you cannot pay {price}: p to leave it").format(price=obs.price)
        return _("YOUR TURN: take it for {price}? a = take, p = leave").format(price=obs.price)
    if obs.phase == Phase.CHOOSE_BUYER:
        seats = " ".join(str(s + 1) for s in obs.candidates)
        return _("YOUR TURN: choose the buyer (press {seats})").format(seats=seats)
    if obs.phase == Phase.ANNOUNCE:
        return _("YOUR TURN: announce the auction (press 1-4)")
    return _("YOUR TURN: m = turn up the mystery hand's top card, p = leave it")


def _open(obs: Observation) -> tuple[bool, str]:
    """An Open auction, for a seated player: everyone may bid at any time."""
    me = obs.seat
    if obs.high_seat == me:
        return False, _("You hold the high bid ({high}); wait or be outbid").format(high=obs.high)
    can_bid = obs.amount_range() is not None
    if me == obs.auctioneer:
        return True, _("OPEN AUCTION: bid, p to pass, h to sell now") if can_bid else _("OPEN AUCTION: h to sell now")
    if can_bid:
        return True, _("OPEN AUCTION: bid any time, or p to pass")
    return False, _("OPEN AUCTION: you cannot beat {high} (you have {money})").format(high=obs.high, money=obs.money)


def _reveals(obs: Observation, name: Names, owed: Sequence[int]) -> str:
    """Words for the wait between the last commitment and the result."""
    if not owed:
        return _("opening them")
    return _("waiting for the reveal of {players}").format(players=_(", ").join(name(s) for s in owed))


def _others(obs: Observation, name: Names, artist: str, owed: Sequence[int] = ()) -> str:
    """What the table waits for from someone else (the words for a watcher, and for a
    player whose turn it is not, where they are the same)."""
    phase = obs.phase
    if phase == Phase.PLAY_CARD:
        return _("{player} is choosing a painting to sell").format(player=name(obs.auctioneer))
    if phase == Phase.DOUBLE_OFFER:
        return _("{player} may add a second {artist} to the Double").format(player=name(obs.turn), artist=artist)
    if phase == Phase.OPEN:
        if obs.high_seat >= 0:
            return _("open auction, high bid {high} by {player}").format(high=obs.high, player=name(obs.high_seat))
        return _("open auction, no bid yet")
    if phase == Phase.ONCE_AROUND:
        return _("{player} bids next (once around)").format(player=name(obs.turn))
    if phase == Phase.SEALED:
        if len(obs.sealed_done) == obs.players:
            return _("all bids sealed, {reveals}").format(reveals=_reveals(obs, name, owed))
        waiting = _(", ").join(name(s) for s in range(obs.players) if s not in obs.sealed_done)
        return _("sealed bids from {players}").format(players=waiting)
    if phase == Phase.FIXED_SET:
        return _("{player} is setting the price").format(player=name(obs.auctioneer))
    if phase == Phase.POSTED_OFFER:
        waiting = _(", ").join(name(s) for s in obs.to_move)
        return _("{players} decide whether to take {price}").format(players=waiting, price=obs.price)
    if phase == Phase.CHOOSE_BUYER:
        return _("{player} chooses the buyer").format(player=name(obs.auctioneer))
    if phase == Phase.MYSTERY_FLIP:
        return _("{player} may turn up the mystery hand").format(player=name(obs.turn))
    if phase == Phase.ANNOUNCE:
        return _("{player} announces the auction").format(player=name(obs.auctioneer))
    return _("{player} decides whether to buy at {price}").format(player=name(obs.turn), price=obs.price)


def _range(obs: Observation) -> tuple[int, int]:
    r = obs.amount_range()
    return (r[1], r[2]) if r is not None else (0, 0)


def not_now(obs: Observation, name: Names, edition: Edition) -> str:
    """Why this seat cannot act at all now (a key pressed at the wrong time)."""
    mine, text = expectation(obs, name, edition)
    if obs.is_over:
        return _("The game is over")
    return _("Not your turn: {what}").format(what=text) if not mine else text


def amount_problem(obs: Observation, typed: str, name: Names, edition: Edition) -> tuple[Action, int] | str:
    """The amount move for `typed`, or a sentence saying why it cannot be sent."""
    r = obs.amount_range()
    phase = obs.phase
    if r is None:
        if phase == Phase.OPEN and obs.high_seat == obs.seat:
            return _("You already hold the high bid ({high})").format(high=obs.high)
        if obs.amount_action() == Action.BID and obs.seat in obs.to_move and obs.money <= obs.high:
            return _("You cannot beat the high bid of {high}: you have {money}").format(high=obs.high, money=obs.money)
        if phase == Phase.SEALED and obs.seat in obs.sealed_done:
            return _("You have already sealed your bid")
        if phase == Phase.FIXED_OFFER and obs.turn == obs.seat:
            return _("No amount to type: a to accept the price, p to decline")
        return not_now(obs, name, edition)
    action, lo, hi = r
    if not typed:
        first = {
            Action.BID: _("Type a bid first ({low}-{high}), then Enter"),
            Action.SEALED_BID: _("Type a sealed bid first ({low}-{high}), then Enter"),
            Action.SET_PRICE: _("Type a price first ({low}-{high}), then Enter"),
        }[action]
        return first.format(low=lo, high=hi)
    if not typed.isdigit() or len(typed) > 9:
        return _("{typed} is not a number").format(typed=repr(typed))
    amount = int(typed)
    if amount > obs.money:
        return _("{amount} is above your money ({money})").format(amount=amount, money=obs.money)
    if amount > hi:
        return _("{amount} is too high: at most {high}").format(amount=amount, high=hi)
    if amount < lo:
        if action == Action.BID:
            return _("Bid more than {high}: at least {low}").format(high=obs.high, low=lo)
        return _("{amount} is too low: at least {low}").format(amount=amount, low=lo)
    return action, amount


def hidden_wait(obs: Observation, name: Names, late: Sequence[int]) -> str | None:
    """At a table that hides hands, what the table waits for from another seat when only
    that seat's own client can do it (None: nothing of the kind): a card from its hand,
    or (`late`: the seats whose deck step is overdue) a step it has let run late."""
    if obs.phase == Phase.PLAY_CARD and obs.auctioneer != obs.seat:
        player = name(obs.auctioneer)
        if obs.auctioneer in late:
            return _("{player} is late: only {player} can put up one of their paintings").format(player=player)
        return _("Only {player} can put up one of their paintings (hands are hidden)").format(player=player)
    others = [s for s in late if s != obs.seat]
    if others:
        return _("Waiting for {players}: late with the deck, and only they can send it").format(
            players=_(", ").join(name(s) for s in others)
        )
    return None


def vote_prompt(player: str, voted: str | None) -> str:
    """What the status line says to a person who may vote on `player`, late at a table that
    hides hands (`voted`: this person's vote in this wait, if any)."""
    if voted == "end":
        return _("{player} is late: you voted to end the game now; the others' votes decide").format(player=player)
    if voted == "wait":
        return _("{player} is late: you voted to keep waiting; the others' votes decide").format(player=player)
    return _("{player} is late: w to keep waiting, e to end the game now").format(player=player)


def cards_coming_text() -> str:
    """Why no card can be chosen yet at a hidden-hands table, right after a deal."""
    return _("Your paintings are still being dealt: wait for the other players' shares")


def why_no_card(obs: Observation, edition: Edition) -> str:
    """Why Enter cannot put up (or add to the Double) the chosen card, when a card is asked for."""
    if obs.card_action() == Action.PLAY:
        return _("You have no painting to put up")
    artist = edition.artists[obs.lot[0].artist]
    if not any(m.action == Action.ADD_SECOND for m in obs.legal_moves(amounts=False)):
        return _("You have no other {artist} to add: p to pass").format(artist=artist)
    return _("Choose a {artist} that is not a Double (<- ->), or p to pass").format(artist=artist)


def why_no_enter(obs: Observation, name: Names, edition: Edition) -> str:
    """Why Enter does nothing when neither an amount nor a card is asked of this seat."""
    if Move.decline(obs.seat) in obs.legal_moves(amounts=False):  # a price is offered to it
        return _("a = accept the price of {price}, p = decline").format(price=obs.price)
    return not_now(obs, name, edition)


def why_no_pass(obs: Observation, name: Names, edition: Edition) -> str:
    """Why `p` (pass, decline) is not a legal move of this seat now."""
    me = obs.seat
    if obs.phase == Phase.OPEN and obs.high_seat == me:
        return _("You hold the high bid ({high}): you cannot pass").format(high=obs.high)
    if obs.phase == Phase.OPEN and me in obs.passed:
        return _("You have already passed; a new bid lets you back in")
    r = obs.amount_range()
    if r is not None and r[0] == Action.SEALED_BID:
        return _("In a sealed auction you bid nothing by sealing 0: type 0, Enter")
    if obs.card_action() == Action.PLAY:
        return _("You must put up a painting: passing is not allowed")
    if obs.amount_action() == Action.SET_PRICE:
        return _("You must set a price: type it, then Enter")
    return not_now(obs, name, edition)


def why_no_accept(obs: Observation, name: Names, edition: Edition) -> str:
    """Why `a` (accept the price) is not a legal move of this seat now."""
    if Move.decline(obs.seat) in obs.legal_moves(amounts=False):  # offered, but too dear
        return _("You cannot pay {price}: you have {money}").format(price=obs.price, money=obs.money)
    if obs.phase in (Phase.FIXED_OFFER, Phase.POSTED_OFFER):
        return not_now(obs, name, edition)
    return _("There is no price to accept now")


def why_no_flip(obs: Observation, name: Names, edition: Edition) -> str:
    """Why `m` (turn up the mystery hand) is not a legal move of this seat now."""
    if obs.phase != Phase.MYSTERY_FLIP:
        return _("The mystery hand is turned up only after a sale")
    return not_now(obs, name, edition)


def why_no_buyer(obs: Observation, name: Names, seat: int) -> str:
    """Why pressing seat number `seat + 1` does not choose that seat as the buyer."""
    if obs.phase != Phase.CHOOSE_BUYER or obs.seat != obs.auctioneer:
        return _("Only the seller chooses the buyer, and only among tied bids or takers")
    names = _(", ").join(f"{s + 1} {name(s)}" for s in obs.candidates)
    return _("{player} is not among the buyers to choose from: {choices}").format(player=name(seat), choices=names)


def why_no_hammer(obs: Observation, name: Names) -> str:
    """Why `h` (sell now) is not a legal move of this seat now."""
    if obs.phase != Phase.OPEN:
        return _("Only an Open auction can be closed early")
    return _("Only the auctioneer ({player}) can sell now").format(player=name(obs.auctioneer))
