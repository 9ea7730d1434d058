"""The variants of docs/rules.md §10: the worked scenarios T14-T25 of §11, the presets equal to
their options, random play in every preset, and record round trips."""

from __future__ import annotations

import dataclasses
import random

import pytest

from modernart.errors import AlreadyBid, CannotAfford, NotACandidate, NotAuctioneer, WrongPhase
from modernart.events import BANK, MysteryFlipped, RoundEnded
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.presets import PRESET_NAMES, PRESETS, preset_of, preset_options
from modernart.record import GameRecord, load_record
from modernart.rules import OptionError, RuleOptions
from modernart.bots.random_bot import random_step

from .engine_setup import CP, D, F, K, KG, LM, O, ONCE, S, Y, A, B, C, D_, all_cards, apply_all, filler, play, table


def _opts(**changes: object) -> RuleOptions:
    return RuleOptions.from_dict(changes)


def _hands(A: list | None = None) -> dict:
    """Seat A's cards for the scenario, and two spare cards for every seat."""
    hands = {s: filler(s) for s in (0, 1, 2, 3)}
    hands[0] = list(A or []) + hands[0]
    return hands


# ---------------------------------------------------------------- T14: the literal Open auction (zh_seed)


def test_t14_open_closes_only_by_the_hammer_without_autoclose():
    state = table(hands=_hands(A=[(LM, O)]), options=_opts(open_autoclose=False))
    play(state, A, LM, O)
    apply_all(state, [Move.pass_(s) for s in (B, C, D_, A)])
    assert state.phase == Phase.OPEN  # everyone passed: still open, anyone may still bid
    assert state.legal_moves(B, amounts=False) == [] and state.legal_moves(A, amounts=False) == [Move.hammer(A)]
    state.apply(Move.hammer(A))
    assert state.sales[-1].buyer == A and state.sales[-1].price == 0
    state = table(hands=_hands(A=[(LM, O)]), options=_opts(open_autoclose=False))
    play(state, A, LM, O)
    state.apply(Move.bid(B, 10))
    apply_all(state, [Move.pass_(s) for s in (C, D_, A)])
    assert state.phase == Phase.OPEN
    state.apply(Move.bid(C, 12))  # a pass was not binding, and the auction had not closed
    with pytest.raises(NotAuctioneer):
        state.apply(Move.hammer(B))
    state.apply(Move.hammer(A))
    assert (state.sales[-1].buyer, state.sales[-1].price) == (C, 12) and state.money[A] == 112


# ---------------------------------------------------------------- T15: fresh deals of nine (fa_seed)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_t15_nine_cards_each_and_a_fresh_deal_from_the_whole_deck_every_round(players):
    state = GameState(players, _opts(deal_size_fixed=9, fresh_deal_each_round=True), seed=3, first_auctioneer=0)
    assert [len(h) for h in state.hands] == [9] * players and len(state.stock) == 70 - 9 * players
    kept = [list(h) for h in state.hands]
    rng = random.Random(1)
    while state.round == 0:
        state.apply(random_step(state, rng.random))
    assert [len(h) for h in state.hands] == [9] * players  # the old hands were thrown away
    assert len(state.stock) == 70 - 9 * players and state.discard == []  # every card back in the deck
    assert sorted(int(c) for c in all_cards(state)) == list(range(70))
    assert [list(h) for h in state.hands] != kept


# ---------------------------------------------------------------- T16, T17: the bank and unsold paintings


def test_t16_every_price_goes_to_the_bank():
    state = table(hands=_hands(A=[(LM, O)]), options=_opts(pay_bank_always=True))
    play(state, A, LM, O)
    state.apply(Move.bid(B, 20))
    apply_all(state, [Move.pass_(s) for s in (C, D_, A)])
    assert state.money[:2] == [100, 80] and state.sales[-1].payments == ((B, BANK, 20),)


def test_t17_a_painting_nobody_buys_is_discarded_and_does_not_count():
    state = table(hands=_hands(A=[(LM, O)]), options=_opts(unsold_discarded=True), counts={LM: 2})
    play(state, A, LM, O)
    assert state.counts[LM] == 3
    apply_all(state, [Move.pass_(s) for s in (B, C, D_, A)])
    sale = state.sales[-1]
    assert sale.buyer == BANK and sale.price == 0 and sale.payments == ()
    assert state.counts[LM] == 2 and sale.cards[0] in state.discard and not any(state.bought)
    assert state.money == [100] * 4 and state.auctioneer == B


# ---------------------------------------------------------------- T18: only empty hands end the round


