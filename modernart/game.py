"""The game state: whose turn it is, legal moves, applying moves, rounds and the end.

One `GameState` holds a whole game.  `apply(move)` validates completely before it changes
anything, so an illegal move raises an `IllegalMove` naming the rule and leaves the state
as it was.  The auction rules themselves are in `auctions.py`; this module holds the
state, the turn order and the round flow.

Speed matters here (self-play and search bots run millions of moves): the hot path works
on plain ints, and the same source compiles with mypyc (docs/engine-performance.md has
the conventions that keep it fast in both builds).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, ClassVar, Final, Iterable, Sequence

from . import auctions
from .auctions import NO_BID
from .cards import ARTISTS, DECK_TABLES, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, Card, DeckTable, Edition, EDITIONS
from .errors import GameOver, IllegalMove, MalformedMove, UnknownSeat
from .events import CardsDealt, GameEnded, RoundEnded, Sale
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
from .phase import (
    DOUBLE_OFFER,
    FIXED_OFFER,
    FIXED_SET,
    GAME_OVER,
    ONCE_AROUND,
    OPEN,
    PHASES,
    PLAY_CARD,
    SEALED,
    Phase,
)
from .rules import DEFAULT_OPTIONS, OptionError, RuleOptions
from .scoring import RoundResult, score_round

_NARTISTS: Final = len(ARTISTS)
_NACTIONS: Final = len(Action)
_ACTION_VALUES: Final = tuple(range(_NACTIONS))


@lru_cache(maxsize=None)
def _deck(table: DeckTable) -> tuple[Card, ...]:
    return table.build()


@lru_cache(maxsize=None)
def _card_tables(deck_name: str) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[int, ...]]:
    """(cards, artist of each card id, auction type of each card id) of a deck table, as
    plain ints: indexing a tuple is cheaper than reading a Card's attributes."""
    deck = _deck(DECK_TABLES[deck_name])
    return deck, tuple([int(c.artist) for c in deck]), tuple([int(c.kind) for c in deck])


