"""The bot levels by name: `make_bot(level)` builds a bot, `bot_levels()` lists the names.

The registry sits above the bots it names: it imports their modules and they never import
it, so the bots' modules import one way only (no module loads another at run time to
have it register itself).  `register_level` adds a level, e.g. a test's own bot.
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Bot, RandomBot
from .hard import HardBot
from .medium import MediumBot

_FACTORIES: dict[str, Callable[..., Bot]] = {"random": RandomBot, "medium": MediumBot, "hard": HardBot}


def register_level(level: str, factory: Callable[..., Bot]) -> None:
    """Make `make_bot(level)` build bots with `factory(seed=..., **options)`."""
    _FACTORIES[level] = factory


def bot_levels() -> tuple[str, ...]:
    return tuple(_FACTORIES)


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of the named level ('random', 'medium', 'hard')."""
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(_FACTORIES)}") from None
    return factory(seed=seed, **options)
