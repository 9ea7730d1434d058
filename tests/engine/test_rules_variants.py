"""The variants of docs/rules.md §10: the presets equal to their options, random play in every
preset, and record round trips (their worked scenarios are in tests/engine/test_rules_scenarios.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from modernart.events import BANK
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.presets import PRESET_NAMES, PRESETS, preset_of, preset_options
from modernart.record import GameRecord, load_record
from modernart.rules import OptionError, RuleOptions
from modernart.bots.random_bot import random_step

from tests.engine_setup import all_cards


def _opts(**changes: object) -> RuleOptions:
    return RuleOptions.from_dict(changes)


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


@pytest.mark.parametrize("more", [{}, {"seller_chooses_auction": True}, {"price_up_to_richest": False}])
def test_every_seats_view_gives_the_engines_legal_moves_in_fa_seed(more):
    """The observation's own legal moves (views.py, what bots and clients use) are the
    engine's at every step, the price range up to the richest other player's money (read
    from the public payments) and the seller's announcement included."""
    from modernart.views import public_money

    options = preset_options("fa_seed", **more)
    for seed in range(6):
        state = GameState(4, options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in range(4):
                obs = state.observation(seat)
                assert public_money(obs) == tuple(state.money)
                assert obs.legal_moves() == state.legal_moves(seat), (seat, state)
            state.apply(random_step(state, rng.random))


def test_an_fa_seed_record_from_before_the_price_up_to_the_richest_still_loads():
    """A record of fa_seed made before the preset gained `price_up_to_richest` names the
    options it had then: it loads as the game it was (the seller's money capped prices),
    still named fa_seed; a record naming the option with another value is no fa_seed."""
    import json

    from modernart.record import RecordError

    old = preset_options("fa_seed", price_up_to_richest=False)
    state = GameState(4, old, seed=5)
    rng = random.Random(5)
    record = GameRecord.start(state, ["a", "b", "c", "d"])
    while not state.is_over():
        move = random_step(state, rng.random)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    data = record.to_dict()
    assert data["variant"] == "custom"
    for name in ("price_up_to_richest", "seller_chooses_auction"):
        del data["options"][name]
    data["variant"] = "fa_seed"
    again = load_record(json.dumps(data))
    assert again.options == old and again.replay().money == state.money
    data["options"]["price_up_to_richest"] = False
    with pytest.raises(RecordError, match="variant"):
        load_record(json.dumps(data))
