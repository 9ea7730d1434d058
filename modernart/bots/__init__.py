"""Players that choose moves from an observation: random, medium and hard."""

from .base import Bot, RandomBot
from .levels import bot_levels, make_bot, register_level

__all__ = ["Bot", "RandomBot", "bot_levels", "make_bot", "register_level"]
