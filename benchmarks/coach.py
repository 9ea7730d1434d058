"""`python -m benchmarks coach`: how long the coach (`modernart review`) takes for a whole game
(target: under a minute), per preset.

For each preset one game is played by bots (seat 0 random, so that it makes many decisions
the strongest bot would make otherwise; the others medium), recorded, then seat 0 is
reviewed exactly as `modernart review RECORD --seat 1` reviews it.  Prints the decisions,
the paired rollouts run, the wall-clock seconds and the CPU seconds of the review.
"""

from __future__ import annotations

import argparse
import json
import time

from modernart import coach
from modernart.bots import make_bot
from modernart.game import GameState
from modernart.moves import Move
from modernart.presets import preset_options
from modernart.record import GameRecord

from modernart.cli.machine import machine

#: preset -> players of the game reviewed
GAMES = {"standard": 4, "zh_seed": 3, "fa_seed": 5}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=11, help="the seed of the games and the review (default 11)")
    p.add_argument("--samples", type=int, default=coach.SAMPLES, help="paired rollouts per decision at most")


def bot_game(preset: str, players: int, seed: int) -> GameRecord:
    state = GameState(players, preset_options(preset), seed=seed)
    record = GameRecord.start(state, [f"P{s + 1}" for s in range(players)])
    bots = [make_bot("random" if s == 0 else "medium", seed=seed + s) for s in range(players)]
    while not state.is_over():
        move = next((m for s in state.to_move() if (m := bots[s].choose(state.observation(s))) is not None), None)
        if move is None:  # every bot waits in an Open auction: the auctioneer's hammer
            move = Move.hammer(state.auctioneer)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    return record


def run(args: argparse.Namespace) -> int:
    figures: dict = {"machine": machine()}
    for preset, players in GAMES.items():
        record = bot_game(preset, players, args.seed)
        wall, cpu = time.perf_counter(), time.process_time()
        review = coach.review(record, 0, samples=args.samples, seed=args.seed)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        figures[preset] = {
            "players": players,
            "moves": len(record.moves),
            "decisions": len(review.decisions),
            "measured": sum(1 for d in review.decisions if not d.agreed),
            "pairs": sum(d.cost.samples for d in review.decisions),
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
        }
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    m = figures["machine"]
    print(
        f"coach: one whole game reviewed per preset ({m['date']}, {m['cpu']}, {m['cores']} cores, Python {m['python']})"
    )
    print(
        f"{'preset':10} {'players':>7} {'moves':>6} {'decisions':>9} {'measured':>8} {'pairs':>6} {'wall s':>7} {'cpu s':>6}"
    )
    for preset in GAMES:
        f = figures[preset]
        print(
            f"{preset:10} {f['players']:>7} {f['moves']:>6} {f['decisions']:>9} {f['measured']:>8} {f['pairs']:>6} "
            f"{f['wall_s']:>7} {f['cpu_s']:>6}"
        )
    return 0
