"""The bot levels by name: `make_bot(level)` builds a bot, `bot_levels()` lists the levels
offered to players, `arena_levels()` every registered level (the styled opponents too).

The registry sits above the bots it names: it imports their modules and they never import
it, so the bots' modules import one way only (no module loads another at run time to
have it register itself).  `register_level` adds a level, e.g. a test's own bot.
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Bot, RandomBot
from .hard import HardBot
from .medium import MediumBot
from .plain import PlainBot
from .styled import STYLED

_FACTORIES: dict[str, Callable[..., Bot]] = {"random": RandomBot, "medium": MediumBot, "hard": HardBot}
#: levels that exist for the arena only (not offered at a table)
_ARENA_ONLY: set[str] = set()


def register_level(level: str, factory: Callable[..., Bot], *, players: bool = True) -> None:
    """Make `make_bot(level)` build bots with `factory(seed=..., **options)`; with
    `players=False` the level is an arena opponent, not offered at a table."""
    _FACTORIES[level] = factory
    if players:
        _ARENA_ONLY.discard(level)
    else:
        _ARENA_ONLY.add(level)


for _level, _cls in STYLED.items():
    register_level(_level, _cls, players=False)
register_level(PlainBot.level, PlainBot, players=False)


def bot_levels() -> tuple[str, ...]:
    """The levels a table offers for its empty seats."""
    return tuple(level for level in _FACTORIES if level not in _ARENA_ONLY)


def arena_levels() -> tuple[str, ...]:
    """Every level `make_bot` builds: the players' levels and the styled arena opponents."""
    return tuple(_FACTORIES)


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of the named level ('random', 'medium', 'hard', or a styled opponent)."""
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(_FACTORIES)}") from None
    return factory(seed=seed, **options)
