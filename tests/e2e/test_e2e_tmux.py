"""End to end in a real terminal: `modernart play` in tmux at 80x24, a whole game against
bots played by key presses only; a live resize; a NO_COLOR run."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from .player import play_until_over, record_line_for, records_in
from .screen import colour_codes
from .tmux import Tmux

MODERNART = [sys.executable, "-m", "modernart.cli.main"]
#: `modernart host` on loopback, on a port the system picks, not announced on the LAN
LOOPBACK_HOST = MODERNART + ["host", "--bind", "127.0.0.1", "--port", "0", "--no-beacon"]


@pytest.fixture
def term():
    t = Tmux()
    try:
        yield t
    finally:
        t.close()


def play_argv(record_dir: str, *extra: str, offline: bool = True) -> list[str]:
    where = ["--offline"] if offline else []
    where += ["--config-dir", f"{record_dir}/config"]  # keys of this test's own, never the user's
    return MODERNART + [
        "play",
        *where,
        "--name",
        "Ana",
        "--players",
        "3",
        "--bots",
        "random",
        "--bot-pace",
        "0",
        "--open-seconds",
        "1",
        "--seed",
        "7",
        "--record-dir",
        record_dir,
        *extra,
    ]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("through", ["protocol", "offline"])
def test_whole_game_by_key_presses_at_80x24(term, tmp_path, through):
    """`modernart play` (a host with bot clients in a child process, joined over
    127.0.0.1) and `modernart play --offline` (the same host inside the client's process)."""
    term.start(
        play_argv(str(tmp_path), offline=through == "offline"),
        env={"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path / "state")},
        cwd=str(_repo()),
    )
    # the whole first frame, in one capture: a later one may show a bots' auction begun
    # meanwhile (bots at pace 0), whose hints for a bid leave no room for "? help"
    first = term.wait_for(r"Your hand(.|\n)*Log and chat(.|\n)*\? help", timeout=20)
    assert term.size() == "80x24"
    rows = first.split("\n")
    assert rows[0].startswith(" Round 1/4 | Ana $100 |")
    for text in ("Artists", "Auction", "Players", "Your hand", "Log and chat", "L Lite Metal", "K Krypto"):
        assert text in first
    assert "? help" in rows[23]
    seen, final = play_until_over(term)
    final = term.wait_for("Record saved to", timeout=10)  # the host reports it just after the end
    # every kind of auction came up, and this player had to act in several of them: the auctions
    # that wait for every player were on screen; an Open or Fixed price one that bots settle at
    # once (a bot auctioneer may hammer at once) can be over before a capture, and the log tells it
    assert {"ONCE-AROUND", "SEALED auction"} <= seen.panels, seen.panels
    assert {"OPEN auction", "FIXED PRICE"} <= seen.panels | seen.logged, (seen.panels, seen.logged)
    assert seen.my_turns.get("sell", 0) >= 3 and seen.keys >= 10
    # every round was played; at least one scoring overlay was read (it gives way at once when the
    # player is needed, which with instant bots can be before a screen capture: tests/cli/test_tui_scoring.py)
    assert seen.rounds_reached == {1, 2, 3, 4}, seen.rounds_reached
    assert seen.scorings, ("no scoring overlay was ever on screen", seen.rounds_ended)
    first = min(seen.scorings)
    assert re.search(r"Ended by the fifth|every hand was empty", seen.screens[f"scoring {first}"])
    # the final screen: money, winners, the record
    assert "GAME OVER." in final and "Final money" in final and "WINNER" in final
    records = records_in(tmp_path)
    assert len(records) == 1
    # offline: the one record; through the protocol: this client's own copy, then the host's
    record_line_for(term, records[0])
    replay = subprocess.run(
        MODERNART + ["replay", "--check", str(records[0])], capture_output=True, text=True, timeout=60, cwd=str(_repo())
    )
    assert replay.returncode == 0, replay.stderr
    result = json.loads(replay.stdout)
    assert result["finished"] and result["players"][0] == "Ana"
    money = re.search(r"\* +\d\.  Ana +(?:[+\d ]+?) +(\d+)", final)
    assert money and int(money.group(1)) == result["final_money"][0]
    term.send("q")
    term.wait_for("EXITED:0", timeout=10)


@pytest.mark.timeout(90)
def test_live_resize(term, tmp_path):
    term.start(play_argv(str(tmp_path), "--bot-pace", "1000"), env={"TERM": "xterm-256color"}, cwd=str(_repo()))
    term.wait_for("Your hand", timeout=20)
    term.resize(60, 20)
    screen = term.wait_for("Terminal too small")
    assert "need 80x24, have 60x20" in screen
    term.resize(120, 36)
    screen = term.wait_for("Your hand")
    rows = screen.split("\n")
    assert len(rows[1].rstrip()) == 120 and rows[1][60] == "┌"
    assert "Terminal too small" not in screen
    term.resize(80, 24)
    screen = term.wait_for("Your hand")
    assert len(screen.split("\n")[1].rstrip()) == 80
    term.send("q")
    term.wait_for("Leave the table")
    term.send("y")
    term.wait_for("EXITED:0", timeout=10)


@pytest.mark.timeout(90)
def test_no_color_and_plain_terminals(term, tmp_path):
    term.start(
        play_argv(str(tmp_path), "--bot-pace", "1000"),
        env={"TERM": "xterm-256color", "NO_COLOR": "1", "LANG": "C", "LC_ALL": "C"},
        cwd=str(_repo()),
    )
    screen = term.wait_for("Your hand", timeout=20)
    coloured = term.capture(escapes=True)
    assert not colour_codes(coloured), "NO_COLOR run printed colours"
    assert "\x1b[" in coloured  # bold/reverse remain
    assert "K Krypto" in screen and "*" in screen and "┌" in screen  # LANG=C: Python still speaks UTF-8
    term.send("C-c")
    term.wait_for("Leave the table")
    term.send("y")
    term.wait_for("EXITED:0", timeout=10)


@pytest.mark.timeout(90)
def test_colours_and_ascii(term, tmp_path):
    term.start(
        play_argv(str(tmp_path), "--bot-pace", "1000", "--ascii", "--color", "16"),
        env={"TERM": "xterm-256color"},
        cwd=str(_repo()),
    )
    screen = term.wait_for("Your hand", timeout=20)
    assert "+- Artists -" in screen and not set("─│┌┐└┘") & set(screen)
    coloured = term.capture(escapes=True)
    assert {"31", "32", "33", "34", "35"} <= colour_codes(coloured)  # the five artists, in 16 colours
    term.send("q")
    term.wait_for("Leave the table")
    term.send("y")
    term.wait_for("EXITED:0", timeout=10)


@pytest.mark.timeout(90)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the host is forked on Linux only")
def test_play_forks_its_host_rather_than_starting_an_interpreter(term, tmp_path):
    """On Linux `modernart play`'s child host is a fork of the command (the same command
    line, its parent the command), not `python -m modernart.cli.tui.child_host`; leaving
    stops it (cli/tui/child_host.py `fork_host`)."""
    term.start(
        play_argv(str(tmp_path), "--bot-pace", "1000", offline=False),
        env={"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path / "state")},
        cwd=str(_repo()),
    )
    term.wait_for("Your hand", timeout=20)
    pids = _pythons_running(f"cli.main play .*{tmp_path}")
    assert len(pids) == 2, pids  # the command and its fork, one command line
    parents = {pid: int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1]) for pid in pids}
    assert sorted(parent in pids for parent in parents.values()) == [False, True], parents  # one the other's child
    assert _pythons_running(f"child_host .*{tmp_path}") == []  # no interpreter started for the host
    term.send("q")
    term.wait_for("Leave the table")
    term.send("y")
    term.wait_for("EXITED:0", timeout=20)
    assert _pythons_running(f"cli.main play .*{tmp_path}") == [], "the forked host outlived its player"


def _pythons_running(pattern: str) -> list[int]:
    """The Python processes whose command line matches `pattern` (not tmux, not the shell
    that runs the command: theirs holds the same words)."""
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    pids = []
    for pid in map(int, found.stdout.split()):
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:  # ended meanwhile
            continue
        if argv[0].decode() == sys.executable:
            pids.append(pid)
    return pids


def _repo():
    from pathlib import Path

    return Path(__file__).resolve().parents[2]


@pytest.mark.timeout(120)
def test_modernart_host_plays_at_its_own_table(term, tmp_path):
    """`modernart host` in a terminal: the host runs as a child process and this terminal
    becomes the hosting player's own client (its own key and seat, through the protocol,
    the table's admin); leaving stops the host."""
    config = tmp_path / "config"
    term.start(
        LOOPBACK_HOST
        + [
            "--players",
            "3",
            "--bots",
            "2",
            "--bot-pace",
            "1000",
            "--journal-dir",
            str(tmp_path / "games"),
            "--config-dir",
            str(config),
            "--name",
            "Ana's table",
            "--player-name",
            "Ana",
        ],
        env={"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path)},
        cwd=str(_repo()),
    )
    lobby = term.wait_for(r">3 Ana \(you\) +person +not ready", timeout=30)  # the cursor on your seat
    assert "join code" in lobby.split("\n")[0]
    term.send("r")  # the host's --players 3: ready starts it
    screen = term.wait_for("Your hand", timeout=30)
    assert re.search(r"\*.Ana +100", screen)
    term.send("q")
    term.wait_for("Leave the table")
    term.send("y")
    term.wait_for("EXITED:0", timeout=20)
    host_log = (tmp_path / "modernart" / "host.log").read_text()
    assert "join string:" not in host_log  # the join string went to the client, the log has the rest
    assert {p.name for p in config.iterdir()} >= {"host.key", "player.key"}
    done = subprocess.run(["pgrep", "-f", f"cli.main host --headless .*{config}"], capture_output=True, text=True)
    assert done.stdout.strip() == "", "the host outlived its player"
