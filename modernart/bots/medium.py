"""The medium bot: a fast heuristic that prices every lot from the artists' expected values.

From its observation alone it values each artist (this round's counts, earlier tiles, its
own hand and the cards it has not seen, see `valuation.py`), then:

* puts up the card (or Double and second card) that earns it most relative money: the
  expected sale (`pricing.sale_gain`) plus the change in value of the paintings already
  owned, or ends the round with a fifth card when the exact payout beats continuing;
* bids up to a limit in Open and Once-around auctions, raising in steps; shades sealed
  bids (with `read_rivals`, to a little above what the rivals have been seen to bid,
  `opponents.py`); sets fixed prices and accepts them below its limit; adds a second card to a
  Double when running the auction is worth more than keeping the card.

A decision takes well under a millisecond to a few milliseconds (`python -m benchmarks bots`).
"""

from __future__ import annotations

from ..cards import ANNOUNCED_KINDS, AuctionType, Card
from ..events import Sale
from ..moves import Action, Move
from ..phase import Phase
from ..views import Observation, public_money
from . import pricing
from .base import Bot
from .knowledge import Knowledge
from .opponents import Rivals
from .valuation import artist_values, final_values

DOUBLE = AuctionType.DOUBLE
#: how far above the highest expected rival sealed bid `read_rivals` bids
RIVAL_MARGIN = 1.15
#: seconds of thought before an Open bid: the least, more the nearer the bid is to the limit
#: (times the square of the bid's share of it), and a random spread
OPEN_BID_THINK = (0.4, 0.3, 0.2)


class Situation:
    """One decision's numbers: the knowledge, the artists' values now, and helpers to
    value a position after more cards of one artist are played."""

    __slots__ = ("obs", "k", "values", "_cache")

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.k = Knowledge(obs)
        self._cache: dict[tuple[int, int, int], list[float]] = {}
        self.values = self.after(-1, 0, 0)

    def after(self, artist: int, played: int, from_hand: int) -> list[float]:
        """Artist values once `played` more cards of `artist` are on the table, `from_hand`
        of them out of this seat's hand."""
        key = (artist, played, from_hand)
        v = self._cache.get(key)
        if v is None:
            k = self.k
            counts = k.counts
            if artist >= 0:
                counts = counts[:]
                counts[artist] += played
            v = self._cache[key] = artist_values(
                counts, k.prev, k.supply(artist, from_hand), ends_at_five=self.obs.options.fifth_ends_round
            )
        return v

    def lot_value(self) -> float:
        v = self.values
        return sum(v[c.artist] for c in self.obs.lot)

    def holdings(self, values: list[float] | list[int]) -> float:
        """Relative worth of the paintings owned this round: own minus the others' average."""
        k = self.k
        seat, n = k.seat, k.n
        total = 0.0
        for s in range(n):
            row = k.owned[s]
            worth = sum(values[a] * row[a] for a in range(5))
            total += worth if s == seat else -worth / (n - 1)
        return total

    def ending_gain(self, artist: int, played: int) -> float:
        """Relative money from ending the round now with `played` more cards of `artist`."""
        counts = self.k.counts[:]
        counts[artist] += played
        return self.holdings(final_values(counts, self.k.prev)) - self.holdings(self.values)

    def play_gain(self, artist: int, played: int, from_hand: int, kind: AuctionType, lot_size: int) -> float:
        """Relative money from a lot of `lot_size` paintings of `artist` going under the hammer."""
        k = self.k
        if k.counts[artist] + played >= 5:
            return self.ending_gain(artist, played)
        v = self.after(artist, played, from_hand)
        gain = pricing.sale_gain(lot_size * v[artist], kind, k.n)
        return gain + self.holdings(v) - self.holdings(self.values)

    def double_alone_gain(self, artist: int, played: int) -> float:
        """Relative money from leaving a Double (already on the table, or about to be) to the
        other seats: kept for free if nobody adds, otherwise another seat runs the auction."""
        k = self.k
        if k.counts[artist] + played >= 5:
            return self.ending_gain(artist, played)
        v1 = self.after(artist, played, played)
        q = k.chance_nobody_adds(artist)
        kept = v1[artist] + self.holdings(v1) - self.holdings(self.values)
        if k.counts[artist] + played + 1 >= 5:
            taken = self.ending_gain(artist, played + 1)
        else:
            v2 = self.after(artist, played + 1, played)
            taken = -0.25 * 2 * v2[artist] + self.holdings(v2) - self.holdings(self.values)
        return q * kept + (1.0 - q) * taken

    def best_second(self, artist: int, played: int) -> tuple[float, Card | None]:
        """Best card of `artist` to add to a Double from this hand, and its gain."""
        best: tuple[float, Card | None] = (float("-inf"), None)
        worth = pricing.hand_card_worth(self.k.round)
        seen: set[AuctionType] = set()
        for c in sorted(self.obs.hand):
            if c.artist != artist or c.kind == DOUBLE or c.kind in seen:
                continue
            seen.add(c.kind)
            gain = self.play_gain(artist, played, played, c.kind, 2) - worth
            if gain > best[0]:
                best = (gain, c)
        return best


