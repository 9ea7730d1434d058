"""Modern Art (Reiner Knizia): the pure game: cards, rules, state, views, records and bots.

`modernart.net` (transport, protocol, trust) and `modernart.cli` (the terminal) are installed
under this name from the checkout's top-level folders `net/` and `cli/` (pyproject's
package-dir mapping).  Run from a checkout without installing, the two folders are found
beside this one by a finder that answers for exactly those two names (`checkout_finder.py`), used
only when `pyproject.toml` sits there too.  Nothing in
this package imports them (imports flow cli -> net -> modernart).
"""

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

from pathlib import Path as _Path  # noqa: E402  (after the package's own names)

from . import checkout_finder  # noqa: E402

checkout_finder.install(_Path(__file__).parent)  # modernart.net -> <checkout>/net, modernart.cli -> <checkout>/cli
del _Path
