"""The table players want, in a real terminal (tmux, 80x24, NO_COLOR, `modernart play`
through its child host): the first-game hint, the rules screen, the Scores view, the value
column, the hammer call counted down and completed, `--no-alerts`; then `modernart stats`
and `modernart audit` of a transcript from the shell."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from modernart.net.trust.transcript import write_transcript

from .test_e2e_host_leave import terms  # noqa: F401 (the fixture)
from .test_e2e_tmux import MODERNART

REPO = Path(__file__).resolve().parents[2]
#: a fixed deal (`--seed`) in which Ana, seat 1, sells first and holds Open paintings
SEED = 4


@pytest.mark.timeout(180)
def test_hint_rules_scores_values_and_the_hammer_call(terms, tmp_path):  # noqa: F811
    config = tmp_path / "config"
    env = {
        "TERM": "xterm-256color",
        "NO_COLOR": "1",
        "XDG_STATE_HOME": str(tmp_path),
        "MODERNART_CONFIG_DIR": str(config),
    }
    play = MODERNART + [
        "play",
        "--players",
        "3",
        "--bots",
        "random",
        "--bot-pace",
        "1000",
        "--seed",
        str(SEED),
        "--name",
        "Ana",
        "--record-dir",
        str(tmp_path / "games"),
        "--new",
        "--no-alerts",
    ]
    term = terms()
    term.start(play, env=env, cwd=str(REPO))
    screen = term.wait_for("YOUR TURN", timeout=40)
    assert "New here? r explains the rules" in screen  # a first game
    assert re.search(r"Artist +R1 R2 R3 R4", screen)
    assert "\a" not in term.capture(escapes=True)
    term.send("r")
    rules = term.wait_for("The whole game")
    assert (
        " Now" in rules and "is to put up a painting" in rules and rules.index(" Now") < rules.index("The whole game")
    )
    term.send("Escape")
    term.wait_for("YOUR TURN")
    term.send("v")
    term.wait_for("No round has been scored yet")
    term.send("Enter")
    screen = term.wait_for("YOUR TURN")
    hand = screen.split("Your hand")[1]
    number = re.search(r"\[?(\d+):O\]?", hand).group(1)  # an Open painting of Ana's
    term.type("0" if number == "10" else number)
    term.send("Enter")
    term.wait_for("OPEN auction")
    term.send("h")  # at once: the hammer is called, the bots (very slow) could still bid
    screen = term.wait_for(r"Going once, going twice: \ds")
    assert "[sold in " in screen.splitlines()[0] and "Ana calls: going once, going twice" in screen
    term.wait_for("Ana takes .* for free", timeout=10)  # the call completed: the lot is sold


def test_stats_and_audit_from_the_shell(tmp_path):
    base = [sys.executable, "-m", "modernart.cli.main"]
    done = subprocess.run(
        base + ["stats", "--record-dir", str(tmp_path / "g"), "--config-dir", str(tmp_path / "c")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=30,
    )
    assert done.returncode == 0 and "No finished game of yours yet." in done.stdout
    transcript = tmp_path / "x.transcript"
    write_transcript(str(transcript), [])
    done = subprocess.run(base + ["audit", str(transcript)], capture_output=True, text=True, cwd=REPO, timeout=30)
    assert done.returncode == 2 and "pass the game's record" in done.stderr