def best_auction(players: int) -> AuctionType:
    """The auction with the best expected sale for the seller (`pricing.sale_gain`), among
    the four a seller may announce (option seller_chooses_auction)."""
    return max(ANNOUNCED_TYPES, key=lambda kind: pricing.sale_gain(1.0, kind, players))


ANNOUNCED_TYPES = tuple(AuctionType(k) for k in ANNOUNCED_KINDS)


class MediumBot(Bot):
    """Prices lots from expected artist values; see the module docstring."""

    level = "medium"
    #: a bidder's limit as a share of the lot's value; styled bots (`styled.py`) change these
    bid_share = pricing.BIDDER_LIMIT
    #: a sealed bid as a share of the bidder's limit
    sealed_shade = pricing.SEALED_SHADE
    #: the auctioneer's sealed bid as a share of the lot's value
    auctioneer_sealed = pricing.AUCTIONEER_SEALED
    #: the announced fixed price as a share of the lot's value
    fixed_share = pricing.FIXED_SHARE

    def __init__(
        self,
        seed: int | None = None,
        read_rivals: bool = False,
        jumps: bool = True,
        opening: float | None = None,
        close_steps: int | None = None,
        bound: float | None = 1.1,
        jump: float | None = None,
    ) -> None:
        super().__init__(seed)
        #: Open auctions: jump at most to `bound` times the highest limit the rivals are
        #: expected to have (`_open_target`; None or 0: towards the own limit), and `jump` of
        #: the way each time (None: `pricing.OPEN_JUMP`), for the arena's experiments
        self.bound = bound
        self.jump = pricing.OPEN_JUMP if jump is None else jump
        self._limit = 0  # the limit behind the last bid or pass, for `pace`
        #: Open auctions: jump towards the limit (`pricing.open_raise`); off: the old manners,
        #: raising by one step at a time (for the arena's before/after comparison)
        self.jumps = jumps
        #: the opening bid's share of the limit with jumps (None: `pricing.OPEN_OPENING`; an
        #: arena experiment's option, `medium:opening=0.4`)
        self.opening = pricing.OPEN_OPENING if opening is None else opening
        self.close_steps = pricing.OPEN_CLOSE_STEPS if close_steps is None else close_steps
        #: shade Sealed bids to what the rivals have been seen to bid (`opponents.py`)
        self.read_rivals = read_rivals
        self._rivals_key: tuple[int, ...] = ()
        self._rivals: Rivals | None = None
        self._rivals_last: Sale | None = None  # the last sale read (a new game has other sales)

    def _rivals_of(self, obs: Observation) -> Rivals:
        """The rivals' factors (`opponents.py`), read again only after a sale."""
        key = (obs.players, obs.seat, len(obs.sales))
        last = obs.sales[-1] if obs.sales else None
        if key != self._rivals_key or self._rivals is None or last != self._rivals_last:
            self._rivals = Rivals.read(obs)
            self._rivals_key, self._rivals_last = key, last
        return self._rivals

    def choose(self, obs: Observation) -> Move | None:
        if obs.seat not in obs.to_move:
            return None
        phase = obs.phase
        if phase == Phase.PLAY_CARD:
            return self._play(obs)
        if phase == Phase.DOUBLE_OFFER:
            return self._double_offer(obs)
        if phase == Phase.OPEN:
            return self._open(obs)
        if phase == Phase.ONCE_AROUND:
            return self._once_around(obs)
        if phase == Phase.SEALED:
            return self._sealed(obs)
        if phase == Phase.FIXED_SET:
            return self._fixed_set(obs)
        if phase == Phase.FIXED_OFFER or phase == Phase.POSTED_OFFER:
            return self._fixed_offer(obs)
        if phase == Phase.CHOOSE_BUYER:
            return self._choose_buyer(obs)
        if phase == Phase.MYSTERY_FLIP:
            return self._mystery(obs)
        if phase == Phase.ANNOUNCE:
            return self._announce(obs)
        return None

    # ------------------------------------------------------------------ putting cards up

    def _play(self, obs: Observation) -> Move:
        sit = Situation(obs)
        best_gain, best_card = float("-inf"), None
        seen: set[tuple[int, int]] = set()
        for card in sorted(obs.hand):
            key = (card.artist, card.kind)
            if key in seen:
                continue
            seen.add(key)
            if obs.options.seller_chooses_auction:  # sold alone, in the auction this seat announces
                gain = sit.play_gain(card.artist, 1, 1, best_auction(sit.k.n), 1)
            elif card.kind == DOUBLE:
                gain = (
                    max(sit.best_second(card.artist, 1)[0], sit.double_alone_gain(card.artist, 1))
                    if sit.k.counts[card.artist] + 1 < 5
                    else sit.ending_gain(card.artist, 1)
                )
            else:
                gain = sit.play_gain(card.artist, 1, 1, card.kind, 1)
            gain += self.rng.random() * 0.5  # break near-ties without a fixed preference
            if gain > best_gain:
                best_gain, best_card = gain, card
        assert best_card is not None
        return Move.play(obs.seat, best_card)

    def _double_offer(self, obs: Observation) -> Move:
        sit = Situation(obs)
        artist = obs.lot[0].artist
        gain, card = sit.best_second(artist, 0)
        if obs.seat == obs.original:
            stay = sit.double_alone_gain(artist, 0)
        else:
            stay = -0.3 * sit.values[artist]  # another seat profits from it
        if card is not None and gain > stay:
            return Move.add_second(obs.seat, card)
        return Move.decline_second(obs.seat)

    # ------------------------------------------------------------------ auctions

    def _limit_for(self, obs: Observation, sit: Situation) -> int:
        value = sit.lot_value()
        if obs.seat == obs.auctioneer:
            limit = self._auctioneer_limit(obs, value)
        else:
            limit = self.bid_share * value * self._taste(obs)
        self._limit = min(obs.money, int(limit))
        return self._limit

    def _auctioneer_limit(self, obs: Observation, value: float) -> float:
        """Most this seat pays the bank for its own lot."""
        return pricing.auctioneer_limit(value, obs.players)

    def _taste(self, obs: Observation) -> float:
        """A factor on this seat's limits for the lot under the hammer (1: none)."""
        return 1.0

    def _open(self, obs: Observation) -> Move | None:
        seat = obs.seat
        if seat == obs.auctioneer and not obs.options.open_autoclose and self._all_passed(obs):
            return Move.hammer(seat)  # only the hammer closes it (open_autoclose off): sold
        if seat == obs.high_seat:
            return None  # the auctioneer holding the high bid waits (never hammers its own lot)
        sit = Situation(obs)
        limit = self._limit_for(obs, sit)
        target = self._open_target(obs, sit.lot_value()) if self.jumps and self.bound else None
        amount = pricing.open_raise(obs.high, limit, self.jumps, self.opening, self.close_steps, target, self.jump)
        if amount and obs.amount_range() is not None:  # not out of it (open_pass_is_final)
            return Move.bid(seat, amount)
        if seat not in obs.passed:
            return Move.pass_(seat)
        return None

    def _open_target(self, obs: Observation, value: float) -> int:
        """How far to jump in an Open auction: a little above the highest limit the rivals
        are expected to have (each at its factor times a medium bot's, at most its money)."""
        rivals = self._rivals_of(obs)
        artist = obs.lot[0].artist
        money = public_money(obs)
        top = 0.0
        for s in range(obs.players):
            if s == obs.seat:
                continue
            if s == obs.auctioneer:
                share = pricing.auctioneer_limit(1.0, obs.players) * rivals.keep[s]
            else:
                share = pricing.BIDDER_LIMIT * rivals.artist_bid[s][artist]
            top = max(top, min(float(money[s]), value * share))
        assert self.bound is not None
        return round(top * self.bound) + 1

    @staticmethod
    def _all_passed(obs: Observation) -> bool:
        """Everyone but the high bidder (everyone, with no bid yet) passed since the last bid."""
        return all(s in obs.passed or s == obs.high_seat for s in range(obs.players))

    def _once_around(self, obs: Observation) -> Move:
        seat = obs.seat
        limit = self._limit_for(obs, Situation(obs))
        if limit <= obs.high:
            return Move.pass_(seat)
        if seat == obs.auctioneer:
            return Move.bid(seat, obs.high + 1)
        return Move.bid(seat, max(obs.high + 1, min(limit, round(limit * pricing.ONCE_SHADE))))

    def _sealed(self, obs: Observation) -> Move:
        sit = Situation(obs)
        value = sit.lot_value()
        if obs.seat == obs.auctioneer:
            amount = round(value * self.auctioneer_sealed)
        else:
            amount = round(self.bid_share * value * self._taste(obs) * self.sealed_shade)
            if self.read_rivals:
                amount = min(amount, self._above_rivals(obs, value))
        self._limit = amount
        return Move.sealed_bid(obs.seat, max(0, min(obs.money, amount)))

    def _above_rivals(self, obs: Observation, value: float) -> int:
        """A sealed bid a little above the highest the rivals are expected to bid, each at
        its factor times what a medium bot would bid (with a margin for their noise)."""
        rivals = self._rivals_of(obs)
        artist = obs.lot[0].artist
        top = 0.0
        for s in range(obs.players):
            if s == obs.seat:
                continue
            if s == obs.auctioneer:
                share = pricing.AUCTIONEER_SEALED * rivals.keep[s]
            else:
                share = pricing.BIDDER_LIMIT * pricing.SEALED_SHADE * rivals.artist_bid[s][artist]
            top = max(top, value * share)
        return round(top * RIVAL_MARGIN) + 1

    def _announce(self, obs: Observation) -> Move:
        """The auction that earns the seller most (option seller_chooses_auction)."""
        return Move.announce(obs.seat, best_auction(obs.players))

    def _fixed_set(self, obs: Observation) -> Move:
        value = Situation(obs).lot_value()
        r = obs.amount_range()
        cap = r[2] if r is not None else obs.money  # the seller's money, or the richest other's (FA-11/12)
        return Move.set_price(obs.seat, pricing.fixed_price(value, cap, self.fixed_share))

    def _fixed_offer(self, obs: Observation) -> Move:
        limit = self._limit_for(obs, Situation(obs))
        if obs.price <= limit:
            return Move.accept(obs.seat)
        return Move.decline(obs.seat)

    def _choose_buyer(self, obs: Observation) -> Move:
        """Every candidate pays the same: keep the lot if this seat bid for it, else sell to
        the candidate with the least money (the one it helps least to be helped)."""
        if obs.seat in obs.candidates:
            return Move.choose_buyer(obs.seat, obs.seat)
        money = public_money(obs)
        return Move.choose_buyer(obs.seat, min(obs.candidates, key=lambda s: (money[s], s)))

    def _mystery(self, obs: Observation) -> Move:
        """Turn a card up (which hurries the round on) when this seat owns at least as many
        paintings this round as anyone: the sooner the round ends, the safer its lead."""
        mine = len(obs.bought[obs.seat])
        if mine and mine >= max(len(b) for b in obs.bought):
            return Move.flip_mystery(obs.seat)
        return Move.keep_mystery(obs.seat)

    # ------------------------------------------------------------------ manners

    def pace(self, obs: Observation, move: Move) -> float:
        """Think time: quick to open, slower near its limit, slowest to put up a card.  In an
        Open auction a bid takes 0.4-1.3 s and a pass 0.6-1.1 s, so that a table of bots,
        jumping towards their limits, settles one in a few seconds (`tempo.py`); with
        `jumps` off the old pace (bids 0.7-2.9 s, passes 1.2-2 s)."""
        r = self.rng.random()
        action = move.action
        if action == Action.BID and obs.phase == Phase.OPEN:
            closeness = move.arg / self._limit if self._limit > 0 else 1.0
            if self.jumps:
                least, near, spread = OPEN_BID_THINK
                return least + near * closeness * closeness + spread * r
            return 0.7 + 1.6 * closeness * closeness + 0.6 * r
        if obs.phase == Phase.OPEN:
            return 0.6 + 0.5 * r if self.jumps else 1.2 + 0.8 * r
        if obs.phase == Phase.PLAY_CARD:
            return 1.5 + 2.0 * r
        if obs.phase == Phase.SEALED:
            return 1.5 + 2.5 * r
        return 0.8 + 1.2 * r
