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
    assert 0 <= float(rows["medium"][4]) <= 100 and rows["medium"][5].startswith("[")
    # the table fits a terminal of 80 columns (it was ~100 wide and wrapped: issue 27)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)


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
    """--budget: the hard bots' budget is their thread's CPU time (by default), and the run says so."""
    done = arena("--bots", "hard,random,random", "--games", "2", "--seed", "1", "--budget", "0.02", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["budget_clock"] == "cpu"
    stats = {s["bot"]: s for s in data["stats"]}
    assert stats["hard"]["games"] == 2
    assert stats["hard"]["cpu_max_ms"] < 20 + 5  # what the bot controls
    done = arena("--bots", "hard,random,random", "--games", "1", "--seed", "2", "--budget", "0.02")
    assert "hard budget 0.02 s of CPU time (what an idle machine gives)" in " ".join(done.stdout.split())
    row = next(line.split() for line in done.stdout.splitlines() if line.startswith("hard "))
    assert float(row[-1]) < 20 + 5  # cpu max (ms): the budget, counted on the CPU clock


@pytest.mark.timeout(150)
def test_arena_counts_the_budget_in_wall_time_on_request() -> None:
    """--budget-clock wall: the budget is wall-clock time (results then depend on the load)."""
    done = arena(
        "--bots", "hard,random,random", "--games", "1", "--seed", "2", "--budget", "0.02", "--budget-clock", "wall"
    )
    assert done.returncode == 0, done.stderr
    assert "hard budget 0.02 s of wall clock" in " ".join(done.stdout.split())
    row = next(line.split() for line in done.stdout.splitlines() if line.startswith("hard "))
    assert float(row[-1]) < 20 + 5  # the CPU it used stays within the wall budget


def test_signed_rank_test_on_margins() -> None:
    from modernart.bots.paired import margin, pair, signed_rank_test

    # values checked against scipy.stats.wilcoxon (exact below 50 deals without ties, normal above)
    assert math.isclose(signed_rank_test([3, 5, -1, 7, 2, 4]), 0.0625)
    assert math.isclose(signed_rank_test([1.5, -2.25, 3.5, 4.75, 6.0, -0.5, 8.0, 9.5]), 0.0546875)
    big = [((i * 37) % 23) - 8 + (i % 3) * 0.5 for i in range(80)]
    assert math.isclose(signed_rank_test(big), 0.00015759, rel_tol=1e-4)
    assert signed_rank_test([0, 0, 0]) == 1.0 and signed_rank_test([]) == 1.0
    assert signed_rank_test([2, -2]) == 1.0  # ties in |d| share a rank: a perfectly even split
    assert math.isclose(signed_rank_test([4] * 10), 2 / 2**10)  # all one way: the sign test's p
    bots = [make_bot("medium", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]
    won = play_game(bots, seed=5)
    lost = play_game([make_bot("random", seed=1), bots[1], bots[2]], seed=5)
    assert margin(won, 0) == won.money[0] - max(won.money[1:]) and margin(won, 0) >= 0
    result = pair("a", "b", [0, 0, 0], [won, won, lost], [lost, won, lost])
    assert result.a.margins == [margin(won, 0), margin(won, 0), margin(lost, 0)]
    assert result.margin_counts == (1, 0, 2)
    assert result.margin_p_value == 1.0 and "no significant" in result.margin_verdict()


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


def test_sign_test_and_paired_totals() -> None:
    from modernart.bots.paired import deal_seating, pair, sign_test

    assert math.isclose(sign_test(60, 29), 0.00134, abs_tol=1e-5)  # the figures of the issue
    assert math.isclose(sign_test(25, 5), 0.000325, abs_tol=1e-6)
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert math.isclose(sign_test(0, 5), 2 / 32)
    seats = [deal_seating("a", ["x", "y", "z"], i)[0] for i in range(8)]
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]
    seating = [deal_seating("a", ["x", "y", "z"], i)[1] for i in range(24)]
    assert all(s.count("a") == 1 and sorted(s) == ["a", "x", "y", "z"] for s in seating)
    assert len(set(seating)) == 24  # every seat, every order of the pool
    bots = [make_bot("medium", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]
    won = play_game(bots, seed=5)
    result = pair("a", "b", [0, 0], [won, won], [won, won])
    assert result.a_only == result.b_only == 0 and result.both + result.neither == 2
    assert result.p_value == 1.0 and "no significant" in result.verdict()


def test_progress_bar_draws_only_on_a_terminal() -> None:
    import io

    from modernart.cli.progress import Progress, clock_text

    quiet = io.StringIO()
    bar = Progress(3, "games", quiet)  # not a terminal: nothing
    bar.advance()
    bar.close()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    ticks = iter([0.0, 1.0, 30.0, 60.0])
    bar = Progress(3, "games", shown, enabled=True, clock=lambda: next(ticks))
    bar.advance()
    bar.advance()
    bar.advance()
    bar.close()
    lines = shown.getvalue().split("\r")
    assert "1/3 games" in lines[1] and "about 0:02 left" in lines[1]
    assert "3/3 games, 1:00 elapsed" in lines[-1] and "left" not in lines[-1]
    assert clock_text(3725) == "1:02:05"


@pytest.mark.timeout(300)
def test_arena_compare_pairs_deals_and_is_deterministic() -> None:
    runs = []
    for jobs in ("1", "2"):
        done = arena(
            "--compare",
            "medium,underbidder",
            "--against",
            "medium,random",
            "--games",
            "6",
            "--seed",
            "4",
            "--jobs",
            jobs,
            "--json",
        )
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        a, b = data["candidates"]
        assert a["bot"] == "medium" and b["bot"] == "underbidder" and a["deals"] == b["deals"] == 6
        assert data["a_only"] + data["b_only"] + data["both"] + data["neither"] == 6
        assert data["a_only"] + data["both"] == a["wins"] and data["b_only"] + data["both"] == b["wins"]
        assert 0 < data["sign_test_p"] <= 1
        assert data["margin_a_larger"] + data["margin_b_larger"] + data["margin_equal"] == 6
        assert 0 < data["signed_rank_p"] <= 1 and "margin_verdict" in data
        deals = data["per_deal"]  # deal by deal: they add up to the totals
        assert len(deals) == 6 and [sum(d["won"][k] for d in deals) for k in (0, 1)] == [a["wins"], b["wins"]]
        assert sum(d["margin"][0] > d["margin"][1] for d in deals) == data["margin_a_larger"]
        assert sum(d["margin"][0] for d in deals) / 6 == pytest.approx(a["mean_margin"])
        runs.append(data["candidates"] + [data["a_only"], data["b_only"]])
    assert runs[0] == runs[1]
    done = arena("--compare", "hard:rivals=off,hard", "--against", "random,random", "--games", "3", "--passes", "2")
    assert done.returncode == 0, done.stderr
    assert all(len(line) <= 80 for line in done.stdout.splitlines())  # long lines are wrapped
    flat = " ".join(done.stdout.split())
    assert "hard:rivals=off and hard on the same 3 deals" in flat
    assert "sign test (exact, two-sided): p = " in flat and "discordant deals" in flat
    assert "Wilcoxon signed-rank (two-sided): p = " in flat
    assert "hard searches 2 samples per decision" in flat


@pytest.mark.timeout(300)
def test_arena_defaults_repeat_exactly_for_a_seed() -> None:
    """No bots named: the default table, the hard bot searching a fixed number of samples,
    so the whole result repeats for a seed (whatever the number of processes)."""
    from modernart.bots.hard import DEFAULT_PASSES, HardBot
    from modernart.cli import cmd_arena

    assert cmd_arena.DEFAULT_PASSES == DEFAULT_PASSES  # the arena names the table's setting
    bot = cmd_arena.build_bot("hard", 1, cmd_arena.hard_options(None, None))
    table = make_bot("hard", seed=1)
    assert isinstance(bot, HardBot) and isinstance(table, HardBot)
    assert (bot.max_passes, bot.budget, bot.clock_name) == (table.max_passes, table.budget, table.clock_name)
    assert (table.max_passes, table.clock_name) == (DEFAULT_PASSES, "cpu")
    from modernart.cli.tui.screens.lobby import LOBBY_HELP

    said = dict(LOBBY_HELP)["Bots"]  # the lobby says the table's setting
    assert f"{DEFAULT_PASSES} sampled deals a move" in said and f"{table.budget:g} s of CPU" in said
    runs = []
    for jobs in ("1", "2"):
        done = arena("--games", "2", "--seed", "9", "--passes", "2", "--jobs", jobs, "--json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert data["bots"] == ["hard", "medium", "random", "random"]
        runs.append([(s["bot"], s["games"], s["wins"], s["mean_money"], s["decisions"]) for s in data["stats"]])
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--compare", "hard,medium"], "needs --against"),
        (["--compare", "hard", "--against", "medium,medium"], "--compare takes 2 bots"),
        (["--compare", "hard,medium", "--against", "medium"], "--against takes 2 to 4 bots"),
        (["--compare", "hard,medium", "--against", "medium,medium", "--bots", "a,b,c"], "not --bots"),
        (["--bots", "medium,random,random", "--against", "medium,medium"], "--against goes with --compare"),
        (["--bots", "hard:budget,random,random"], "not KEY=VALUE"),
        (["--bots", "hard:colour=red,random,random"], "bad options"),
        (["--bots", "overlord,random,random"], "unknown bot level"),
        (["--bots", "medium,random,random", "--passes", "0"], "--passes"),
        (["--bots", "hard,random,random", "--budget-clock", "cpu"], "--budget-clock goes with --budget"),
        (["--bots", "hard,random,random", "--budget", "0.1", "--budget-clock", "sundial"], "invalid choice"),
        (["--bots", "hard:clock=sundial,random,random"], "clock is one of wall, cpu"),
    ],
)
def test_arena_rejects_bad_comparisons(args: list[str], message: str) -> None:
    done = arena(*args, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr
