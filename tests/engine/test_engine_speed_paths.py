"""The engine's fast paths (docs/engine-performance.md): they must change nothing but speed.

Pure-Python checks of the shortcuts (plain-int twins of the enums, per-deck card tables,
the random player's seat draw, interned moves, clone/blank), then the compiled build:
when mypy can build it (once per version of its sources, cached under build/), the
engine's rules tests run against it and it must play exactly the same games as the pure
engine.
"""

from __future__ import annotations

import ast
import collections
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from modernart import auctions, moves, phase
from modernart.bots.random_bot import _open_seat, random_move, random_step
from modernart.cards import DECK_TABLES, AuctionType
from modernart.errors import MalformedMove, UnknownSeat
from modernart.events import BANK
from modernart.cards import card_tables, deck_cards
from modernart.game import GameState
from modernart.moves import Action, Move, move_of
from modernart.phase import Phase
from modernart.presets import PRESET_NAMES, preset_options
from modernart.rules import RuleOptions, parse_rank_values
from modernart.state import STATE_SLOTS
from modernart.views import observation

from tests.engine_setup import fingerprint

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------- pure-Python fast paths


def test_plain_int_constants_equal_the_enums():
    for p in Phase:
        assert getattr(phase, p.name) == p.value and type(getattr(phase, p.name)) is int
    assert phase.PHASES == tuple(Phase)
    for a in Action:
        assert getattr(moves, a.name) == a.value and type(getattr(moves, a.name)) is int
    assert auctions.DOUBLE == AuctionType.DOUBLE and auctions._BANK == BANK


@pytest.mark.parametrize("deck_name", sorted(DECK_TABLES))
def test_card_tables_agree_with_the_cards(deck_name):
    deck, artist_of, kind_of = card_tables(deck_name)
    assert deck is deck_cards(DECK_TABLES[deck_name])
    assert artist_of == tuple(int(c.artist) for c in deck) and kind_of == tuple(int(c.kind) for c in deck)
    state = GameState(4, RuleOptions(deck=deck_name), seed=1)
    assert state.deck is deck and state.artist_of is artist_of and state.kind_of is kind_of
    other = GameState.blank(4)
    other.deck = deck  # a shared deck takes its shared tables
    assert other.kind_of is kind_of
    other.deck = tuple(deck[:10])  # any other card tuple gets tables of its own
    assert other.artist_of == artist_of[:10] and other.kind_of == kind_of[:10]


def test_fields_name_every_field():
    state = GameState.blank(5)
    for name in GameState.FIELDS:
        getattr(state, name)
    # the slots of the state's classes (GameState adds none to BaseState's)
    slots = [name for cls in GameState.__mro__ for name in getattr(cls, "__slots__", ())] or None
    if slots is not None:  # pure Python: a compiled class has no __slots__
        mirrors = set(GameState.MIRRORS)  # set with options / deck
        public = {name.lstrip("_") for name in slots if name not in mirrors}
        assert public == set(GameState.FIELDS) and len(GameState.FIELDS) == len(public)
    # in both builds: FIELDS and the mirrors are every slot, once (the slots tuple is module data)
    assert len(STATE_SLOTS) == len(set(STATE_SLOTS)) == len(GameState.FIELDS) + len(GameState.MIRRORS)
    assert {"rules", "pass_is_final", "double_split", "artist_of", "kind_of"} <= set(GameState.MIRRORS)
    assert not set(GameState.FIELDS) & set(GameState.MIRRORS)


def test_the_option_mirrors_follow_the_options():
    """Every mirror of an option holds that option's value (parsed, for the rank values),
    set by the constructor, by assigning `options` and by `clone`."""
    for options in (RuleOptions(), *[preset_options(name) for name in PRESET_NAMES], RuleOptions(mystery_hand="hig")):
        players = 3
        state = GameState(players, options, seed=1)
        other = GameState.blank(players)
        other.options = options
        for copy in (state, other, state.clone(), other.clone()):
            assert copy.options is options and copy.rules is options
            assert copy.pass_is_final == options.open_pass_is_final
            assert copy.rank_value_tuple == parse_rank_values(options.rank_values)
            assert copy.hand_sizes == options.deal_sizes(options.hands_dealt(players))
            for name in GameState.MIRRORS:
                if hasattr(options, name) and name != "rank_values":
                    assert getattr(copy, name) == getattr(options, name), name


def test_phase_and_options_properties_keep_their_mirrors():
    state = GameState(3, seed=2)
    assert state.phase is Phase.PLAY_CARD and state.phase_id == 0
    state.phase = Phase.SEALED
    assert state.phase_id == 4 and state.phase is Phase.SEALED
    state.options = RuleOptions(open_pass_is_final=True, double_split=True)
    assert state.pass_is_final and state.double_split


