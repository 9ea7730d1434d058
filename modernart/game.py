"""The game state: whose turn it is, legal moves, applying moves, rounds and the end.

One `GameState` holds a whole game.  `apply(move)` validates completely before it changes
anything, so an illegal move raises an `IllegalMove` naming the rule and leaves the state
as it was.  The auction rules themselves are in `auctions.py`; this module holds the
state, the turn order and the round flow.

Speed matters here (self-play and search bots run millions of moves), hence `__slots__`,
phase constants bound at module level and no per-move allocation beyond what a move needs.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable, Sequence

from . import auctions
from .cards import ARTISTS, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, Card, DeckTable, Edition, EDITIONS
from .errors import GameOver, IllegalMove, MalformedMove, UnknownSeat
from .events import CardsDealt, GameEnded, RoundEnded, Sale
from .moves import Action, Move
from .phase import Phase
from .rules import DEFAULT_OPTIONS, OptionError, RuleOptions
from .scoring import RoundResult, score_round

PLAY_CARD, FIXED_SET, GAME_OVER = Phase.PLAY_CARD, Phase.FIXED_SET, Phase.GAME_OVER
DOUBLE_OFFER, ONCE_AROUND, FIXED_OFFER = Phase.DOUBLE_OFFER, Phase.ONCE_AROUND, Phase.FIXED_OFFER
OPEN, SEALED = Phase.OPEN, Phase.SEALED
_HANDLERS = auctions.HANDLERS
_NARTISTS = len(ARTISTS)


@lru_cache(maxsize=None)
def _deck(table: DeckTable) -> tuple[Card, ...]:
    return table.build()


class GameState:
    """A game of Modern Art for 3-5 seats, numbered clockwise from 0.

    Public fields (read them, never assign them): `n`, `options`, `money`, `hands`,
    `round` (0-3), `counts` (this round, per artist), `tiles` (one row per scored round),
    `bought` (this round, per seat), `phase`, `auctioneer`, `turn`, `lot` (cards under
    the hammer), `high`/`high_seat`, `bids` (public bids of the running auction),
    `sales`, `results`, `offenders`.  `observation(seat)` in `views.py` is what a player
    may see of it.
    """

    __slots__ = (
        "options", "n", "deck", "money", "hands", "stock", "round", "counts", "tiles",
        "bought", "discard", "lot", "phase", "auctioneer", "original", "kind", "turn",
        "high", "high_seat", "passed", "npassed", "sealed", "nsealed", "price", "bids", "auction_no",
        "results", "sales", "offenders", "events", "move_count", "first_auctioneer",
        "deal_log",
    )

    def __init__(
        self,
        players: int,
        options: RuleOptions | None = None,
        *,
        seed: int | str | bytes | random.Random | None = None,
        deck_order: Sequence[int] | None = None,
        first_auctioneer: int | None = None,
        track_events: bool = False,
    ) -> None:
        """Start a game: shuffle (from `seed`, or take `deck_order` exactly), deal round 1.

        The stock is dealt from the front of the order: round 1 to seat 0, 1, ..., then
        round 2, and so on.  The first auctioneer is `first_auctioneer`, or drawn from the
        seeded generator after the shuffle.  With `track_events`, `events` collects every
        move and what followed from it (see `events.py`).
        """
        options = options or DEFAULT_OPTIONS
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"Modern Art is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self.options = options
        self.n = players
        deck = self.deck = _deck(options.deck_table)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if deck_order is None:
            # sorting by independent uniform keys is a uniform shuffle, and 4x cheaper
            # than random.shuffle's 70 calls to randbelow
            rand = rng.random
            stock = [card for _, card in sorted([(rand(), card) for card in deck])]
        else:
            order = list(deck_order)
            if sorted(order) != list(range(len(deck))) or any(type(i) is not int for i in order):
                raise OptionError(f"deck_order must be a permutation of 0..{len(deck) - 1}")
            stock = [deck[i] for i in order]
        if first_auctioneer is None:
            first_auctioneer = rng.randrange(players)
        elif type(first_auctioneer) is not int or not 0 <= first_auctioneer < players:
            raise OptionError(f"first_auctioneer must be a seat 0..{players - 1}")
        self.stock: list[Card] = stock
        self.money = [options.start_money] * players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.round = 0
        self.counts = [0] * _NARTISTS
        self.tiles: list[list[int]] = []
        self.bought: list[list[Card]] = [[] for _ in range(players)]
        self.discard: list[Card] = []
        self.lot: list[Card] = []
        self.phase = PLAY_CARD
        self.auctioneer = first_auctioneer
        self.first_auctioneer = first_auctioneer
        self.original = -1
        self.kind = -1
        self.turn = -1
        self.high = 0
        self.high_seat = -1
        self.passed = [False] * players
        self.npassed = 0
        self.sealed: list[int] = [auctions.NO_BID] * players
        self.nsealed = 0
        self.price = 0
        self.bids: list[tuple[int, int]] = []
        self.auction_no = 0
        self.results: list[RoundResult] = []
        self.sales: list[Sale] = []
        self.offenders: list[tuple[int, int, int]] = []  # (seat, auction, fine)
        self.events: list | None = [] if track_events else None
        self.move_count = 0
        self.deal_log: list[list[tuple[Card, ...]]] = []
        self._deal()

    # ------------------------------------------------------------------ queries

    @property
    def edition(self) -> Edition:
        return EDITIONS[self.options.edition]

    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, or several during Open and Sealed auctions."""
        phase = self.phase
        if phase == PLAY_CARD or phase == FIXED_SET:
            return (self.auctioneer,)
        if phase == DOUBLE_OFFER or phase == ONCE_AROUND or phase == FIXED_OFFER:
            return (self.turn,)
        if phase == SEALED:
            return tuple(s for s in range(self.n) if self.sealed[s] == auctions.NO_BID)
        if phase == OPEN:
            return tuple(s for s in range(self.n) if auctions.open_can_act(self, s))
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
                    moves.extend(Move.of(s, action, a) for a in range(lo, hi + 1))
        return moves

    def amount_range(self, seat: int) -> tuple[Action, int, int] | None:
        """The amount move open to `seat` now as (action, lowest, highest), or None."""
        if not 0 <= seat < self.n or self.phase == GAME_OVER:
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
        if self.phase != GAME_OVER:
            return ()
        best = max(self.money)
        return tuple(s for s in range(self.n) if self.money[s] == best)

    def observation(self, seat: int):
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
            what = self.edition.describe(self.deck[arg]) if 0 <= arg < len(self.deck) else f"card {arg}"
            verb = "puts up" if action == Action.PLAY else "adds"
            return f"seat {seat} {verb} {what}"
        words: dict[int, str] = {
            Action.DECLINE_SECOND: "adds no second card", Action.PASS: "passes",
            Action.HAMMER: "closes the auction", Action.SEALED_FORFEIT: "forfeits the sealed bid",
            Action.ACCEPT: "accepts the price", Action.DECLINE: "declines the price",
        }
        if action in words:
            return f"seat {seat} {words[action]}"
        verbs: dict[int, str] = {Action.BID: "bids", Action.SEALED_BID: "seals a bid of", Action.SET_PRICE: "sets the price at"}
        return f"seat {seat} {verbs.get(action, str(action))} {arg}"

    # ------------------------------------------------------------------ applying moves

    def apply(self, move: Move) -> None:
        """Play `move`.  Raises an IllegalMove (state unchanged) if the rules forbid it."""
        seat, action, arg = move
        if self.phase == GAME_OVER:
            raise GameOver("no moves are possible after the game has ended")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise UnknownSeat(f"no seat {seat!r} in a {self.n}-player game")
        handler = _HANDLERS.get(action)
        if handler is None:
            raise MalformedMove(f"unknown action {action!r}")
        if type(arg) is not int:
            if type(arg) is not Card:  # bool, float, str...: never a card id or an amount
                raise MalformedMove(f"a move's argument is an integer, got {arg!r}")
            arg = int(arg)
        events = self.events
        if events is None:
            handler(self, seat, arg)
        else:  # the move is logged before the events it causes
            events.append(move)
            try:
                handler(self, seat, arg)
            except IllegalMove:
                events.pop()
                raise
        self.move_count += 1

    def clone(self) -> "GameState":
        """An independent copy (without the event log)."""
        other = GameState.__new__(GameState)
        other.options = self.options
        other.n = self.n
        other.deck = self.deck
        other.money = self.money[:]
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.round = self.round
        other.counts = self.counts[:]
        other.tiles = self.tiles[:]  # rows are never changed once appended
        other.bought = [b[:] for b in self.bought]
        other.discard = self.discard[:]
        other.lot = self.lot[:]
        other.phase = self.phase
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

    def __copy__(self) -> "GameState":
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
                self.phase = PLAY_CARD
                self.auctioneer = s
                self.original = -1
                return
            s += 1
        # nobody holds a card: only possible at the start of a round dealt no cards
        self.end_round(after, "exhausted", ())

    def end_round(self, ender: int, ended_by: str, ending_cards: Iterable[Card]) -> None:
        """Score the round, clear the table, deal the next round or end the game."""
        ending = tuple(ending_cards)
        result = score_round(self.round, self.counts, self.tiles, self.bought, ended_by, ender, ending)
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
            self.phase = GAME_OVER
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
        for s in range(self.n):
            cards = tuple(stock[:k])
            del stock[:k]
            self.hands[s].extend(cards)
            dealt.append(cards)
            if self.events is not None and cards:
                self.events.append(CardsDealt(self.round, s, cards))
        self.deal_log.append(dealt)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.n}p round {self.round + 1} {self.phase.name} "
            f"to_move={self.to_move()} money={self.money}>"
        )
