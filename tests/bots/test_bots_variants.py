"""Every bot plays every preset (and the mystery hand) legally, is asked in every one of the
variants' own steps, and the medium bot beats random players there too."""

from __future__ import annotations

import random

import pytest

from modernart.bots import make_bot
from modernart.bots.arena import play_game
from modernart.bots.styled import STYLED
from modernart.phase import Phase
from modernart.presets import PRESET_NAMES, preset_options
from tests.engine.test_determinize import random_positions

FAST_HARD = {"budget": 0.2, "max_passes": 1}
VARIANTS = [(name, "") for name in PRESET_NAMES] + [("standard", "hig"), ("fa_seed", "cmon"), ("fa_seed", "announce")]


def variant_options(name: str, mystery: str):
    """A preset, with a mystery hand ("hig", "cmon") or the seller announcing every auction ("announce")."""
    if mystery == "announce":
        return preset_options(name, seller_chooses_auction=True)
    return preset_options(name, mystery_hand=mystery)


def bot(level: str, seed: int):
    return make_bot(level, seed=seed, **(FAST_HARD if level == "hard" else {}))


@pytest.mark.parametrize("name, mystery", VARIANTS, ids=lambda v: v or "-")
def test_every_bot_plays_whole_games_of_every_variant(name, mystery):
    options = variant_options(name, mystery)
    for players in (3,) if mystery else (3, 5):
        levels = ["medium", "hard", "random", "medium", "random"][:players]
        outcome = play_game([bot(lv, seed=s) for s, lv in enumerate(levels)], seed=players, options=options)
        assert outcome.winners and len(outcome.money) == players


@pytest.mark.parametrize("name, mystery", VARIANTS, ids=lambda v: v or "-")
def test_styled_bots_play_whole_games_of_every_variant(name, mystery):
    """The styled arena opponents (`styled.py`) too, two of each style in turn."""
    options = variant_options(name, mystery)
    styles = [*STYLED, "plain"]
    for game, players in enumerate((3,) if mystery else (3, 4, 5)):
        levels = [styles[(game + s) % len(styles)] for s in range(players - 1)] + ["hard"]
        outcome = play_game([bot(lv, seed=s) for s, lv in enumerate(levels)], seed=players, options=options)
        assert outcome.winners and len(outcome.money) == players


@pytest.mark.parametrize("level", ["random", "medium", "hard", *STYLED, "plain"])
def test_bots_decide_legally_in_the_variants_steps(level):
    """Every step only variants take, and the Fixed and posted prices of `price_up_to_richest`
    (up to the richest other player's money, which is more than the seller's own here and
    there) and of the seller's own money without it."""
    asked = {Phase.CHOOSE_BUYER: 0, Phase.POSTED_OFFER: 0, Phase.MYSTERY_FLIP: 0, Phase.ANNOUNCE: 0, Phase.FIXED_SET: 0}
    rng = random.Random(7)
    for name, mystery, more in [
        ("fa_seed", "", {}),
        ("fa_seed", "", {"price_up_to_richest": False}),
        ("fa_seed", "hig", {"seller_chooses_auction": True}),
        ("standard", "cmon", {"seller_chooses_auction": True}),
    ]:
        options = preset_options(name, mystery_hand=mystery, **more)
        for i, state in enumerate(random_positions(3 if mystery else 4, options, seed=rng.getrandbits(32))):
            if state.phase not in asked or (level == "hard" and asked[state.phase] > 6):
                continue
            for seat in state.to_move():
                move = bot(level, seed=i).choose(state.observation(seat))
                assert move is not None and move.seat == seat
                assert state.is_legal(move), f"{level}: {move!r} is illegal in {state!r}"
                asked[state.phase] += 1
    assert all(asked.values()), asked


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_medium_beats_three_random_players_in_every_preset(name):
    """A small check of what docs/bots.md measures with `modernart arena --variant`."""
    wins = 0
    for game in range(8):
        bots = [bot("medium", game)] + [bot("random", game * 3 + s) for s in range(3)]
        outcome = play_game(bots, seed=game, options=preset_options(name))
        wins += 0 in outcome.winners
    assert wins >= 6
