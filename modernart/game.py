"""The game state: the legal moves and applying them, on the fields and round flow of `BaseState`.

One `GameState` holds a whole game.  `apply(move)` validates completely before it changes
anything, so an illegal move raises an `IllegalMove` naming the rule and leaves the state
as it was.  The auction rules themselves are in `auctions.py` and the fields, whose turn it
is and the round flow in `state.py`; this module starts a game and holds the moves.

Speed matters here (self-play and search bots run millions of moves): the hot path works
on plain ints, and the same source compiles with mypyc (docs/engine-performance.md has
the conventions that keep it fast in both builds).
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Final, Sequence

from . import auctions
from .cards import AUCTION_TYPES, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, Card, card_tables
from .errors import GameOver, IllegalMove, MalformedMove, UnknownSeat
from .moves import (
    ACCEPT,
    ADD_SECOND,
    BID,
    DECLINE,
    DECLINE_SECOND,
    HAMMER,
    PASS,
    PLAY,
    SEALED_BID,
    SET_PRICE,
    Action,
    Move,
    move_of,
)
from .phase import GAME_OVER
from .rules import DEFAULT_OPTIONS, OptionError, RuleOptions
from .state import BaseState
from .views import Observation, observation

_NACTIONS: Final = len(Action)
_ACTION_VALUES: Final = tuple(range(_NACTIONS))


def _shuffled(size: int, rng: random.Random) -> list[int]:
    """A uniformly shuffled deck order.  Sorting by independent uniform keys is a uniform
    shuffle, and cheaper than random.shuffle's 69 calls to randbelow.  (It must stay this
    very shuffle: a seed's deal is relied on, e.g. by the rules tests' set-ups.)"""
    # the `size` draws in order, called from C (iter(f, sentinel) calls f until it returns
    # the sentinel, which random() never does): no interpreted loop per card
    keys = list(islice(iter(rng.random, 1.0), size))
    return sorted(range(size), key=keys.__getitem__)


def deck_orders_needed(options: RuleOptions) -> int:
    """How many deck orders a game with `options` starts from: one, or one per round
    when every round is dealt afresh from the reshuffled deck."""
    return ROUNDS if options.fresh_deal_each_round else 1


def deck_order_rule(options: RuleOptions, size: int) -> str:
    """What a deck order for `options` must be, in words (for errors)."""
    if deck_orders_needed(options) == 1:
        return f"deck_order must be a permutation of 0..{size - 1}"
    return f"deck_order must be {ROUNDS} permutations of 0..{size - 1}, one per round, one after the other"


def deals_of_order(options: RuleOptions, players: int, order: Sequence[int]) -> list[list[list[int]]]:
    """The card ids each seat is dealt in each round from the deck order(s) `order`, as
    `GameState(deck_order=order)` deals them (every round, if the game reaches it): for
    the fair shuffle's checks, which see the order but not the game."""
    size = len(order) // deck_orders_needed(options)
    hands = options.hands_dealt(players)  # the mystery hand is dealt after the seats
    sizes = options.deal_sizes(hands)
    fresh = options.fresh_deal_each_round
    deals: list[list[list[int]]] = []
    pos = 0
    for r in range(ROUNDS):
        stock = order[r * size : (r + 1) * size] if fresh else order
        if fresh:
            pos = 0
        row: list[list[int]] = []
        for h in range(hands):
            cards = [int(c) for c in stock[pos : pos + sizes[r]]]
            pos += len(cards)
            if h < players:
                row.append(cards)
        deals.append(row)
    return deals


