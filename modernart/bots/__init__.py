"""Players that choose moves from an observation: random, medium and hard, and styled
arena opponents (`styled.py`)."""

from .base import Bot, RandomBot
from .levels import arena_levels, bot_levels, make_bot, register_level

__all__ = ["Bot", "RandomBot", "arena_levels", "bot_levels", "make_bot", "register_level"]
