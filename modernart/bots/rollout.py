"""Fast medium-like play on a full `GameState`, for the rollouts of the search bot.

The state a rollout runs on is a determinization (see `modernart/determinize.py`): the
searching seat's own knowledge plus sampled hands, so reading its hands is fair.  Every
seat plays by the medium bot's pricing rules with values from `valuation.artist_values`
(recomputed once per card played), with a little noise on each limit to stand for the
different views of different players.  An Open auction is settled in one go: the seat
with the highest limit bids just above the second-highest limit and the others pass,
which is where the medium bot's stepwise raising ends up.  With `rivals` (read from the
observation by `opponents.py`) each seat's limits, sealed bids and fixed prices are scaled
by its own factors (as a bidder, per artist; as the auctioneer of its own lot, its keep
factor), so rivals play as they have been seen to play.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from ..cards import AuctionType
from ..auctions import price_range
from ..game import GameState
from ..moves import ACCEPT, ADD_SECOND, BID, DECLINE, DECLINE_SECOND, HAMMER, PASS, PLAY, SEALED_BID, SET_PRICE
from ..phase import Phase
from ..state import NO_BID
from . import pricing, searchers
from .opponents import Rivals
from .valuation import artist_values, final_values

_PLAY, _DOUBLE_OFFER, _OPEN, _ONCE, _SEALED, _FSET, _FOFFER, _OVER = (
    Phase.PLAY_CARD,
    Phase.DOUBLE_OFFER,
    Phase.OPEN,
    Phase.ONCE_AROUND,
    Phase.SEALED,
    Phase.FIXED_SET,
    Phase.FIXED_OFFER,
    Phase.GAME_OVER,
)
_POFFER = Phase.POSTED_OFFER
_DOUBLE = AuctionType.DOUBLE
# the actions as the plain ints of moves.py: the moves go to `GameState.apply_trusted`
_BID, _PASS, _ADD, _DECLINE2, _PLAYC = BID, PASS, ADD_SECOND, DECLINE_SECOND, PLAY
_SBID, _PRICE, _ACCEPT, _DECLINE, _HAMMER = SEALED_BID, SET_PRICE, ACCEPT, DECLINE, HAMMER
_TAU = {k: pricing.EXPECTED_PRICE[k] for k in AuctionType}
_BL, _SS, _OS, _AS = pricing.BIDDER_LIMIT, pricing.SEALED_SHADE, pricing.ONCE_SHADE, pricing.AUCTIONEER_SEALED


class RolloutPolicy:
    """Plays every seat of a state quickly.  `limits` fixes one seat's limit in one
    auction: {(seat, auction_no): limit}, which is how the search tries out limits.
    `rivals` scales each seat's bidding by its factors (None: everyone bids like medium)."""

    __slots__ = (
        "rng",
        "noise",
        "limits",
        "cache",
        "bias",
        "price_bias",
        "keep_bias",
        "_values",
        "_key",
        "_prev",
        "_prev_round",
        "searching",
    )

    def __init__(
        self,
        rng: random.Random,
        noise: float = 0.15,
        limits: dict[tuple[int, int], int] | None = None,
        cache: dict[tuple[Any, ...], list[float]] | None = None,
        rivals: Rivals | None = None,
        searching: frozenset[int] = frozenset(),
    ) -> None:
        self.rng = rng
        #: seats that search (other hard bots): played by `searchers.py`'s fitted policy,
        #: not by their factors (which read the same habit a second time)
        self.searching = searching
        self.noise = noise
        self.limits = limits or {}
        #: artist values by (counts, supply, earlier tiles): rollouts of one search share it
        self.cache = {} if cache is None else cache
        #: per seat and artist: factor on the seat's limits as a bidder; per seat: factor on
        #: its Fixed prices, and on its limit and sealed bid as the auctioneer of its own lot
        self.bias = rivals.artist_bid if rivals is not None else None
        self.price_bias = rivals.price if rivals is not None else None
        self.keep_bias = rivals.keep if rivals is not None else None
        self._values: list[float] = []
        self._key = -1
        self._prev: list[int] = [0] * 5
        self._prev_round = -1

    # ------------------------------------------------------------------ values

    def values(self, state: GameState) -> list[float]:
        key = state.round * 100 + sum(state.counts)
        if key != self._key:
            if state.round != self._prev_round:
                prev = [0] * 5
                for row in state.tiles if state.options.cumulative_values else ():
                    for a in range(5):
                        prev[a] += row[a]
                self._prev, self._prev_round = prev, state.round
            supply = [0] * 5
            for hand in state.hands:
                for c in hand:
                    supply[c.artist] += 1
            counts = state.counts
            full = (*counts, *supply, *self._prev)
            values = self.cache.get(full)
            if values is None:
                values = self.cache[full] = artist_values(
                    counts, self._prev, supply, quick=True, ends_at_five=state.options.fifth_ends_round
                )
            self._values = values
            self._key = key
        return self._values

    def lot_value(self, state: GameState) -> float:
        v = self.values(state)
        return sum(v[c.artist] for c in state.lot)

    def limit(self, state: GameState, seat: int, value: float, fitted: bool = True) -> int:
        """The seat's limit for the lot: medium's share of `value` with noise, scaled by the
        seat's habit (`fitted=False`: a searching seat without its fitted ratios)."""
        fixed = self.limits.get((seat, state.auction_no))
        if fixed is not None:
            return fixed
        limit = 1.0 + self.noise * (2.0 * self.rng.random() - 1.0)
        searching = fitted and seat in self.searching
        if seat == state.auctioneer:
            limit *= pricing.auctioneer_limit(value, state.n)
            if searching:
                limit *= searchers.draw(searchers.KEEP, self.rng)
            elif self.keep_bias is not None:
                limit *= self.keep_bias[seat]
        else:
            limit *= _BL * value
            if searching:
                limit *= searchers.draw(searchers.BID, self.rng)
            elif self.bias is not None:
                limit *= self.bias[seat][state.lot[0].artist]
        return min(state.money[seat], int(limit))

    # ------------------------------------------------------------------ playing

    def run(
        self,
        state: GameState,
        until_round: int | None = None,
        deadline: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> bool:
        """Play until the round `until_round` is scored (None: until the game ends).

        With a `deadline` (a value of `clock`, by default `time.perf_counter`) the clock
        is read every few moves and the rollout gives up once it has passed: returns
        False, state unfinished.
        """
        stop = 99 if until_round is None else until_round
        step = self.step
        if deadline is None:
            while state.phase != _OVER and state.round <= stop:
                step(state)
            return True
        tick = 0
        while state.phase != _OVER and state.round <= stop:
            step(state)
            tick += 1
            if not tick & 7 and clock() > deadline:
                return False
        return True

    def step(self, state: GameState) -> None:
        """Make the next move (in an Open auction: all the moves that settle it)."""
        phase = state.phase
        apply = state.apply_trusted
        if phase == _PLAY:
            apply(state.auctioneer, _PLAYC, self.pick_card(state, state.auctioneer))
        elif phase == _DOUBLE_OFFER:
            seat = state.turn
            double = state.lot[0]
            for c in state.hands[seat]:
                if c.artist == double.artist and c.kind != _DOUBLE:
                    apply(seat, _ADD, c)
                    return
            apply(seat, _DECLINE2)
        elif phase == _OPEN:
            self.settle_open(state)
        elif phase == _ONCE:
            seat = state.turn
            limit = self.limit(state, seat, self.lot_value(state))
            high = state.high
            if limit <= high:
                apply(seat, _PASS)
            elif seat == state.auctioneer:
                apply(seat, _BID, high + 1)
            else:
                apply(seat, _BID, max(high + 1, min(limit, int(limit * _OS))))
        elif phase == _SEALED:
            self.seal_all(state)
        elif phase == _FSET:
            self.set_price(state)
        elif phase == _FOFFER or phase == _POFFER:  # a posted price is taken like a fixed one
            seat = state.turn if phase == _FOFFER else state.to_move()[0]
            # a searching seat is not played by its fitted ratios here: they were fitted on
            # its bids, and it accepts like medium (declining an asked price makes the
            # auctioneer pay the bank, which a searching rival weighs)
            limit = self.limit(state, seat, self.lot_value(state), fitted=False)
            ok = state.price <= state.money[seat] and state.price <= limit
            apply(seat, _ACCEPT if ok else _DECLINE)
        elif phase != _OVER:  # the variants' other steps (the seller's choice, the mystery hand)
            seat = state.to_move()[0]
            state.apply(state.legal_moves(seat, amounts=False)[0])

    def seal_all(self, state: GameState) -> None:
        """Every seat's sealed bid: the auctioneer's to keep its lot, the others' shaded limits."""
        apply = state.apply_trusted
        value = self.lot_value(state)
        sealed = state.sealed
        auctioneer = state.auctioneer
        for seat in range(state.n):
            if sealed[seat] == NO_BID:
                fixed = self.limits.get((seat, state.auction_no))
                if fixed is not None:
                    amount = fixed
                elif seat == auctioneer:
                    amount = int(value * _AS * (1.0 + self.noise * (2.0 * self.rng.random() - 1.0)))
                    if seat in self.searching:
                        amount = int(amount * searchers.draw(searchers.KEEP, self.rng))
                    elif self.keep_bias is not None:
                        amount = int(amount * self.keep_bias[seat])
                else:
                    amount = int(self.limit(state, seat, value) * _SS)
                apply(seat, _SBID, max(0, min(state.money[seat], amount)))

    def set_price(self, state: GameState) -> None:
        """The Fixed price the auctioneer asks."""
        apply = state.apply_trusted
        seat = state.auctioneer
        fixed = self.limits.get((seat, state.auction_no))
        if fixed is not None:
            price = fixed
        else:
            value = self.lot_value(state) * (1.0 + self.noise * (2.0 * self.rng.random() - 1.0))
            if seat in self.searching:
                value *= searchers.draw(searchers.PRICE, self.rng)
            elif self.price_bias is not None:
                value *= self.price_bias[seat]
            price = pricing.fixed_price(value, price_range(state, seat)[1])
        apply(seat, _PRICE, price)

    def settle_open(self, state: GameState) -> None:
        value = self.lot_value(state)
        n = state.n
        high, high_seat = state.high, state.high_seat
        final = state.options.open_pass_is_final
        passed = state.passed
        limits = [
            high if s == high_seat else -1 if final and passed[s] else self.limit(state, s, value) for s in range(n)
        ]
        order = sorted(range(n), key=limits.__getitem__, reverse=True)
        winner, second = order[0], limits[order[1]]
        apply = state.apply_trusted
        if winner != high_seat and limits[winner] > high:
            apply(winner, _BID, min(limits[winner], max(high + 1, second + 1)))
        auction = state.auction_no
        passed = state.passed  # the bid above may have cleared the passes
        for s in range(n):
            if state.phase != _OPEN or state.auction_no != auction:
                return
            if s != state.high_seat and not passed[s]:
                apply(s, _PASS)
        if state.phase == _OPEN and state.auction_no == auction:
            apply(state.auctioneer, _HAMMER)

    def pick_card(self, state: GameState, seat: int) -> int:
        """The card a medium-like player puts up: the best expected sale, or a fifth card
        that ends the round in its favour."""
        v = self.values(state)
        n = state.n
        hand = state.hands[seat]
        counts = state.counts
        owned = state.bought
        rand = self.rng.random
        best, best_card = -1e9, hand[0]
        keep = pricing.hand_card_worth(state.round)
        for c in hand:
            a = c.artist
            if counts[a] + 1 >= 5:
                score = self._ending_gain(state, seat, a, v)
            elif c.kind == _DOUBLE:
                if any(o.artist == a and o.kind != _DOUBLE for o in hand):
                    score = 2.0 * 0.7 * v[a] - keep
                else:
                    score = 0.3 * v[a]
            else:
                mine = sum(1 for o in owned[seat] if o.artist == a)
                score = _TAU[c.kind] * v[a] + 0.15 * v[a] * mine * (n - 1) / n
            score += rand() * 2.0
            if score > best:
                best, best_card = score, c
        return best_card

    def _ending_gain(self, state: GameState, seat: int, artist: int, v: list[float]) -> float:
        counts = state.counts[:]
        counts[artist] += 1
        final = final_values(counts, self._prev)
        n = state.n
        gain = 0.0
        for s in range(n):
            delta = sum(final[c.artist] - v[c.artist] for c in state.bought[s])
            gain += delta if s == seat else -delta / (n - 1)
        return gain