def test_t18_no_fifth_card_ending_and_the_last_card_is_auctioned():
    options = _opts(fifth_ends_round=False, last_card_auctioned=True)
    state = table(hands={A: [(LM, O)], B: [(LM, S)], C: [], D_: []}, counts={LM: 4, Y: 2}, options=options)
    play(state, A, LM, O)  # the fifth LM: auctioned like any other
    assert state.phase == Phase.OPEN and state.counts[LM] == 5
    state.apply(Move.bid(C, 10))
    apply_all(state, [Move.pass_(s) for s in (A, B, D_)])
    play(state, B, LM, S)  # the sixth, and the last card of every hand: auctioned too
    apply_all(state, [Move.sealed_bid(s, b) for s, b in ((A, 0), (B, 0), (C, 0), (D_, 7))])
    result = [e for e in state.events if isinstance(e, RoundEnded)][-1].result
    assert result.ended_by == "exhausted" and result.counts[LM] == 6 and result.ranking[0] == LM
    assert result.payouts[C] == 30 and result.payouts[D_] == 30
    assert state.is_over()  # the hands are not dealt afresh: empty hands end the game (§6.2)


# ---------------------------------------------------------------- T19: rank values, values per round


def test_t19_a_fourth_rank_value_and_values_of_this_round_only():
    options = _opts(rank_values="30,20,10,5", cumulative_values=False)
    state = table(hands={A: [(K, O)], B: filler(B), C: filler(C), D_: filler(D_)}, options=options)
    state.counts[:] = [1, 3, 3, 0, 4]
    state.tiles = [[30, 0, 0, 0, 0]]  # LM had a 30 tile: without cumulative values it adds nothing
    state.round = 1
    state.bought[B] = [c for c in state.stock if c.artist == LM][:1]
    for card in state.bought[B]:
        state.stock.remove(card)
    play(state, A, K, O)
    result = [e for e in state.events if isinstance(e, RoundEnded)][-1].result
    assert result.ranking == (K, Y, CP, LM) and result.tiles == (5, 20, 10, 0, 30)
    assert result.values == (5, 20, 10, 0, 30) and result.payouts[B] == 5


# ---------------------------------------------------------------- T20: Sealed without the seller, seller's choice


def test_t20_sealed_without_the_seller_who_chooses_among_tied_bids():
    options = _opts(sealed_excludes_seller=True, sealed_tie_seller_chooses=True)
    state = table(hands=_hands(A=[(LM, S)]), options=options)
    play(state, A, LM, S)
    assert state.to_move() == (B, C, D_)
    with pytest.raises(AlreadyBid):
        state.apply(Move.sealed_bid(A, 5))
    apply_all(state, [Move.sealed_bid(B, 20), Move.sealed_bid(C, 20), Move.sealed_bid(D_, 5)])
    assert state.phase == Phase.CHOOSE_BUYER and state.candidates == [B, C] and state.to_move() == (A,)
    assert state.legal_moves() == [Move.choose_buyer(A, B), Move.choose_buyer(A, C)]
    with pytest.raises(NotACandidate):
        state.apply(Move.choose_buyer(A, D_))
    with pytest.raises(NotAuctioneer):
        state.apply(Move.choose_buyer(B, B))
    state.apply(Move.choose_buyer(A, C))
    assert (state.sales[-1].buyer, state.sales[-1].price) == (C, 20) and state.money[A] == 120
    # one high bid: sold at once; every bid 0: nobody buys
    state = table(hands=_hands(A=[(LM, S)]), options=options)
    play(state, A, LM, S)
    apply_all(state, [Move.sealed_bid(B, 9), Move.sealed_bid(C, 20), Move.sealed_bid(D_, 5)])
    assert state.sales[-1].buyer == C and state.phase == Phase.PLAY_CARD


# ---------------------------------------------------------------- T21: Fixed price without the forced buy


def test_t21_fixed_price_nobody_takes_goes_unsold():
    state = table(hands=_hands(A=[(LM, F)]), options=_opts(fixed_forced_buy=False))
    play(state, A, LM, F)
    state.apply(Move.set_price(A, 30))
    apply_all(state, [Move.decline(s) for s in (B, C, D_)])
    assert (state.sales[-1].buyer, state.sales[-1].price, state.money[A]) == (A, 0, 100)  # kept free (§4.6)
    state = table(hands=_hands(A=[(LM, F)]), options=_opts(fixed_forced_buy=False, unsold_discarded=True))
    play(state, A, LM, F)
    state.apply(Move.set_price(A, 30))
    apply_all(state, [Move.decline(s) for s in (B, C, D_)])
    assert state.sales[-1].buyer == BANK and state.counts[LM] == 0


# ---------------------------------------------------------------- T22: the posted price


