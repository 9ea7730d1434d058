"""Modern Art (Reiner Knizia): the pure game: cards, rules, state, views, records and bots.

`modernart.net` (transport, protocol, trust) and `modernart.cli` (the terminal) are installed
under this name from the checkout's top-level folders `net/` and `cli/` (pyproject's
package-dir mapping).  Run from a checkout without installing, the two folders are found
beside this one by a finder that answers for exactly those two names (`checkout_finder.py`), used
only when `pyproject.toml` sits there too.  Nothing in
this package imports them (imports flow cli -> net -> modernart).
"""

from typing import TYPE_CHECKING, Any

#: the names this package exports, by the module that defines them: imported on first use
#: (PEP 562), so that `import modernart.cli.main` (every command's start) does not load the
#: engine until a command needs it
_EXPORTS = {
    "ARTISTS": "cards",
    "AUCTION_TYPES": "cards",
    "CLASSIC": "cards",
    "CMON_2017": "cards",
    "EDITIONS": "cards",
    "Artist": "cards",
    "AuctionType": "cards",
    "Card": "cards",
    "Edition": "cards",
    "IllegalMove": "errors",
    "GameState": "game",
    "Action": "moves",
    "Move": "moves",
    "Phase": "phase",
    "RuleOptions": "rules",
}

if TYPE_CHECKING:
    from .cards import ARTISTS, AUCTION_TYPES, CLASSIC, CMON_2017, EDITIONS, Artist, AuctionType, Card, Edition
    from .errors import IllegalMove
    from .game import GameState
    from .moves import Action, Move
    from .phase import Phase
    from .rules import RuleOptions


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'modernart' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


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
