"""`modernart replay FILE --view` in a real terminal (tmux, 80x24 and 120x40, NO_COLOR):
move by move and round by round, forwards and back, every hand, each round's scoring;
without a terminal it says so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_tui_replay_view import recorded_game

from .test_e2e_host_leave import terms  # noqa: F401 (the fixture)
from .test_e2e_tmux import MODERNART

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_stepping_through_a_record(terms, tmp_path, size):  # noqa: F811
    path = tmp_path / "game.json"
    recorded_game(players=4, seed=5).save(str(path))
    term = terms()
    term.start(
        MODERNART + ["replay", str(path), "--view"],
        cols=size[0],
        rows=size[1],
        env={"NO_COLOR": "1", "TERM": "xterm-256color"},
        cwd=str(REPO),
    )
    term.wait_for(r"Replay game.json: move 0 of \d+, round 1 of 4", timeout=20)
    term.send("Right")
    term.wait_for(r"move 1 of \d+")
    term.send("Down")
    screen = term.wait_for("Round 1 scored:")
    assert "Paid:" in screen and "Ana" in screen and "Dai" in screen
    term.send("Down")
    term.wait_for("Round 2 scored:")
    term.send("Up")
    term.wait_for("Round 1 scored:")
    term.send("End")
    term.wait_for("Game over:")
    term.send("Left")
    term.wait_for(r"round 4 of 4")
    term.send("Home")
    term.wait_for(r"move 0 of")
    term.send("q")
    term.wait_for("EXITED:0")


def test_without_a_terminal_it_says_so(tmp_path):
    path = tmp_path / "game.json"
    recorded_game().save(str(path))
    done = subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "replay", str(path), "--view"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "needs a terminal" in done.stderr