def _open_states(count: int, seed: int) -> list[GameState]:
    """States in Open auctions, in all sorts of positions, from random games."""
    rng = random.Random(seed)
    found: list[GameState] = []
    game = 0
    while len(found) < count:
        options = RuleOptions(open_pass_is_final=game % 2 == 1)
        state = GameState(3 + game % 3, options, seed=rng.getrandbits(32))
        game += 1
        while not state.is_over() and len(found) < count:
            if state.phase == Phase.OPEN and rng.random() < 0.3:
                found.append(state.clone())
            state.apply(random_step(state, rng.random))
    return found


def test_open_seat_draw_is_uniform_over_to_move():
    rng = random.Random(3)
    for state in _open_states(40, seed=4):
        seats = state.to_move()
        draws = collections.Counter(_open_seat(state, rng.random) for _ in range(200 * len(seats)))
        assert set(draws) == set(seats)
        for seat in seats:  # 200 expected per seat: far outside this band would not be uniform
            assert 120 <= draws[seat] <= 280, (seats, draws)


def _choice_of(move: Move) -> tuple[int, int]:
    """A move's choice in the random player's sense: a whole amount range is one choice."""
    return (move.action, -1) if move.action in moves.AMOUNT_ACTIONS else (move.action, move.arg)


def test_random_move_is_uniform_over_choices_and_amounts():
    rng = random.Random(5)
    states: list[GameState] = []
    for game in range(6):
        state = GameState(4, seed=100 + game)
        while not state.is_over():
            if rng.random() < 0.08:
                states.append(state.clone())
            state.apply(random_step(state, rng.random))
    checked_phases = set()
    for state in states:
        seat = state.to_move()[0]
        legal = state.legal_moves(seat)
        choices = {_choice_of(m) for m in legal}
        draws = [random_move(state, seat, rng.random) for _ in range(150 * len(choices))]
        assert all(m in legal for m in draws)
        counts = collections.Counter(_choice_of(m) for m in draws)
        assert set(counts) == choices
        assert all(75 <= c <= 225 for c in counts.values()), (state.phase, counts)
        amount_range = state.amount_range(seat)
        if amount_range is not None and amount_range[2] > amount_range[1]:
            _, lo, hi = amount_range
            amounts = [m.arg for m in draws if m.action in moves.AMOUNT_ACTIONS]
            assert lo <= min(amounts) and max(amounts) <= hi
            # uniform over lo..hi: the mean is within 5 standard errors of the middle
            sigma = (hi - lo + 1) / 12**0.5
            assert abs(sum(amounts) / len(amounts) - (lo + hi) / 2) <= 5 * sigma / len(amounts) ** 0.5 + 0.5
        checked_phases.add(state.phase)
    assert checked_phases >= {
        Phase.PLAY_CARD,
        Phase.OPEN,
        Phase.ONCE_AROUND,
        Phase.SEALED,
        Phase.FIXED_SET,
        Phase.FIXED_OFFER,
    }


def test_interned_moves():
    assert move_of(2, Action.BID, 17) is Move.of(2, Action.BID, 17) is moves.MOVE_TABLE[Action.BID][2][17]
    assert move_of(1, Action.PASS) is Move.pass_(1) and Move.pass_(1) == (1, 4, 0)
    big = move_of(3, Action.SEALED_BID, 5000)  # above the interning limit: built fresh
    assert big == (3, Action.SEALED_BID, 5000) and type(big.action) is Action
    assert repr(move_of(0, Action.PLAY, 12)) == "Move(0, PLAY, 12)"


def test_clone_is_an_equal_independent_copy():
    rng = random.Random(6)
    state = GameState(5, seed=7, track_events=True)
    while not state.is_over():
        copy = state.clone()
        assert fingerprint(copy)[:-1] == fingerprint(state)[:-1] and copy.events is None
        assert copy.to_move() == state.to_move() and copy.legal_moves() == state.legal_moves()
        before = fingerprint(state)
        move = random_step(copy, rng.random)
        copy.apply(move)  # playing on the copy, and changing its lists, leaves the original alone
        copy.money[0] += 1000
        for hand in copy.hands:
            hand.clear()
        assert fingerprint(state) == before
        state.apply(move)


