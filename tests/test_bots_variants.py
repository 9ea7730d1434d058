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
from tests.test_determinize import random_positions

FAST_HARD = {"budget": 0.2, "max_passes": 1}
VARIANTS = [(name, "") for name in PRESET_NAMES] + [("standard", "hig"), ("fa_seed", "cmon")]


def bot(level: str, seed: int):
    return make_bot(level, seed=seed, **(FAST_HARD if level == "hard" else {}))


@pytest.mark.parametrize("name, mystery", VARIANTS, ids=lambda v: v or "-")
def test_every_bot_plays_whole_games_of_every_variant(name, mystery):
    options = preset_options(name, mystery_hand=mystery)
    for players in (3,) if mystery else (3, 5):
        levels = ["medium", "hard", "random", "medium", "random"][:players]
        outcome = play_game([bot(lv, seed=s) for s, lv in enumerate(levels)], seed=players, options=options)
        assert outcome.winners and len(outcome.money) == players


@pytest.mark.parametrize("name, mystery", VARIANTS, ids=lambda v: v or "-")
def test_styled_bots_play_whole_games_of_every_variant(name, mystery):
    """The styled arena opponents (`styled.py`) too, two of each style in turn."""
    options = preset_options(name, mystery_hand=mystery)
    styles = [*STYLED, "plain"]
    for game, players in enumerate((3,) if mystery else (3, 4, 5)):
        levels = [styles[(game + s) % len(styles)] for s in range(players - 1)] + ["hard"]
        outcome = play_game([bot(lv, seed=s) for s, lv in enumerate(levels)], seed=players, options=options)
        assert outcome.winners and len(outcome.money) == players


@pytest.mark.parametrize("level", ["random", "medium", "hard", *STYLED, "plain"])
def test_bots_decide_legally_in_the_variants_steps(level):
    asked = {Phase.CHOOSE_BUYER: 0, Phase.POSTED_OFFER: 0, Phase.MYSTERY_FLIP: 0}
    rng = random.Random(7)
    for name, mystery in [("fa_seed", ""), ("fa_seed", "hig"), ("standard", "cmon")]:
        options = preset_options(name, mystery_hand=mystery)
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
