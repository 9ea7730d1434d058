"""Modern Art (Reiner Knizia): the pure game: cards, rules, state, views, records and bots."""

from .cards import ARTISTS, AUCTION_TYPES, CLASSIC, CMON_2017, EDITIONS, Artist, AuctionType, Card, Edition
from .errors import IllegalMove
from .game import GameState
from .moves import Action, Move
from .phase import Phase
from .rules import RuleOptions

__all__ = [
    "ARTISTS",
    "AUCTION_TYPES",
    "CLASSIC",
    "CMON_2017",
    "EDITIONS",
    "Action",
    "Artist",
    "AuctionType",
    "Card",
    "Edition",
    "GameState",
    "IllegalMove",
    "Move",
    "Phase",
    "RuleOptions",
]
__version__ = "0.1.0"