def test_a_state_built_from_blank_plays_on_like_the_original():
    """`blank()` is how code builds a state field by field (e.g. sampling hidden cards)."""
    rng = random.Random(8)
    original = GameState(4, seed=9)
    while original.round < 1 or original.phase != Phase.OPEN:
        original.apply(random_step(original, rng.random))
    built = GameState.blank(4, original.options)
    assert built.phase == Phase.PLAY_CARD and built.hands == [[], [], [], []] and built.money == [100] * 4
    for name in (
        "money",
        "hands",
        "stock",
        "counts",
        "tiles",
        "bought",
        "discard",
        "lot",
        "passed",
        "sealed",
        "bids",
        "results",
        "sales",
        "offenders",
        "deal_log",
    ):
        value = getattr(original, name)
        setattr(built, name, [list(v) if isinstance(v, list) else v for v in value])
    for name in (
        "round",
        "phase",
        "auctioneer",
        "original",
        "kind",
        "turn",
        "high",
        "high_seat",
        "npassed",
        "nsealed",
        "price",
        "auction_no",
        "move_count",
        "first_auctioneer",
    ):
        setattr(built, name, getattr(original, name))
    assert observation(built, 1) == observation(original, 1)
    seed = rng.getrandbits(32)
    a, b = random.Random(seed), random.Random(seed)
    while not original.is_over():
        move = random_step(original, a.random)
        assert random_step(built, b.random) == move
        original.apply(move)
        built.apply(move)
    assert built.is_over() and built.money == original.money and built.results == original.results


@pytest.mark.parametrize(
    "bad, error",
    [
        ((0, Action.PASS), MalformedMove),
        ((0, Action.PASS, 0, 1), MalformedMove),
        ((True, Action.PASS, 0), UnknownSeat),
        ((0, True, 0), MalformedMove),
        ((0, -1, 0), MalformedMove),
        ((0, len(Action), 0), MalformedMove),  # the first action id past the last one
        ((0, "3", 0), MalformedMove),
        ((0, Action.BID, None), MalformedMove),
        ((0, Action.PLAY, 2.0), MalformedMove),
    ],
)
def test_apply_names_malformed_moves(bad, error):
    state = GameState(4, seed=1, first_auctioneer=0)
    before = fingerprint(state)
    with pytest.raises(error):
        state.apply(bad)
    assert fingerprint(state) == before


def test_the_shuffle_is_a_seeds_old_shuffle():
    """The shuffle sorts the cards by one random float each, drawn in deck order: the deal
    a seed gives must not change (tests and saved seeds rely on it)."""
    for seed in range(20):
        rng = random.Random(seed)
        keys = [rng.random() for _ in range(70)]
        expected = [card for _, card in sorted(zip(keys, range(70)))]
        state = GameState(4, seed=seed)
        dealt = [int(c) for hand in state.hands for c in hand]
        assert dealt + [int(c) for c in state.stock] == expected
        assert state.first_auctioneer == rng.randrange(4)


