"""`modernart bench engine`: engine speed figures (games/s, moves/s, replay, state copies)."""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import time

from modernart.bots.random_bot import play_random_game, random_step
from modernart.game import GameState
from modernart.record import GameRecord


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="print speed figures", description="Measure and print speed figures.")
    p.add_argument("what", choices=["engine"] + list(_EXTRA), help="which figures")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    p.add_argument("--repeat", type=int, default=3, help="repetitions; the median is reported (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


_EXTRA: dict[str, str] = {}  # other benches register here: name -> "module:function"


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }


def _timed(seconds: float, step) -> tuple[float, int, int]:
    """Run `step()` (returning work units) until `seconds` pass; (elapsed, calls, units)."""
    calls = units = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        units += step()
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return now - start, calls, units


def bench_selfplay(players: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
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
    elapsed, copies, _ = _timed(seconds, lambda: (state.clone(), 1)[1])
    return {"clone_us": elapsed / copies * 1e6}


def engine_figures(seconds: float, repeat: int) -> dict[str, object]:
    gc.collect()
    figures: dict[str, object] = {"machine": machine(), "seconds": seconds, "repeat": repeat}
    for players in (3, 4, 5):
        runs = [bench_selfplay(players, seconds, seed) for seed in range(repeat)]
        figures[f"selfplay_{players}p"] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    figures["replay"] = {"replay_moves_per_s": statistics.median(
        bench_replay(seconds, seed)["replay_moves_per_s"] for seed in range(repeat))}
    figures["clone"] = {"clone_us": statistics.median(bench_clone(seconds, seed)["clone_us"] for seed in range(repeat))}
    return figures


def run(args: argparse.Namespace) -> int:
    if args.what != "engine":
        module_name, func = _EXTRA[args.what].split(":")
        import importlib

        return int(getattr(importlib.import_module(module_name), func)(args) or 0)
    figures = engine_figures(args.seconds, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    m = figures["machine"]
    print(f"modernart engine benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), "
          f"{m['implementation']} {m['python']}, one core, median of {args.repeat} x {args.seconds:g} s")
    print(f"{'random self-play':<22}{'games/s':>10}{'moves/s':>12}{'moves/game':>12}")
    for players in (3, 4, 5):
        f = figures[f"selfplay_{players}p"]
        print(f"  {players} players{'':<12}{f['games_per_s']:>10.0f}{f['moves_per_s']:>12.0f}{f['moves_per_game']:>12.1f}")
    print(f"{'replay (4 players)':<22}{figures['replay']['replay_moves_per_s']:>22.0f} moves/s")
    print(f"{'state copy (clone)':<22}{figures['clone']['clone_us']:>22.2f} us")
    return 0
