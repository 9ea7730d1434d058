"""The coach: one player's decisions in a finished (or unfinished) game, each set against
what the strongest bot would have done, with the final money it would have made.

`review(record, seat)` replays the record and, at every decision of `seat` (a move it made
where it had a choice), asks the bot of `level` (by name, through `modernart.bots`) for its
move from the seat's own observation.  Where the two differ, it estimates the difference in
the seat's final money by paired rollouts: it samples full games consistent with that
observation (`modernart.determinize`: the other hands, the stock and the unrevealed sealed
bids are drawn, never read), plays the seat's move on one copy and the bot's on another,
and plays both to the end of the game with the same fast policy and the same dice
(`modernart.bots.rollout`); when every round is dealt afresh, where nothing but money
carries over, to the end of the round.  The mean of the paired differences, with a 95% confidence
interval, is the decision's cost: what the bot's move would have added to the seat's final
money.  Nothing here reads a hidden hand: every estimate comes from the observation alone
(tests/engine/test_coach.py plays two records that differ only in another player's unplayed cards).

The review is pure: no clock decides anything unless the bot's options say so (its budget),
and a progress callback is told of each decision done.

>>> from modernart.game import GameState
>>> from modernart.record import GameRecord
>>> from modernart.bots.random_bot import random_step
>>> import random
>>> state = GameState(3, seed=2)
>>> record = GameRecord.start(state, ["Ana", "Bea", "Cem"])
>>> rng = random.Random(2)
>>> for _ in range(12):
...     move = random_step(state, rng.random)
...     state.apply(move)
...     record.moves.append(move)
>>> result = review(record, 0, samples=4, level="medium")
>>> result.seat, result.decisions == tuple(sorted(result.decisions, key=lambda d: d.index))
(0, True)
>>> all(d.cost.low <= d.cost.mean <= d.cost.high for d in result.decisions)
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Final, Mapping

from .bots import make_bot
from .bots.rollout import RolloutPolicy
from .cards import AuctionType
from .determinize import determinize, unseen_cards
from .game import GameState
from .moves import Action, Move
from .phase import Phase
from .record import GameRecord
from .views import Observation

#: the bot the coach asks, by level name: whatever the strongest level plays like today
STRONGEST: Final = "hard"
#: its options for a review: a short search, enough to review a game in well under a minute
COACH_BOT_OPTIONS: Final[Mapping[str, Any]] = {"budget": 0.25, "max_passes": 12}
#: paired rollouts per decision where the bot would have played otherwise
SAMPLES: Final = 24
#: paired rollouts every decision gets before the interval may stop the sampling
FIRST_SAMPLES: Final = 8
#: the normal quantile of a two-sided 95% interval
Z95: Final = 1.96

#: what a decision was about, by the kind of move the seat made
TOPICS: Final = ("overpaid", "underbid", "price_high", "price_low", "painting", "auction", "other")


@dataclass(frozen=True)
class Estimate:
    """A mean over paired samples and its 95% confidence interval.

    >>> Estimate.of([2.0, 4.0, 6.0])
    Estimate(mean=4.0, low=1.7, high=6.3, samples=3)
    >>> Estimate.of([])
    Estimate(mean=0.0, low=0.0, high=0.0, samples=0)
    """

    mean: float
    low: float
    high: float
    samples: int

    @classmethod
    def of(cls, values: list[float]) -> Estimate:
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        mean = sum(values) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return cls(round(mean, 1), round(mean - half, 1), round(mean + half, 1), n)

    @property
    def clear(self) -> bool:
        """The interval lies wholly above 0: the bot's move was better, beyond doubt at 95%."""
        return self.low > 0


ZERO: Final = Estimate(0.0, 0.0, 0.0, 0)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: move `index` of the record.

    `kind` is the auction it was made in (None when putting up a card); `cost` the final
    money the bot's move `advised` would have added to the seat's over its move `played`
    (0 with no samples when they agree); `advised` is None where the bot would have waited
    in an Open auction with no pass open to it (it had passed, or it runs the auction and
    would let the others bid on); `topic` one of `TOPICS`; `price` the price on offer, if
    any (what accepting it pays)."""

    index: int
    round: int
    phase: Phase
    kind: AuctionType | None
    played: Move
    advised: Move | None
    cost: Estimate
    topic: str
    price: int = 0

    @property
    def agreed(self) -> bool:
        return self.played == self.advised

    def __repr__(self) -> str:
        return f"<Decision {self.index} {self.played!r} -> {self.advised!r} cost {self.cost.mean:+}>"


@dataclass(frozen=True)
class Summary:
    """Where the seat lost most: the topic and auction type whose decisions cost most in
    all (`total`, over `count` decisions), and the whole game's total."""

    topic: str
    kind: AuctionType | None
    total: float
    count: int
    game_total: float


