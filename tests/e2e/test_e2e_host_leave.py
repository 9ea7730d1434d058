"""`modernart host` in a real terminal: the hosting player leaving mid-game is told that
this ends the game, and is shown how to continue it; the continued game takes them back to
their seat; a journal that cannot be resumed is a clear message, never a traceback."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from .test_e2e_tmux import LOOPBACK_HOST, MODERNART
from .tmux import Tmux

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def terms():
    made: list[Tmux] = []

    def new() -> Tmux:
        made.append(Tmux())
        return made[-1]

    try:
        yield new
    finally:
        for t in made:
            t.close()


def host_argv(tmp_path: Path, *extra: str) -> list[str]:
    return LOOPBACK_HOST + [
        "--bots",
        "2",
        "--bot-pace",
        "1000",
        "--journal-dir",
        str(tmp_path / "games"),
        "--config-dir",
        str(tmp_path / "config"),
        "--player-name",
        "Ana",
        *extra,
    ]


def flags(argv: list[str]) -> list[tuple[str, ...]]:
    """A command line's flags with their values, in a stable order."""
    out: list[tuple[str, ...]] = []
    for arg in argv:
        if arg.startswith("--"):
            out.append((arg,))
        else:
            out[-1] += (arg,)
    return sorted(out)


def env(tmp_path: Path) -> dict[str, str]:
    return {"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path)}


@pytest.mark.timeout(150)
def test_the_host_leaving_mid_game_is_told_how_to_continue_it(terms, tmp_path):
    first = terms()
    # wide enough that the command that continues the game is on one line
    first.start(host_argv(tmp_path, "--players", "3"), env=env(tmp_path), cwd=str(REPO), cols=600)
    first.wait_for(r">3 Ana \(you\) +person +not ready", timeout=30)
    first.send("r")
    screen = first.wait_for("Your hand", timeout=30)
    hand = re.search(r"Ana +100 +(\d+)", screen)
    assert hand, screen
    first.send("q")
    first.wait_for("leaving ends it")  # not "the game goes on": the host stops with you
    first.send("y")
    done = first.wait_for("EXITED:0", timeout=20)
    told = re.search(r"Continue it with: modernart host (--resume .*)", done)
    assert told, done
    again = shlex.split(told.group(1))
    journal = again[1]
    assert Path(journal).is_file() and journal.startswith(str(tmp_path / "games"))
    # every flag the host was started with, ready to paste (--port 0 aside: the game's own port)
    started = host_argv(tmp_path, "--players", "3")[len(MODERNART) + 1 :]
    assert flags(again[2:]) == flags([a for a in started if a not in ("--port", "0")]), again

    # the continued game, by the command as printed: the same player (same config) is back
    # in seat, same hand size
    second = terms()
    second.start(MODERNART + ["host", *again], env=env(tmp_path), cwd=str(REPO))
    screen = second.wait_for("Your hand", timeout=40)
    assert re.search(rf"Ana +100 +{hand.group(1)}\b", screen), screen


@pytest.mark.timeout(60)
@pytest.mark.parametrize("content", [None, "", "not json at all\n", '{"v": 1, "truncated'])
def test_a_journal_that_cannot_be_resumed_is_a_clear_message(tmp_path, content):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    done = subprocess.run(
        LOOPBACK_HOST
        + [
            "--headless",
            "--config-dir",
            str(tmp_path / "config"),
            "--resume",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=40,
        cwd=str(REPO),
    )
    assert done.returncode == 2, done
    assert f"modernart host: cannot resume {path}:" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.timeout(60)
def test_the_host_command_in_a_terminal_shows_why_its_host_did_not_start(terms, tmp_path):
    term = terms()
    missing = tmp_path / "missing.jsonl"
    term.start(
        LOOPBACK_HOST
        + [
            "--resume",
            str(missing),
            "--config-dir",
            str(tmp_path / "config"),
        ],
        env=env(tmp_path),
        cwd=str(REPO),
        cols=300,
    )
    screen = term.wait_for("EXITED:1", timeout=30)
    assert "the host did not start: cannot resume" in screen


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.timeout(150)
@pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
    reason="OpenSSH client not installed (python -m tests.tools installs it)",
)
def test_the_host_leaving_tells_its_ssh_guests_the_table_closed(terms, tmp_path):
    from .test_e2e_ssh import keypair, ssh_argv

    port = free_port()
    ssh_flags = ["--ssh", str(port), "--ssh-bind", "127.0.0.1", "--ssh-host-key", str(tmp_path / "hostkey")]
    argv = LOOPBACK_HOST + [
        "--bots",
        "1",
        "--bot-pace",
        "1000",
        "--players",
        "3",
        "--journal-dir",
        str(tmp_path / "games"),
        "--config-dir",
        str(tmp_path / "config"),
        "--player-name",
        "Ana",
        *ssh_flags,
    ]
    host = terms()
    host.start(argv, env=env(tmp_path), cwd=str(REPO), cols=600)
    host.wait_for(r"Ana \(you\) +person +not ready", timeout=30)
    guest = terms()
    guest.start(ssh_argv(port, keypair(tmp_path / "bea_key"), "bea"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
    guest.wait_for(r"bea \(you\)", timeout=30)
    guest.send("r")
    host.send("r")
    host.wait_for("Your hand", timeout=30)
    guest.wait_for("Your hand", timeout=30)

    host.send("q")
    host.wait_for("leaving ends it")
    host.send("y")
    guest.wait_for(r"the host closed the table", timeout=20)
    done = host.wait_for("EXITED:0", timeout=30)
    told = re.search(r"Continue it with: modernart host (--resume .*)", done)
    assert told, done
    again = shlex.split(told.group(1))
    assert flags(again[2:]) == flags([a for a in argv[len(MODERNART) + 1 :] if a not in ("--port", "0")]), again
    ended = guest.wait_for(r"EXITED:\d+", timeout=20)
    # the last word on the guest's terminal: its session closes with the table (it does not
    # reconnect by itself), and it comes back by logging in again once the host resumes
    assert (
        "modernart: The host closed the table. Once the host resumes the game, log in again the same way"
        in ended.replace("\n", "")
    )
    assert "reconnects by itself" not in ended.replace("\n", "")
    for screen in (done, ended):
        assert "Traceback" not in screen, screen
    logs = "".join(p.read_text() for p in (tmp_path / "modernart").glob("*.log"))
    assert "Traceback" not in logs, logs
