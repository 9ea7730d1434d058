"""Illegal-move errors.  Each names the rule it enforces; the state is left unchanged."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow now.  `rule` cites docs/rules.md; `code` is stable for clients."""

    code = "illegal"
    rule = "docs/rules.md"

    def __init__(self, detail: str) -> None:
        super().__init__(f"{detail} ({self.rule})")
        self.detail = detail


class MalformedMove(IllegalMove):
    code = "malformed"
    rule = "a move is [seat, action, arg] with a known action"


class GameOver(IllegalMove):
    code = "game_over"
    rule = "§7: the game has ended"


class UnknownSeat(IllegalMove):
    code = "unknown_seat"
    rule = "seats are numbered 0..n-1"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"
    rule = "§3/§5: only the seat whose turn it is may act"


class WrongPhase(IllegalMove):
    code = "wrong_phase"
    rule = "§3/§5: that action does not belong to the current step of the game"


class CardNotInHand(IllegalMove):
    code = "card_not_in_hand"
    rule = "§3: a player puts up a card from their own hand"


class SecondCardMismatch(IllegalMove):
    code = "second_card_mismatch"
    rule = "§5.6: the second card must be of the Double's artist and not itself a Double"


class BidTooLow(IllegalMove):
    code = "bid_too_low"
    rule = "§4.1/§4.3: a bid is at least 1 and strictly above the current high bid"


class BidOverMoney(IllegalMove):
    code = "bid_over_money"
    rule = "§4.2: no player may bid or pay more money than they hold"


class HighBidderCannotAct(IllegalMove):
    code = "high_bidder"
    rule = "§12.5: the current high bidder may neither raise nor pass"


class AlreadyPassed(IllegalMove):
    code = "already_passed"
    rule = "§12.5: a pass counts once until someone bids again"


class NotAuctioneer(IllegalMove):
    code = "not_auctioneer"
    rule = "§12.5: only the auctioneer may close an Open auction"


class AlreadyBid(IllegalMove):
    code = "already_bid"
    rule = "§5.3: each player makes exactly one sealed bid"


class PriceOutOfRange(IllegalMove):
    code = "price_out_of_range"
    rule = (
        "§5.4/§12.4: the fixed price is 1..the auctioneer's money (0 only when they hold 0); "
        "FA-11/FA-12 with price_up_to_richest: 1..the richest other player's money"
    )


class CannotAfford(IllegalMove):
    code = "cannot_afford"
    rule = "§5.4: a player cannot accept a price above their money"


class NotACandidate(IllegalMove):
    code = "not_a_candidate"
    rule = "FA-10/FA-12: the seller chooses the buyer among the tied bidders or the takers"


class NotAnAuction(IllegalMove):
    code = "not_an_auction"
    rule = "FA-15: the seller announces one of the four auctions: Open, Once-around, Sealed or Fixed price"
