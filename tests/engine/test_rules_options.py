"""Cards, deck tables, editions and every rule option."""

from __future__ import annotations

import random

import pytest

from modernart import errors
from modernart.bots.random_bot import play_random_game
from modernart.cards import (
    ARTISTS,
    AUCTION_TYPES,
    BGG_239213,
    CLASSIC,
    CMON_2017,
    CONSENSUS,
    EDITIONS,
    AuctionType,
    DeckTable,
)
from modernart.events import BANK, SealedRevealed
from modernart.game import GameState
from modernart.moves import Move
from modernart.rules import OptionError, RuleOptions

from tests.engine_setup import filler, KG, O, ONCE, S, Y, A, B, C, D_, play, table


def test_consensus_table_totals_and_agreed_cells():
    assert [CONSENSUS.artist_total(a) for a in ARTISTS] == [12, 13, 14, 15, 16]
    assert [CONSENSUS.type_total(t) for t in AUCTION_TYPES] == [16, 14, 14, 14, 12]
    assert CONSENSUS.size == 70
    assert [row[AuctionType.DOUBLE] for row in CONSENSUS.counts] == [2, 2, 2, 3, 3]
    assert [row[AuctionType.OPEN] for row in CONSENSUS.counts] == [3, 3, 3, 3, 4]
    deck = CONSENSUS.build()
    assert [int(c) for c in deck] == list(range(70))
    assert sum(1 for c in deck if c.artist == Y and c.kind == AuctionType.SEALED) == 3


def test_the_disputed_table_swaps_once_and_sealed_of_the_two_smallest_artists():
    assert [BGG_239213.artist_total(a) for a in ARTISTS] == [12, 13, 14, 15, 16]
    assert [BGG_239213.type_total(t) for t in AUCTION_TYPES] == [16, 14, 14, 14, 12]
    assert BGG_239213.counts[0][1:3] == (2, 3) and BGG_239213.counts[1][1:3] == (3, 2)
    state = GameState(4, RuleOptions(deck="bgg239213"), seed=1)
    assert sum(1 for c in state.deck if c.artist == 0 and c.kind == AuctionType.SEALED) == 3


def test_deck_tables_are_validated():
    with pytest.raises(ValueError):
        DeckTable("bad", ((1, 2, 3, 4, 5),) * 4)
    with pytest.raises(ValueError):
        DeckTable("bad", ((1, 2, 3, 4, -5),) * 5)


def test_editions_name_the_same_five_artists_in_board_order():
    assert CLASSIC.artists[0] == "Lite Metal" and CMON_2017.artists[0] == "Manuel Carvalho"
    assert set(EDITIONS) == {"classic", "cmon2017"}
    for edition in EDITIONS.values():
        assert len(set(edition.initials)) == 5, "initials must tell artists apart without colour"
    a = play_random_game(4, random.Random(3))
    b = play_random_game(4, random.Random(3), options=RuleOptions(edition="cmon2017"))
    assert a.money == b.money and a.move_count == b.move_count  # names only


def test_defaults_are_the_settled_decisions():
    o = RuleOptions()
    assert (o.double_split, o.three_player_first_deal, o.open_pass_is_final) == (False, 10, False)
    assert (o.sealed_offender_fine, o.start_money, o.deck, o.edition) == (0, 100, "consensus", "classic")
    assert o.deal_sizes(3) == (10, 6, 6, 0) and o.deal_sizes(4) == (9, 4, 4, 0) and o.deal_sizes(5) == (8, 3, 3, 0)
    assert RuleOptions.from_dict(o.to_dict()) == o and o.changed() == {}


@pytest.mark.parametrize(
    "bad",
    [
        {"double_split": 1},
        {"three_player_first_deal": 12},
        {"start_money": 0},
        {"deck": "nope"},
        {"edition": "x"},
        {"sealed_offender_fine": -1},
        {"colour": "red"},
        {"start_money": "100"},
    ],
)
def test_bad_options_are_refused(bad):
    with pytest.raises(OptionError):
        RuleOptions.from_dict(bad)


