"""`modernart play` and `modernart resume` in a real terminal (tmux, 80x24, no colour): a game
left mid-game tells the shell how to continue it; `modernart play` offers to continue it;
`modernart resume` lists it and continues it, the player back in their seat with their hand,
the bots playing on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .test_e2e_host_leave import terms  # noqa: F401 (the fixture)
from .test_e2e_tmux import MODERNART

REPO = Path(__file__).resolve().parents[2]


def dirs(tmp_path: Path) -> list[str]:
    return ["--record-dir", str(tmp_path / "games"), "--config-dir", str(tmp_path / "config")]


def env(tmp_path: Path) -> dict[str, str]:
    return {"TERM": "xterm-256color", "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path)}


def leave(term) -> str:
    term.send("q")
    term.wait_for("leaving ends it")
    term.send("y")
    return term.wait_for("EXITED:0", timeout=20)


@pytest.mark.timeout(240)
def test_left_mid_game_then_continued_by_play_and_by_resume(terms, tmp_path):  # noqa: F811
    play = MODERNART + ["play", "--players", "3", "--bot-pace", "1000", *dirs(tmp_path)]
    first = terms()
    first.start(play, env=env(tmp_path), cwd=str(REPO))
    screen = first.wait_for("Your hand", timeout=40)
    hand = re.search(r"Ana +100 +(\d+)|(\w+) +100 +(\d+)", screen)
    assert hand, screen
    done = leave(first)
    assert "Continue it with: modernart resume" in done, done
    journal = re.search(r"the game is saved \((\S+?)\)", done.replace("\n", ""))
    assert journal and Path(journal.group(1)).is_file(), done

    second = terms()  # `modernart play` offers it first
    second.start(play, env=env(tmp_path), cwd=str(REPO))
    second.wait_for(r"You have an unfinished game: .*'s table: you", timeout=20)
    second.wait_for(r"Continue it\? \[Y/n\]")
    second.send("Enter")
    screen = second.wait_for("Your hand", timeout=40)
    assert "Round 1/4" in screen
    leave(second)

    third = terms()  # `modernart resume` lists it and asks
    third.start(MODERNART + ["resume", *dirs(tmp_path)], env=env(tmp_path), cwd=str(REPO))
    listed = third.wait_for(r"Continue which game\? \[1-1, Enter: 1, q: none\]", timeout=20)
    assert " 1. " in listed and "round 1 of 4" in listed
    third.send("1", "Enter")
    screen = third.wait_for("Your hand", timeout=40)
    assert "Round 1/4" in screen
    leave(third)


@pytest.mark.timeout(240)
def test_an_offline_game_without_a_config_dir_is_continued_too(terms, tmp_path):  # noqa: F811
    """`play --offline` keeps its keys where `play` does (here the config dir the environment
    names, as a user's own would be): left mid-game, it is offered by the next
    `play --offline` and continued, then continued by `modernart resume` in a child host."""
    offline_env = {**env(tmp_path), "MODERNART_CONFIG_DIR": str(tmp_path / "mine")}
    games = ["--record-dir", str(tmp_path / "games")]
    play = MODERNART + ["play", "--offline", "--players", "3", "--bot-pace", "1000", *games]
    first = terms()
    first.start(play, env=offline_env, cwd=str(REPO))
    first.wait_for("Your hand", timeout=40)
    done = leave(first)
    assert "Continue it with: modernart resume" in done, done
    assert {p.name for p in (tmp_path / "mine").iterdir()} >= {"host.key", "player.key"}

    second = terms()
    second.start(play, env=offline_env, cwd=str(REPO))
    second.wait_for(r"You have an unfinished game: .*'s table: you", timeout=20)
    second.wait_for(r"Continue it\? \[Y/n\]")
    second.send("Enter")
    screen = second.wait_for("Your hand", timeout=40)
    assert "Round 1/4" in screen
    leave(second)

    third = terms()
    third.start(MODERNART + ["resume", "1", *games], env=offline_env, cwd=str(REPO))
    screen = third.wait_for("Your hand", timeout=40)
    assert "Round 1/4" in screen
    leave(third)
