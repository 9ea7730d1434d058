"""Every bot decision is legal: in whole games and in positions from random play, with
3, 4 and 5 players and every rule option."""

from __future__ import annotations

import random

import pytest

from modernart.bots import bot_levels, make_bot
from modernart.bots.arena import play_game
from modernart.bots.styled import STYLED
from modernart.phase import Phase
from modernart.rules import RuleOptions
from tests.engine.test_determinize import OPTION_SETS, random_positions

VARIANT_PHASES = (Phase.CHOOSE_BUYER, Phase.POSTED_OFFER, Phase.MYSTERY_FLIP, Phase.ANNOUNCE)
# a few samples (the fewest that may leave medium play): legality, not strength
FAST_HARD = {"budget": 0.5, "max_passes": 3}


def bot(level: str, seed: int):
    return make_bot(level, seed=seed, **(FAST_HARD if level == "hard" else {}))


def test_levels_are_registered() -> None:
    assert {"random", "medium", "hard"} <= set(bot_levels())
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")


def test_styled_bots_are_arena_opponents_not_offered_to_players() -> None:
    from modernart.bots import arena_levels

    assert set(STYLED) == {"overbidder", "underbidder", "hoarder", "highseller", "earlycloser"}
    assert set(STYLED) <= set(arena_levels()) and not set(STYLED) & set(bot_levels())
    for level in STYLED:
        assert make_bot(level, seed=1).level == level


@pytest.mark.parametrize("level", [*STYLED, "plain"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_styled_bots_play_whole_games_legally(level: str, players: int) -> None:
    for game, options in enumerate(OPTION_SETS[:: 2 if players != 4 else 1]):
        bots = [bot(level, seed=game * 10 + s) for s in range(players - 1)] + [bot("medium", seed=game)]
        outcome = play_game(bots, seed=game * 7 + players, options=options)  # raises BotError on a bad move
        assert outcome.winners and len(outcome.money) == players


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.changed().items()) or "default"
)
def test_medium_plays_whole_games_legally(players: int, options: RuleOptions) -> None:
    for game in range(2):
        bots = [bot("medium", seed=game * 10 + s) for s in range(players - 1)] + [bot("random", seed=game)]
        outcome = play_game(bots, seed=game * 7 + players, options=options)  # raises BotError on a bad move
        assert outcome.winners and len(outcome.money) == players
        assert all(t for t in outcome.times)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hard_plays_a_whole_game_legally(players: int) -> None:
    bots = [bot("hard", 1), bot("medium", 2)] + [bot("random", s) for s in range(players - 2)]
    outcome = play_game(bots, seed=players, options=RuleOptions(double_split=players == 4))
    assert outcome.winners


@pytest.mark.parametrize("level", ["random", "medium", "hard", *STYLED, "plain"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_decisions_in_random_positions_are_legal(level: str, players: int) -> None:
    rng = random.Random(players)
    every = 1 if level != "hard" else 9
    # every step of the option sets here; the variants' own steps: tests/bots/test_bots_variants.py
    asked = {phase: 0 for phase in Phase if phase != Phase.GAME_OVER and phase not in VARIANT_PHASES}
    for options in OPTION_SETS[:: (1 if level != "hard" else 3)]:
        for i, state in enumerate(random_positions(players, options, seed=rng.getrandbits(32))):
            if state.is_over() or i % every:
                continue
            for seat in state.to_move():
                player = bot(level, seed=i)
                move = player.choose(state.observation(seat))
                if move is None:
                    assert state.phase == Phase.OPEN, f"{level} waited in {state.phase.name}"
                    continue
                assert move.seat == seat
                assert state.is_legal(move), f"{level}: {move!r} is illegal in {state!r}"
                assert player.pace(state.observation(seat), move) >= 0
                asked[state.phase] += 1
    assert all(asked.values()), asked


def test_bots_do_not_act_out_of_turn() -> None:
    for state in random_positions(4, RuleOptions(), seed=4):
        if state.is_over():
            break
        for seat in set(range(4)) - set(state.to_move()):
            for level in ("random", "medium", "hard", *STYLED, "plain"):
                assert bot(level, 0).choose(state.observation(seat)) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rollout_policy_finishes_games_legally_under_every_option(players: int) -> None:
    """The search's rollouts play every seat of sampled states; an illegal move raises."""
    from modernart.bots.rollout import RolloutPolicy
    from modernart.determinize import determinize

    rng = random.Random(players)
    for options in OPTION_SETS:
        for i, state in enumerate(random_positions(players, options, seed=rng.getrandbits(32))):
            if state.is_over() or i % 5:
                continue
            sample = determinize(state.observation(i % players), rng)
            RolloutPolicy(random.Random(i)).run(sample)
            assert sample.is_over()


def test_rollouts_with_extreme_rival_factors_stay_legal() -> None:
    """The opponent model scales limits, sealed bids and prices; at its bounds every move
    of a rollout is still legal (amounts stay within each seat's money)."""
    from modernart.bots.opponents import HIGH, LOW, Rivals
    from modernart.bots.rollout import RolloutPolicy
    from modernart.determinize import determinize

    rng = random.Random(3)
    for players in (3, 5):
        for i, state in enumerate(random_positions(players, RuleOptions(), seed=players)):
            if state.is_over() or i % 9:
                continue
            factors = tuple(HIGH if s % 2 else LOW for s in range(players))
            rivals = Rivals(factors, tuple((f,) * 5 for f in factors), factors[::-1], factors, (9,) * players)
            sample = determinize(state.observation(i % players), rng)
            RolloutPolicy(random.Random(i), rivals=rivals).run(sample)
            assert sample.is_over()
