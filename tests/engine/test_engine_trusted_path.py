"""The engine's trusted path (`GameState.apply_trusted`, the random player's `random_play`,
the rollouts) must play the very same games as the checked path: same seeds, same states
after every move, same event streams, same errors, under every rule option.

Differential: two states from one seed, one fed through `apply(move)` and one through
`apply_trusted(seat, action, arg)`, compared field by field after every move.  The moves
mix the random player's, uniform picks from `legal_moves()` (which covers every action,
new ones too) and sealed forfeits, so every handler and every settlement path runs,
including the Sealed one with offenders.  A fixed digest pins the games to those the
engine played before the trusted path existed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random

import pytest

from modernart.bots.random_bot import play_random_game, random_act, random_move, random_play, random_step
from modernart.bots.rollout import RolloutPolicy
from modernart.cards import DECK_TABLES
from modernart.errors import IllegalMove
from modernart.presets import PRESET_NAMES, preset_of, preset_options
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.rules import OptionError, RuleOptions

#: Values tried per option: both for every bool, these for the others; an option not
#: named here (a new one) is tried at its default and, if bool, flipped.
OPTION_VALUES: dict[str, list[object]] = {
    "three_player_first_deal": [10, 11],
    "sealed_offender_fine": [0, 7],
    "start_money": [100, 40],
    "deck": sorted(DECK_TABLES),
    "deal_size_fixed": [0, 9],
    "rank_values": ["30,20,10", "40,25,10,5"],
    "mystery_hand": ["", "hig", "cmon"],  # three players only
}


def option_sets() -> list[RuleOptions]:
    """Every option at each of its values, in a handful of combinations (each value of
    each option appears, and every pair of bool options takes all four values)."""
    choices: dict[str, list[object]] = {}
    for f in dataclasses.fields(RuleOptions):
        default = getattr(RuleOptions(), f.name)
        if isinstance(default, bool):
            choices[f.name] = [False, True]
        else:
            choices[f.name] = OPTION_VALUES.get(f.name, [default])
    bools = [name for name, values in choices.items() if values == [False, True]]
    sets = []
    for k, flips in enumerate(itertools.product([False, True], repeat=min(len(bools), 3))):
        values = {name: choices[name][k % len(choices[name])] for name in choices}
        values.update({name: flip for name, flip in zip(bools, flips)})
        for extra, name in enumerate(bools[3:]):  # more bools: each on in some sets
            values[name] = (k >> (extra % 3)) & 1 == 1
        sets.append(RuleOptions(**values))
    return sets + [preset_options(name) for name in PRESET_NAMES]


OPTION_SETS = option_sets()


def option_id(options: RuleOptions) -> str:
    return preset_of(options) or "-".join(f"{k}={v}" for k, v in options.changed().items()) or "default"


def playable(options: RuleOptions, players: int) -> bool:
    try:
        options.check_players(players)
    except OptionError:
        return False
    return True


def frozen(value: object) -> object:
    """`value` with every list in it (at any depth) made a tuple: a copy that compares by value."""
    if isinstance(value, list):
        return tuple([frozen(v) for v in value])
    return value


def snapshot(state: GameState) -> tuple[object, ...]:
    """Every field of the state (`FIELDS`), the event log aside."""
    return tuple([frozen(getattr(state, name)) for name in GameState.FIELDS if name != "events"])


def next_move(state: GameState, rng: random.Random) -> Move:
    """The random player's move, or a uniform pick among every legal move, or (in a Sealed
    auction) a forfeit."""
    r = rng.random()
    if state.phase == Phase.SEALED and r < 0.1:
        return Move.sealed_forfeit(rng.choice(state.to_move()))
    if r < 0.4:
        return rng.choice(state.legal_moves())
    return random_step(state, rng.random)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_trusted_and_checked_paths_play_the_same_games(options, players):
    if not playable(options, players):
        pytest.skip(f"these options are not for {players} players")
    for seed in range(6):
        checked = GameState(players, options, seed=seed)
        trusted = GameState(players, options, seed=seed)
        logged_checked = GameState(players, options, seed=seed, track_events=True)
        logged_trusted = GameState(players, options, seed=seed, track_events=True)
        rng = random.Random(seed)
        while not checked.is_over():
            move = next_move(checked, rng)
            seat, action, arg = move
            checked.apply(move)
            trusted.apply_trusted(seat, int(action), arg)
            logged_checked.apply(move)
            logged_trusted.apply_trusted(seat, int(action), arg)
            assert snapshot(trusted) == snapshot(checked), (seed, move)
        assert snapshot(logged_trusted) == snapshot(logged_checked) == snapshot(checked)
        assert logged_trusted.events == logged_checked.events


@pytest.mark.timeout(600)
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_illegal_moves_raise_the_same_error_and_change_nothing(options):
    rng = random.Random(5)
    for seed in range(4):
        if not playable(options, 3 + seed % 3):
            continue
        state = GameState(3 + seed % 3, options, seed=seed, track_events=True)
        while not state.is_over():
            for _ in range(3):  # moves of the right shape, mostly illegal
                seat, action, arg = rng.randrange(state.n), rng.choice(list(Action)), rng.randrange(-3, 120)
                errors = []
                for path in ("checked", "trusted"):
                    copy = state.clone()
                    copy.events = list(state.events or [])
                    before = snapshot(copy), list(copy.events)
                    try:
                        if path == "checked":
                            copy.apply(Move(seat, action, arg))
                        else:
                            copy.apply_trusted(seat, int(action), arg)
                    except IllegalMove as e:
                        errors.append((type(e), str(e)))
                        assert (snapshot(copy), list(copy.events)) == before
                    else:
                        errors.append(("legal", snapshot(copy), list(copy.events)))
                assert errors[0] == errors[1], (seed, seat, action, arg)
            state.apply(random_step(state, rng.random))
        for path in (state.apply_trusted, lambda s, a, x: state.apply(Move(s, Action(a), x))):
            with pytest.raises(IllegalMove, match="after the game has ended"):
                path(0, 4, 0)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_the_random_player_draws_the_same_on_both_paths(options):
    for seed in range(10):
        players = 3 + seed % 3
        if not playable(options, players):
            continue
        stepped = GameState(players, options, seed=seed)
        played = GameState(players, options, seed=seed)
        rng_stepped, rng_played = random.Random(seed), random.Random(seed)
        while not stepped.is_over():
            stepped.apply(random_step(stepped, rng_stepped.random))
            random_play(played, rng_played.random)
            assert snapshot(played) == snapshot(stepped)
        whole = play_random_game(players, random.Random(seed), options=options)
        reference = GameState(players, options, seed=(rng := random.Random(seed)))
        while not reference.is_over():
            reference.apply(random_step(reference, rng.random))
        assert snapshot(whole) == snapshot(reference)
        # random_move for a given seat is random_act with that seat; with `play` it plays that move
        state = GameState(players, options, seed=seed)
        seat = state.to_move()[0]
        move = random_move(state, seat, random.Random(1).random)
        assert move == random_act(state, random.Random(1).random, seat)
        applied = state.clone()
        applied.apply(move)
        assert random_act(state, random.Random(1).random, seat, True) is None
        assert snapshot(state) == snapshot(applied)


def test_rollouts_play_the_same_moves_as_through_apply():
    """Every move of a rollout (on the trusted path) is legal through `apply`, and the
    moves replayed through `apply` end exactly where the rollout ended."""

    class Recording(GameState):
        __slots__ = ("made",)

        def apply_trusted(self, seat: int, action: int, arg: int = 0) -> None:
            self.made.append(Move(seat, Action(action), arg))
            super().apply_trusted(seat, action, arg)

    for_four = [options for options in OPTION_SETS if playable(options, 4)]
    for k in range(30):
        rng = random.Random(k)
        state = GameState(4, seed=rng, options=for_four[k % len(for_four)])
        while state.auction_no < 3 + k % 7:
            state.apply(random_step(state, rng.random))
        fast = Recording.blank(4, state.options)
        copy = state.clone()
        for name in GameState.FIELDS:
            setattr(fast, name, getattr(copy, name))
        fast.made = []
        RolloutPolicy(random.Random(k)).run(fast, None if k % 2 else fast.round)
        checked = state.clone()
        for move in fast.made:
            checked.apply(move)
        assert fast.made and snapshot(fast) == snapshot(checked)


def test_the_same_games_as_before_the_trusted_path():
    """Seeded self-play under options gives exactly what the engine gave at commit eedcaff
    (before the trusted path): the digest below was computed with that commit's engine."""
    h = hashlib.sha256()
    for seed in range(60):
        opts = RuleOptions(
            double_split=seed % 2 == 1,
            open_pass_is_final=seed % 3 == 0,
            deck="bgg239213" if seed % 5 == 0 else "consensus",
            three_player_first_deal=11 if seed % 7 == 0 else 10,
            start_money=60 if seed % 4 == 0 else 100,
        )
        s = play_random_game(3 + seed % 3, random.Random(seed), options=opts)
        h.update(repr((s.money, s.move_count, [tuple(r) for r in s.results], [tuple(x) for x in s.sales])).encode())
    assert h.hexdigest() == BEFORE_DIGEST


