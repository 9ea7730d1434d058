"""Moves: small immutable values naming the seat that acts, what it does and one number."""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple


class Action(IntEnum):
    """Every kind of move in the game, across all phases."""

    PLAY = 0  # the auctioneer puts up a card (arg: card)
    ADD_SECOND = 1  # add a same-artist, non-Double card to an offered Double (arg: card)
    DECLINE_SECOND = 2  # decline to add a second card to a Double
    BID = 3  # Open or Once-around bid (arg: amount)
    PASS = 4  # Open or Once-around pass
    HAMMER = 5  # Open: the auctioneer closes the auction
    SEALED_BID = 6  # Sealed: one bid per seat, 0 = empty fist (arg: amount)
    SEALED_FORFEIT = 7  # Sealed: the seat's bid counts as 0 and the seat is named an offender
    SET_PRICE = 8  # Fixed price: the auctioneer announces the price (arg: price)
    ACCEPT = 9  # Fixed price: buy at the announced price
    DECLINE = 10  # Fixed price: do not buy
    CHOOSE_BUYER = 11  # the seller names the buyer among the candidates (arg: seat)
    FLIP_MYSTERY = 12  # mystery hand: flip its top card
    KEEP_MYSTERY = 13  # mystery hand: leave it
    ANNOUNCE = 14  # the seller announces the auction (arg: AuctionType 0..3, FA-15)

    @property
    def takes_card(self) -> bool:
        return self in (Action.PLAY, Action.ADD_SECOND)


#: Actions whose argument is a money amount chosen from a range.
AMOUNT_ACTIONS = frozenset({Action.BID, Action.SEALED_BID, Action.SET_PRICE})
#: Actions whose argument is a card id.
CARD_ACTIONS = frozenset({Action.PLAY, Action.ADD_SECOND})
#: Actions whose argument is a seat.
SEAT_ACTIONS = frozenset({Action.CHOOSE_BUYER})
#: Actions whose argument is an auction type (an `AuctionType` value).
KIND_ACTIONS = frozenset({Action.ANNOUNCE})
#: Actions that take an argument at all.
ARG_ACTIONS = AMOUNT_ACTIONS | CARD_ACTIONS | SEAT_ACTIONS | KIND_ACTIONS