@dataclass(frozen=True)
class Review:
    """A seat's decisions in game order, and the settings they were reviewed with."""

    seat: int
    players: tuple[str, ...]
    level: str
    samples: int
    decisions: tuple[Decision, ...]
    final_money: tuple[int, ...]  # empty for an unfinished game

    def costliest(self, count: int = 5) -> list[Decision]:
        """The `count` decisions whose estimated cost is highest (only costs above 0)."""
        costly = [d for d in self.decisions if d.cost.mean > 0]
        return sorted(costly, key=lambda d: (-d.cost.mean, d.index))[:count]

    @property
    def total(self) -> float:
        """The estimated cost of every decision, added up."""
        return round(sum(max(0.0, d.cost.mean) for d in self.decisions), 1)

    def summary(self) -> Summary | None:
        """The (topic, auction type) that cost most, or None when nothing cost anything."""
        groups: dict[tuple[str, AuctionType | None], list[float]] = {}
        for d in self.decisions:
            if d.cost.mean > 0:
                groups.setdefault((d.topic, d.kind), []).append(d.cost.mean)
        if not groups:
            return None
        (topic, kind), costs = max(groups.items(), key=lambda item: (sum(item[1]), -TOPICS.index(item[0][0])))
        return Summary(topic, kind, round(sum(costs), 1), len(costs), self.total)


#: told (decisions done, decisions in all) after each decision
Progress = Callable[[int, int], None]


def decisions_of(record: GameRecord, seat: int) -> list[int]:
    """The indices of the record's moves made by `seat` where it had a choice (more than one
    legal move; a forfeited sealed bid is no choice).  The record must replay (see
    `GameRecord.replay`)."""
    state = record.new_state()
    found: list[int] = []
    for index, move in enumerate(record.moves):
        if move.seat == seat and move.action != Action.SEALED_FORFEIT and _has_choice(state, seat):
            found.append(index)
        state.apply(move)
    return found


def _has_choice(state: GameState, seat: int) -> bool:
    moves = state.legal_moves(seat, amounts=False)
    r = state.amount_range(seat)
    return len(moves) + (0 if r is None else r[2] - r[1] + 1) > 1