def test_bad_game_setup_is_refused():
    for players in (2, 6, "4"):
        with pytest.raises(OptionError):
            GameState(players)  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        GameState(4, first_auctioneer=4)
    with pytest.raises(OptionError):
        GameState(4, deck_order=list(range(69)) + [0])


def test_three_player_first_deal_of_eleven():
    state = GameState(3, RuleOptions(three_player_first_deal=11), seed=2)
    assert [len(h) for h in state.hands] == [11, 11, 11] and len(state.stock) == 37
    final = play_random_game(3, random.Random(5), options=RuleOptions(three_player_first_deal=11))
    assert final.is_over() and [len(r[0]) for r in final.deal_log] == [11, 6, 6, 0][: len(final.deal_log)]


def test_same_seed_same_deal():
    a, b = GameState(5, seed="table-7"), GameState(5, seed="table-7")
    assert a.hands == b.hands and a.stock == b.stock and a.first_auctioneer == b.first_auctioneer
    assert GameState(5, seed="table-8").hands != a.hands


def test_open_pass_is_final():
    state = table(hands={A: [(Y, O)] + filler(A)}, options=RuleOptions(open_pass_is_final=True))
    play(state, A, Y, O)
    state.apply(Move.pass_(C))
    state.apply(Move.bid(B, 5))
    with pytest.raises(errors.AlreadyPassed):
        state.apply(Move.bid(C, 6))
    assert C not in state.to_move() and state.amount_range(C) is None
    state.apply(Move.pass_(D_))
    state.apply(Move.pass_(A))  # everyone but B has passed: sold
    assert state.sales[-1].buyer == B and state.sales[-1].price == 5


def test_passes_are_not_binding_by_default():
    state = table(hands={A: [(Y, O)] + filler(A)})
    play(state, A, Y, O)
    state.apply(Move.pass_(C))
    state.apply(Move.bid(B, 5))
    state.apply(Move.bid(C, 6))
    assert state.high_seat == C


@pytest.mark.parametrize("fine, money_b, expected_b", [(0, 100, 100), (10, 100, 90), (10, 4, 0)])
def test_sealed_forfeit_counts_as_zero_and_fines_the_offender(fine, money_b, expected_b):
    state = table(
        hands={A: [(KG, S)] + filler(A)}, money=[100, money_b, 100, 100], options=RuleOptions(sealed_offender_fine=fine)
    )
    play(state, A, KG, S)
    state.apply(Move.sealed_bid(A, 3))
    state.apply(Move.sealed_forfeit(B))
    state.apply(Move.sealed_bid(C, 2))
    state.apply(Move.sealed_bid(D_, 0))
    revealed = [e for e in state.events if isinstance(e, SealedRevealed)][-1]
    assert revealed.bids == (3, 0, 2, 0) and revealed.offenders == (B,)
    assert state.sales[-1].buyer == A and state.money[B] == expected_b
    assert state.offenders == [(B, state.sales[-1].auction, money_b - expected_b)]


def test_start_money_option():
    state = GameState(4, RuleOptions(start_money=250), seed=1)
    assert state.money == [250] * 4


def test_double_split_default_pays_the_new_auctioneer_in_full():
    state = table(hands={A: [(KG, AuctionType.DOUBLE)] + filler(A), B: [(KG, ONCE)] + filler(B)})
    play(state, A, KG, AuctionType.DOUBLE)
    state.apply(Move.decline_second(A))
    state.apply(Move.add_second(B, next(c for c in state.hands[B] if c.artist == KG)))
    for seat in (C, D_):
        state.apply(Move.pass_(seat))
    state.apply(Move.bid(A, 9))
    state.apply(Move.pass_(B))
    assert state.money[A] == 91 and state.money[B] == 109
    assert state.sales[-1].payments == ((A, B, 9),) and state.sales[-1].original == A
    assert BANK not in [p[1] for p in state.sales[-1].payments]
