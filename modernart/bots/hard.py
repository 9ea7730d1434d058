"""The hard bot: determinized Monte Carlo search, 12 samples a decision (within a budget).

For each decision it lists a handful of candidate moves (the cards worth putting up, a
spread of bids, prices or limits around the medium bot's choice, which always comes
first), then for each of its samples (`DEFAULT_PASSES`, within `DEFAULT_BUDGET` seconds of
the deciding thread's CPU time, or until a budget runs out): samples a full game consistent with its
observation (`modernart.determinize`), plays every candidate on a copy of that sample
and rolls the game out to the end of the round with fast medium-like play
(`rollout.py`), scoring its money against the others'.  The rollouts play each rival as
it has been seen to bid in this game (`opponents.py`: factors on its limits, sealed bids
and prices, read from the public sales of the observation), and each other seat known to
search (another hard bot) by the policy fitted to hard's own decisions (`searchers.py`).  All candidates see the same
samples and the same rollout dice, so their differences are measured, not drowned in
the luck of the deal; candidates clearly behind the leader are dropped as it goes (at
passes 6, 9, 13, 19, ...).
In an Open auction it searches once for its limit, then bids towards it (`pricing.open_raise`).

The clock is read every few moves of every rollout; a rollout still running at the
deadline (the budget less a safety margin) is dropped with its whole pass.  The search
knows nothing the observation does not show: every sample is drawn from it.
"""

from __future__ import annotations

import gc
import math
import random
import time
from typing import Any, Callable, Iterable, NamedTuple

from ..determinize import determinize, unseen_cards
from ..game import GameState
from ..moves import Move
from ..phase import Phase
from ..views import Observation
from . import pricing
from .medium import DOUBLE, MediumBot, Situation
from .opponents import Rivals
from .rollout import RolloutPolicy
from .searchers import AMOUNT_PHASES, BID, KEEP, PRICE

#: the one hard bot, at a table and in the arena: this many samples a decision, within at
#: most `DEFAULT_BUDGET` seconds of the deciding thread's CPU time.  Samples, not seconds:
#: the same search on an idle machine and a loaded one (a table's bot used to search 1 s of
#: wall clock, 2,000 rollouts idle and 100 under load).  12 samples cost 20 ms of CPU a
#: decision at the p95 and 59 ms at the most seen (docs/bots.md), which is what lets the
#: arena measure this very bot over hundreds of deals.
DEFAULT_PASSES = 12
DEFAULT_BUDGET = 1.0
DEFAULT_CLOCK = "cpu"
#: worth of a card kept in hand at the end of a rounds 1-3 rollout: a later auction of
#: one's own, worth more for an artist with tiles on the board (tuned in the arena)
HAND_BASE = 8.0
HAND_TILES = 0.3
#: samples a search needs before it may leave the medium bot's move
MIN_PASSES = 3
#: an auctioneer that sold this share of its Open auctions at their first bid (shrunk: one
#: such sale of three is 0.2) gets the least opening bid: it may hammer at once
EARLY_SHARE = 0.15
#: the clocks a budget can be counted on: the wall clock (what a table waits), or the CPU
#: time of the deciding thread (what an idle machine would give, whatever else runs)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


class Candidate(NamedTuple):
    move: Move | None  # applied to the sampled state first (None: nothing yet)
    limit: int | None  # this seat's limit in the running auction, for the rollout


