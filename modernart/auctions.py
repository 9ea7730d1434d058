"""The auctions, move by move (docs/rules.md §3-§6): one handler per action, each checking every
rule before it changes anything.

Handlers take (state, seat, arg) with `seat` a valid seat and `arg` a plain int, both
checked by `GameState.apply`, their only caller.  They are module functions rather than
methods so that the rules read as one place; they work on the fields and round flow of
`BaseState` (state.py), the layer below `GameState`, and use its plain-int fields
(`phase_id`, `artist_of`, `kind_of`), which keep the hot path cheap in CPython and native
under mypyc (docs/engine-performance.md).
"""

from __future__ import annotations

from typing import Final

from .cards import ANNOUNCED_KINDS, AUCTION_TYPES, MAX_PLAYERS, AuctionType, Card
from .errors import (
    AlreadyBid,
    AlreadyPassed,
    BidOverMoney,
    BidTooLow,
    CannotAfford,
    CardNotInHand,
    HighBidderCannotAct,
    MalformedMove,
    NotACandidate,
    NotAnAuction,
    NotAuctioneer,
    NotYourTurn,
    PriceOutOfRange,
    SecondCardMismatch,
    WrongPhase,
)
from .events import BANK, AuctionStarted, MysteryFlipped, Sale, SealedRevealed
from .moves import (
    ACCEPT,
    ADD_SECOND,
    ANNOUNCE,
    CHOOSE_BUYER,
    DECLINE,
    DECLINE_SECOND,
    FLIP_MYSTERY,
    HAMMER,
    KEEP_MYSTERY,
    PASS,
    PLAY,
    Action,
    Move,
    move_of,
)
from .phase import (
    CHOOSE_BUYER as CHOOSING,
)
from .phase import (
    ANNOUNCE as ANNOUNCING,
)
from .phase import (
    DOUBLE_OFFER,
    FIXED_OFFER,
    FIXED_SET,
    MYSTERY_FLIP,
    ONCE_AROUND,
    OPEN,
    PLAY_CARD,
    POSTED_OFFER,
    SEALED,
)
from .state import FORFEIT, LEAVE, TAKE, BaseState
from .state import NO_BID as NO_BID  # a seat's entry in `sealed` before it bids: importable from here too

DOUBLE: Final = 4  # AuctionType.DOUBLE as a plain int (state.kind_of holds plain ints)
OPEN_KIND: Final = 0  # AuctionType.OPEN as a plain int
ONCE_AROUND_KIND: Final = 1  # AuctionType.ONCE_AROUND as a plain int
#: The phase each auction symbol starts, by AuctionType value (a Double never starts one).
_PHASE_OF_KIND: Final = (OPEN, ONCE_AROUND, SEALED, FIXED_SET)
_PHASE_WORDS: Final = (
    "a card is to be put up",
    "a Double is on offer",
    "an Open auction is running",
    "a Once-around auction is running",
    "a Sealed auction is running",
    "a fixed price is to be set",
    "a fixed price is on offer",
    "the game is over",
    "the seller is choosing the buyer",
    "a posted price is on offer",
    "the mystery hand may be turned up",
    "the seller is announcing the auction",
)
_new: Final = tuple.__new__  # builds a NamedTuple from a tuple without its Python-level __new__
# Final module constants are C constants under mypyc; imported names are dictionary lookups.
_BANK: Final[int] = BANK
_AUCTION_TYPES: Final[tuple[AuctionType, ...]] = AUCTION_TYPES
#: _CLOCKWISE[n][seat]: the n seats clockwise from `seat`'s left, `seat` itself last (the
#: order a Sealed auction's bids are revealed in)
_CLOCKWISE: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    [tuple([tuple([(a + i) % n for i in range(1, n + 1)]) for a in range(n)]) for n in range(MAX_PLAYERS + 1)]
)


def _wrong_phase(state: BaseState, what: str) -> WrongPhase:
    return WrongPhase(f"cannot {what} now: {_PHASE_WORDS[state.phase_id]}")