class Move(NamedTuple):
    """One move: `seat` does `action` with `arg` (a card id, an amount, or 0).

    Build moves with `Move.of` or the named constructors: they return shared (interned)
    instances, which keeps self-play and search cheap.
    """

    seat: int
    action: Action
    arg: int = 0

    def __repr__(self) -> str:
        if self.action in ARG_ACTIONS:
            return f"Move({self.seat}, {self.action.name}, {self.arg})"
        return f"Move({self.seat}, {self.action.name})"

    @staticmethod
    def of(seat: int, action: int, arg: int = 0) -> "Move":
        """The interned move (seat, action, arg); arguments are not validated here."""
        return move_of(seat, action, arg)

    @classmethod
    def play(cls, seat: int, card: int) -> "Move":
        return Move.of(seat, Action.PLAY, int(card))

    @classmethod
    def add_second(cls, seat: int, card: int) -> "Move":
        return Move.of(seat, Action.ADD_SECOND, int(card))

    @classmethod
    def decline_second(cls, seat: int) -> "Move":
        return Move.of(seat, Action.DECLINE_SECOND)

    @classmethod
    def bid(cls, seat: int, amount: int) -> "Move":
        return Move.of(seat, Action.BID, amount)

    @classmethod
    def pass_(cls, seat: int) -> "Move":
        return Move.of(seat, Action.PASS)

    @classmethod
    def hammer(cls, seat: int) -> "Move":
        return Move.of(seat, Action.HAMMER)

    @classmethod
    def sealed_bid(cls, seat: int, amount: int) -> "Move":
        return Move.of(seat, Action.SEALED_BID, amount)

    @classmethod
    def sealed_forfeit(cls, seat: int) -> "Move":
        return Move.of(seat, Action.SEALED_FORFEIT)

    @classmethod
    def set_price(cls, seat: int, price: int) -> "Move":
        return Move.of(seat, Action.SET_PRICE, price)

    @classmethod
    def accept(cls, seat: int) -> "Move":
        return Move.of(seat, Action.ACCEPT)

    @classmethod
    def decline(cls, seat: int) -> "Move":
        return Move.of(seat, Action.DECLINE)

    @classmethod
    def choose_buyer(cls, seat: int, buyer: int) -> "Move":
        return Move.of(seat, Action.CHOOSE_BUYER, buyer)

    @classmethod
    def announce(cls, seat: int, kind: int) -> "Move":
        return Move.of(seat, Action.ANNOUNCE, int(kind))

    @classmethod
    def flip_mystery(cls, seat: int) -> "Move":
        return Move.of(seat, Action.FLIP_MYSTERY)

    @classmethod
    def keep_mystery(cls, seat: int) -> "Move":
        return Move.of(seat, Action.KEEP_MYSTERY)

    def to_list(self) -> list[int]:
        """Plain form for records and the wire: [seat, action, arg]."""
        return [self.seat, int(self.action), int(self.arg)]

    @classmethod
    def from_list(cls, data: object) -> "Move":
        """Parse [seat, action, arg]; raises MalformedMove on anything else."""
        from .errors import MalformedMove

        if not isinstance(data, (list, tuple)) or len(data) != 3:
            raise MalformedMove(f"a move is [seat, action, arg], got {data!r}")
        seat, action, arg = data
        if type(seat) is not int or type(action) is not int or type(arg) is not int:
            raise MalformedMove(f"move fields must be integers, got {data!r}")
        if not 0 <= action < len(Action):
            raise MalformedMove(f"unknown action {action}")
        if not 0 <= seat < MAX_SEATS or not 0 <= arg < MAX_ARG:
            raise MalformedMove(f"move {data!r} is out of range")
        kind = _ACTIONS[action]
        if arg and kind not in ARG_ACTIONS:
            raise MalformedMove(f"{_ACTIONS[action].name} takes no argument, got {arg}")
        return Move.of(seat, action, arg)


# The actions as plain ints, for the engine's hot paths (see phase.py for why).
PLAY: Final = 0
ADD_SECOND: Final = 1
DECLINE_SECOND: Final = 2
BID: Final = 3
PASS: Final = 4
HAMMER: Final = 5
SEALED_BID: Final = 6
SEALED_FORFEIT: Final = 7
SET_PRICE: Final = 8
ACCEPT: Final = 9
DECLINE: Final = 10
CHOOSE_BUYER: Final = 11
FLIP_MYSTERY: Final = 12
KEEP_MYSTERY: Final = 13
ANNOUNCE: Final = 14

MAX_SEATS: Final = 5
MAX_ARG: Final = 1 << 31  # amounts and card ids are far below this
_INTERN_LIMIT: Final = 4096  # amounts above this are built fresh instead of interned
_ACTIONS: Final = tuple(Action)
_new: Final = tuple.__new__  # builds a Move without NamedTuple's Python-level __new__
#: MOVE_TABLE[action][seat][arg] is the interned move, for every argument interned so far
#: (argument-free actions intern only arg 0); `move_of` grows the rows.
MOVE_TABLE: Final[list[list[list[Move]]]] = [[[Move(seat, a, 0)] for seat in range(MAX_SEATS)] for a in _ACTIONS]


def move_of(seat: int, action: int, arg: int = 0) -> Move:
    """`Move.of` as a plain function: the interned move (seat, action, arg), unvalidated.

    Self-play makes millions of moves; handing out shared instances saves building them.
    """
    if 0 <= action < len(MOVE_TABLE) and 0 <= seat < MAX_SEATS and arg >= 0:
        row = MOVE_TABLE[action][seat]
        if arg < len(row):
            return row[arg]
    return _grow(seat, action, arg)


def _grow(seat: int, action: int, arg: int) -> Move:
    act = Action(action)
    if seat < 0 or seat >= MAX_SEATS or arg < 0 or arg >= _INTERN_LIMIT or act not in ARG_ACTIONS:
        return Move(seat, act, arg)
    row = MOVE_TABLE[action][seat]
    for a in range(len(row), arg + 1):
        row.append(_new(Move, (seat, act, a)))
    return row[arg]
