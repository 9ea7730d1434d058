"""Bot-only games and their statistics, for the `modernart arena` command and the tests.

`play_game` runs one game between bots, each deciding from its own observation, and times
every decision.  Who acts in an Open auction is drawn fairly: the seats that may act are
asked in a random order and the first that does not wait acts; when every seat waits, the
seats that may pass do so (at a live table the host's countdown would close the auction).
Sealed bids are collected from observations taken before any of them is applied.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import IllegalMove
from ..game import GameState
from ..moves import Move
from ..phase import Phase
from ..rules import RuleOptions
from .base import Bot


class BotError(RuntimeError):
    """A bot returned no move where one was due, or an illegal move."""


@dataclass
class GameOutcome:
    """One finished game: the seating, final money, winners and decision times per seat."""

    seating: tuple[str, ...]
    money: tuple[int, ...]
    winners: tuple[int, ...]
    times: list[list[float]] = field(default_factory=list)  # per seat, seconds per decision
    moves: int = 0
    cpu: list[list[float]] = field(default_factory=list)  # per seat, CPU seconds per decision


def seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every order of the bot list (duplicates kept, so each entry visits every seat)."""
    return [tuple(bots[i] for i in order) for order in itertools.permutations(range(len(bots)))]


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int,
    options: RuleOptions | None = None,
    names: Sequence[str] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    cpu_clock: Callable[[], float] = time.process_time,
    on_move: Callable[[GameState, Move], None] | None = None,
) -> GameOutcome:
    """Play one game, seat i played by `bots[i]`; raises BotError on a bot's mistake."""
    n = len(bots)
    rng = random.Random(seed)
    state = GameState(n, options, seed=rng.getrandbits(64))
    times: list[list[float]] = [[] for _ in range(n)]
    cpu: list[list[float]] = [[] for _ in range(n)]

    def ask(seat: int) -> Move | None:
        obs = state.observation(seat)
        start, start_cpu = clock(), cpu_clock()
        move = bots[seat].choose(obs)
        times[seat].append(clock() - start)
        cpu[seat].append(cpu_clock() - start_cpu)
        if move is not None and move.seat != seat:
            raise BotError(f"seat {seat} ({bots[seat]!r}) answered for seat {move.seat}")
        return move

    def apply(move: Move) -> None:
        try:
            state.apply(move)
        except IllegalMove as exc:
            raise BotError(f"{bots[move.seat]!r} at seat {move.seat} made an illegal move {move!r}: {exc}") from exc
        if on_move is not None:
            on_move(state, move)

    while not state.is_over():
        seats = state.to_move()
        phase = state.phase
        if phase == Phase.OPEN:
            order = list(seats)
            rng.shuffle(order)
            for seat in order:
                move = ask(seat)
                if move is not None:
                    apply(move)
                    break
            else:
                _everyone_waits(state, order, apply)
        elif phase == Phase.SEALED:
            moves = [ask(seat) for seat in seats]
            for seat, move in zip(seats, moves):
                if move is None:
                    raise BotError(f"{bots[seat]!r} at seat {seat} waited instead of making a sealed bid")
            for move in moves:
                apply(move)  # type: ignore[arg-type]
        else:
            seat = seats[0]
            move = ask(seat)
            if move is None:
                raise BotError(f"{bots[seat]!r} at seat {seat} waited in phase {phase.name}")
            apply(move)
    return GameOutcome(
        tuple(names or (b.level for b in bots)), tuple(state.money), state.winners(), times, state.move_count, cpu
    )


def _everyone_waits(state: GameState, order: list[int], apply: Callable[[Move], None]) -> None:
    """Nobody wants to act in an Open auction: the waiting seats pass, which closes it."""
    auction = state.auction_no
    for seat in order:
        if state.phase != Phase.OPEN or state.auction_no != auction:
            return
        if seat != state.high_seat and not state.passed[seat]:
            apply(Move.pass_(seat))
    if state.phase == Phase.OPEN and state.auction_no == auction:
        apply(Move.hammer(state.auctioneer))  # only the auctioneer is left: it closes the auction


# ---------------------------------------------------------------------- statistics


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotStats:
    """Totals of one bot name over many games (each seat it played counts as a game)."""

    name: str
    games: int = 0
    wins: int = 0  # co-winners count as a win each
    share: float = 0.0  # a win shared by k co-winners counts 1/k
    money: int = 0
    decisions: int = 0
    think: float = 0.0
    times: list[float] = field(default_factory=list)
    cpu_max: float = 0.0  # the most CPU time one decision took (wall time minus the machine's other work)

    def add(self, outcome: GameOutcome, seat: int) -> None:
        self.games += 1
        if seat in outcome.winners:
            self.wins += 1
            self.share += 1.0 / len(outcome.winners)
        self.money += outcome.money[seat]
        t = outcome.times[seat]
        self.decisions += len(t)
        self.think += sum(t)
        self.times.extend(t)
        if outcome.cpu and outcome.cpu[seat]:
            self.cpu_max = max(self.cpu_max, max(outcome.cpu[seat]))

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_money(self) -> float:
        return self.money / self.games if self.games else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.think if self.think > 0 else float("inf")

    def percentile(self, q: float) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tally(outcomes: Sequence[GameOutcome]) -> dict[str, BotStats]:
    """Per-bot totals, in order of first appearance."""
    stats: dict[str, BotStats] = {}
    for outcome in outcomes:
        for seat, name in enumerate(outcome.seating):
            stats.setdefault(name, BotStats(name)).add(outcome, seat)
    return stats
