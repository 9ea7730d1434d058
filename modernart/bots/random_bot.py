"""The random player: uniform over the legal moves, an amount uniform over its legal range.

A bid (or price, or sealed bid) counts as one choice among the legal moves; if chosen, its
amount is drawn uniformly from the legal range.  In Open auctions, where several seats may
act, `random_step` first draws the acting seat uniformly from `state.to_move()`.

`random_move` works on the state directly (it only reads what the acting seat may see:
its own hand and money, the public auction) because it is the engine's benchmark player
and must cost next to nothing: it reads the state's plain-int fields (`phase_id`,
`pass_is_final`) like the move handlers do, and takes its moves straight from
the interned move table.  Its choices are checked against `legal_moves` in the tests.
"""

from __future__ import annotations

import random as _random
from typing import Any, Callable, Final

from ..auctions import second_cards
from ..game import GameState
from ..moves import (
    ACCEPT,
    ADD_SECOND,
    BID,
    DECLINE,
    DECLINE_SECOND,
    HAMMER,
    MAX_SEATS,
    MOVE_TABLE,
    PASS,
    PLAY,
    SEALED_BID,
    SET_PRICE,
    Move,
    move_of,
)
from ..phase import (
    CHOOSE_BUYER,
    DOUBLE_OFFER,
    FIXED_OFFER,
    FIXED_SET,
    GAME_OVER,
    ONCE_AROUND,
    OPEN,
    PLAY_CARD,
    POSTED_OFFER,
    SEALED,
)
from ..state import NO_BID

# Per seat, the argument-free moves (moves with an argument come from MOVE_TABLE).
_PASS: Final = tuple([move_of(s, PASS) for s in range(MAX_SEATS)])
_HAMMER: Final = tuple([move_of(s, HAMMER) for s in range(MAX_SEATS)])
_ACCEPT: Final = tuple([move_of(s, ACCEPT) for s in range(MAX_SEATS)])
_DECLINE: Final = tuple([move_of(s, DECLINE) for s in range(MAX_SEATS)])
_DECLINE_SECOND: Final = tuple([move_of(s, DECLINE_SECOND) for s in range(MAX_SEATS)])


def random_move(state: GameState, seat: int, rand: Callable[[], float]) -> Move:
    """A uniformly random legal move for `seat`, which must be one of `state.to_move()`.

    `rand` is a float generator in [0, 1), e.g. `random.Random(seed).random`.
    """
    phase = state.phase_id
    money = state.money[seat]
    if phase == OPEN:
        high = state.high
        is_high = seat == state.high_seat
        passed = state.passed[seat]
        can_pass = not is_high and not passed
        can_bid = not is_high and money > high and not (passed and state.pass_is_final)
        can_hammer = seat == state.auctioneer
        i = int(rand() * (can_pass + can_bid + can_hammer))
        if can_pass:
            if i == 0:
                return _PASS[seat]
            i -= 1
        if can_hammer and i == 0:
            return _HAMMER[seat]
        action, arg = BID, high + 1 + int(rand() * (money - high))
    elif phase == PLAY_CARD:
        hand = state.hands[seat]
        size = len(hand)
        action, arg = PLAY, hand[int(rand() * size)]
    elif phase == ONCE_AROUND:
        high = state.high
        if money <= high or rand() >= 0.5:
            return _PASS[seat]
        action, arg = BID, high + 1 + int(rand() * (money - high))
    elif phase == SEALED:
        action, arg = SEALED_BID, int(rand() * (money + 1))
    elif phase == FIXED_OFFER:
        return _ACCEPT[seat] if state.price <= money and rand() < 0.5 else _DECLINE[seat]
    elif phase == FIXED_SET:
        action, arg = SET_PRICE, 1 + int(rand() * money) if money else 0
    elif phase == DOUBLE_OFFER:
        adds = second_cards(state, seat)
        i = int(rand() * (len(adds) + 1))
        if i == len(adds):
            return _DECLINE_SECOND[seat]
        action, arg = ADD_SECOND, adds[i]
    elif phase == GAME_OVER:
        raise ValueError(f"no move for seat {seat} in phase {state.phase!r}")
    else:  # the variants' steps (choosing a buyer, a posted price, the mystery hand): rare
        moves = state.legal_moves(seat)
        if not moves:
            raise ValueError(f"no move for seat {seat} in phase {state.phase!r}")
        return moves[int(rand() * len(moves))]
    row = MOVE_TABLE[action][seat]
    return row[arg] if arg < len(row) else move_of(seat, action, arg)


def random_step(state: GameState, rand: Callable[[], float]) -> Move:
    """Pick the acting seat uniformly among `to_move()`, then its random move."""
    phase = state.phase_id
    if phase == OPEN:
        seat = _open_seat(state, rand)
    elif phase == PLAY_CARD or phase == FIXED_SET or phase == CHOOSE_BUYER:
        seat = state.auctioneer
    elif phase == SEALED:
        seat = state.sealed.index(NO_BID)  # sealed bids are simultaneous: order is irrelevant
    elif phase == POSTED_OFFER:
        seat = state.responses.index(NO_BID)  # answered at once, like sealed bids
    else:
        seat = state.turn
    return random_move(state, seat, rand)


def _open_seat(state: GameState, rand: Callable[[], float]) -> int:
    """A seat drawn uniformly from `state.to_move()` in an Open auction.

    Drawing any seat and drawing again until it may act is uniform over the seats that
    may act, and much cheaper than building `to_move()` (the tests check that both agree).
    The auctioneer may always act, so this ends.
    """
    n = state.n
    auctioneer, high_seat, high = state.auctioneer, state.high_seat, state.high
    passed, money = state.passed, state.money
    final = state.pass_is_final
    while True:
        seat = int(rand() * n)
        # to_move()'s rule: the auctioneer may always hammer; the high bidder waits; a
        # seat that passed since the last bid may bid again unless passes are final
        if seat == auctioneer or seat != high_seat and (not passed[seat] or not final and money[seat] > high):
            return seat


def play_random_game(players: int, seed: int | _random.Random | None = None, **kwargs: Any) -> GameState:
    """A whole game of random self-play; returns the finished state."""
    rng = seed if isinstance(seed, _random.Random) else _random.Random(seed)
    state = GameState(players, seed=rng, **kwargs)
    rand = rng.random
    while state.phase_id != GAME_OVER:
        state.apply(random_step(state, rand))
    return state
