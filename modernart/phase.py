"""The steps of a game, which decide who may act and how."""

from enum import IntEnum


class Phase(IntEnum):
    PLAY_CARD = 0     # the auctioneer must put up a card
    DOUBLE_OFFER = 1  # `turn` may add a second card to the Double on the table
    OPEN = 2          # Open auction: anyone but the high bidder may bid or pass
    ONCE_AROUND = 3   # Once-around: `turn` bids or passes, the auctioneer last
    SEALED = 4        # Sealed: every seat makes one hidden bid
    FIXED_SET = 5     # Fixed price: the auctioneer announces a price
    FIXED_OFFER = 6   # Fixed price: `turn` accepts or declines
    GAME_OVER = 7
