"""Fitting the searching-rival policy of `searchers.py` from the hard bot's self-play.

Its own module because it plays whole games of hard bots, and the hard bot's rollouts use
`searchers`: kept apart, the two import one way (hard -> rollout -> searchers; this -> hard).
"""

from __future__ import annotations

from .arena import play_game
from .hard import HardBot
from .searchers import ROLES


def fit(games: int, seed: int = 2812, players: int = 4, **hard_options: object) -> dict[str, list[float]]:
    """The ratios hard's amount / medium's amount of every searched amount decision, per
    role, over `games` games of `players` hard bots (`hard_options` as `HardBot` takes)."""
    found: dict[str, list[float]] = {role: [] for role in ROLES}
    for game in range(games):
        bots = [HardBot(seed=seed * 1000 + game * 8 + s, **hard_options) for s in range(players)]  # type: ignore[arg-type]

        def note(_state: object, move: object, bots: list[HardBot] = bots) -> None:
            for bot in bots:
                if bot.last_choice is not None:
                    role, medium, chosen = bot.last_choice
                    found[role].append(round(chosen / medium, 3))
                    bot.last_choice = None

        play_game(bots, seed=seed + game, on_move=note)
    return found
