"""`modernart play`: a game on this machine against bots."""

from __future__ import annotations

import argparse
import random


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play against bots on this machine",
                       description="Start a table on this machine with bots and play.")
    p.add_argument("--players", type=int, default=4, choices=(3, 4, 5), help="number of seats (default 4)")
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    p.add_argument("--watch", action="store_true", help="bots only: print the game log of a bot game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return watch_bot_game(args.players, args.seed)


def watch_bot_game(players: int, seed: int | None) -> int:
    """Play a game of random bots and print its log."""
    from modernart.bots.random_bot import random_step
    from modernart.game import GameState

    from .narrate import describe_event

    rng = random.Random(seed)
    names = ["Ana", "Bea", "Cem", "Dai", "Eli"][:players]
    state = GameState(players, seed=rng, track_events=True)
    printed = 0
    while not state.is_over():
        state.apply(random_step(state, rng.random))
        for event in state.events[printed:]:
            line = describe_event(event, names, state.edition, state.deck)
            if line:
                print(line)
        printed = len(state.events)
    return 0
