"""`python -m benchmarks engine`: engine speed figures (games/s, moves/s, replay, state copies).

Every figure is CPU time of this one process (`time.process_time`), so it measures one
core even on a busy machine; each is the median of `--repeat` runs.  The header says
whether the engine is the pure-Python one or the compiled build (docs/engine-performance.md).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.machinery
import json
import random
import statistics
import time
from typing import Any, Callable

from modernart.bots.random_bot import play_random_game, random_step
from modernart.game import GameState
from modernart.record import GameRecord

from modernart.cli.machine import machine

from benchmarks.engine_ab import compare, print_comparison

#: The engine's speed target: four-player random self-play games per second.
TARGET_GAMES_PER_S = 3000
#: The modules a compiled build compiles (setup.py's COMPILED_MODULES).
HOT_MODULES = (
    "modernart.phase",
    "modernart.moves",
    "modernart.scoring",
    "modernart.state",
    "modernart.auctions",
    "modernart.game",
    "modernart.bots.random_bot",
)


def engine_build() -> str:
    """'compiled (mypyc)', 'pure Python', or 'partly compiled' if only some hot modules are."""
    compiled = [
        (importlib.import_module(name).__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        for name in HOT_MODULES
    ]
    if all(compiled):
        return "compiled (mypyc)"
    return "partly compiled" if any(compiled) else "pure Python"


def _timed(seconds: float, step: Callable[[], int]) -> tuple[float, int, int]:
    """Run `step()` (returning work units) until `seconds` of CPU time pass; (cpu s, calls, units)."""
    calls = units = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        units += step()
        calls += 1
        now = time.process_time()
        if now >= deadline:
            return now - start, calls, units


def bench_selfplay(players: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    for _ in range(20):  # warm up: interned moves, caches
        play_random_game(players, rng)
    elapsed, games, moves = _timed(seconds, lambda: play_random_game(players, rng).move_count)
    return {"games_per_s": games / elapsed, "moves_per_s": moves / elapsed, "moves_per_game": moves / games}


def bench_replay(seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    records = []
    for _ in range(200):
        state = GameState(4, seed=rng)
        record = GameRecord.start(state, ["a", "b", "c", "d"])
        rand = rng.random
        while not state.is_over():
            move = random_step(state, rand)
            state.apply(move)
            record.moves.append(move)
        records.append(record)
    turn = iter(range(1 << 62))

    def replay_one() -> int:
        record = records[next(turn) % len(records)]
        record.replay()
        return len(record.moves)

    elapsed, _, moves = _timed(seconds, replay_one)
    return {"replay_moves_per_s": moves / elapsed}


def bench_clone(seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    state = GameState(4, seed=rng)
    rand = rng.random
    while state.round < 2:  # a mid-game state: purchases, results, a shorter stock
        state.apply(random_step(state, rand))

    def copy_many() -> int:
        for _ in range(100):
            state.clone()
        return 100

    elapsed, _, copies = _timed(seconds, copy_many)
    return {"clone_us": elapsed / copies * 1e6}


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def engine_figures(seconds: float, repeat: int) -> dict[str, Any]:
    gc.collect()
    figures: dict[str, Any] = {
        "machine": machine(),
        "engine": engine_build(),
        "clock": "process_time (CPU time, one core)",
        "seconds": seconds,
        "repeat": repeat,
    }
    for players in (3, 4, 5):
        figures[f"selfplay_{players}p"] = _median([bench_selfplay(players, seconds, seed) for seed in range(repeat)])
    figures["replay"] = _median([bench_replay(seconds, seed) for seed in range(repeat)])
    figures["clone"] = _median([bench_clone(seconds, seed) for seed in range(repeat)])
    figures["target_4p_games_per_s"] = TARGET_GAMES_PER_S
    figures["target_met"] = figures["selfplay_4p"]["games_per_s"] >= TARGET_GAMES_PER_S
    return figures


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repeat", type=int, default=3, help="repetitions; the median is reported (default 3)")
    p.add_argument(
        "--against",
        metavar="REV|DIR",
        help="instead: compare this engine with an older commit (or a directory holding a modernart "
        "package, e.g. a compiled build), side by side in one run, and print both and the ratio",
    )
    p.add_argument(
        "--here",
        metavar="DIR",
        help="with --against: the newer engine's directory (default: the modernart this Python imports)",
    )


def run(args: argparse.Namespace) -> int:
    if args.against:
        return run_comparison(args)
    figures = engine_figures(args.seconds, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    m = figures["machine"]
    print(f"modernart engine benchmark, {m['date']}")
    print(f"  engine:  {figures['engine']}")
    print(f"  machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}")
    print(f"  clock:   CPU time of one process (one core), median of {args.repeat} x {args.seconds:g} s")
    print(f"{'random self-play':<22}{'games/s':>10}{'moves/s':>12}{'moves/game':>12}")
    for players in (3, 4, 5):
        f = figures[f"selfplay_{players}p"]
        print(
            f"  {players} players{'':<12}{f['games_per_s']:>10.0f}{f['moves_per_s']:>12.0f}{f['moves_per_game']:>12.1f}"
        )
    print(f"{'replay (4 players)':<22}{figures['replay']['replay_moves_per_s']:>22.0f} moves/s")
    print(f"{'state copy (clone)':<22}{figures['clone']['clone_us']:>22.2f} us")
    verdict = "met" if figures["target_met"] else "MISSED"
    print(
        f"target {TARGET_GAMES_PER_S} four-player games/s: {verdict} "
        f"({figures['selfplay_4p']['games_per_s']:.0f} games/s, {figures['engine']})"
    )
    return 0


def run_comparison(args: argparse.Namespace) -> int:
    """`--against`: this engine and an older one side by side (benchmarks/engine_ab.py)."""
    figures = compare(args.against, args.here, args.seconds, args.repeat)
    m = machine()
    if args.json:
        print(json.dumps({"machine": m, **figures}, indent=1))
        return 0
    print(f"modernart engine benchmark, old and new side by side, {m['date']}")
    print(f"  machine: {m['cpu']} ({m['cores']} cores), {m['implementation']} {m['python']}")
    print_comparison(figures)
    return 0