def _take_from_hand(state: BaseState, seat: int, arg: int) -> Card:
    deck = state.card_of
    if not 0 <= arg < len(deck):
        raise MalformedMove(f"no card with id {arg}")
    card = deck[arg]
    try:
        state.hands[seat].remove(card)
    except ValueError:
        raise CardNotInHand(f"seat {seat} does not hold {card!r}") from None
    return card


# ---------------------------------------------------------------------- putting cards up


def play_card(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != PLAY_CARD:
        raise _wrong_phase(state, "put up a card")
    if seat != state.auctioneer:
        raise NotYourTurn(f"seat {seat} cannot put up a card: it is seat {state.auctioneer}'s turn")
    card = _take_from_hand(state, seat, arg)
    state.auction_no += 1
    state.lot = [card]
    state.original = -1
    counts = state.counts
    artist = state.artist_of[arg]
    counts[artist] += 1
    kind = state.kind_of[arg]
    if counts[artist] == 5 and state.fifth_ends_round:
        state.end_round(seat, "fifth", (card,))
    elif not state.hands[seat] and not state.last_card_auctioned and not any(state.hands):
        # (every hand is empty only if this seat's is: the cheap test first)
        state.end_round(seat, "exhausted", (card,))
    elif state.seller_chooses_auction:  # FA-15: the seller announces the auction, Doubles sold alone
        state.phase_id = ANNOUNCING
        state.auctioneer = seat
        state.kind = -1
    elif kind == DOUBLE and state.double_as_open:  # FA-14: a Double sold alone, as Open
        _start_auction(state, seat, OPEN_KIND)
    elif kind == DOUBLE:
        state.original = seat
        # the Double's player is offered it first, unless their hand is now empty
        turn = seat if state.hands[seat] else _next_holder(state, (seat + 1) % state.n)
        if turn < 0:  # every hand is empty (the last card is auctioned): nobody can add
            _keep_double(state)
        else:
            state.phase_id = DOUBLE_OFFER
            state.turn = turn
    else:
        _start_auction(state, seat, kind)


def add_second(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != DOUBLE_OFFER:
        raise _wrong_phase(state, "add a second card")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot add a card: the Double is offered to seat {state.turn}")
    double = state.lot[0]
    double_id: int = double
    artist = state.artist_of[double_id]
    if 0 <= arg < len(state.card_of) and (state.artist_of[arg] != artist or state.kind_of[arg] == DOUBLE):
        raise SecondCardMismatch(f"{state.card_of[arg]!r} cannot join {double!r}")
    card = _take_from_hand(state, seat, arg)
    state.lot.append(card)
    counts = state.counts
    counts[artist] += 1
    if counts[artist] == 5 and state.fifth_ends_round:
        state.end_round(seat, "fifth", tuple(state.lot))
    elif not state.hands[seat] and not state.last_card_auctioned and not any(state.hands):
        state.end_round(seat, "exhausted", tuple(state.lot))
    else:
        _start_auction(state, seat, state.kind_of[arg])


def decline_second(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != DOUBLE_OFFER:
        raise _wrong_phase(state, "decline a Double")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot decline: the Double is offered to seat {state.turn}")
    nxt = _next_holder(state, (seat + 1) % state.n)
    if nxt < 0:  # offered all round: the original auctioneer keeps it for free (§5.6.4)
        _keep_double(state)
    else:
        state.turn = nxt


def announce(state: BaseState, seat: int, arg: int) -> None:
    """The seller names the auction for the card on the table (FA-15)."""
    if state.phase_id != ANNOUNCING:
        raise _wrong_phase(state, "announce an auction")
    if seat != state.auctioneer:
        raise NotAuctioneer(f"seat {seat} is not the seller (seat {state.auctioneer})")
    if arg not in ANNOUNCED_KINDS:
        raise NotAnAuction(f"{arg} is none of the four auctions (0 Open, 1 Once-around, 2 Sealed, 3 Fixed price)")
    _start_auction(state, seat, arg)


def _keep_double(state: BaseState) -> None:
    original = state.original
    state.auctioneer = original
    state.kind = DOUBLE
    state.bids = []
    _sell(state, original, 0)


def second_cards(state: BaseState, seat: int) -> list[Card]:
    """The cards `seat` may add to the Double on the table: its artist, not a Double."""
    artist_of, kind_of = state.artist_of, state.kind_of
    double_id: int = state.lot[0]
    artist = artist_of[double_id]
    cards = []
    for card in state.hands[seat]:
        card_id: int = card
        if artist_of[card_id] == artist and kind_of[card_id] != DOUBLE:
            cards.append(card)
    return cards


def _next_holder(state: BaseState, seat: int) -> int:
    """The next seat from `seat` on that is offered the Double, or -1 once the offer has
    come back round to the Double's player.

    Seats with empty hands are skipped: an empty hand is public, so this reveals nothing
    (§5.6.2).  The Double's own player is offered it first (handled by the caller).
    """
    n = state.n
    original = state.original
    hands = state.hands
    s = seat
    while s != original:
        if hands[s]:
            return s
        s = (s + 1) % n
    return -1


def _start_auction(state: BaseState, auctioneer: int, kind: int) -> None:
    state.auctioneer = auctioneer
    state.kind = kind
    state.high = 0
    state.high_seat = -1
    state.bids = []
    phase = _PHASE_OF_KIND[kind]
    if kind == ONCE_AROUND_KIND and state.once_around_posted:
        phase = FIXED_SET  # FA-12: the seller posts a price (set_price goes on to POSTED_OFFER)
    state.phase_id = phase
    if phase == OPEN:
        state.passed = [False] * state.n
        state.npassed = 0
    elif phase == ONCE_AROUND:
        state.turn = (auctioneer + 1) % state.n
    elif phase == SEALED:
        state.sealed = [NO_BID] * state.n
        state.nsealed = 0
        if state.sealed_excludes_seller:  # FA-10: the seller's fist stays empty
            state.sealed[auctioneer] = 0
            state.nsealed = 1
    events = state.events
    if events is not None:
        events.append(AuctionStarted(state.auction_no, _AUCTION_TYPES[kind], auctioneer, tuple(state.lot)))


# ---------------------------------------------------------------------- Open and Once-around


def bid(state: BaseState, seat: int, arg: int) -> None:
    amount = arg
    phase = state.phase_id
    if phase == OPEN:
        if seat == state.high_seat:
            raise HighBidderCannotAct(f"seat {seat} already holds the high bid of {state.high}")
        if state.passed[seat] and state.pass_is_final:
            raise AlreadyPassed(f"seat {seat} has passed and is out of this auction")
    elif phase == ONCE_AROUND:
        if seat != state.turn:
            raise NotYourTurn(f"seat {seat} cannot bid: it is seat {state.turn}'s turn")
    else:
        raise _wrong_phase(state, "bid")
    if amount <= state.high or amount < 1:
        raise BidTooLow(f"a bid of {amount} does not beat the high bid of {state.high}")
    if amount > state.money[seat]:
        raise BidOverMoney(f"seat {seat} cannot bid {amount}: they hold less")
    state.high = amount
    state.high_seat = seat
    state.bids.append((seat, amount))
    if phase == OPEN:
        if state.npassed and not state.pass_is_final:
            state.passed = [False] * state.n
            state.npassed = 0
    else:
        _once_around_next(state)


def pass_(state: BaseState, seat: int, arg: int) -> None:
    phase = state.phase_id
    if phase == OPEN:
        if seat == state.high_seat:
            raise HighBidderCannotAct(f"seat {seat} holds the high bid and cannot pass")
        passed = state.passed
        if passed[seat]:
            raise AlreadyPassed(f"seat {seat} has already passed since the last bid")
        passed[seat] = True
        state.npassed += 1
        # everyone but the high bidder (everyone, with no bid yet) has passed: sold (§12.5),
        # unless only the auctioneer's hammer closes it (option open_autoclose off)
        if state.npassed == (state.n if state.high_seat < 0 else state.n - 1) and state.open_autoclose:
            _close_open(state)
    elif phase == ONCE_AROUND:
        if seat != state.turn:
            raise NotYourTurn(f"seat {seat} cannot pass: it is seat {state.turn}'s turn")
        _once_around_next(state)
    else:
        raise _wrong_phase(state, "pass")


def hammer(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != OPEN:
        raise _wrong_phase(state, "hammer")
    if seat != state.auctioneer:
        raise NotAuctioneer(f"seat {seat} is not the auctioneer (seat {state.auctioneer})")
    _close_open(state)


def _close_open(state: BaseState) -> None:
    if state.high_seat < 0:
        _unsold(state)
    else:
        _sell(state, state.high_seat, state.high)


def _once_around_next(state: BaseState) -> None:
    if state.turn == state.auctioneer:  # the auctioneer acts last (§5.2)
        _close_open(state)
    else:
        state.turn = (state.turn + 1) % state.n


# ---------------------------------------------------------------------- Sealed


def sealed_bid(state: BaseState, seat: int, arg: int) -> None:
    amount = arg
    if state.phase_id != SEALED:
        raise _wrong_phase(state, "make a sealed bid")
    if state.sealed[seat] != NO_BID:
        raise AlreadyBid(f"seat {seat} has already made its sealed bid")
    if amount < 0:
        raise BidTooLow(f"a sealed bid cannot be negative ({amount})")
    if amount > state.money[seat]:
        raise BidOverMoney(f"seat {seat} cannot bid {amount}: they hold less")
    state.sealed[seat] = amount
    state.nsealed += 1
    if state.nsealed == state.n:
        _sealed_resolve(state)


def sealed_forfeit(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != SEALED:
        raise _wrong_phase(state, "forfeit a sealed bid")
    if state.sealed[seat] != NO_BID:
        raise AlreadyBid(f"seat {seat} has already made its sealed bid")
    state.sealed[seat] = FORFEIT  # counted as 0 when resolved; marks the offender
    state.nsealed += 1
    if state.nsealed == state.n:
        _sealed_resolve(state)


def _sealed_resolve(state: BaseState) -> None:
    """Every seat has bid: reveal the bids and sell the lot."""
    n = state.n
    sealed = state.sealed
    auctioneer = state.auctioneer
    if FORFEIT in sealed:
        bids = _fine_offenders(state)
    else:
        # nobody forfeited (every self-play auction): the bids are `sealed` as made, with
        # no offenders to fine; nothing is copied
        bids = sealed
        if state.events is not None:
            state.events.append(_new(SealedRevealed, (state.auction_no, tuple(sealed), (), ())))
    # every revealed bid is public, in clockwise order from the auctioneer's left
    after = auctioneer + 1
    state.bids = list(zip(_CLOCKWISE[n][auctioneer], bids[after:] + bids[:after]))
    buyer, price, tied = sealed_outcome(bids, auctioneer, state.sealed_tie_seller_chooses)
    if price == 0:
        _unsold(state)
    elif tied:  # FA-10: the seller chooses among the tied high bids
        _let_seller_choose(state, list(tied), price)
    else:
        _sell(state, buyer, price)


def _fine_offenders(state: BaseState) -> list[int]:
    """Fine every seat whose sealed bid was forfeited and log the reveal; returns every
    seat's bid with a forfeit counted as 0."""
    sealed = state.sealed
    offenders = tuple([s for s in range(state.n) if sealed[s] == FORFEIT])
    fines: list[int] = []
    for s in offenders:
        fine = min(state.rules.sealed_offender_fine, state.money[s])
        state.money[s] -= fine
        fines.append(fine)
        state.offenders.append((s, state.auction_no, fine))
    bids = [b if b > 0 else 0 for b in sealed]
    if state.events is not None:
        state.events.append(SealedRevealed(state.auction_no, tuple(bids), offenders, tuple(fines)))
    return bids


def sealed_outcome(bids: list[int], auctioneer: int, seller_chooses: bool) -> tuple[int, int, tuple[int, ...]]:
    """(buyer, price, tied) of a Sealed auction: `sealed_winner`'s buyer and price, and, when
    the seller chooses among tied high bids (FA-10, `seller_chooses`) and several seats tied,
    those seats clockwise from the auctioneer's left (the buyer is then the seller's choice).
    A price of 0 means nobody bought (§4.6, FA-5).  The engine sells with it, and every
    client re-checks the host's sale with it (net/trust/sealed.py)."""
    buyer, price = sealed_winner(bids, auctioneer)
    if price and seller_chooses:
        n = len(bids)
        tied = tuple([s for s in [(auctioneer + i) % n for i in range(1, n + 1)] if bids[s] == price])
        if len(tied) > 1:
            return buyer, price, tied
    return buyer, price, ()


def sealed_winner(bids: list[int], auctioneer: int) -> tuple[int, int]:
    """(buyer, price) of a Sealed auction from every seat's bid (a forfeit counts as 0).

    The highest bid wins; the auctioneer wins any tie it is part of, otherwise the tied
    seat nearest the auctioneer's left; with no bid above 0 the auctioneer takes the lot
    for free (docs/rules.md §5.3).  The one statement of the rule: the engine sells with
    it, and every client re-checks the host's sale with it (net/trust/sealed.py).
    """
    n = len(bids)
    best = max(bids)
    if best == 0:
        return auctioneer, 0
    if bids[auctioneer] == best:
        return auctioneer, best
    for i in range(1, n):
        s = (auctioneer + i) % n
        if bids[s] == best:
            return s, best
    return auctioneer, best  # not reached: the best bid is someone's


# ---------------------------------------------------------------------- Fixed price


def set_price(state: BaseState, seat: int, arg: int) -> None:
    price = arg
    if state.phase_id != FIXED_SET:
        raise _wrong_phase(state, "set a price")
    if seat != state.auctioneer:
        raise NotYourTurn(f"seat {seat} is not the auctioneer (seat {state.auctioneer})")
    lo, hi = price_range(state, seat)
    if not lo <= price <= hi:
        raise PriceOutOfRange(f"price {price} is outside {lo}..{hi}")
    state.price = price
    state.bids = [(seat, price)]
    if state.kind == ONCE_AROUND_KIND:  # a posted price (FA-12): everyone else answers at once
        state.phase_id = POSTED_OFFER
        state.responses = [NO_BID] * state.n
        state.responses[seat] = LEAVE
        state.nresponses = 1
        return
    state.phase_id = FIXED_OFFER
    state.turn = (seat + 1) % state.n


def price_range(state: BaseState, seat: int) -> tuple[int, int]:
    """(lowest, highest) price the auctioneer `seat` may name: 1 to its own money (0 only
    when it holds nothing, §12.4), or, with `price_up_to_richest` and a price the seller
    never pays itself (a posted price, or a Fixed price when `fixed_forced_buy` is off),
    1 to the money of the richest other player (FA-11, FA-12)."""
    money = state.money
    if state.price_up_to_richest and (state.kind == ONCE_AROUND_KIND or not state.fixed_forced_buy):
        richest = 0
        for s in range(state.n):
            if s != seat and money[s] > richest:
                richest = money[s]
        return 1, richest if richest > 1 else 1
    own = money[seat]
    return (1, own) if own > 0 else (0, 0)


def accept(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id == POSTED_OFFER:
        if state.price > state.money[seat]:
            raise CannotAfford(f"seat {seat} cannot pay {state.price}")
        _posted_answer(state, seat, TAKE)
        return
    if state.phase_id != FIXED_OFFER:
        raise _wrong_phase(state, "accept a price")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot accept: the price is offered to seat {state.turn}")
    if state.price > state.money[seat]:
        raise CannotAfford(f"seat {seat} cannot pay {state.price}")
    _sell(state, seat, state.price)


def decline(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id == POSTED_OFFER:
        _posted_answer(state, seat, LEAVE)
        return
    if state.phase_id != FIXED_OFFER:
        raise _wrong_phase(state, "decline a price")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot decline: the price is offered to seat {state.turn}")
    nxt = (seat + 1) % state.n
    if nxt != state.auctioneer:
        state.turn = nxt
    elif state.fixed_forced_buy:  # nobody bought: the auctioneer must (§5.4)
        _sell(state, nxt, state.price)
    else:  # FA-11: nobody took it
        _unsold(state)


def _posted_answer(state: BaseState, seat: int, answer: int) -> None:
    if state.responses[seat] != NO_BID:
        raise AlreadyBid(f"seat {seat} has already answered the posted price")
    state.responses[seat] = answer
    state.nresponses += 1
    n = state.n
    if state.nresponses < n:
        return
    auctioneer = state.auctioneer
    takers = [s for s in [(auctioneer + i) % n for i in range(1, n)] if state.responses[s] == TAKE]
    if not takers:
        _unsold(state)
    elif len(takers) == 1:
        _sell(state, takers[0], state.price)
    else:  # FA-12: the seller chooses among the takers
        _let_seller_choose(state, takers, state.price)


# ---------------------------------------------------------------------- the seller's choice (FA-10, FA-12)


def _let_seller_choose(state: BaseState, candidates: list[int], price: int) -> None:
    state.candidates = candidates
    state.price = price
    state.phase_id = CHOOSING


def choose_buyer(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != CHOOSING:
        raise _wrong_phase(state, "choose a buyer")
    if seat != state.auctioneer:
        raise NotAuctioneer(f"seat {seat} is not the seller (seat {state.auctioneer})")
    if arg not in state.candidates:
        raise NotACandidate(f"seat {arg} is not among the seats to choose from {state.candidates}")
    state.candidates = []
    _sell(state, arg, state.price)


# ---------------------------------------------------------------------- the mystery hand (§10.3)


def flip_mystery(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != MYSTERY_FLIP:
        raise _wrong_phase(state, "turn up the mystery hand")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot turn up the mystery hand: seat {state.turn} decides")
    card = state.mystery.pop(0)
    card_id: int = card
    artist = state.artist_of[card_id]
    counts = state.counts
    counts[artist] += 1
    if state.events is not None:
        state.events.append(MysteryFlipped(state.round, seat, card))
    if counts[artist] == 5 and state.fifth_ends_round:
        state.end_round(seat, "fifth", (card,))
    else:
        state.flipped.append(card)
        state.start_turn(state.auctioneer)


def keep_mystery(state: BaseState, seat: int, arg: int) -> None:
    if state.phase_id != MYSTERY_FLIP:
        raise _wrong_phase(state, "leave the mystery hand")
    if seat != state.turn:
        raise NotYourTurn(f"seat {seat} cannot decide on the mystery hand: seat {state.turn} decides")
    state.start_turn(state.auctioneer)


def rare_action(state: BaseState, action: int, seat: int, arg: int) -> None:
    """The handlers of the rare actions (GameState.apply dispatches the frequent ones)."""
    if action == CHOOSE_BUYER:
        choose_buyer(state, seat, arg)
    elif action == FLIP_MYSTERY:
        flip_mystery(state, seat, arg)
    elif action == KEEP_MYSTERY:
        keep_mystery(state, seat, arg)
    elif action == ANNOUNCE:
        announce(state, seat, arg)
    else:
        sealed_forfeit(state, seat, arg)


# ---------------------------------------------------------------------- the sale


def _sell(state: BaseState, buyer: int, price: int) -> None:
    """Hand the lot to `buyer` for `price`, pay the right people, move to the next turn."""
    auctioneer = state.auctioneer
    original = state.original
    money = state.money
    money[buyer] -= price
    payments: tuple[tuple[int, int, int], ...]
    if price == 0:
        payments = ()
    elif state.pay_bank_always:  # FA-4
        payments = ((buyer, _BANK, price),)
    elif original >= 0 and original != auctioneer and state.double_split:
        new_share = (price + 1) // 2
        old_share = price - new_share
        # a buyer's own share goes to the bank (§5.6, double_split)
        to_new = _BANK if buyer == auctioneer else auctioneer
        to_old = _BANK if buyer == original else original
        if to_new != _BANK:
            money[to_new] += new_share
        if to_old != _BANK and old_share:
            money[to_old] += old_share
        payments = ((buyer, to_new, new_share),) + (((buyer, to_old, old_share),) if old_share else ())
    elif buyer == auctioneer:
        payments = ((buyer, _BANK, price),)
    else:
        money[auctioneer] += price
        payments = ((buyer, auctioneer, price),)
    lot = tuple(state.lot)
    state.bought[buyer].extend(lot)
    sale = _new(
        Sale,
        (
            state.auction_no,
            state.round,
            _AUCTION_TYPES[state.kind],
            auctioneer,
            original,
            lot,
            tuple(state.bids),
            buyer,
            price,
            payments,
        ),
    )
    state.sales.append(sale)
    if state.events is not None:
        state.events.append(sale)
    state.lot = []
    if state.mystery_hand:
        _after_sale(state, buyer)
    else:  # (the call saved: a sale is every fourth move)
        state.start_turn(auctioneer)


def _unsold(state: BaseState) -> None:
    """Nobody bought the lot: the auctioneer keeps it for free (§4.6), or it is discarded
    and does not count (FA-5, option unsold_discarded)."""
    if not state.unsold_discarded:
        _sell(state, state.auctioneer, 0)
        return
    lot = tuple(state.lot)
    counts, artist_of = state.counts, state.artist_of
    for card in lot:
        card_id: int = card
        counts[artist_of[card_id]] -= 1
    state.discard.extend(lot)
    auctioneer = state.auctioneer
    sale = _new(
        Sale,
        (
            state.auction_no,
            state.round,
            _AUCTION_TYPES[state.kind],
            auctioneer,
            state.original,
            lot,
            tuple(state.bids),
            _BANK,
            0,
            (),
        ),
    )
    state.sales.append(sale)
    if state.events is not None:
        state.events.append(sale)
    state.lot = []
    _after_sale(state, _BANK)


def _after_sale(state: BaseState, buyer: int) -> None:
    """The next turn, after the mystery hand's step if the game has one (§10.3)."""
    mode = state.mystery_hand
    if mode and state.mystery:
        decider = buyer if mode == "hig" else state.auctioneer
        if decider >= 0:
            state.phase_id = MYSTERY_FLIP
            state.turn = decider
            return
    state.start_turn(state.auctioneer)


# ---------------------------------------------------------------------- what may be played


def legal_moves(state: BaseState, seat: int) -> list[Move]:
    """The legal moves of `seat` that take no amount (see `amount_range`)."""
    phase = state.phase_id
    if phase == PLAY_CARD:
        return [move_of(seat, PLAY, c) for c in state.hands[seat]] if seat == state.auctioneer else []
    if phase == DOUBLE_OFFER:
        if seat != state.turn:
            return []
        adds = [move_of(seat, ADD_SECOND, c) for c in second_cards(state, seat)]
        adds.append(move_of(seat, DECLINE_SECOND))
        return adds
    if phase == OPEN:
        moves = []
        if seat != state.high_seat and not state.passed[seat]:
            moves.append(move_of(seat, PASS))
        if seat == state.auctioneer:
            moves.append(move_of(seat, HAMMER))
        return moves
    if phase == ONCE_AROUND:
        return [move_of(seat, PASS)] if seat == state.turn else []
    if phase == FIXED_OFFER or phase == POSTED_OFFER:
        if seat != state.turn if phase == FIXED_OFFER else state.responses[seat] != NO_BID:
            return []
        if state.price <= state.money[seat]:
            return [move_of(seat, ACCEPT), move_of(seat, DECLINE)]
        return [move_of(seat, DECLINE)]
    if phase == CHOOSING:
        return [move_of(seat, CHOOSE_BUYER, c) for c in state.candidates] if seat == state.auctioneer else []
    if phase == MYSTERY_FLIP:
        return [move_of(seat, FLIP_MYSTERY), move_of(seat, KEEP_MYSTERY)] if seat == state.turn else []
    if phase == ANNOUNCING:
        return [move_of(seat, ANNOUNCE, k) for k in ANNOUNCED_KINDS] if seat == state.auctioneer else []
    return []  # SEALED (amounts only), FIXED_SET (amounts only), GAME_OVER


def amount_range(state: BaseState, seat: int) -> tuple[Action, int, int] | None:
    phase = state.phase_id
    money = state.money[seat]
    if phase == OPEN:
        if seat == state.high_seat or (state.passed[seat] and state.pass_is_final):
            return None
        lo = state.high + 1
        return (Action.BID, lo, money) if lo <= money else None
    if phase == ONCE_AROUND:
        lo = state.high + 1
        return (Action.BID, lo, money) if seat == state.turn and lo <= money else None
    if phase == SEALED:
        return (Action.SEALED_BID, 0, money) if state.sealed[seat] == NO_BID else None
    if phase == FIXED_SET:
        if seat != state.auctioneer:
            return None
        lo, hi = price_range(state, seat)
        return (Action.SET_PRICE, lo, hi)
    return None