BEFORE_DIGEST = "ac7773c9c67e894327539d06cb249b96de89dd9463517d746aba818d45987809"


# ---------------------------------------------------------------------- a seed's games, pinned per preset


#: the options presets have gained since the digest was pinned, at their values then
PINNED_AS = {"fa_seed": {"price_up_to_richest": False}}


def preset_games_digest(games: int = 8) -> str:
    """A digest of how seeded random games end in every preset (as it was when the digest
    was pinned, `PINNED_AS`), for 3-5 players."""
    h = hashlib.sha256()
    for name in PRESET_NAMES:
        for players in (3, 4, 5):
            options = preset_options(name, **PINNED_AS.get(name, {}))
            if not playable(options, players):
                continue
            for seed in range(games):
                s = play_random_game(players, random.Random(seed), options=options)
                h.update(repr((name, players, s.money, s.move_count, [tuple(x) for x in s.sales])).encode())
    return h.hexdigest()


def test_a_seeds_games_are_the_same_on_every_path_and_in_every_equal_preset():
    """A fixed seed plays the very same game through `apply` (each move checked), through
    `apply_trusted` one move at a time (`random_play`), as one call (`play_random_game`)
    and from a clone taken mid-game; options that cannot change a self-play game give the
    very same game: the standard preset and the defaults, another edition, the
    three-player deal size with four or five players, and the sealed offender fine (nobody
    forfeits in self-play: the Sealed settlement's path without offenders).  And the
    games are those the engine played before its options became plain fields (commit
    ee8057b; the digest below was computed with that commit's engine)."""
    for name in PRESET_NAMES:
        options = preset_options(name)
        for players in (3, 4, 5):
            if not playable(options, players):
                continue
            same = [RuleOptions(**{**options.to_dict(), "edition": "cmon2017", "sealed_offender_fine": 7})]
            if name == "standard":
                same.append(RuleOptions())
            if players > 3:
                other_deal = 10 if options.three_player_first_deal == 11 else 11
                same.append(RuleOptions(**{**options.to_dict(), "three_player_first_deal": other_deal}))
            for seed in range(4):
                checked = GameState(players, options, seed=(rng := random.Random(seed)))
                trusted = GameState(players, options, seed=(rng_trusted := random.Random(seed)))
                half = None
                while not checked.is_over():
                    checked.apply(random_step(checked, rng.random))
                    random_play(trusted, rng_trusted.random)
                    if half is None and checked.round == 2:
                        half = (checked.clone(), random.Random(), checked.move_count)
                        half[1].setstate(rng.getstate())
                whole = play_random_game(players, random.Random(seed), options=options)
                assert snapshot(trusted) == snapshot(checked) == snapshot(whole), (name, players, seed)
                if half is not None:
                    resumed, rng_resumed, _ = half
                    while not resumed.is_over():
                        random_play(resumed, rng_resumed.random)
                    assert snapshot(resumed) == snapshot(checked), (name, players, seed)
                for equal in same:
                    game = play_random_game(players, random.Random(seed), options=equal)
                    assert (game.money, game.move_count, game.sales, game.results) == (
                        checked.money,
                        checked.move_count,
                        checked.sales,
                        checked.results,
                    ), (name, players, seed, equal.changed())
    assert preset_games_digest() == PRESET_DIGEST


PRESET_DIGEST = "18dfb1bdec7371e51794e01b6b3d8e6497c121ceb7e18ab7ae1088f387ec2c4d"
