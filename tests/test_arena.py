"""The arena: seatings, statistics, and the `modernart arena` command in real processes."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter

import pytest

from modernart.bots import Bot, make_bot
from modernart.bots.arena import BotError, play_game, seatings, tally, wilson
from modernart.moves import Move
from modernart.phase import Phase


def test_every_entry_visits_every_seat_equally() -> None:
    orders = seatings(["hard", "medium", "random", "random"])
    assert len(orders) == 24
    for seat in range(4):
        assert Counter(o[seat] for o in orders) == {"hard": 6, "medium": 6, "random": 12}


def test_wilson_interval() -> None:
    lo, hi = wilson(40, 100)
    assert math.isclose(lo, 0.3094, abs_tol=5e-4) and math.isclose(hi, 0.4980, abs_tol=5e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
    lo, hi = wilson(5, 10)
    assert math.isclose(lo + hi, 1.0)


class Waiter(Bot):
    """Never acts in an Open auction; otherwise plays like the medium bot."""

    level = "waiter"

    def __init__(self) -> None:
        super().__init__(0)
        self.inner = make_bot("medium", seed=0)

    def choose(self, obs):
        return None if obs.phase == Phase.OPEN else self.inner.choose(obs)


def test_open_auction_closes_when_everyone_waits() -> None:
    outcome = play_game([Waiter(), Waiter(), Waiter()], seed=4)
    assert outcome.winners


class Cheat(Bot):
    level = "cheat"

    def choose(self, obs):
        if obs.seat in obs.to_move and obs.phase == Phase.PLAY_CARD:
            return Move.play(obs.seat, next(c for c in range(70) if c not in obs.hand))
        return make_bot("random", seed=0).choose(obs)


def test_an_illegal_move_is_reported_with_the_bot() -> None:
    with pytest.raises(BotError, match="cheat.*illegal"):
        play_game([Cheat(), make_bot("random"), make_bot("random")], seed=1)


def test_tally_counts_co_winners_and_decisions() -> None:
    outcomes = [
        play_game(
            [make_bot("medium", seed=s), make_bot("random", seed=s), make_bot("random", seed=s + 1)],
            seed=s,
            names=("medium", "random", "random"),
        )
        for s in range(3)
    ]
    stats = tally(outcomes)
    assert stats["medium"].games == 3 and stats["random"].games == 6
    total_wins = sum(len(o.winners) for o in outcomes)
    assert stats["medium"].wins + stats["random"].wins == total_wins
    assert math.isclose(stats["medium"].share + stats["random"].share, 3.0)
    assert stats["medium"].decisions == sum(len(o.times[0]) for o in outcomes)


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "arena", *args], capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.timeout(150)
def test_arena_command_prints_a_table() -> None:
    done = arena("--bots", "medium,random,random,random", "--games", "8", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "8 games" in lines[0] and "seed 3" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines if line.split()[:1] in (["medium"], ["random"])}
    assert rows["medium"][1] == "8" and rows["random"][1] == "24"
    assert "%" in rows["medium"][4]


@pytest.mark.timeout(150)
def test_arena_json_is_deterministic_given_the_seed() -> None:
    runs = []
    for jobs in ("1", "2"):
        done = arena("--bots", "medium,medium,random", "--games", "6", "--seed", "11", "--jobs", jobs, "--json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        runs.append([(s["bot"], s["games"], s["wins"], s["mean_money"]) for s in data["stats"]])
        assert data["games"] == 6
        by_bot = {s["bot"]: s for s in data["stats"]}
        assert by_bot["medium"]["games"] == 12 and by_bot["random"]["games"] == 6
        assert by_bot["medium"]["decisions_per_s"] > 0
        lo, hi = by_bot["medium"]["ci95"]
        assert lo <= by_bot["medium"]["win_rate"] <= hi
    assert runs[0] == runs[1]  # same games, whether played in one process or two


@pytest.mark.timeout(150)
def test_arena_runs_the_hard_bot_with_a_budget() -> None:
    done = arena("--bots", "hard,random,random", "--games", "2", "--seed", "1", "--budget", "0.02", "--json")
    assert done.returncode == 0, done.stderr
    stats = {s["bot"]: s for s in json.loads(done.stdout)["stats"]}
    assert stats["hard"]["games"] == 2
    assert stats["hard"]["cpu_max_ms"] < 20 + 5  # what the bot controls
    assert stats["hard"]["max_ms"] < 20 + 250  # plus whatever a busy machine adds


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bots", "medium,wizard,random"], "unknown bot level"),
        (["--bots", "medium,random"], "3 to 5 seats"),
        (["--bots", "medium,random,random", "--games", "0"], "at least 1"),
        (["--bots", "hard,random,random", "--budget", "-1"], "--budget"),
    ],
)
def test_arena_rejects_bad_arguments(args: list[str], message: str) -> None:
    done = arena(*args, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr
