"""The random player: uniform over the legal moves, an amount uniform over its legal range.

A bid (or price, or sealed bid) counts as one choice among the legal moves; if chosen, its
amount is drawn uniformly from the legal range.  In Open auctions, where several seats may
act, `random_step` first draws the acting seat uniformly from `state.to_move()`.

`random_move` works on the state directly (it only reads what the acting seat may see:
its own hand and money, the public auction) because it is the engine's benchmark player
and must cost next to nothing.  Its choices are checked against `legal_moves` in the tests.
"""

from __future__ import annotations

import random as _random
from typing import Callable

from ..cards import AuctionType
from ..auctions import NO_BID as _NO_BID
from ..game import GameState
from ..moves import Action, Move
from ..phase import Phase

_P_PLAY, _P_DOUBLE, _P_OPEN, _P_ONCE, _P_SEALED, _P_FSET, _P_FOFFER = (
    Phase.PLAY_CARD, Phase.DOUBLE_OFFER, Phase.OPEN, Phase.ONCE_AROUND, Phase.SEALED,
    Phase.FIXED_SET, Phase.FIXED_OFFER,
)
_DOUBLE = AuctionType.DOUBLE
_of = Move.of
_PLAY, _ADD, _DECLINE2, _BID, _PASS, _HAMMER, _SEALED, _PRICE, _ACCEPT, _DECLINE = (
    Action.PLAY, Action.ADD_SECOND, Action.DECLINE_SECOND, Action.BID, Action.PASS,
    Action.HAMMER, Action.SEALED_BID, Action.SET_PRICE, Action.ACCEPT, Action.DECLINE,
)


def random_move(state: GameState, seat: int, rand: Callable[[], float]) -> Move:
    """A uniformly random legal move for `seat`, which must be one of `state.to_move()`.

    `rand` is a float generator in [0, 1), e.g. `random.Random(seed).random`.
    """
    phase = state.phase
    money = state.money[seat]
    if phase == _P_PLAY:
        hand = state.hands[seat]
        return _of(seat, _PLAY, hand[int(rand() * len(hand))])
    if phase == _P_SEALED:
        return _of(seat, _SEALED, int(rand() * (money + 1)))
    if phase == _P_OPEN:
        high = state.high
        can_pass = seat != state.high_seat and not state.passed[seat]
        can_bid = seat != state.high_seat and money > high and not (
            state.passed[seat] and state.options.open_pass_is_final)
        can_hammer = seat == state.auctioneer
        i = int(rand() * (can_pass + can_bid + can_hammer))
        if can_pass:
            if i == 0:
                return _of(seat, _PASS)
            i -= 1
        if can_hammer:
            if i == 0:
                return _of(seat, _HAMMER)
        return _of(seat, _BID, high + 1 + int(rand() * (money - high)))
    if phase == _P_ONCE:
        high = state.high
        if money > high and rand() < 0.5:
            return _of(seat, _BID, high + 1 + int(rand() * (money - high)))
        return _of(seat, _PASS)
    if phase == _P_FOFFER:
        if state.price <= money and rand() < 0.5:
            return _of(seat, _ACCEPT)
        return _of(seat, _DECLINE)
    if phase == _P_FSET:
        return _of(seat, _PRICE, 1 + int(rand() * money) if money else 0)
    if phase == _P_DOUBLE:
        double = state.lot[0]
        adds = [c for c in state.hands[seat] if c.artist == double.artist and c.kind != _DOUBLE]
        i = int(rand() * (len(adds) + 1))
        return _of(seat, _ADD, adds[i]) if i < len(adds) else _of(seat, _DECLINE2)
    raise ValueError(f"no move for seat {seat} in phase {state.phase!r}")


def random_step(state: GameState, rand: Callable[[], float]) -> Move:
    """Pick the acting seat uniformly among `to_move()`, then its random move."""
    phase = state.phase
    if phase == _P_PLAY or phase == _P_FSET:
        seat = state.auctioneer
    elif phase == _P_SEALED:
        seat = state.sealed.index(_NO_BID)  # sealed bids are simultaneous: order is irrelevant
    elif phase == _P_OPEN:
        seats = state.to_move()
        seat = seats[int(rand() * len(seats))]
    else:
        seat = state.turn
    return random_move(state, seat, rand)


def play_random_game(players: int, seed: int | _random.Random | None = None, **kwargs) -> GameState:
    """A whole game of random self-play; returns the finished state."""
    rng = seed if isinstance(seed, _random.Random) else _random.Random(seed)
    state = GameState(players, seed=rng, **kwargs)
    rand = rng.random
    apply = state.apply
    while state.phase != Phase.GAME_OVER:
        apply(random_step(state, rand))
    return state