class HardBot(MediumBot):
    """Search bot; `budget` is the most seconds one decision may take.

    `max_passes` caps the samples per decision (each pass rolls out every candidate on
    one sample); with a cap and a budget that is never reached, decisions depend on the
    seed and the observation only, which the tests use.  `max_candidates` caps the cards
    considered for putting up.  `horizon="game"` rolls out to the end of the game instead
    of the round (weaker at 0.05 s: 15% against 37% over 192 games, too few samples).
    `confidence` is how many standard errors a candidate must beat the medium move by, plus
    `evidence` / sqrt(samples): with few samples the best-looking candidate is mostly luck
    (at least `MIN_PASSES` samples are needed at all).
    `rivals=False` rolls every rival out as a medium bot (no opponent model).
    `clock="cpu"` (the default) counts the budget in CPU time of the deciding thread, the
    search an idle machine would give whatever else the machine runs; `clock="wall"` in
    wall time; a function returning seconds (a test's clock) counts it on that.  The
    defaults are the one hard bot of a table and of the arena: 12 samples, within 1 s of
    CPU time.
    `searching`: the other seats known to search (hard bots: a table's lobby and the
    arena's seating say which); with `searchers=True` the rollouts play them by the policy
    fitted to the hard bot's own decisions (`searchers.py`) instead of as scaled medium
    bots.  `jumps=False` raises by one step at a time in Open auctions (the old manners).
    `outbid_searchers=False` (the default): facing another searching seat as a bidder, try
    no bid above medium's limit share of the lot's value: two searchers that outbid each
    other above it pay the auctioneer (issue 28's pair of hard bots against two heuristic
    bots: -42 a deal against a pair of medium bots with it on, -12 with it off on 59 deals).
    `keep_cap` (the default): as the auctioneer, try no limit or bid above the break-even of
    keeping one's own lot (`pricing.auctioneer_limit`, nL/(2n-1) of its value): a higher one
    can push a rival's price up, but where the rival stops first the lot is kept and its price
    goes to the bank (issue 28's cause; `keep_cap=False` is the bot before).
    """

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget: float = DEFAULT_BUDGET,
        max_candidates: int = 7,
        max_passes: int | None = DEFAULT_PASSES,
        horizon: str = "round",
        confidence: float = 1.0,
        evidence: float = 2.0,
        rivals: bool = True,
        clock: str | Callable[[], float] = DEFAULT_CLOCK,
        searching: Iterable[int] = (),
        searchers: bool = True,
        jumps: bool = True,
        outbid_searchers: bool = False,
        keep_cap: bool = True,
    ) -> None:
        super().__init__(seed, jumps=jumps)
        if not budget > 0:
            raise ValueError("budget must be positive")
        self.budget = float(budget)
        self.max_candidates = max_candidates
        self.max_passes = max_passes
        if horizon not in ("round", "game"):
            raise ValueError("horizon is 'round' or 'game'")
        self.horizon = horizon
        self.confidence = confidence
        self.evidence = evidence
        self.model_rivals = rivals
        if callable(clock):
            self.clock_name, self._clock = "injected", clock
        elif clock in CLOCKS:
            self.clock_name, self._clock = clock, CLOCKS[clock]
        else:
            raise ValueError(f"clock is one of {', '.join(CLOCKS)}")
        self.searching = frozenset(searching)
        self.model_searchers = searchers
        self.outbid_searchers = outbid_searchers
        self.keep_cap = keep_cap
        self._open_limits: dict[int, int] = {}  # auction number -> limit found by the search
        self._thought = 0.0  # seconds the last decision took
        self._values_cache: dict[tuple[Any, ...], list[float]] = {}  # artist values, shared by one search's rollouts
        self.last_rollouts = 0  # rollouts of the last search
        self.last_search_seconds = 0.0  # how long the last search took (wall clock)
        self.last_search_cpu = 0.0  # and how much CPU time it used
        #: (role, medium's amount, the amount chosen) of the last searched amount decision
        self.last_choice: tuple[str, float, float] | None = None

    def choose(self, obs: Observation) -> Move | None:
        start, counted = time.perf_counter(), self._clock()
        # a collection during the decision would be paid from its budget: the garbage of a
        # whole process (a host's, a test run's) can take longer than the budget itself
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._choose(obs, counted + self.budget - min(0.02, 0.1 * self.budget))
        finally:
            if gc_was_enabled:
                gc.enable()
            self._thought = time.perf_counter() - start

    def _choose(self, obs: Observation, deadline: float) -> Move | None:
        if obs.seat not in obs.to_move:
            return None
        if obs.phase == Phase.OPEN:
            return self._open_move(obs, deadline)
        fallback = super().choose(obs)
        sit = Situation(obs)
        cands = self._candidates(obs, sit, fallback)
        if len(cands) <= 1:
            return fallback
        best = self._search(obs, sit, cands, deadline)
        self._note_choice(obs, fallback, cands[best].move)
        return cands[best].move

    def _bid_cap(self, obs: Observation, value: float) -> float:
        """The most a candidate bid may be: as the auctioneer (with `keep_cap`), the break-even
        of keeping its own lot; with `outbid_searchers` off, a bidder facing
        another searching seat tries nothing above medium's limit share of the lot's value
        (a bidding war between searchers pays the auctioneer); otherwise no cap."""
        if obs.seat == obs.auctioneer:
            return pricing.auctioneer_limit(value, obs.players) if self.keep_cap else math.inf
        if self.outbid_searchers or not self.searching - {obs.seat}:
            return math.inf
        return pricing.BIDDER_LIMIT * value

    def _note_choice(self, obs: Observation, medium: Move | None, chosen: Move | None) -> None:
        """Keep (role, medium's amount, the amount chosen) of an amount decision, for
        `searcher_fit.fit` (the policy the rollouts play a searching rival by)."""
        if medium is None or chosen is None or not medium.arg or obs.phase not in AMOUNT_PHASES:
            return
        if obs.phase == Phase.FIXED_SET:
            role = PRICE
        else:
            role = KEEP if obs.seat == obs.auctioneer else BID
        amount = chosen.arg if chosen.action == medium.action else 0
        self.last_choice = (role, float(medium.arg), float(amount))

    def pace(self, obs: Observation, move: Move) -> float:
        """The medium bot's think time, less the time the search has already taken."""
        return max(0.5, super().pace(obs, move) - self._thought)

    # ------------------------------------------------------------------ candidates

    def _candidates(self, obs: Observation, sit: Situation, fallback: Move | None) -> list[Candidate]:
        """The moves the search compares: the medium bot's first, then the step's own
        spread (cards to put up, answers to a Double, bids, sealed bids, prices...)."""
        moves: list[Move] = [fallback] if fallback is not None else []
        moves += self._step_moves(obs, sit)
        unique: list[Candidate] = []
        for m in moves:
            if all(c.move != m for c in unique):
                unique.append(Candidate(m, None))
        return unique

    def _step_moves(self, obs: Observation, sit: Situation) -> list[Move]:
        """The candidate moves of the step, besides the medium bot's."""
        seat, phase, money = obs.seat, obs.phase, obs.money
        if phase == Phase.PLAY_CARD:
            return self._cards_to_put_up(obs, sit)
        if phase == Phase.DOUBLE_OFFER:
            return self._double_answers(obs)
        if phase == Phase.ONCE_AROUND or phase == Phase.SEALED:
            return self._bid_spread(obs, sit.lot_value())
        if phase == Phase.FIXED_SET:
            value = sit.lot_value()
            r = obs.amount_range()
            cap = r[2] if r is not None else money  # own money, or the richest other's (FA-11/12)
            # with `keep_cap`, no price above what a rival is expected to pay at most (the
            # bidder's limit share): nobody takes it and the auctioneer pays it to the bank
            top = pricing.BIDDER_LIMIT if self.keep_cap else math.inf
            return [
                Move.set_price(seat, pricing.fixed_price(f / pricing.FIXED_SHARE * value, cap))
                for f in (0.3, 0.45, 0.6, 0.75, 0.9, 1.1)
                if f <= top
            ]
        if phase == Phase.ANNOUNCE:  # every auction the seller may announce (FA-15)
            return obs.legal_moves()
        if phase == Phase.FIXED_OFFER:
            return [Move.accept(seat), Move.decline(seat)] if obs.price <= money else [Move.decline(seat)]
        return []

    def _cards_to_put_up(self, obs: Observation, sit: Situation) -> list[Move]:
        """The best-scoring cards to put up (one of each artist and type), best first."""
        ranked: list[tuple[float, Move]] = []
        seen: set[tuple[int, int]] = set()
        for card in sorted(obs.hand):
            if (card.artist, card.kind) in seen:
                continue
            seen.add((card.artist, card.kind))
            if card.kind == DOUBLE:
                gain = (
                    max(sit.best_second(card.artist, 1)[0], sit.double_alone_gain(card.artist, 1))
                    if sit.k.counts[card.artist] + 1 < 5
                    else sit.ending_gain(card.artist, 1)
                )
            else:
                gain = sit.play_gain(card.artist, 1, 1, card.kind, 1)
            ranked.append((gain, Move.play(obs.seat, card)))
        ranked.sort(key=lambda g: -g[0])
        return [m for _, m in ranked[: self.max_candidates]]

    @staticmethod
    def _double_answers(obs: Observation) -> list[Move]:
        """Every way to answer a Double: each type of second card of its artist, or none."""
        moves: list[Move] = []
        kinds = set()
        for card in sorted(obs.hand):
            if card.artist == obs.lot[0].artist and card.kind != DOUBLE and card.kind not in kinds:
                kinds.add(card.kind)
                moves.append(Move.add_second(obs.seat, card))
        moves.append(Move.decline_second(obs.seat))
        return moves

    def _bid_spread(self, obs: Observation, value: float) -> list[Move]:
        """Once-around: pass, the least raise and bids around the lot's value; Sealed: bids
        from nothing to nearly the value (none above `_bid_cap`)."""
        seat, money = obs.seat, obs.money
        cap = self._bid_cap(obs, value)
        if obs.phase == Phase.SEALED:
            return [
                Move.sealed_bid(seat, min(money, round(f * value)))
                for f in (0.0, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95)
                if f * value <= cap
            ]
        moves = [Move.pass_(seat)]
        for amount in [obs.high + 1] + [round(f * value) for f in (0.4, 0.55, 0.7, 0.85, 1.0)]:
            if obs.high < amount <= money and amount <= cap:
                moves.append(Move.bid(seat, amount))
        return moves

    def _open_move(self, obs: Observation, deadline: float) -> Move | None:
        seat = obs.seat
        if seat == obs.high_seat:
            return None
        limit = self._open_limits.get(obs.auction_no)
        if limit is None:
            sit = Situation(obs)
            medium_limit = self._limit_for(obs, sit)
            value = sit.lot_value()
            cap = self._bid_cap(obs, value)
            limits = [medium_limit] + [
                min(obs.money, round(f * value)) for f in (0.0, 0.5, 0.7, 0.85, 1.0, 1.15) if f * value <= cap
            ]
            cands: list[Candidate] = []
            for x in limits:
                x = x if x > obs.high else 0
                if all(c.limit != x for c in cands):
                    cands.append(Candidate(None, x))
            limit = cands[self._search(obs, sit, cands, deadline)].limit if len(cands) > 1 else cands[0].limit
            self._open_limits = {obs.auction_no: limit or 0}
            if medium_limit > obs.high:
                role = KEEP if seat == obs.auctioneer else BID
                self.last_choice = (role, float(medium_limit), float(limit or 0))
        self._limit = limit or 0
        target = self._open_target(obs, Situation(obs).lot_value()) if self.jumps and self.bound else None
        amount = pricing.open_raise(obs.high, self._limit, self.jumps, target=target)
        if amount and obs.high_seat in (-1, obs.auctioneer) and self._closes_early(obs):
            amount = obs.high + 1  # the first bid may take the lot: make it the least one
        if amount and obs.amount_range() is not None:  # not out of it (open_pass_is_final)
            return Move.bid(seat, amount)
        return Move.pass_(seat) if seat not in obs.passed else None

    # ------------------------------------------------------------------ search

    def _search(self, obs: Observation, sit: Situation, cands: list[Candidate], deadline: float) -> int:
        """Index of the candidate with the best mean rollout score (0 if time is too short)."""
        began, began_cpu = time.perf_counter(), time.thread_time()
        clock = self._clock
        seat = obs.seat
        rng = self.rng
        unseen = unseen_cards(obs)
        lot_value = sit.lot_value()
        spread = pricing.BIDDER_LIMIT * pricing.SEALED_SHADE
        rivals = self._read_rivals(obs)
        artist = obs.lot[0].artist if obs.lot else 0

        def sealed_guess(state: GameState, s: int) -> int:
            if s == obs.auctioneer:  # an auctioneer bids to keep its own lot: its own habit
                share = pricing.AUCTIONEER_SEALED * (rivals.keep[s] if rivals is not None else 1.0)
            else:
                share = spread * (rivals.artist_bid[s][artist] if rivals is not None else 1.0)
            return int(lot_value * share * (0.8 + 0.4 * rng.random()))

        active = list(range(len(cands)))
        scores: list[list[float]] = [[] for _ in cands]
        rollout_time = 0.0  # time of the finished rollouts (on the budget's clock), for the pass estimate
        rollouts = 0
        passes = 0
        next_prune = 6
        self._values_cache = {}
        while len(active) > 1 and passes != self.max_passes:
            # a pass that would not finish at the average rollout's pace is not started (one
            # rollout the machine stalled must not end the search: every rollout reads the
            # clock, so an unlucky pass only costs its own time)
            if rollouts and clock() + rollout_time / rollouts * len(active) > deadline:
                break
            world = determinize(obs, rng, unseen=unseen, sealed_guess=sealed_guess)
            dice = rng.getrandbits(48)
            results = []
            for i in active:
                t0 = clock()
                result = self._rollout(world, seat, cands[i], dice, deadline, rivals)
                if result is None:
                    break
                results.append(result)
                rollout_time += clock() - t0
                rollouts += 1
            if len(results) < len(active):
                break  # an unfinished pass would compare candidates on different samples
            for i, r in zip(active, results):
                scores[i].append(r)
            passes += 1
            if passes >= next_prune:
                active = _prune(active, scores)
                next_prune = passes + max(3, passes // 2)
        self.last_rollouts = sum(map(len, scores))
        self.last_search_seconds = time.perf_counter() - began
        self.last_search_cpu = time.thread_time() - began_cpu
        if passes == 0:
            return 0
        means = {i: sum(scores[i]) / passes for i in active}
        best = max(active, key=means.__getitem__)
        # leave the medium bot's move (candidate 0) only on clear evidence: the best of several
        # candidates over a few samples looks better than it is, so few samples ask for more
        if best != 0 and (
            passes < MIN_PASSES
            or _paired_z(scores[best], scores[0]) < self.confidence + self.evidence / math.sqrt(passes)
        ):
            return 0
        return best

    def _closes_early(self, obs: Observation) -> bool:
        """The auctioneer of this Open auction (another seat) has been seen to hammer its
        own auctions at the first bid (`opponents.early_shares`)."""
        rivals = self._read_rivals(obs)
        return rivals is not None and obs.auctioneer != obs.seat and rivals.early[obs.auctioneer] >= EARLY_SHARE

    def _read_rivals(self, obs: Observation) -> Rivals | None:
        """The rivals' factors (None without the opponent model), read again only after a sale."""
        return self._rivals_of(obs) if self.model_rivals else None

    def _rollout(
        self, world: GameState, seat: int, cand: Candidate, dice: int, deadline: float, rivals: Rivals | None = None
    ) -> float | None:
        """Score of one candidate on one sample, or None if the deadline came first."""
        state = world.clone()
        limits = {(seat, state.auction_no): cand.limit} if cand.limit is not None else None
        searching = self.searching - {seat} if self.model_searchers else frozenset()
        policy = RolloutPolicy(
            random.Random(dice), limits=limits, cache=self._values_cache, rivals=rivals, searching=searching
        )
        if cand.move is not None:
            state.apply(cand.move)
        if not policy.run(state, world.round if self.horizon == "round" else None, deadline, self._clock):
            return None
        return score(state, seat)


def _paired_z(a: list[float], b: list[float]) -> float:
    """How many standard errors the mean of a - b (same samples) lies above zero."""
    k = len(a)
    diffs = [x - y for x, y in zip(a, b)]
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    if var <= 0.0:
        return math.inf if mean > 0 else -math.inf if mean < 0 else 0.0
    return mean / math.sqrt(var / k)


def _prune(active: list[int], scores: list[list[float]]) -> list[int]:
    """Drop candidates clearly behind the leader; the medium bot's move (0) always stays."""
    k = len(scores[active[0]])
    leader = max(active, key=lambda i: sum(scores[i]) / k)
    return [i for i in active if i in (0, leader) or _paired_z(scores[i], scores[leader]) > -2.0]


def score(state: GameState, seat: int) -> float:
    """How good the end of a rollout is for `seat`.  At the end of the game: the margin
    over the richest other seat (capped) plus a bonus for winning.  After rounds 1-3:
    money against the others' average, plus the cards in hand (future auctions) against
    theirs."""
    money = state.money
    n = state.n
    others = [money[s] for s in range(n) if s != seat]
    if state.phase == Phase.GAME_OVER:
        margin = money[seat] - max(others)
        return max(-40.0, min(40.0, margin)) + (10.0 if margin >= 0 else 0.0)
    rel = money[seat] - sum(others) / (n - 1)
    tiles = [0] * 5
    for row in state.tiles:
        for a in range(5):
            tiles[a] += row[a]
    worth = [HAND_BASE + HAND_TILES * t for t in tiles]
    total = 0.0
    for s in range(n):
        w = sum(worth[c.artist] for c in state.hands[s])
        total += w if s == seat else -w / (n - 1)
    return rel + total