def _check_players(players: object) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(f"Modern Art is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return players


class GameState(BaseState):
    """A game of Modern Art for 3-5 seats, numbered clockwise from 0.

    The fields (see `BaseState`) are read, never assigned, outside the engine.
    `observation(seat)` (built by `views.py`) is what a player may see of it.  Code that
    builds a state field by field starts from `blank()`.
    """

    __slots__ = ()

    def __init__(
        self,
        players: object,  # an int 3..5, checked below (typed object so mypyc leaves the check to us)
        options: RuleOptions | None = None,
        *,
        seed: int | str | bytes | random.Random | None = None,
        deck_order: Sequence[int] | None = None,
        first_auctioneer: int | None = None,
        track_events: bool = False,
        _copy: bool = False,
        _blank: bool = False,
    ) -> None:
        """Start a game: shuffle (from `seed`, or take `deck_order` exactly), deal round 1.

        The stock is dealt from the front of the order: round 1 to seat 0, 1, ..., (then
        the mystery hand, if the options have one), then round 2, and so on.  When every
        round deals fresh hands from the whole reshuffled deck (`fresh_deal_each_round`),
        the game needs one deck order per round: `deck_order` is then four permutations one
        after the other (a seeded game draws the later three after the first auctioneer).
        The first auctioneer is `first_auctioneer`, or drawn from the seeded generator after
        the shuffle.  With `track_events`, `events` collects every move and what followed
        from it (see `events.py`).
        """
        if _copy:
            # for `clone`, which sets every field itself: the one way to make an instance
            # without starting a game that also works when compiled (mypyc's classes
            # cannot be made with `GameState.__new__`)
            return
        options = options or DEFAULT_OPTIONS
        n = _check_players(players)
        options.check_players(n)
        super().__init__(n, options, card_tables(options.deck), track_events, True)
        if _blank:
            return
        deck = self.card_of
        size = len(deck)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        orders: list[list[int]]
        if deck_order is None:
            orders = [_shuffled(size, rng)]
        else:
            order = list(deck_order)
            rounds = deck_orders_needed(options)
            if len(order) != size * rounds or any(type(i) is not int for i in order):
                raise OptionError(deck_order_rule(options, size))
            orders = [order[r * size : (r + 1) * size] for r in range(rounds)]
            if any(sorted(o) != list(range(size)) for o in orders):
                raise OptionError(deck_order_rule(options, size))
        if first_auctioneer is None:
            first_auctioneer = rng.randrange(self.n)
        elif type(first_auctioneer) is not int or not 0 <= first_auctioneer < self.n:
            raise OptionError(f"first_auctioneer must be a seat 0..{self.n - 1}")
        if deck_order is None and options.fresh_deal_each_round:
            orders += [_shuffled(size, rng) for _ in range(ROUNDS - 1)]
        self.stock = [deck[i] for i in orders[0]]
        self.reshuffles = [tuple([deck[i] for i in o]) for o in orders[1:]]
        self.start_order = tuple(orders[0]) if len(orders) == 1 else tuple([i for o in orders for i in o])
        self.auctioneer = first_auctioneer
        self.first_auctioneer = first_auctioneer
        self.deal_round()

    @classmethod
    def blank(cls, players: int, options: RuleOptions | None = None) -> GameState:
        """A state with nothing dealt: empty hands and stock, start money, round 1, seat 0
        to put up a card, no event log.  For code that builds a state field by field
        (sampling hidden information, test set-ups): set what you need; every list may be
        replaced or changed in place."""
        return cls(players, options, _blank=True)

    # ------------------------------------------------------------------ queries

    def legal_moves(self, seat: int | None = None, *, amounts: bool = True) -> list[Move]:
        """Every legal move (of `seat`, or of every seat that may act).

        With `amounts=False`, moves that take an amount (bids, prices) are left out; ask
        `amount_range(seat)` for their range instead.
        """
        seats = self.to_move() if seat is None else (seat,) if 0 <= seat < self.n else ()
        moves: list[Move] = []
        for s in seats:
            moves.extend(auctions.legal_moves(self, s))
            if amounts:
                r = auctions.amount_range(self, s)
                if r is not None:
                    action, lo, hi = r
                    moves.extend([move_of(s, action, a) for a in range(lo, hi + 1)])
        return moves

    def amount_range(self, seat: int) -> tuple[Action, int, int] | None:
        """The amount move open to `seat` now as (action, lowest, highest), or None."""
        if not 0 <= seat < self.n or self.phase_id == GAME_OVER:
            return None
        return auctions.amount_range(self, seat)

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise the `IllegalMove` that `apply(move)` would raise; change nothing."""
        self.clone().apply(move)

    def observation(self, seat: int) -> Observation:
        """What `seat` may know (see `views.Observation`)."""
        return observation(self, seat)

    def describe(self, move: Move) -> str:
        """A move in words, e.g. 'seat 2 puts up Yoko (Sealed)'."""
        seat, action, arg = move
        if action in (Action.PLAY, Action.ADD_SECOND):
            what = self.edition.describe(self.deck[arg]) if 0 <= arg < len(self.deck) else f"card {arg}"
            verb = "puts up" if action == Action.PLAY else "adds"
            return f"seat {seat} {verb} {what}"
        words: dict[int, str] = {
            Action.DECLINE_SECOND: "adds no second card",
            Action.PASS: "passes",
            Action.HAMMER: "closes the auction",
            Action.SEALED_FORFEIT: "forfeits the sealed bid",
            Action.ACCEPT: "accepts the price",
            Action.DECLINE: "declines the price",
            Action.FLIP_MYSTERY: "turns up the mystery hand's top card",
            Action.KEEP_MYSTERY: "leaves the mystery hand",
        }
        if action in words:
            return f"seat {seat} {words[action]}"
        if action == Action.CHOOSE_BUYER:
            return f"seat {seat} sells to seat {arg}"
        if action == Action.ANNOUNCE:
            kind = AUCTION_TYPES[arg].name.replace("_", " ").title() if 0 <= arg < len(AUCTION_TYPES) else str(arg)
            return f"seat {seat} announces a {kind} auction"
        verbs: dict[int, str] = {
            Action.BID: "bids",
            Action.SEALED_BID: "seals a bid of",
            Action.SET_PRICE: "sets the price at",
        }
        return f"seat {seat} {verbs.get(action, str(action))} {arg}"

    # ------------------------------------------------------------------ applying moves

    def apply(self, move: Move) -> None:
        """Play `move`.  Raises an IllegalMove (state unchanged) if the rules forbid it."""
        # The fields are read as plain objects and checked here: a move may come from
        # anywhere (a client, a file), and under mypyc a typed unpacking would raise
        # TypeError before the checks below could name the problem.
        fields: tuple[object, ...] = move
        try:
            seat_, action_, arg_ = fields
        except ValueError:
            raise MalformedMove(f"a move is (seat, action, arg), got {move!r}") from None
        if self.phase_id == GAME_OVER:
            raise GameOver("no moves are possible after the game has ended")
        if type(seat_) is not int or not 0 <= seat_ < self.n:
            raise UnknownSeat(f"no seat {seat_!r} in a {self.n}-player game")
        seat: int = seat_
        if type(action_) is Action or type(action_) is int and 0 <= action_ < _NACTIONS:
            action = _ACTION_VALUES[action_]  # an exact int: the fastest to compare below
        else:
            raise MalformedMove(f"unknown action {action_!r}")
        if type(arg_) is int:
            arg: int = arg_
        elif type(arg_) is Card:
            arg = int(arg_)
        else:  # bool, float, str...: never a card id or an amount
            raise MalformedMove(f"a move's argument is an integer, got {arg_!r}")
        self.apply_trusted(seat, action, arg)

    def apply_trusted(self, seat: int, action: int, arg: int = 0) -> None:
        """Play a move the engine generated itself: `seat` a seat of this game, `action` one
        of the int constants of moves.py, `arg` a plain int (or a `Card`; 0 for the actions
        that take none).

        For the engine's own players (the random player, the search bot's rollouts), which
        build their moves from the state: it skips the shape checks of `apply` (a tuple of
        three, a known seat, action and argument type), which such moves pass by
        construction, and takes the fields as plain ints without building a `Move`.  The
        rules are checked exactly as by `apply` (which ends here): an illegal move raises
        its `IllegalMove` and changes nothing.  A move from outside (a client, a file, a
        bot deciding from its observation) goes through `apply`.
        """
        if self.phase_id == GAME_OVER:
            raise GameOver("no moves are possible after the game has ended")
        events = self.events
        if events is not None:
            # the move is logged (as the interned Move) before the events it causes
            events.append(move_of(seat, action, arg))
        try:
            # one handler per action (auctions.py), the most frequent first
            if action == PASS:
                auctions.pass_(self, seat, arg)
            elif action == PLAY:
                auctions.play_card(self, seat, arg)
            elif action == SEALED_BID:
                auctions.sealed_bid(self, seat, arg)
            elif action == BID:
                auctions.bid(self, seat, arg)
            elif action == DECLINE:
                auctions.decline(self, seat, arg)
            elif action == SET_PRICE:
                auctions.set_price(self, seat, arg)
            elif action == DECLINE_SECOND:
                auctions.decline_second(self, seat, arg)
            elif action == HAMMER:
                auctions.hammer(self, seat, arg)
            elif action == ACCEPT:
                auctions.accept(self, seat, arg)
            elif action == ADD_SECOND:
                auctions.add_second(self, seat, arg)
            else:  # a forfeited sealed bid, or a step only variants take
                auctions.rare_action(self, action, seat, arg)
        except IllegalMove:
            if events is not None:
                events.pop()
            raise
        self.move_count += 1

    def end_early(self) -> None:
        """End the game now, scored as it stands (a networked table's vote, docs/rules.md
        §12.9): the round in progress is scored as if it ended here, its paintings on offer
        (the lot) counting for their artists and sold to nobody, like a round's ending card;
        no later round is played; the richest player wins.  Raises GameOver if it is over.

        >>> state = GameState(3, seed=1)
        >>> state.end_early()
        >>> state.is_over(), state.results[-1].ended_by, state.money
        (True, 'early', [100, 100, 100])
        """
        if self.phase_id == GAME_OVER:
            raise GameOver("the game has ended already")
        self.end_round(max(self.auctioneer, 0), "early", self.lot)

    def clone(self) -> GameState:
        """An independent copy (without the event log)."""
        other = GameState(self.n, _copy=True)
        other.copy_options_of(self)
        other.n = self.n
        other.card_of = self.card_of
        other.artist_of = self.artist_of
        other.kind_of = self.kind_of
        other.money = self.money[:]
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.round = self.round
        other.counts = self.counts[:]
        other.tiles = self.tiles[:]  # rows are never changed once appended
        other.bought = [b[:] for b in self.bought]
        other.discard = self.discard[:]
        other.lot = self.lot[:]
        other.phase_id = self.phase_id
        other.auctioneer = self.auctioneer
        other.first_auctioneer = self.first_auctioneer
        other.original = self.original
        other.kind = self.kind
        other.turn = self.turn
        other.high = self.high
        other.high_seat = self.high_seat
        other.passed = self.passed[:]
        other.npassed = self.npassed
        other.sealed = self.sealed[:]
        other.nsealed = self.nsealed
        other.price = self.price
        other.bids = self.bids[:]
        other.auction_no = self.auction_no
        other.results = self.results[:]
        other.sales = self.sales[:]
        other.offenders = self.offenders[:]
        other.events = None
        other.move_count = self.move_count
        other.deal_log = self.deal_log[:]
        other.mystery = self.mystery[:]
        other.flipped = self.flipped[:]
        other.flipped_before = self.flipped_before[:]
        other.candidates = self.candidates[:]
        other.responses = self.responses[:]
        other.nresponses = self.nresponses
        other.reshuffles = self.reshuffles[:]  # tuples, never changed
        other.start_order = self.start_order
        return other

    def __copy__(self) -> GameState:
        return self.clone()

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n}p round {self.round + 1} {self.phase.name} "
            f"to_move={self.to_move()} money={self.money}>"
        )