def review(
    record: GameRecord,
    seat: int,
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    level: str = STRONGEST,
    bot_options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review every decision of `seat` in `record` (see the module docstring).

    `seed` decides every sample and the bot's own dice; with a bot whose decisions do not
    depend on a clock (a pass cap its budget never reaches), the review depends on the
    record's public moves and the seat's own cards only.  ValueError for a seat the game has
    not; a record that does not replay raises its RecordError."""
    if not 0 <= seat < len(record.players):
        raise ValueError(f"no seat {seat} in a {len(record.players)}-player game")
    if samples < 2:
        raise ValueError("a review needs at least 2 samples per decision")
    options = dict(COACH_BOT_OPTIONS if bot_options is None and level == STRONGEST else bot_options or {})
    record.replay()  # every move checked once: a record that does not replay raises here
    wanted = set(decisions_of(record, seat))
    total = len(wanted)
    state = record.new_state()
    decisions: list[Decision] = []
    done = 0
    for index, move in enumerate(record.moves):
        if index in wanted:
            obs = state.observation(seat)
            decision = _decide(obs, state.round, index, move, samples, seed, level, options)
            if decision is not None:
                decisions.append(decision)
            done += 1
            if progress is not None:
                progress(done, total)
        state.apply(move)
    final = tuple(state.money) if state.is_over() else ()
    return Review(seat, tuple(record.players), level, samples, tuple(decisions), final)


def _decide(
    obs: Observation,
    round_: int,
    index: int,
    played: Move,
    samples: int,
    seed: int,
    level: str,
    options: Mapping[str, Any],
) -> Decision | None:
    bot = make_bot(level, seed=_mix(seed, index, 1), **options)
    advised = bot.choose(obs)
    if advised is None and Move.pass_(obs.seat) in obs.legal_moves():
        advised = Move.pass_(obs.seat)  # waiting in an Open auction: the nearest move is to pass
    if advised is not None and advised not in obs.legal_moves():
        return None  # (a bot never plays an illegal move)
    kind = _kind_of(obs)
    topic = _topic(obs, played, advised)
    if advised == played:
        return Decision(index, round_, obs.phase, kind, played, advised, ZERO, topic, obs.price)
    cost = paired_difference(obs, played, advised, samples, _mix(seed, index, 2))
    return Decision(index, round_, obs.phase, kind, played, advised, cost, topic, obs.price)


def paired_difference(obs: Observation, played: Move, advised: Move | None, samples: int, seed: int) -> Estimate:
    """The seat's final money after `advised` minus after `played`, over up to `samples`
    paired rollouts from states sampled from `obs` (each pair: one sampled state, the same
    dice).  `advised` None is waiting in an Open auction: the seat makes no move now and
    bids no higher in this auction (its limit in it the current high bid), the others
    play the auction on.  After `FIRST_SAMPLES` pairs it stops as soon as the interval is narrow enough to
    rank the decision (`precise`): most moves the bot would play otherwise lead to the same
    sales, and their pairs agree to the coin."""
    rng = random.Random(seed)
    unseen = unseen_cards(obs)
    # with fresh hands every round nothing but money carries over to the next one: the money
    # at this round's end stands for the final money (and costs a fifth of the rollouts)
    until = obs.round if obs.options.fresh_deal_each_round else None
    diffs: list[float] = []
    for _ in range(samples):
        if len(diffs) >= FIRST_SAMPLES and precise(Estimate.of(diffs)):
            break
        base = determinize(obs, rng, unseen=unseen)
        dice = rng.getrandbits(32)
        results: list[int] = []
        for move in (advised, played):
            state = base.clone()
            limits = None
            if move is None:  # waiting: no higher bid from this seat in this auction
                limits = {(obs.seat, obs.auction_no): obs.high}
            else:
                state.apply(move)
            if not state.is_over():
                RolloutPolicy(random.Random(dice), limits=limits).run(state, until_round=until)
            results.append(state.money[obs.seat])
        diffs.append(float(results[0] - results[1]))
    return Estimate.of(diffs)


def precise(estimate: Estimate) -> bool:
    """Narrow enough to rank a decision: the interval within 2 of money either way, or
    within half its mean.

    >>> precise(Estimate(10.0, 6.0, 14.0, 8)), precise(Estimate(3.0, -9.0, 15.0, 8))
    (True, False)
    """
    half = (estimate.high - estimate.low) / 2
    return half <= max(2.0, abs(estimate.mean) / 2)


def _mix(seed: int, index: int, salt: int) -> int:
    return (seed * 1_000_003 + index * 7919 + salt) & 0xFFFFFFFF


_KINDS_OF_PHASE: Final[Mapping[Phase, AuctionType]] = {
    Phase.OPEN: AuctionType.OPEN,
    Phase.ONCE_AROUND: AuctionType.ONCE_AROUND,
    Phase.SEALED: AuctionType.SEALED,
    Phase.FIXED_SET: AuctionType.FIXED_PRICE,
    Phase.FIXED_OFFER: AuctionType.FIXED_PRICE,
}


def _kind_of(obs: Observation) -> AuctionType | None:
    """The auction a decision was made in: the running one (as announced, or the card's)."""
    if obs.kind >= 0:
        return AuctionType(obs.kind)
    if obs.phase in _KINDS_OF_PHASE:
        return _KINDS_OF_PHASE[obs.phase]
    if obs.phase in (Phase.POSTED_OFFER, Phase.CHOOSE_BUYER) and obs.lot:
        return obs.lot[-1].kind
    if obs.phase == Phase.DOUBLE_OFFER:
        return AuctionType.DOUBLE
    return None


def _paid(obs: Observation, move: Move | None) -> int:
    """What a move would have the seat pay if it won at it: its bid, the price it takes,
    0 for a pass, a refusal or waiting (None)."""
    if move is None:
        return 0
    if move.action in (Action.BID, Action.SEALED_BID):
        return move.arg
    if move.action == Action.ACCEPT:
        return obs.price
    return 0


def _topic(obs: Observation, played: Move, advised: Move | None) -> str:
    """What the decision was about (one of `TOPICS`), by the seat's move and the bot's."""
    action = played.action
    if action in (Action.PLAY, Action.ADD_SECOND, Action.DECLINE_SECOND):
        return "painting"
    if action == Action.ANNOUNCE:
        return "auction"
    if action == Action.SET_PRICE:
        return (
            "price_high"
            if advised is not None and advised.action == Action.SET_PRICE and played.arg > advised.arg
            else "price_low"
        )
    if action in (Action.BID, Action.SEALED_BID, Action.PASS, Action.ACCEPT, Action.DECLINE, Action.HAMMER):
        return "overpaid" if _paid(obs, played) > _paid(obs, advised) else "underbid"
    return "other"