def test_t22_posted_price_any_player_takes_and_the_seller_chooses():
    options = _opts(once_around_posted=True)
    state = table(hands=_hands(A=[(LM, ONCE)]), money=[100, 100, 10, 100], options=options)
    play(state, A, LM, ONCE)
    assert state.phase == Phase.FIXED_SET
    state.apply(Move.set_price(A, 15))
    assert state.phase == Phase.POSTED_OFFER and state.to_move() == (B, C, D_)
    with pytest.raises(CannotAfford):
        state.apply(Move.accept(C))  # C holds 10
    apply_all(state, [Move.accept(D_), Move.decline(C), Move.accept(B)])
    assert state.phase == Phase.CHOOSE_BUYER and state.candidates == [B, D_]
    state.apply(Move.choose_buyer(A, D_))
    sale = state.sales[-1]
    assert (sale.buyer, sale.price, sale.kind) == (D_, 15, ONCE) and state.money[A] == 115
    # one taker buys at once; none: unsold
    state = table(hands=_hands(A=[(LM, ONCE)]), options=options)
    play(state, A, LM, ONCE)
    state.apply(Move.set_price(A, 15))
    apply_all(state, [Move.decline(B), Move.accept(C), Move.decline(D_)])
    assert state.sales[-1].buyer == C
    with pytest.raises(WrongPhase):
        state.apply(Move.accept(D_))


# ---------------------------------------------------------------- T23: Doubles as single Open paintings


def test_t23_a_double_is_auctioned_alone_as_open():
    state = table(hands=_hands(A=[(LM, D), (LM, O)]), options=_opts(double_as_open=True))
    play(state, A, LM, D)
    assert state.phase == Phase.OPEN and len(state.lot) == 1 and state.counts[LM] == 1
    state.apply(Move.bid(C, 4))
    apply_all(state, [Move.pass_(s) for s in (A, B, D_)])
    assert state.sales[-1].kind == O and len(state.sales[-1].cards) == 1 and state.auctioneer == B


# ---------------------------------------------------------------- T24: empty hands end the game in any round


def test_t24_every_hand_empty_before_round_four_ends_the_game():
    state = table(hands={A: [], B: [(KG, O)], C: [], D_: []}, auctioneer=B, counts={Y: 3})
    play(state, B, KG, O)
    assert state.is_over() and len(state.results) == 1 and state.results[0].ended_by == "exhausted"


# ---------------------------------------------------------------- T25: the mystery hand


@pytest.mark.parametrize("reading, decider", [("hig", C), ("cmon", A)])
def test_t25_mystery_hand(reading, decider):
    state = GameState(3, _opts(mystery_hand=reading), seed=5, first_auctioneer=A, track_events=True)
    assert [len(h) for h in state.hands] == [9, 9, 9] and len(state.mystery) == 9 and len(state.stock) == 34
    card = next(c for c in state.hands[A] if c.kind == O)
    state.apply(Move.play(A, card))
    state.apply(Move.bid(C, 3))
    apply_all(state, [Move.pass_(A), Move.pass_(B)])
    assert state.phase == Phase.MYSTERY_FLIP and state.to_move() == (decider,)
    top = state.mystery[0]
    before = state.counts[top.artist]
    state.apply(Move.flip_mystery(decider))
    assert state.counts[top.artist] == before + 1 and state.flipped == [top] and len(state.mystery) == 8
    assert isinstance(state.events[-1], MysteryFlipped) or any(isinstance(e, MysteryFlipped) for e in state.events)
    assert state.phase == Phase.PLAY_CARD and state.auctioneer == B
    # a flipped fifth card ends the round; the flipper starts... its left neighbour starts the next
    state = GameState(3, _opts(mystery_hand=reading), seed=5, first_auctioneer=A)
    top = state.mystery[0]
    state.counts[top.artist] = 4
    card = next(c for c in state.hands[A] if c.kind == O and c.artist != top.artist)
    state.apply(Move.play(A, card))
    state.apply(Move.bid(C, 3))
    apply_all(state, [Move.pass_(A), Move.pass_(B)])
    state.apply(Move.flip_mystery(decider))
    assert state.round == 1 and state.results[0].ending_cards == (top,) and state.results[0].ender == decider
    assert state.auctioneer == (decider + 1) % 3 or not state.hands[(decider + 1) % 3]


def test_the_mystery_hand_is_a_three_player_rule():
    with pytest.raises(OptionError):
        GameState(4, _opts(mystery_hand="hig"), seed=1)
    with pytest.raises(OptionError):
        _opts(mystery_hand="yes")


# ---------------------------------------------------------------- presets are their options


