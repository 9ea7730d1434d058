"""The steps of a game, which decide who may act and how."""

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    PLAY_CARD = 0  # the auctioneer must put up a card
    DOUBLE_OFFER = 1  # `turn` may add a second card to the Double on the table
    OPEN = 2  # Open auction: anyone but the high bidder may bid or pass
    ONCE_AROUND = 3  # Once-around: `turn` bids or passes, the auctioneer last
    SEALED = 4  # Sealed: every seat makes one hidden bid
    FIXED_SET = 5  # Fixed price: the auctioneer announces a price
    FIXED_OFFER = 6  # Fixed price: `turn` accepts or declines
    GAME_OVER = 7
    # the steps only variants take (docs/rules.md "Variants"), numbered after the others
    CHOOSE_BUYER = 8  # the seller chooses the buyer among `candidates` (FA-10, FA-12)
    POSTED_OFFER = 9  # posted price: every seat but the seller takes it or leaves it (FA-12)
    MYSTERY_FLIP = 10  # mystery hand: `turn` flips its top card or not (§10.3)
    ANNOUNCE = 11  # the seller announces the auction for the card put up (FA-15)


#: `PHASES[i]` is the Phase whose value is i.
PHASES: Final = tuple(Phase)

# The same steps as plain ints, for the engine's hot paths (game.py, auctions.py, the
# random player): CPython compares exact ints fastest, and mypyc compiles Final int
# constants to C literals.  `GameState.phase` hands out the Phase itself.
PLAY_CARD: Final = 0
DOUBLE_OFFER: Final = 1
OPEN: Final = 2
ONCE_AROUND: Final = 3
SEALED: Final = 4
FIXED_SET: Final = 5
FIXED_OFFER: Final = 6
GAME_OVER: Final = 7
CHOOSE_BUYER: Final = 8
POSTED_OFFER: Final = 9
MYSTERY_FLIP: Final = 10
ANNOUNCE: Final = 11
