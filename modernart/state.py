"""A game's data and its round flow: `BaseState`, what `GameState` (game.py) is made of.

The state is split the way python-chess splits `BaseBoard` from `Board`: this module holds
every field of a game, whose turn it is and the flow of a round (dealing, scoring, the next
auctioneer); `game.py` adds the moves (legal moves, applying a move), and the auction
rules in `auctions.py` work on the fields declared here.  So the layers import one way
only: state <- auctions <- game, and state <- views <- game.

Speed matters here (self-play and search bots run millions of moves): the fields read on
every move are plain ints and tuples of ints, and the same source compiles with mypyc
(docs/engine-performance.md has the conventions that keep it fast in both builds).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Iterable

from .cards import ARTISTS, DECK_TABLES, EDITIONS, ROUNDS, Card, CardTables, Edition, card_tables, tables_of
from .events import CardsDealt, GameEnded, RoundEnded, Sale
from .phase import (
    CHOOSE_BUYER,
    DOUBLE_OFFER,
    FIXED_OFFER,
    FIXED_SET,
    GAME_OVER,
    MYSTERY_FLIP,
    ONCE_AROUND,
    OPEN,
    PHASES,
    ANNOUNCE,
    PLAY_CARD,
    POSTED_OFFER,
    SEALED,
    Phase,
)
from .rules import RuleOptions
from .scoring import RoundResult, score_round

NO_BID: Final = -2  # state.sealed / state.responses: this seat has not answered yet
FORFEIT: Final = -1  # state.sealed: this seat's bid was forfeited (counts as 0)
TAKE: Final = 1  # state.responses: this seat takes the posted price
LEAVE: Final = 0  # state.responses: this seat leaves it

_NARTISTS: Final = len(ARTISTS)

#: The fields set from `options` (the rule options the moves and the round flow read,
#: copied into plain fields once per game: see `BaseState`) and from `deck`.
MIRRORS: Final[tuple[str, ...]] = (
    "rules",
    "pass_is_final",
    "double_split",
    "open_autoclose",
    "fifth_ends_round",
    "last_card_auctioned",
    "double_as_open",
    "once_around_posted",
    "sealed_excludes_seller",
    "sealed_tie_seller_chooses",
    "fixed_forced_buy",
    "price_up_to_richest",
    "seller_chooses_auction",
    "pay_bank_always",
    "unsold_discarded",
    "mystery_hand",
    "cumulative_values",
    "fresh_deal_each_round",
    "rank_value_tuple",
    "hand_sizes",
    "artist_of",
    "kind_of",
)
#: `BaseState.__slots__`: `_options` (behind the `options` property), the mirrors, then
#: every other field.
STATE_SLOTS: Final[tuple[str, ...]] = (
    "_options",
    *MIRRORS,
    "n",
    "card_of",
    "money",
    "hands",
    "stock",
    "round",
    "counts",
    "tiles",
    "bought",
    "discard",
    "lot",
    "phase_id",
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
    "mystery",
    "flipped",
    "flipped_before",
    "candidates",
    "responses",
    "nresponses",
    "reshuffles",
    "start_order",
)
#: `BaseState.FIELDS`: the slots that are not mirrors, by public name.
OWN_FIELDS: Final[tuple[str, ...]] = tuple([name.lstrip("_") for name in STATE_SLOTS if name not in MIRRORS])


class BaseState:
    """The fields of a game of Modern Art for 3-5 seats (numbered clockwise from 0), whose
    turn it is, and the round flow.

    Public fields (read them, never assign them outside the engine): `n`, `options`, `deck`,
    `money`, `hands`, `round` (0-3), `counts` (this round, per artist), `tiles` (one row per
    scored round), `bought` (this round, per seat), `phase`, `auctioneer`, `turn`, `lot`
    (cards under the hammer), `high`/`high_seat`, `bids` (public bids of the running
    auction), `sales`, `results`, `offenders`.  The variants' fields (docs/rules.md
    "Variants"): `mystery` (the face-down mystery hand), `flipped` (its cards turned up
    this round), `flipped_before` (those turned up in earlier rounds), `candidates`
    (seats the seller chooses among), `responses` (posted price: per seat NO_BID, TAKE or
    LEAVE), `reshuffles` (the deck orders of the fresh
    deals still to come; hidden like the stock) and `start_order` (every deck order the
    game was started with, as card ids: what reproduces its deals).

    The hot path (docs/engine-performance.md) reads plain fields: `phase_id` is `phase` as
    an int (the constants of phase.py); `card_of` is the deck (`card_of[card_id]` is the
    Card), `artist_of` / `kind_of` give a card id's artist and auction type as ints.  Every
    rule option the moves and the round flow read is copied out of `options` into a field
    of its own, under the option's name (`pass_is_final` for `open_pass_is_final`,
    `rank_value_tuple` for the parsed `rank_values`), with `hand_sizes` the cards dealt to
    each hand at each round's deal: the options object is a plain Python dataclass, whose
    attributes the compiled build reads through a generic lookup, and whose methods are
    Python-level calls in both builds.  `rules` is the `options` object itself, as a plain
    field, for the rare reads (a sealed forfeit's fine).  Assigning `phase`, `options` or
    `deck` keeps them in step (`MIRRORS` names them).
    """

    __slots__ = STATE_SLOTS

    #: Every field that holds information of its own, by its public name, in `__slots__`
    #: order: all but the mirrors (`MIRRORS`).  Derived from the slots here because mypyc's
    #: compiled class has no `__slots__` attribute to read at run time.
    FIELDS: ClassVar[tuple[str, ...]] = OWN_FIELDS
    #: The fields set from `options` and `deck` (see the class docstring), never on their own.
    MIRRORS: ClassVar[tuple[str, ...]] = MIRRORS

    _options: RuleOptions
    rules: RuleOptions
    pass_is_final: bool
    double_split: bool
    open_autoclose: bool
    fifth_ends_round: bool
    last_card_auctioned: bool
    double_as_open: bool
    once_around_posted: bool
    sealed_excludes_seller: bool
    sealed_tie_seller_chooses: bool
    fixed_forced_buy: bool
    price_up_to_richest: bool
    seller_chooses_auction: bool
    pay_bank_always: bool
    unsold_discarded: bool
    mystery_hand: str
    cumulative_values: bool
    fresh_deal_each_round: bool
    rank_value_tuple: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    n: int
    card_of: tuple[Card, ...]
    artist_of: tuple[int, ...]
    kind_of: tuple[int, ...]
    money: list[int]
    hands: list[list[Card]]
    stock: list[Card]
    round: int
    counts: list[int]
    tiles: list[list[int]]
    bought: list[list[Card]]
    discard: list[Card]
    lot: list[Card]
    phase_id: int
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
    mystery: list[Card]
    flipped: list[Card]
    flipped_before: list[Card]
    candidates: list[int]
    responses: list[int]
    nresponses: int
    reshuffles: list[tuple[Card, ...]]
    start_order: tuple[int, ...]

    def __init__(self, players: int, options: RuleOptions, tables: CardTables, track_events: bool, empty: bool) -> None:
        """The options and the deck's tables; with `empty`, every other field at its empty
        value: no cards dealt, start money, round 1, seat 0 to put up a card, an event log
        if `track_events`.  Without, the caller sets every other field (a copy)."""
        self.n = players
        self.options = options
        self.card_of, self.artist_of, self.kind_of = tables
        if not empty:
            return
        self.money = [options.start_money] * players
        self.hands = [[] for _ in range(players)]
        self.stock = []
        self.round = 0
        self.counts = [0] * _NARTISTS
        self.tiles = []
        self.bought = [[] for _ in range(players)]
        self.discard = []
        self.lot = []
        self.phase_id = PLAY_CARD
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
        self.mystery = []
        self.flipped = []
        self.flipped_before = []
        self.candidates = []
        self.responses = [NO_BID] * players
        self.nresponses = 0
        self.reshuffles = []
        self.start_order = ()

    @property
    def options(self) -> RuleOptions:
        return self._options

    @options.setter
    def options(self, options: RuleOptions) -> None:
        """Set the options and their mirrors (`n` must be set: the deal sizes depend on it)."""
        self._options = options
        self.rules = options
        self.pass_is_final = options.open_pass_is_final
        self.double_split = options.double_split
        self.open_autoclose = options.open_autoclose
        self.fifth_ends_round = options.fifth_ends_round
        self.last_card_auctioned = options.last_card_auctioned
        self.double_as_open = options.double_as_open
        self.once_around_posted = options.once_around_posted
        self.sealed_excludes_seller = options.sealed_excludes_seller
        self.sealed_tie_seller_chooses = options.sealed_tie_seller_chooses
        self.fixed_forced_buy = options.fixed_forced_buy
        self.price_up_to_richest = options.price_up_to_richest
        self.seller_chooses_auction = options.seller_chooses_auction
        self.pay_bank_always = options.pay_bank_always
        self.unsold_discarded = options.unsold_discarded
        self.mystery_hand = options.mystery_hand
        self.cumulative_values = options.cumulative_values
        self.fresh_deal_each_round = options.fresh_deal_each_round
        self.rank_value_tuple = options.rank_value_tuple
        sizes = options.hand_sizes_by_players.get(self.n)  # None for options not for n players (a test's set-up)
        self.hand_sizes = sizes if sizes is not None else options.deal_sizes(options.hands_dealt(self.n))

    def copy_options_of(self, other: BaseState) -> None:
        """Take `other`'s options and their mirrors as they are (for `clone`: copying the
        fields is cheaper than reading them out of the options again)."""
        self._options = self.rules = other.rules  # (`rules` is the options object itself)
        self.pass_is_final = other.pass_is_final
        self.double_split = other.double_split
        self.open_autoclose = other.open_autoclose
        self.fifth_ends_round = other.fifth_ends_round
        self.last_card_auctioned = other.last_card_auctioned
        self.double_as_open = other.double_as_open
        self.once_around_posted = other.once_around_posted
        self.sealed_excludes_seller = other.sealed_excludes_seller
        self.sealed_tie_seller_chooses = other.sealed_tie_seller_chooses
        self.fixed_forced_buy = other.fixed_forced_buy
        self.price_up_to_richest = other.price_up_to_richest
        self.seller_chooses_auction = other.seller_chooses_auction
        self.pay_bank_always = other.pay_bank_always
        self.unsold_discarded = other.unsold_discarded
        self.mystery_hand = other.mystery_hand
        self.cumulative_values = other.cumulative_values
        self.fresh_deal_each_round = other.fresh_deal_each_round
        self.rank_value_tuple = other.rank_value_tuple
        self.hand_sizes = other.hand_sizes

    @property
    def phase(self) -> Phase:
        return PHASES[self.phase_id]

    @phase.setter
    def phase(self, value: Phase) -> None:
        self.phase_id = int(value)

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of this game's deck table, indexed by card id (the tuple `card_of`)."""
        return self.card_of

    @deck.setter
    def deck(self, cards: tuple[Card, ...]) -> None:
        for name in DECK_TABLES:
            tables = card_tables(name)
            if tables[0] is cards:  # one of the shared decks: its tables are made already
                self.card_of, self.artist_of, self.kind_of = tables
                return
        self.card_of, self.artist_of, self.kind_of = tables_of(cards)

    # ------------------------------------------------------------------ queries

    @property
    def edition(self) -> Edition:
        return EDITIONS[self._options.edition]

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    def is_over(self) -> bool:
        return self.phase_id == GAME_OVER

    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now: one seat, or several during Open and Sealed auctions."""
        phase = self.phase_id
        if phase == PLAY_CARD or phase == FIXED_SET or phase == ANNOUNCE:
            return (self.auctioneer,)
        if phase == DOUBLE_OFFER or phase == ONCE_AROUND or phase == FIXED_OFFER or phase == MYSTERY_FLIP:
            return (self.turn,)
        if phase == SEALED:
            sealed = self.sealed
            return tuple([s for s in range(self.n) if sealed[s] == NO_BID])
        if phase == OPEN:
            # the auctioneer may always hammer; the high bidder waits; a seat that passed
            # since the last bid may come back with a higher bid unless passes are final
            auctioneer, high_seat, high = self.auctioneer, self.high_seat, self.high
            passed, money = self.passed, self.money
            final = self.pass_is_final
            return tuple(
                [
                    s
                    for s in range(self.n)
                    if s == auctioneer or s != high_seat and (not passed[s] or not final and money[s] > high)
                ]
            )
        if phase == CHOOSE_BUYER:
            return (self.auctioneer,)
        if phase == POSTED_OFFER:
            responses = self.responses
            return tuple([s for s in range(self.n) if responses[s] == NO_BID])
        return ()

    def winners(self) -> tuple[int, ...]:
        """Seats with the most money once the game is over (co-winners on ties, §12.6)."""
        if self.phase_id != GAME_OVER:
            return ()
        money = self.money
        best = max(money)
        return tuple([s for s in range(self.n) if money[s] == best])

    # ------------------------------------------------------------------ round flow (used by auctions.py and game.py)

    def start_turn(self, after: int) -> None:
        """The first seat left of `after` (itself last) holding cards puts up the next card."""
        n = self.n
        hands = self.hands
        s = after + 1
        for _ in range(n):
            if s == n:
                s = 0
            if hands[s]:
                self.phase_id = PLAY_CARD
                self.auctioneer = s
                self.original = -1
                return
            s += 1
        # nobody holds a card: at the start of a round dealt no cards, or after the sale of
        # the last card (option last_card_auctioned)
        self.end_round(after, "exhausted", ())

    def end_round(self, ender: int, ended_by: str, ending_cards: Iterable[Card]) -> None:
        """Score the round, clear the table, deal the next round or end the game.

        Empty hands end the game with the round (§6.2), unless every round deals fresh
        hands (`fresh_deal_each_round`), where they are the usual end of a round.  A round
        `ended_by` "early" (a table's vote, §12.9) ends the game too."""
        ending = tuple(ending_cards)
        result = score_round(
            self.round,
            self.counts,
            self.tiles if self.cumulative_values else (),
            self.bought,
            ended_by,
            ender,
            ending,
            self.artist_of,
            self.rank_value_tuple,
        )
        self.tiles.append(list(result.tiles))
        money = self.money
        for s, pay in enumerate(result.payouts):
            money[s] += pay
        discard = self.discard
        for cards in self.bought:
            discard.extend(cards)
            cards.clear()
        discard.extend(ending)
        discard.extend(self.flipped)
        self.flipped_before.extend(self.flipped)
        self.flipped = []
        self.lot = []
        self.results.append(result)
        events = self.events
        if events is not None:
            events.append(RoundEnded(result))
        fresh = self.fresh_deal_each_round
        if self.round == ROUNDS - 1 or ended_by == "early" or (ended_by == "exhausted" and not fresh):
            self.phase_id = GAME_OVER
            self.turn = -1
            if events is not None:
                events.append(GameEnded(tuple(money), self.winners()))
            return
        self.round += 1
        self.counts = [0] * _NARTISTS
        if fresh:
            # every card goes back into the deck, which was reshuffled for this round
            for hand in self.hands:
                hand.clear()
            self.mystery = []
            self.discard = []
            self.stock = list(self.reshuffles.pop(0))
        self.deal_round()
        self.start_turn(ender)

    def exchange_unplayed(self, a: int, b: int) -> None:
        """Exchange the places of cards `a` and `b`, each in a hand, the stock or the mystery hand.

        For a host that does not see hands (net/trust/blind_game.py): its engine holds
        stand-in cards for every card not yet played and, when a card is opened, puts the
        real card where the stand-in for that card's slot was.  No rule looks at a card
        until it is played, so the exchange changes nothing anybody can see.  ValueError
        if either card has been played.
        """
        if a == b:
            return
        places: list[list[Card]] = [*self.hands, self.stock, self.mystery]
        found: list[tuple[list[Card], int]] = []
        for card in (self.card_of[a], self.card_of[b]):
            for cards in places:
                if card in cards:
                    found.append((cards, cards.index(card)))
                    break
            else:
                raise ValueError(f"card {card} is in no hand, nor the stock, nor the mystery hand")
        (list_a, i), (list_b, j) = found
        list_a[i], list_b[j] = list_b[j], list_a[i]

    def deal_round(self) -> None:
        """Deal this round's cards from the front of the stock, seat 0 first (then the
        mystery hand, if the game has one), and log the seats' deals."""
        k = self.hand_sizes[self.round]
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
        if self.mystery_hand:
            self.mystery.extend(stock[:k])
            del stock[:k]
        self.deal_log.append(dealt)
