"""Every class of illegal move raises its own error, names its rule, and changes nothing."""

from __future__ import annotations

import pytest

from modernart import errors
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase

from tests.engine_setup import (
    filler,
    CP,
    D,
    F,
    KG,
    LM,
    O,
    ONCE,
    S,
    Y,
    A,
    B,
    C,
    D_,
    card_in_hand,
    fingerprint,
    play,
    table,
)


def _expect(state: GameState, move, error: type[errors.IllegalMove]) -> None:
    before = fingerprint(state)
    with pytest.raises(error) as info:
        state.apply(move)
    assert type(info.value) is error
    assert info.value.rule and info.value.rule in str(info.value)
    assert fingerprint(state) == before, "an illegal move changed the state"
    assert not state.is_legal(move)


def _open():
    state = table(hands={A: [(Y, O)] + filler(A)})
    play(state, A, Y, O)
    return state


def test_card_play_errors():
    state = table(hands={A: [(Y, O)] + filler(A), B: [(CP, O)] + filler(B)})
    _expect(state, Move.play(B, card_in_hand(state, B, CP, O)), errors.NotYourTurn)
    _expect(state, Move.play(A, card_in_hand(state, B, CP, O)), errors.CardNotInHand)
    _expect(state, Move.of(A, Action.PLAY, 70), errors.MalformedMove)
    _expect(state, Move.of(A, Action.PLAY, -3), errors.MalformedMove)
    _expect(state, Move.bid(A, 5), errors.WrongPhase)
    _expect(state, Move.pass_(A), errors.WrongPhase)
    _expect(state, Move.hammer(A), errors.WrongPhase)
    _expect(state, Move.sealed_bid(A, 0), errors.WrongPhase)
    _expect(state, Move.set_price(A, 5), errors.WrongPhase)
    _expect(state, Move.accept(B), errors.WrongPhase)
    _expect(state, Move.decline(B), errors.WrongPhase)
    _expect(state, Move.decline_second(A), errors.WrongPhase)
    _expect(state, Move(7, Action.PASS, 0), errors.UnknownSeat)
    _expect(state, Move(-1, Action.PASS, 0), errors.UnknownSeat)
    _expect(state, (A, 99, 0), errors.MalformedMove)


def test_double_offer_errors():
    state = table(hands={A: [(LM, D), (LM, D), (Y, O)] + filler(A), B: [(LM, O)] + filler(B)})
    play(state, A, LM, D)
    _expect(state, Move.add_second(A, card_in_hand(state, A, Y, O)), errors.SecondCardMismatch)
    _expect(state, Move.add_second(A, card_in_hand(state, A, LM, D)), errors.SecondCardMismatch)
    _expect(state, Move.add_second(B, card_in_hand(state, B, LM, O)), errors.NotYourTurn)
    _expect(state, Move.decline_second(B), errors.NotYourTurn)
    state.apply(Move.decline_second(A))
    _expect(state, Move.add_second(B, card_in_hand(state, A, LM, D)), errors.SecondCardMismatch)


def test_open_auction_errors():
    state = _open()
    _expect(state, Move.bid(B, 0), errors.BidTooLow)
    _expect(state, Move.bid(B, -5), errors.BidTooLow)
    _expect(state, Move.bid(B, 101), errors.BidOverMoney)
    _expect(state, Move(B, Action.BID, True), errors.MalformedMove)
    _expect(state, (B, Action.BID, 5.0), errors.MalformedMove)
    _expect(state, Move.hammer(B), errors.NotAuctioneer)
    state.apply(Move.bid(B, 10))
    _expect(state, Move.bid(B, 12), errors.HighBidderCannotAct)
    _expect(state, Move.pass_(B), errors.HighBidderCannotAct)
    _expect(state, Move.bid(C, 10), errors.BidTooLow)
    state.apply(Move.pass_(C))
    _expect(state, Move.pass_(C), errors.AlreadyPassed)


def test_once_around_errors():
    state = table(hands={A: [(CP, ONCE)] + filler(A)})
    play(state, A, CP, ONCE)
    _expect(state, Move.bid(C, 5), errors.NotYourTurn)
    _expect(state, Move.pass_(A), errors.NotYourTurn)
    _expect(state, Move.hammer(A), errors.WrongPhase)
    state.apply(Move.bid(B, 5))
    _expect(state, Move.bid(C, 5), errors.BidTooLow)


def test_sealed_errors():
    state = table(hands={A: [(KG, S)] + filler(A)}, money=[100, 100, 0, 100])
    play(state, A, KG, S)
    _expect(state, Move.sealed_bid(B, -1), errors.BidTooLow)
    _expect(state, Move.sealed_bid(C, 1), errors.BidOverMoney)
    state.apply(Move.sealed_bid(B, 7))
    _expect(state, Move.sealed_bid(B, 8), errors.AlreadyBid)
    _expect(state, Move.sealed_forfeit(B), errors.AlreadyBid)
    _expect(state, Move.bid(C, 1), errors.WrongPhase)


def test_fixed_price_errors():
    state = table(hands={A: [(Y, F)] + filler(A)}, money=[40, 100, 100, 10])
    play(state, A, Y, F)
    _expect(state, Move.set_price(B, 5), errors.NotYourTurn)
    _expect(state, Move.set_price(A, 0), errors.PriceOutOfRange)
    _expect(state, Move.set_price(A, 41), errors.PriceOutOfRange)
    _expect(state, Move.accept(B), errors.WrongPhase)
    state.apply(Move.set_price(A, 20))
    _expect(state, Move.accept(C), errors.NotYourTurn)
    _expect(state, Move.decline(A), errors.NotYourTurn)
    _expect(state, Move.set_price(A, 10), errors.WrongPhase)
    state.apply(Move.decline(B))
    state.apply(Move.decline(C))
    _expect(state, Move.accept(D_), errors.CannotAfford)


def test_game_over_refuses_every_move():
    state = table(hands={A: [], B: [(KG, O)], C: [], D_: []}, auctioneer=B)
    state.round = 3
    state.tiles = [[0] * 5] * 3
    play(state, B, KG, O)
    assert state.is_over() and state.to_move() == () and state.legal_moves() == []
    _expect(state, Move.pass_(A), errors.GameOver)


def test_fixed_price_of_zero_only_with_no_money():
    state = table(hands={A: [(Y, F)] + filler(A)}, money=[0, 100, 100, 100])
    play(state, A, Y, F)
    assert state.amount_range(A)[1:] == (0, 0)
    state.apply(Move.set_price(A, 0))
    assert state.phase == Phase.FIXED_OFFER
    state.apply(Move.accept(B))
    assert state.sales[-1].buyer == B and state.sales[-1].price == 0


def test_move_parsing_rejects_malformed_lists():
    for bad in (
        None,
        [],
        [0, 3],
        [0, 3, 1, 2],
        ["0", 3, 1],
        [0, 3, 1.5],
        [0, 3, True],
        [0, len(Action), 0],  # the first action id past the last one
        [0, -1, 0],
        [5, 3, 1],
        [0, 4, 9],
        "move",
    ):
        with pytest.raises(errors.MalformedMove):
            Move.from_list(bad)
    assert Move.from_list([2, 3, 15]) == Move.bid(2, 15)
    assert Move.from_list(Move.play(1, 33).to_list()) is Move.play(1, 33)
