"""A full `GameState` consistent with one seat's observation, for search bots.

The hidden parts of a game are the other hands, the order of the stock and the sealed
bids not yet revealed.  `determinize` deals the cards the seat has not seen at random to
the other hands (their sizes are public) and the stock, takes everyone's money from the
public payments, copies the public state of the running auction, and fills in unrevealed
sealed bids with a caller-supplied guess.  The result's `observation(seat)` equals the
observation it was built from, so a search on it never uses what the seat may not know.
"""

from __future__ import annotations

import random
from typing import Callable

from .cards import ROUNDS, AuctionType, Card, deck_cards
from .game import GameState
from .phase import Phase
from .state import NO_BID
from .views import Observation, public_money

#: Guess of a sealed bid already made by `seat` (never above its money): (state, seat) -> amount
SealedGuess = Callable[[GameState, int], int]

_KIND_OF_PHASE = {
    Phase.OPEN: AuctionType.OPEN,
    Phase.ONCE_AROUND: AuctionType.ONCE_AROUND,
    Phase.SEALED: AuctionType.SEALED,
    Phase.FIXED_SET: AuctionType.FIXED_PRICE,
    Phase.FIXED_OFFER: AuctionType.FIXED_PRICE,
}


def unseen_cards(obs: Observation) -> list[Card]:
    """Cards the seat has not seen, in deck order: the deck minus its hand and everything
    shown on the table (sold lots, round-ending cards, the lot under the hammer, turned-up
    mystery cards).  They are in the other hands, the mystery hand or the stock.  When
    every round is dealt afresh, the cards shown in earlier rounds went back into the
    deck: only this round's count as seen."""
    fresh = obs.options.fresh_deal_each_round
    seen = set(obs.hand)
    seen.update(obs.lot)
    seen.update(obs.flipped)
    for sale in obs.sales:
        if not fresh or sale.round == obs.round:
            seen.update(sale.cards)
    if not fresh:
        seen.update(obs.flipped_before)
        for result in obs.results:
            seen.update(result.ending_cards)
    return [c for c in deck_cards(obs.options.deck_table) if c not in seen]


def _first_auctioneer(obs: Observation) -> int:
    """Who started the game, as far as the public record shows."""
    if obs.sales:
        first = obs.sales[0]
        return first.original if first.original >= 0 else first.auctioneer
    if obs.results:
        return obs.results[0].ender
    return obs.original if obs.original >= 0 else obs.auctioneer