def test_the_presets():
    zh = preset_options("zh_seed")
    assert (zh.three_player_first_deal, zh.double_split, zh.open_autoclose) == (11, True, False)
    fa = preset_options("fa_seed")
    assert fa.deal_size_fixed == 9 and fa.fresh_deal_each_round and fa.pay_bank_always and not fa.fifth_ends_round
    assert preset_of(RuleOptions()) == "standard" and preset_of(_opts(double_split=True)) is None
    assert preset_of(preset_options("fa_seed", edition="cmon2017")) == "fa_seed"
    with pytest.raises(OptionError):
        preset_options("house")


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_preset_plays_the_same_game_as_its_options_set_one_by_one(name, players):
    """The differential: every option switched on its own, one after the other, gives the
    preset's game move for move (the same random moves, the same states)."""
    options = RuleOptions()
    for key, value in PRESETS[name].items():
        options = dataclasses.replace(options, **{key: value})
    for seed in range(3):
        a = GameState(players, preset_options(name), seed=seed)
        b = GameState(players, options, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        while not a.is_over():
            move = random_step(a, ra.random)
            assert move == random_step(b, rb.random)
            a.apply(move)
            b.apply(move)
            assert a.observation(move.seat) == b.observation(move.seat)
        assert b.is_over() and a.results == b.results and a.money == b.money


# ---------------------------------------------------------------- random play in every preset

_VARIANTS = [(name, "") for name in PRESET_NAMES] + [(name, m) for name in PRESET_NAMES for m in ("hig", "cmon")]


def _bank_flow(state: GameState) -> int:
    """Money the bank paid out minus money paid to it, over the whole game."""
    paid_in = sum(amount for sale in state.sales for _payer, payee, amount in sale.payments if payee == BANK)
    fines = sum(fine for _s, _a, fine in state.offenders)
    payouts = sum(sum(r.payouts) for r in state.results)
    return payouts - paid_in - fines


@pytest.mark.parametrize("name, mystery", _VARIANTS, ids=lambda v: v or "-")
def test_random_play_in_every_variant_keeps_the_invariants(name, mystery):
    """Every card accounted for at every step (reshuffles included), money conserved (the
    bank is unlimited: the players' total changes by exactly what the bank paid out less
    what it was paid), no money below 0, every game ends, every move among the legal ones."""
    for players in (3,) if mystery else (3, 4, 5):
        options = preset_options(name, mystery_hand=mystery)
        for seed in range(8):
            state = GameState(players, options, seed=seed)
            rng = random.Random(seed)
            steps = 0
            while not state.is_over():
                move = random_step(state, rng.random)
                if steps % 7 == 0:
                    assert move in state.legal_moves(move.seat)
                state.apply(move)
                steps += 1
                assert steps < 5000, "the game does not end"
                cards = all_cards(state) + state.mystery + state.flipped
                assert sorted(int(c) for c in cards) == list(range(70))
                assert min(state.money) >= 0
            assert sum(state.money) == options.start_money * players + _bank_flow(state)
            assert len(state.results) == 4 or state.results[-1].ended_by == "exhausted"
            if options.fifth_ends_round:
                assert all(max(r.counts) <= 5 for r in state.results)
            if options.pay_bank_always:
                assert all(p[1] == BANK for sale in state.sales for p in sale.payments)


@pytest.mark.parametrize("name, mystery", _VARIANTS, ids=lambda v: v or "-")
def test_records_of_every_variant_round_trip(name, mystery):
    options = preset_options(name, mystery_hand=mystery)
    state = GameState(3, options, seed=11)
    record = GameRecord.start(state, ["ann", "bob", "cy"])
    rng = random.Random(2)
    while not state.is_over():
        move = random_step(state, rng.random)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    text = record.to_json()
    again = load_record(text)
    assert again.to_dict()["variant"] == (name if not mystery else "custom")
    replayed = again.replay()
    assert again.check_result(replayed) == [] and replayed.money == state.money
    assert again.options == options


def test_a_version_one_record_still_loads():
    state = GameState(4, seed=4)
    record = GameRecord.start(state, ["a", "b", "c", "d"])
    data = record.to_dict()
    data["version"] = 1
    del data["variant"]
    data["options"] = {k: v for k, v in data["options"].items() if k in ("double_split", "start_money", "deck")}
    import json

    again = load_record(json.dumps(data))
    assert again.options == RuleOptions() and again.replay().hands == state.hands


def test_a_record_whose_variant_name_lies_is_refused():
    import json

    from modernart.record import RecordError

    data = GameRecord.start(GameState(4, seed=4), ["a", "b", "c", "d"]).to_dict()
    data["variant"] = "fa_seed"
    with pytest.raises(RecordError, match="variant"):
        load_record(json.dumps(data))


def test_new_actions_parse_and_print():
    assert Move.from_list([0, int(Action.CHOOSE_BUYER), 2]) == Move.choose_buyer(0, 2)
    assert repr(Move.choose_buyer(0, 2)) == "Move(0, CHOOSE_BUYER, 2)"
    assert Move.from_list([1, int(Action.FLIP_MYSTERY), 0]) == Move.flip_mystery(1)