def _check_players(players: object) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(f"Modern Art is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return players


class GameState:
    """A game of Modern Art for 3-5 seats, numbered clockwise from 0.

    Public fields (read them, never assign them): `n`, `options`, `deck`, `money`,
    `hands`, `round` (0-3), `counts` (this round, per artist), `tiles` (one row per scored
    round), `bought` (this round, per seat), `phase`, `auctioneer`, `turn`, `lot` (cards
    under the hammer), `high`/`high_seat`, `bids` (public bids of the running auction),
    `sales`, `results`, `offenders`.  `observation(seat)` in `views.py` is what a player
    may see of it.  Code that builds a state field by field starts from `blank()`.

    The fields starting with `_` serve the hot path (docs/engine-performance.md): the
    move handlers in auctions.py and the random player read them on every move.  `_phase`
    is `phase` as a plain int (the constants of phase.py); `_artist_of` / `_kind_of` give
    a card id's artist and auction type; `_pass_is_final` and `_double_split` mirror the
    options, and `_options` / `_deck` back the `options` / `deck` properties.
    """

    __slots__ = (
        "_options",
        "_pass_is_final",
        "_double_split",
        "n",
        "_deck",
        "_artist_of",
        "_kind_of",
        "money",
        "hands",
        "stock",
        "round",
        "counts",
        "tiles",
        "bought",
        "discard",
        "lot",
        "_phase",
        "auctioneer",
        "original",
        "kind",
        "turn",
        "high",
        "high_seat",
        "passed",
        "npassed",
        "sealed",
        "nsealed",
        "price",
        "bids",
        "auction_no",
        "results",
        "sales",
        "offenders",
        "events",
        "move_count",
        "first_auctioneer",
        "deal_log",
    )

    #: Every public field, in `__slots__` order (mypyc's compiled class has no __slots__).
    FIELDS: ClassVar[tuple[str, ...]] = (
        "options",
        "n",
        "deck",
        "money",
        "hands",
        "stock",
        "round",
        "counts",
        "tiles",
        "bought",
        "discard",
        "lot",
        "phase",
        "auctioneer",
        "original",
        "kind",
        "turn",
        "high",
        "high_seat",
        "passed",
        "npassed",
        "sealed",
        "nsealed",
        "price",
        "bids",
        "auction_no",
        "results",
        "sales",
        "offenders",
        "events",
        "move_count",
        "first_auctioneer",
        "deal_log",
    )

    _options: RuleOptions
    _pass_is_final: bool
    _double_split: bool
    n: int
    _deck: tuple[Card, ...]
    _artist_of: tuple[int, ...]
    _kind_of: tuple[int, ...]
    money: list[int]
    hands: list[list[Card]]
    stock: list[Card]
    round: int
    counts: list[int]
    tiles: list[list[int]]
    bought: list[list[Card]]
    discard: list[Card]
    lot: list[Card]
    _phase: int
    auctioneer: int
    original: int
    kind: int
    turn: int
    high: int
    high_seat: int
    passed: list[bool]
    npassed: int
    sealed: list[int]
    nsealed: int
    price: int
    bids: list[tuple[int, int]]
    auction_no: int
    results: list[RoundResult]
    sales: list[Sale]
    offenders: list[tuple[int, int, int]]
    events: list[Any] | None
    move_count: int
    first_auctioneer: int
    deal_log: list[list[tuple[Card, ...]]]

    def __init__(
        self,
        players: object,  # an int 3..5, checked below (typed object so mypyc leaves the check to us)
        options: RuleOptions | None = None,
        *,
        seed: int | str | bytes | random.Random | None = None,
        deck_order: Sequence[int] | None = None,
        first_auctioneer: int | None = None,
        track_events: bool = False,
        _unset: bool = False,
    ) -> None:
        """Start a game: shuffle (from `seed`, or take `deck_order` exactly), deal round 1.

        The stock is dealt from the front of the order: round 1 to seat 0, 1, ..., then
        round 2, and so on.  The first auctioneer is `first_auctioneer`, or drawn from the
        seeded generator after the shuffle.  With `track_events`, `events` collects every
        move and what followed from it (see `events.py`).
        """
        if _unset:
            # for `clone` and `blank`, which set every field themselves: the one way to
            # make an instance without starting a game that also works when compiled
            # (mypyc's classes cannot be made with `GameState.__new__`)
            return
        self._set_empty(_check_players(players), options or DEFAULT_OPTIONS, track_events)
        deck = self._deck
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if deck_order is None:
            # Sorting by independent uniform keys is a uniform shuffle, and cheaper than
            # random.shuffle's 69 calls to randbelow.  (It must stay this very shuffle:
            # a seed's deal is relied on, e.g. by the rules tests' set-ups.)
            rand = rng.random
            keys = [rand() for _ in deck]
            self.stock = [deck[i] for i in sorted(range(len(deck)), key=keys.__getitem__)]
        else:
            order = list(deck_order)
            if sorted(order) != list(range(len(deck))) or any(type(i) is not int for i in order):
                raise OptionError(f"deck_order must be a permutation of 0..{len(deck) - 1}")
            self.stock = [deck[i] for i in order]
        if first_auctioneer is None:
            first_auctioneer = rng.randrange(self.n)
        elif type(first_auctioneer) is not int or not 0 <= first_auctioneer < self.n:
            raise OptionError(f"first_auctioneer must be a seat 0..{self.n - 1}")
        self.auctioneer = first_auctioneer
        self.first_auctioneer = first_auctioneer
        self._deal()

    @classmethod
    def blank(cls, players: int, options: RuleOptions | None = None) -> GameState:
        """A state with nothing dealt: empty hands and stock, start money, round 1, seat 0
        to put up a card, no event log.  For code that builds a state field by field
        (sampling hidden information, test set-ups): set what you need; every list may be
        replaced or changed in place."""
        state = cls(players, options, _unset=True)
        state._set_empty(_check_players(players), options or DEFAULT_OPTIONS, False)
        return state

    def _set_empty(self, players: int, options: RuleOptions, track_events: bool) -> None:
        self.options = options
        self.n = players
        self._deck, self._artist_of, self._kind_of = _card_tables(options.deck)
        self.money = [options.start_money] * players
        self.hands = [[] for _ in range(players)]
        self.stock = []
        self.round = 0
        self.counts = [0] * _NARTISTS
        self.tiles = []
        self.bought = [[] for _ in range(players)]
        self.discard = []
        self.lot = []
        self._phase = PLAY_CARD
        self.auctioneer = 0
        self.first_auctioneer = 0
        self.original = -1
        self.kind = -1
        self.turn = -1
        self.high = 0
        self.high_seat = -1
        self.passed = [False] * players
        self.npassed = 0
        self.sealed = [NO_BID] * players
        self.nsealed = 0
        self.price = 0
        self.bids = []
        self.auction_no = 0
        self.results = []
        self.sales = []
        self.offenders = []  # (seat, auction, fine)
        self.events = [] if track_events else None
        self.move_count = 0
        self.deal_log = []

    @property
    def options(self) -> RuleOptions:
        return self._options

    @options.setter
    def options(self, options: RuleOptions) -> None:
        self._options = options
        # read on every Open bid and sale: copied out of the options object
        self._pass_is_final = options.open_pass_is_final
        self._double_split = options.double_split

    @property
    def phase(self) -> Phase:
        return PHASES[self._phase]

    @phase.setter
    def phase(self, value: Phase) -> None:
        self._phase = int(value)

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game's deck table, indexed by card id."""
        return self._deck

    @deck.setter
    def deck(self, cards: tuple[Card, ...]) -> None:
        for name in DECK_TABLES:
            tables = _card_tables(name)
            if tables[0] is cards:  # one of the shared decks: its tables are made already
                self._deck, self._artist_of, self._kind_of = tables
                return
        self._deck = cards
        self._artist_of = tuple([int(c.artist) for c in cards])
        self._kind_of = tuple([int(c.kind) for c in cards])

    # ------------------------------------------------------------------ queries

    @property
    def edition(self) -> Edition:
        return EDITIONS[self.options.edition]

    def is_over(self) -> bool:
        return self._phase == GAME_OVER

    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, or several during Open and Sealed auctions."""
        phase = self._phase
        if phase == PLAY_CARD or phase == FIXED_SET:
            return (self.auctioneer,)
        if phase == DOUBLE_OFFER or phase == ONCE_AROUND or phase == FIXED_OFFER:
            return (self.turn,)
        if phase == SEALED:
            sealed = self.sealed
            return tuple([s for s in range(self.n) if sealed[s] == NO_BID])
        if phase == OPEN:
            # the auctioneer may always hammer; the high bidder waits; a seat that passed
            # since the last bid may come back with a higher bid unless passes are final
            auctioneer, high_seat, high = self.auctioneer, self.high_seat, self.high
            passed, money = self.passed, self.money
            final = self._pass_is_final
            return tuple(
                [
                    s
                    for s in range(self.n)
                    if s == auctioneer or s != high_seat and (not passed[s] or not final and money[s] > high)
                ]
            )
        return ()

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
        if not 0 <= seat < self.n or self._phase == GAME_OVER:
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

    def winners(self) -> tuple[int, ...]:
        """Seats with the most money once the game is over (co-winners on ties, §12.6)."""
        if self._phase != GAME_OVER:
            return ()
        money = self.money
        best = max(money)
        return tuple([s for s in range(self.n) if money[s] == best])

    def observation(self, seat: int) -> Any:
        """What `seat` may know (see `views.Observation`)."""
        from .views import observation

        return observation(self, seat)

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    def describe(self, move: Move) -> str:
        """A move in words, e.g. 'seat 2 puts up Yoko (Sealed)'."""
        seat, action, arg = move
        if action in (Action.PLAY, Action.ADD_SECOND):
            what = self.edition.describe(self._deck[arg]) if 0 <= arg < len(self._deck) else f"card {arg}"
            verb = "puts up" if action == Action.PLAY else "adds"
            return f"seat {seat} {verb} {what}"
        words: dict[int, str] = {
            Action.DECLINE_SECOND: "adds no second card",
            Action.PASS: "passes",
            Action.HAMMER: "closes the auction",
            Action.SEALED_FORFEIT: "forfeits the sealed bid",
            Action.ACCEPT: "accepts the price",
            Action.DECLINE: "declines the price",
        }
        if action in words:
            return f"seat {seat} {words[action]}"
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
        if self._phase == GAME_OVER:
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
        events = self.events
        if events is not None:
            events.append(move)  # the move is logged before the events it causes
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
            else:
                auctions.sealed_forfeit(self, seat, arg)
        except IllegalMove:
            if events is not None:
                events.pop()
            raise
        self.move_count += 1

    def clone(self) -> GameState:
        """An independent copy (without the event log)."""
        other = GameState(self.n, _unset=True)
        other._options = self._options
        other._pass_is_final = self._pass_is_final
        other._double_split = self._double_split
        other.n = self.n
        other._deck = self._deck
        other._artist_of = self._artist_of
        other._kind_of = self._kind_of
        other.money = self.money[:]
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.round = self.round
        other.counts = self.counts[:]
        other.tiles = self.tiles[:]  # rows are never changed once appended
        other.bought = [b[:] for b in self.bought]
        other.discard = self.discard[:]
        other.lot = self.lot[:]
        other._phase = self._phase
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
        return other

    def __copy__(self) -> GameState:
        return self.clone()

    # ------------------------------------------------------------------ round flow (used by auctions.py)

    def start_turn(self, after: int) -> None:
        """The first seat left of `after` (itself last) holding cards puts up the next card."""
        n = self.n
        hands = self.hands
        s = after + 1
        for _ in range(n):
            if s == n:
                s = 0
            if hands[s]:
                self._phase = PLAY_CARD
                self.auctioneer = s
                self.original = -1
                return
            s += 1
        # nobody holds a card: only possible at the start of a round dealt no cards
        self.end_round(after, "exhausted", ())

    def end_round(self, ender: int, ended_by: str, ending_cards: Iterable[Card]) -> None:
        """Score the round, clear the table, deal the next round or end the game."""
        ending = tuple(ending_cards)
        result = score_round(self.round, self.counts, self.tiles, self.bought, ended_by, ender, ending, self._artist_of)
        self.tiles.append(list(result.tiles))
        money = self.money
        for s, pay in enumerate(result.payouts):
            money[s] += pay
        discard = self.discard
        for cards in self.bought:
            discard.extend(cards)
            cards.clear()
        discard.extend(ending)
        self.lot = []
        self.results.append(result)
        events = self.events
        if events is not None:
            events.append(RoundEnded(result))
        if self.round == ROUNDS - 1:
            self._phase = GAME_OVER
            self.turn = -1
            if events is not None:
                events.append(GameEnded(tuple(money), self.winners()))
            return
        self.round += 1
        self.counts = [0] * _NARTISTS
        self._deal()
        self.start_turn(ender)

    def _deal(self) -> None:
        k = self.options.deal_sizes(self.n)[self.round]
        dealt: list[tuple[Card, ...]] = []
        stock = self.stock
        events = self.events
        for s in range(self.n):
            cards = tuple(stock[:k])
            del stock[:k]
            self.hands[s].extend(cards)
            dealt.append(cards)
            if events is not None and cards:
                events.append(CardsDealt(self.round, s, cards))
        self.deal_log.append(dealt)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n}p round {self.round + 1} {self.phase.name} "
            f"to_move={self.to_move()} money={self.money}>"
        )
