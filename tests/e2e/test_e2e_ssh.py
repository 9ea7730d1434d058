"""End to end over SSH: `modernart play --ssh` serves the client; the system OpenSSH client
in tmux plays a whole game by key presses, drops the connection mid-game and gets its seat
back with the same key.  Through `modernart host --ssh`: someone who offers a player's
public key without its private key and logs in with the join code is not that player;
a guest takes its copy of the finished game home with `ssh ... record` and audits it."""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import time

import pytest

from tests.slowdown import scaled

from .player import play_until_over, record_line_for, records_in
from .screen import colour_codes
from .tmux import Tmux
from .test_e2e_tmux import LOOPBACK_HOST, MODERNART, _repo

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
    reason="OpenSSH client not installed (python -m tests.tools installs it)",
)


@pytest.fixture
def server(tmp_path):
    """The SSH table on 127.0.0.1 (port chosen by the OS); yields (port, record_dir)."""
    records = tmp_path / "records"
    argv = MODERNART + [
        "play",
        "--ssh",
        "0",
        "--ssh-bind",
        "127.0.0.1",
        "--ssh-host-key",
        str(tmp_path / "hostkey"),
        "--players",
        "3",
        "--guests",
        "1",
        "--bots",
        "random",
        "--bot-pace",
        "0",
        "--open-seconds",
        "1",
        "--seed",
        "7",
        "--record-dir",
        str(records),
        "--config-dir",
        str(tmp_path / "config"),
    ]
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:  # a file, not a pipe: the server can never block on its output
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, text=True, cwd=str(_repo()))
    try:
        yield _port_from(log_path, proc, timeout=20), records
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _port_from(log_path, proc: subprocess.Popen, timeout: float) -> int:
    end = time.monotonic() + scaled(timeout)
    while time.monotonic() < end:
        found = re.search(r"listening on port (\d+)", log_path.read_text())
        if found:
            return int(found.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(
        f"the SSH table did not say its port within {scaled(timeout):.0f} s (exit code {proc.poll()}):\n"
        f"{log_path.read_text()}"
    )


def keypair(path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True, timeout=20)
    return str(path)


def ssh_argv(port: int, key: str, user: str) -> list[str]:
    return [
        "ssh",
        "-p",
        str(port),
        "-i",
        key,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "BatchMode=yes",
        "-o",
        "SendEnv=NO_COLOR",
        "-t",
        f"{user}@127.0.0.1",
    ]


@pytest.mark.timeout(300)
def test_whole_game_over_ssh_with_a_dropped_connection(server, tmp_path):
    port, records = server
    key = keypair(tmp_path / "ana_key")
    first = Tmux()
    try:
        first.start(ssh_argv(port, key, "ana"), env={"TERM": "screen", "LANG": "C.UTF-8"})
        lobby = first.wait_for(r">1 ana \(you\)", timeout=20)
        # the table is the real host's: its join string in the title's lines, on its own line, whole
        assert re.search(r"^ ma://127\.0\.0\.1:\d+/\S+/t1 *$", "\n".join(lobby.split("\n")[1:5]), re.M), lobby
        assert re.search(r"2 Bot A +bot random +READY", lobby)
        first.send("r")
        first.wait_for(r">1 ana \(you\) +person +READY")
        first.send("s")
        first.wait_for("Your hand")
        # play until round 2, then drop the connection without leaving
        deadline = time.monotonic() + scaled(60)
        from .player import answer, Seen

        seen = Seen()
        while "Round 2/4" not in first.capture():
            screen = first.capture()
            rows = screen.split("\n")
            for k in answer(rows[0], next((r for r in reversed(rows) if r.strip()), ""), screen, seen):
                first.type(k) if len(k) > 1 and k.isdigit() else first.send(k)
            time.sleep(0.3)
            assert time.monotonic() < deadline, f"not in round 2 within {scaled(60):.0f} s:\n{screen}"
    finally:
        first.close()  # kills the ssh client: an abrupt drop, no 'q'
    again = Tmux()
    try:
        again.start(ssh_argv(port, key, "ana"), env={"TERM": "xterm-256color", "NO_COLOR": "1"})
        screen = again.wait_for(r"\*.ana ", timeout=20)  # the same seat, by the same key
        assert "Bot A" in screen and "Your hand" in screen and "scoring" not in screen
        assert not colour_codes(again.capture(escapes=True))  # the guest's NO_COLOR
        seen, final = play_until_over(again)
        assert "GAME OVER." in final and "WINNER" in final
        saved = records_in(records)  # the host's record, beside its journal
        assert len(saved) == 1
        record_line_for(again, saved[0])  # the guest's client's own copy first, then the host's
        again.send("q")
        again.wait_for("EXITED:0", timeout=15)
    finally:
        again.close()


@pytest.mark.timeout(60)
def test_no_terminal_is_refused_politely(server, tmp_path):
    port, _ = server
    key = keypair(tmp_path / "key")
    argv = [a for a in ssh_argv(port, key, "bob") if a != "-t"] + ["-T"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert "modernart needs a terminal: connect with ssh -t" in done.stdout + done.stderr
    # a usage error, as OpenSSH users expect; 255 (a2b2fc2: no exit status sent) is ssh's own
    # for a connection that failed
    assert done.returncode == 2, done.returncode


@pytest.mark.timeout(90)
def test_a_second_ssh_session_with_one_key_takes_the_seat_over(server, tmp_path):
    """Two SSH sessions with one key: the newer one plays the seat, the earlier one ends
    saying so.  On a2b2fc2 both screens stayed on and both controlled the seat (checked:
    the first screen still showed its seat after the second joined)."""
    port, _ = server
    key = keypair(tmp_path / "ana_key")
    first, second = Tmux(), Tmux()
    try:
        first.start(ssh_argv(port, key, "ana"), env={"TERM": "screen", "LANG": "C.UTF-8"})
        first.wait_for(r">1 ana \(you\)", timeout=20)
        second.start(ssh_argv(port, key, "ana"), env={"TERM": "screen", "LANG": "C.UTF-8"})
        second.wait_for(r">1 ana \(you\)", timeout=20)  # the same seat, by the same key
        ended = first.wait_for("EXITED:", timeout=20)
        assert "another SSH session with your key took this seat over" in ended, ended
        assert "EXITED:0" in ended
        second.send("r")
        second.wait_for(r">1 ana \(you\) +person +READY")  # the newer session plays the seat
    finally:
        first.close()
        second.close()


@pytest.fixture
def lan_host(tmp_path):
    """`modernart host --headless --ssh 0` on 127.0.0.1 with two bots and fast clocks (an idle
    guest's decisions run out in 0.3 s); yields a function that starts it (with any extra
    flags), waits for its output and returns (ssh port, join code).  Stopped by SIGTERM (it
    saves its journal)."""
    argv = LOOPBACK_HOST + [
        "--headless",
        "--players",
        "3",
        "--bots",
        "2",
        "--bot-pace",
        "0",
        "--config-dir",
        str(tmp_path / "cfg"),
        "--journal-dir",
        str(tmp_path / "games"),
        "--ssh",
        "0",
        "--ssh-bind",
        "127.0.0.1",
        "--ssh-host-key",
        str(tmp_path / "hostkey"),
        "--clocks",
        '{"decision": 0.3, "open_countdown": 0.3, "reveal": 3}',
    ]
    log_path = tmp_path / "host.log"
    procs: list[subprocess.Popen] = []

    def started(*flags: str) -> tuple[int, str]:
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                argv + list(flags), stdout=log, stderr=subprocess.STDOUT, text=True, cwd=str(_repo())
            )
        procs.append(proc)
        end = time.monotonic() + scaled(30)
        while not (found := re.search(r"join code: +(\S+)\n(?:.*\n)*?ssh: +ssh -p (\d+)", log_path.read_text())):
            assert proc.poll() is None and time.monotonic() < end, (
                f"no join code and ssh port within {scaled(30):.0f} s (exit code {proc.poll()}):\n{log_path.read_text()}"
            )
            time.sleep(0.1)
        return int(found.group(2)), found.group(1)

    try:
        yield started
    finally:
        for proc in procs:
            proc.terminate()  # the host saves its journal and stops its bots and SSH server first
            try:
                proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise AssertionError(f"the host did not stop within 40 s of SIGTERM:\n{log_path.read_text()}")


@pytest.mark.timeout(120)
def test_modernart_host_serves_the_client_over_ssh(lan_host, tmp_path):
    """`modernart host --ssh PORT`: a friend with nothing installed types `ssh -p PORT
    NAME@HOST` and plays at the host's table, through the protocol like everyone else."""
    port, _ = lan_host()
    term = Tmux()
    try:
        term.start(ssh_argv(port, keypair(tmp_path / "bea_key"), "bea"), env={"TERM": "xterm", "LANG": "C"})
        term.wait_for(r"bea \(you\)", timeout=30)
        term.send("r")  # --players 3 with two bots: ready starts the game
        screen = term.wait_for("Your hand", timeout=30)
        assert re.search(r"\*.bea +100", screen)
    finally:
        term.close()


@pytest.mark.timeout(120)
def test_an_ssh_guest_whose_host_closes_mid_game_is_not_told_its_screen_reconnects(lan_host, tmp_path):
    """A `--headless --ssh` host stopped mid-game says goodbye with its journal: an SSH
    guest's session closes with it, so its last line says to log in again once the host
    resumes, never that the screen "reconnects by itself" (a2b2fc2 said so: checked)."""
    port, _ = lan_host()
    term = Tmux()
    try:
        term.start(ssh_argv(port, keypair(tmp_path / "bea_key"), "bea"), env={"TERM": "xterm", "LANG": "C"})
        term.wait_for(r"bea \(you\)", timeout=30)
        term.send("r")
        term.wait_for("Your hand", timeout=30)
        found = subprocess.run(["pgrep", "-f", f"cli.main host .*{tmp_path / 'cfg'}"], capture_output=True, text=True)
        assert len(found.stdout.split()) == 1, found
        subprocess.run(["kill", "-TERM", found.stdout.split()[0]], check=True)
        last = term.wait_for("EXITED:", timeout=40)
        words = "".join(last.split())  # the terminal wraps the line anywhere
        assert "Thehostclosedthetable" in words and "loginagainthesameway" in words, last
        assert "reconnectsbyitself" not in words, last
    finally:
        term.close()


def impostor_argv(port: int, public_only: str, user: str, log: str) -> list[str]:
    """OpenSSH offering `public_only` (a public key file without its private half, mode 0600
    so that ssh reads it) and then answering the password prompt from SSH_ASKPASS."""
    return [
        "ssh",
        "-v",
        "-E",
        log,
        "-p",
        str(port),
        "-i",
        public_only,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "NumberOfPasswordPrompts=1",
        "-t",
        f"{user}@127.0.0.1",
    ]


@pytest.mark.timeout(180)
def test_a_public_key_and_the_join_code_do_not_make_you_that_player(lan_host, tmp_path):
    """Mallory has Ana's public key (not secret) and the join code (in every beacon).  Her
    real ssh offers the key (the server says it would take it), cannot sign, and logs in
    with the code: she watches (every seat is taken), never sees Ana's hand, and Ana,
    back with her key, has her seat."""
    port, code = lan_host()
    ana_key = keypair(tmp_path / "ana_key")
    stolen = tmp_path / "stolen.pub"  # only the public half
    shutil.copy(ana_key + ".pub", stolen)
    stolen.chmod(0o600)
    askpass = tmp_path / "askpass"
    askpass.write_text(f"#!/bin/sh\necho {code}\n")
    askpass.chmod(0o700)
    ana = Tmux()
    try:
        ana.start(ssh_argv(port, ana_key, "ana"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
        ana.wait_for(r"ana \(you\)", timeout=30)
        ana.send("r")
        ana.wait_for(r"\*.ana +100", timeout=30)
    finally:
        ana.close()  # Ana drops; her seat waits for her key
    mallory = Tmux()
    ssh_log = tmp_path / "mallory-ssh.log"
    try:
        mallory.start(
            impostor_argv(port, str(stolen), "ana", str(ssh_log)),
            env={
                "TERM": "xterm",
                "LANG": "C.UTF-8",
                "SSH_ASKPASS": str(askpass),
                "SSH_ASKPASS_REQUIRE": "force",
                "DISPLAY": "",
            },
        )
        screen = mallory.wait_for(r"watching|\*.ana", timeout=30)
        debug = ssh_log.read_text()
        assert "Server accepts key" in debug and "stolen.pub" in debug  # the key was offered, and taken
        assert re.search(r'Authenticated to .* using "(keyboard-interactive|password)"', debug)
        assert not re.search(r"\*.ana", screen), screen  # not seated as Ana
        assert "watching" in screen
    finally:
        mallory.close()
    again = Tmux()
    try:
        again.start(ssh_argv(port, ana_key, "ana"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
        screen = again.wait_for(r"\*.ana ", timeout=30)  # Ana's key: Ana's seat
        assert "watching" not in screen
    finally:
        again.close()


@pytest.mark.timeout(240)
def test_a_guest_takes_its_copy_of_the_game_home_and_audits_it(lan_host, tmp_path):
    """`ssh -p PORT NAME@HOST record > game.tar` before the game is over: a sentence and exit
    1; after it: a tar of the guest's own record and transcript that the real `modernart
    audit` accepts (and finds the same events as the host's copy).  The host sees the hands:
    an idle guest's cards are played by the clock (at a table that hides hands only the
    guest's own client can, tests/net/trust/test_hidden_drop.py)."""
    port, _ = lan_host("--no-hidden-hands")
    key = keypair(tmp_path / "cy_key")
    term = Tmux()
    try:
        term.start(ssh_argv(port, key, "cy"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
        term.wait_for(r"cy \(you\)", timeout=30)
        term.send("r")  # the game starts; cy does nothing more
        term.wait_for("Your hand", timeout=30)
        early = subprocess.run(record_argv(port, key, "cy"), capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        assert early.returncode == 1 and early.stdout == b""
        assert b"no finished game of yours at this table yet" in early.stderr
        term.wait_for("GAME OVER", timeout=180)  # every decision of cy's ran out
    finally:
        term.close()
    archive = take_record_home(port, key, "cy", tmp_path / "game.tar", within=15)
    home = tmp_path / "home"
    home.mkdir()
    with tarfile.open(archive) as tar:
        names = sorted(tar.getnames())
    subprocess.run(["tar", "xf", str(archive), "-C", str(home)], check=True, timeout=30)  # as docs/client.md says
    assert sorted(p.name for p in home.iterdir()) == names
    assert len(names) == 2 and names[0].endswith(".json") and names[1].endswith(".transcript"), names
    assert "seat" in names[0] and "/" not in "".join(names)
    host_copy = next((tmp_path / "games").glob("*.transcript"))
    audit = subprocess.run(
        MODERNART + ["audit", str(home / names[0]), "--compare", str(host_copy)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(_repo()),
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert audit.stdout.strip().splitlines()[-1].startswith("ok: "), audit.stdout  # notes first, the verdict last


@pytest.mark.timeout(240)
def test_a_guest_away_at_the_end_joins_again_and_takes_it_home(lan_host, tmp_path):
    """A guest who dropped during the game (its decisions ran out, then a stand-in played)
    logs in again after the end: its client catches up from the host's events, saves its
    copy, and `record` sends it."""
    port, _ = lan_host("--no-hidden-hands")  # a stand-in plays the seat: the host sees the hands
    key = keypair(tmp_path / "cy_key")
    term = Tmux()
    try:
        term.start(ssh_argv(port, key, "cy"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
        term.wait_for(r"cy \(you\)", timeout=30)
        term.send("r")
        term.wait_for("Your hand", timeout=30)
    finally:
        term.close()  # away until the game is over
    end = time.monotonic() + scaled(180)
    while not list((tmp_path / "games").glob("*.transcript")):  # the host's copy: the game is over
        assert time.monotonic() < end, f"the game did not end within {scaled(180):.0f} s (no transcript)"
        time.sleep(0.5)
    term = Tmux()
    try:
        term.start(ssh_argv(port, key, "cy"), env={"TERM": "xterm", "LANG": "C.UTF-8"})
        term.wait_for(r"GAME OVER\.(.|\n)*\*   \d\.  cy ", timeout=30)
        archive = take_record_home(port, key, "cy", tmp_path / "game.tar", within=15)
    finally:
        term.close()
    with tarfile.open(archive) as tar:
        assert sorted(n.rsplit(".", 1)[1] for n in tar.getnames()) == ["json", "transcript"]


def take_record_home(port: int, key: str, user: str, path, within: float):
    """`ssh ... record > path`, again until it succeeds (the client saves its copy in a
    worker thread as it sees the end) or `within` seconds pass; the path."""
    argv = record_argv(port, key, user)
    end = time.monotonic() + scaled(within)
    while True:
        with open(path, "wb") as out:
            done = subprocess.run(
                argv, stdout=out, stderr=subprocess.PIPE, timeout=scaled(30), stdin=subprocess.DEVNULL
            )
        if done.returncode == 0:
            return path
        assert done.returncode == 1 and b"no finished game of yours" in done.stderr, done.stderr
        assert time.monotonic() < end, f"no record within {scaled(within):.0f} s: {done.stderr!r}"
        time.sleep(0.3)


def record_argv(port: int, key: str, user: str) -> list[str]:
    """`ssh -p PORT -i KEY USER@127.0.0.1 record` (no terminal: the answer is a tar archive)."""
    return [a for a in ssh_argv(port, key, user) if a != "-t"] + ["record"]


def bare_ssh_argv(port: int, key: str, user: str, *options: str) -> list[str]:
    """`ssh -p PORT NAME@HOST` as the macOS and Windows OpenSSH clients run it out of the box:
    no system ssh_config (`-F /dev/null`: Debian's sends LANG, Windows' sends nothing)."""
    quiet = ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]
    return ["ssh", "-F", "/dev/null", "-p", str(port), "-i", key, "-o", "IdentitiesOnly=yes", *quiet, *options]


@pytest.mark.timeout(120)
def test_the_command_lines_docs_give_for_macos_and_windows(server, tmp_path):
    """docs/client.md "From macOS and Windows": the plain command (no locale sent) draws
    box-drawing borders in colour; `-o SetEnv=NO_COLOR=1` takes the colours away and
    `-o SetEnv=LANG=C` (a console without box drawing) gets ASCII borders."""
    port, _ = server
    key = keypair(tmp_path / "key")
    for options, boxes, colours in (
        ((), True, True),
        (("-o", "SetEnv=NO_COLOR=1"), True, False),
        (("-o", "SetEnv=LANG=C"), False, True),
    ):
        pane = Tmux()
        try:
            pane.start(bare_ssh_argv(port, key, "ana", *options) + ["ana@127.0.0.1"], env={"TERM": "xterm-256color"})
            screen = pane.wait_for(r"ana \(you\)", timeout=20)
            assert ("─" in screen) is boxes and ("+--" in screen) is not boxes, screen
            assert bool(colour_codes(pane.capture(escapes=True))) is colours, options
            pane.send("q")
            pane.wait_for(r"Leave|EXITED", timeout=10)
        finally:
            pane.close()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.timeout(180)
def test_when_the_hosting_players_own_host_dies_she_and_her_ssh_guest_are_told_the_truth(tmp_path):
    """`modernart host --ssh`: the host child is killed mid-game.  The hosting player is told
    that her own host stopped and how to continue the game (never to "ask the host to
    resume"); her SSH guest is told the table stopped on the host's machine and that the
    session ends with it (never that the screen "reconnects by itself").  On a2b2fc2 both
    saw "host silent ...: it may have stopped (ask the host to resume)" (checked)."""
    from .test_e2e_tmux import LOOPBACK_HOST

    config, ssh_port = tmp_path / "config", _free_port()
    key = keypair(tmp_path / "bea_key")
    ana, bea = Tmux(), Tmux()
    try:
        ana.start(
            LOOPBACK_HOST
            + ["--players", "3", "--bots", "1", "--bot-pace", "1000", "--journal-dir", str(tmp_path / "games")]
            + ["--config-dir", str(config), "--player-name", "Ana", "--ssh", str(ssh_port), "--ssh-bind", "127.0.0.1"]
            + ["--ssh-host-key", str(tmp_path / "hostkey")],
            env={"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path)},
            cwd=str(_repo()),
        )
        ana.wait_for(r"Ana \(you\) +person +not ready", timeout=30)
        bea.start(ssh_argv(ssh_port, key, "bea"), env={"TERM": "screen", "LANG": "C.UTF-8"})
        bea.wait_for(r"bea \(you\) +person +not ready", timeout=30)
        bea.send("r")
        ana.send("r")  # --players 3: the game starts
        ana.wait_for("Your hand", timeout=30)
        bea.wait_for("Your hand", timeout=30)
        found = subprocess.run(
            ["pgrep", "-f", f"cli.main host --until-stdin-closes .*{config}"], capture_output=True, text=True
        )
        pids = found.stdout.split()
        assert len(pids) == 1, found
        subprocess.run(["kill", "-9", pids[0]], check=True)
        ana.wait_for(r"the host stopped \(see the log\)", timeout=20)
        for _ in range(6):  # the log's entry is long (the whole command that continues the game)
            if "Your host stopped unexpectedly" in ana.capture():
                break
            ana.send("PageUp")
            time.sleep(0.5)
        assert "Your host stopped unexpectedly" in ana.capture(), ana.capture()
        guest = bea.wait_for("The host's table stopped unexpectedly", timeout=20)
        assert "reconnects by itself" not in guest
        # past the 10 s (of the client's own clock, in its own process: real seconds) after
        # which a silent host's screen would say "ask the host", and a redraw after them
        time.sleep(10 + scaled(1))
        assert "ask the host" not in ana.capture() and "ask the host" not in bea.capture()
        ana.send("q")
        ana.wait_for("Leave the table")
        ana.send("y")
        shell = ana.wait_for("EXITED:", timeout=30)
        assert "Continue it with: modernart host --resume" in shell, shell
        last = bea.wait_for("EXITED:", timeout=30)
        assert "The host's table stopped unexpectedly" in last and "reconnects by itself" not in last, last
    finally:
        ana.close()
        bea.close()