def test_setup_py_builds_pure_python_unless_asked(tmp_path):
    env = dict(os.environ)
    env.pop("MODERNART_COMPILE", None)
    done = subprocess.run(
        [sys.executable, "setup.py", "--name"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "modernart" in done.stdout
    env["MODERNART_COMPILE"] = "1"
    done = subprocess.run(
        [sys.executable, "setup.py", "develop"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0 and "stale compiled modules" in done.stderr


# ---------------------------------------------------------------------- the compiled build

#: What the engine does for fixed seeds: results of whole games under every option, and
#: every query along games with full enumeration.  Runs under either build.
DIGEST_CODE = r"""
import hashlib, random
from modernart.bots.random_bot import play_random_game, random_step
from modernart.game import GameState
from modernart.rules import RuleOptions

def digest(games):
    h = hashlib.sha256()
    for seed in range(games):
        opts = RuleOptions(double_split=seed % 2 == 1, open_pass_is_final=seed % 3 == 0,
                           deck="bgg239213" if seed % 5 == 0 else "consensus")
        s = play_random_game(3 + seed % 3, random.Random(seed), options=opts)
        h.update(repr((s.money, s.move_count, [tuple(r) for r in s.results], [tuple(x) for x in s.sales])).encode())
    for seed in range(games // 10):
        rng = random.Random(seed)
        s = GameState(3 + seed % 3, seed=rng, track_events=True)
        while not s.is_over():
            m = rng.choice(s.legal_moves()) if rng.random() < 0.3 else random_step(s, rng.random)
            s.apply(m)
            c = s.clone()
            h.update(repr((c.phase, c.to_move(), c.legal_moves(amounts=False),
                           [c.amount_range(x) for x in range(c.n)])).encode())
        h.update(repr(s.events).encode())
    return h.hexdigest()
"""


COMPILED_MODULES = (
    "modernart/phase.py",
    "modernart/moves.py",
    "modernart/scoring.py",
    "modernart/state.py",
    "modernart/auctions.py",
    "modernart/game.py",
    "modernart/bots/random_bot.py",
)  # as in setup.py


def _build_inputs() -> list[Path]:
    """setup.py, the compiled modules and every module of the package they import (at any
    depth, in functions too): what the compiled code can depend on."""
    todo = [ROOT / name for name in COMPILED_MODULES]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        todo += [parent / "__init__.py" for parent in path.parents if (parent / "__init__.py").exists()]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = path.parents[node.level - 1]
                for dotted in ([node.module] if node.module else []) + [
                    f"{node.module}.{a.name}" if node.module else a.name for a in node.names
                ]:
                    target = base.joinpath(*dotted.split("."))
                    todo += [target.with_suffix(".py"), target / "__init__.py"]
    return sorted(seen) + [ROOT / "setup.py"]


def _compiled_build() -> Path:
    """A directory holding the compiled build's extension modules for these sources.

    Built here (with mypy, once per version of `_build_inputs`) and cached under build/.
    """
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypy is not installed: `pip install mypy` to test the compiled engine")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler to build the compiled engine")
    digest = hashlib.sha256()
    for path in _build_inputs():
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    cache_root = ROOT / "build"
    cache = cache_root / f"compiled-engine-{digest.hexdigest()[:16]}"
    if (cache / "built").exists():
        return cache
    cache_root.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="compiling-engine-", dir=cache_root))
    try:
        shutil.copytree(ROOT / "modernart", work / "modernart", ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("setup.py", "pyproject.toml", "README.md"):
            shutil.copy(ROOT / name, work / name)
        env = dict(os.environ, MODERNART_COMPILE="1")
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, f"compiled build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        shutil.rmtree(work / "build")
        (work / "built").write_text(time.strftime("%Y-%m-%d %H:%M:%S"))
        try:
            work.rename(cache)
        except OSError:  # built meanwhile by another test run
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for old in cache_root.glob("compiled-engine-*"):  # earlier versions of the sources
        if old != cache and time.time() - old.stat().st_mtime > 3600:
            shutil.rmtree(old, ignore_errors=True)
    return cache


@pytest.fixture(scope="module")
def compiled_engine(tmp_path_factory) -> Path:
    """A directory whose `modernart` package is today's sources with the compiled build's
    extension modules beside them (Python imports an extension before a .py file).
    $MODERNART_COMPILED_TREE names such a directory made elsewhere instead."""
    given = os.environ.get("MODERNART_COMPILED_TREE")
    if given:
        return Path(given)
    build = _compiled_build()
    tree = tmp_path_factory.mktemp("compiled-engine")
    shutil.copytree(ROOT / "modernart", tree / "modernart", ignore=shutil.ignore_patterns("__pycache__"))
    for lib in build.rglob("*.so"):
        target = tree / lib.relative_to(build)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(lib, target)
    return tree


def _run_compiled(tree: Path, code: str, timeout: float = 300) -> str:
    program = f"import sys; sys.path.insert(0, {str(tree)!r})\n{code}"
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.timeout(1200)
def test_the_compiled_engine_plays_exactly_the_same_games(compiled_engine):
    out = _run_compiled(
        compiled_engine,
        DIGEST_CODE
        + r"""
import json, modernart.game, modernart.auctions, modernart.bots.random_bot
files = [m.__file__ for m in (modernart.game, modernart.auctions, modernart.bots.random_bot)]
print(json.dumps({"files": files, "digest": digest(300)}))
""",
    )
    result = json.loads(out)
    assert all(not f.endswith(".py") for f in result["files"]), result["files"]  # really compiled
    namespace: dict = {}
    exec(DIGEST_CODE, namespace)
    assert result["digest"] == namespace["digest"](300)


@pytest.mark.timeout(1200)
def test_the_rules_tests_pass_against_the_compiled_engine(compiled_engine, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(compiled_engine, tree, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for name in ("tests", "cli", "net"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "e2e"))
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "engine").glob("test_rules_*.py"))
    tests += ["tests/engine/test_record.py", "tests/engine/test_engine_speed_paths.py"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-p",
            "no:cacheprovider",
            *tests,
            "-k",
            "not compiled_engine and not setup_py",
        ],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=1100,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= 50, done.stdout[-2000:]
    probe = _run_compiled(tree, "import modernart.game as g; print(g.__file__)")
    assert probe.strip().endswith(".so") or probe.strip().endswith(".pyd")