def _guess_sealed(rng: random.Random) -> SealedGuess:
    def guess(state: GameState, seat: int) -> int:
        return rng.randint(0, state.money[seat] // 4)

    return guess


def determinize(
    obs: Observation,
    rng: random.Random,
    *,
    unseen: list[Card] | None = None,
    sealed_guess: SealedGuess | None = None,
    own_sealed: int | None = None,
) -> GameState:
    """A random `GameState` that `obs.seat` cannot tell apart from the real one.

    `unseen` may pass `unseen_cards(obs)` when sampling many states from one observation.
    Sealed bids already made by other seats (and by this seat, unless `own_sealed` is
    given) come from `sealed_guess` (default: up to a quarter of the bidder's money).
    """
    if obs.phase == Phase.GAME_OVER:
        raise ValueError("the game is over: there is nothing hidden left to sample")
    n = obs.players
    cards = list(unseen_cards(obs) if unseen is None else unseen)
    rng.shuffle(cards)
    hands, mystery, stock = _deal_unseen(obs, cards)
    state = GameState.blank(n, obs.options)  # deck, options, event log off, move count 0
    state.money = list(public_money(obs))
    state.hands = hands
    state.stock = stock
    state.round = obs.round
    state.counts = list(obs.counts)
    state.tiles = [list(row) for row in obs.tiles]
    state.bought = [list(b) for b in obs.bought]
    state.discard = _out_of_play(obs)
    state.lot = list(obs.lot)
    state.phase = obs.phase
    state.auctioneer = obs.auctioneer
    state.original = obs.original
    state.kind = _running_kind(obs)
    state.turn = obs.turn
    state.high = obs.high
    state.high_seat = obs.high_seat
    state.passed = [s in obs.passed for s in range(n)]
    state.npassed = len(obs.passed)
    state.price = obs.price
    state.bids = list(obs.bids)
    state.auction_no = obs.auction_no
    state.results = list(obs.results)
    state.sales = list(obs.sales)
    state.offenders = list(obs.offenders)
    state.first_auctioneer = _first_auctioneer(obs)
    state.mystery = mystery
    state.flipped = list(obs.flipped)
    state.flipped_before = list(obs.flipped_before)
    state.candidates = list(obs.candidates)
    if obs.phase == Phase.POSTED_OFFER:
        state.responses = list(obs.responses)
        state.nresponses = sum(1 for r in obs.responses if r != NO_BID)
    if obs.options.fresh_deal_each_round:  # the deals still to come: the whole deck in a fresh random order each
        deck = deck_cards(obs.options.deck_table)
        state.reshuffles = [tuple(rng.sample(deck, len(deck))) for _ in range(ROUNDS - 1 - obs.round)]
    # left as `blank` made them: sealed bids (filled in below), deal_log (not public)
    if obs.phase == Phase.SEALED:
        _guess_sealed_bids(state, obs, sealed_guess or _guess_sealed(rng), own_sealed)
    return state


def _deal_unseen(obs: Observation, cards: list[Card]) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """The shuffled unseen `cards` dealt out: (every hand, this seat's own as it is; the
    mystery hand; the stock), each of its public size."""
    hands: list[list[Card]] = []
    at = 0
    for s in range(obs.players):
        if s == obs.seat:
            hands.append(list(obs.hand))
        else:
            size = obs.hand_sizes[s]
            hands.append(cards[at : at + size])
            at += size
    mystery = cards[at : at + obs.mystery_size]
    at += obs.mystery_size
    stock = cards[at:]
    if len(stock) != obs.stock_size:
        raise ValueError(
            f"observation is inconsistent: {len(cards)} unseen cards, {at} in other hands, stock of {obs.stock_size}"
        )
    return hands, mystery, stock


def _out_of_play(obs: Observation) -> list[Card]:
    """The cards out of play until the deck is gathered: sold in earlier rounds, discarded
    unsold this round, the round-ending cards and the mystery cards turned up before."""
    discard: list[Card] = []
    fresh = obs.options.fresh_deal_each_round
    for sale in obs.sales:
        # sold earlier (or discarded unsold this round), unless the deck was gathered since
        if (sale.round < obs.round and not fresh) or (sale.round == obs.round and sale.buyer < 0):
            discard.extend(sale.cards)
    if not fresh:
        discard.extend(obs.flipped_before)
        for result in obs.results:
            discard.extend(result.ending_cards)
    return discard


def _running_kind(obs: Observation) -> int:
    """The running auction's type: as announced (FA-15) or printed, -1 between auctions."""
    if obs.kind >= 0:
        return obs.kind
    if obs.phase in (Phase.FIXED_SET, Phase.POSTED_OFFER, Phase.CHOOSE_BUYER) and obs.lot:
        return int(obs.lot[-1].kind)  # an older peer's observation: the card decides
    return _KIND_OF_PHASE.get(obs.phase, -1)


def _guess_sealed_bids(state: GameState, obs: Observation, guess: SealedGuess, own_sealed: int | None) -> None:
    """The sealed bids already made, which the observation does not show: guessed (this
    seat's own is `own_sealed`, when given)."""
    for s in obs.sealed_done:
        amount = own_sealed if s == obs.seat and own_sealed is not None else guess(state, s)
        if s == obs.auctioneer and obs.options.sealed_excludes_seller:
            amount = 0  # the seller makes no bid (FA-10)
        state.sealed[s] = max(0, min(state.money[s], amount))
    state.nsealed = len(obs.sealed_done)
