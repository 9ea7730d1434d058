"""The random player: uniform over the legal moves, an amount uniform over its legal range.

A bid (or price, or sealed bid) counts as one choice among the legal moves; if chosen, its
amount is drawn uniformly from the legal range.  In Open auctions, where several seats may
act, `random_step` first draws the acting seat uniformly from `state.to_move()`.
`random_play` makes the same draws and plays the move through the engine's trusted path
(`GameState.apply_trusted`, which skips the shape checks of moves from outside); a whole
game of it is `play_random_game`.

`random_act` works on the state directly (it only reads what the acting seat may see:
its own hand and money, the public auction) because it is the engine's benchmark player
and must cost next to nothing: it reads the state's plain-int fields (`phase_id`,
`pass_is_final`) like the move handlers do, and either takes its `Move` straight from
the interned move table or plays it as plain ints through `apply_trusted`.  Its choices are checked
against `legal_moves` in the tests, and its trusted path against `apply` in
tests/engine/test_engine_trusted_path.py.
"""

from __future__ import annotations

import random as _random
from math import floor
from typing import Any, Callable

from ..auctions import price_range, second_cards
from ..game import GameState
from ..moves import (
    ACCEPT,
    ADD_SECOND,
    BID,
    DECLINE,
    DECLINE_SECOND,
    HAMMER,
    MOVE_TABLE,
    PASS,
    PLAY,
    SEALED_BID,
    SET_PRICE,
    Move,
    move_of,
)
from ..phase import (
    ANNOUNCE,
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


def random_act(
    state: GameState, rand: Callable[[], float], seat: int = -1, play: bool = False, to_end: bool = False
) -> Move | None:
    """Draw a uniformly random legal move: return it as a `Move`, or with `play`, play it
    through `state.apply_trusted` (and return None); with `play` and `to_end`, go on
    drawing and playing moves until the game is over.

    The acting seat is `seat`, which must be one of `state.to_move()`, or with the default
    -1 drawn uniformly among them.  One source for the draws of `random_move`,
    `random_step`, `random_play` and `play_random_game`; self-play neither builds a `Move`
    nor makes a call more per move than it needs: one to `apply_trusted` (a Python-level
    call is some 450 machine instructions in CPython 3.11, of some 11,000 per move, and a
    call through a callback object would be a generic one when compiled).  Amounts are
    drawn as `floor(rand() * k)`, which equals `int(rand() * k)` for these non-negative
    floats, and is a plain function call where `int(...)` is a slower type call.
    `rand` is a float generator in [0, 1), e.g. `random.Random(seed).random`.
    """
    while True:
        phase = state.phase_id
        arg = 0
        # the acting seat (unless given) and its move, per step, the most frequent first
        if phase == OPEN:
            if seat < 0:
                seat = _open_seat(state, rand)
            money = state.money[seat]
            high = state.high
            is_high = seat == state.high_seat
            passed = state.passed[seat]
            can_pass = not is_high and not passed
            can_bid = not is_high and money > high and not (passed and state.pass_is_final)
            can_hammer = seat == state.auctioneer
            i = floor(rand() * (can_pass + can_bid + can_hammer))
            if can_pass and i == 0:
                action = PASS
            elif can_hammer and i == (1 if can_pass else 0):
                action = HAMMER
            else:
                action, arg = BID, high + 1 + floor(rand() * (money - high))
        elif phase == PLAY_CARD:
            seat = state.auctioneer if seat < 0 else seat
            hand = state.hands[seat]
            action, arg = PLAY, hand[floor(rand() * len(hand))]
        elif phase == SEALED:
            if seat < 0:
                seat = state.sealed.index(NO_BID)  # sealed bids are simultaneous: order is irrelevant
            action, arg = SEALED_BID, floor(rand() * (state.money[seat] + 1))
        elif phase == ONCE_AROUND:
            seat = state.turn if seat < 0 else seat
            money = state.money[seat]
            high = state.high
            if money <= high or rand() >= 0.5:
                action = PASS
            else:
                action, arg = BID, high + 1 + floor(rand() * (money - high))
        else:  # a few a round: a Fixed price and its answers, a Double's second card, the variants' steps
            seat, action, arg = _sparse_step(state, rand, seat)
        if not play:
            row = MOVE_TABLE[action][seat]
            return row[arg] if arg < len(row) else move_of(seat, action, arg)
        state.apply_trusted(seat, action, arg)
        if not to_end or state.phase_id == GAME_OVER:
            return None
        seat = -1


def _sparse_step(state: GameState, rand: Callable[[], float], seat: int) -> tuple[int, int, int]:
    """`random_act`'s draw in the steps taken a few times a round (a Fixed price asked and
    answered, a Double's second card) and in the variants' steps: (seat, action, arg)."""
    phase = state.phase_id
    arg = 0
    if phase == FIXED_OFFER:
        seat = state.turn if seat < 0 else seat
        action = ACCEPT if state.price <= state.money[seat] and rand() < 0.5 else DECLINE
    elif phase == DOUBLE_OFFER:
        seat = state.turn if seat < 0 else seat
        adds = second_cards(state, seat)
        i = floor(rand() * (len(adds) + 1))
        if i == len(adds):
            action = DECLINE_SECOND
        else:
            action, arg = ADD_SECOND, adds[i]
    elif phase == FIXED_SET:
        seat = state.auctioneer if seat < 0 else seat
        lo, hi = price_range(state, seat)
        action, arg = SET_PRICE, lo + floor(rand() * (hi - lo + 1)) if hi else 0  # (0..0: no draw)
    else:  # the variants' steps (choosing a buyer, a posted price, the mystery hand, announcing): rare
        return _rare_step(state, rand, seat)
    return seat, action, arg


def _rare_step(state: GameState, rand: Callable[[], float], seat: int) -> tuple[int, int, int]:
    """`random_act`'s draw in the steps only variants take: (seat, action, arg), the move
    uniform among the seat's legal moves."""
    phase = state.phase_id
    if seat >= 0:
        pass
    elif phase == CHOOSE_BUYER or phase == ANNOUNCE:
        seat = state.auctioneer
    elif phase == POSTED_OFFER:
        seat = state.responses.index(NO_BID)  # answered at once, like sealed bids
    else:
        seat = state.turn
    moves = state.legal_moves(seat) if phase != GAME_OVER else []
    if not moves:
        raise ValueError(f"no move for seat {seat} in phase {state.phase!r}")
    move = moves[floor(rand() * len(moves))]
    return seat, int(move.action), move.arg


def random_move(state: GameState, seat: int, rand: Callable[[], float]) -> Move:
    """A uniformly random legal move for `seat`, which must be one of `state.to_move()`."""
    move = random_act(state, rand, seat)
    assert move is not None  # without `play` it always returns the move
    return move


def random_step(state: GameState, rand: Callable[[], float]) -> Move:
    """Pick the acting seat uniformly among `to_move()`, then its random move."""
    move = random_act(state, rand)
    assert move is not None
    return move


def random_play(state: GameState, rand: Callable[[], float]) -> None:
    """Play `random_step`'s move (the very same draws) through `GameState.apply_trusted`:
    the random player's moves are legal by construction."""
    random_act(state, rand, -1, True)


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
    if state.phase_id != GAME_OVER:  # (a game of options that deal no cards may be over at once)
        random_act(state, rng.random, -1, True, True)
    return state
