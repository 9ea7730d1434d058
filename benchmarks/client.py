"""`python -m benchmarks client`: start-up time to the first frame, render time per frame with a
full table, and bytes sent per update over SSH.

- start-up: `modernart play` (the host in a child process) and `--offline` (the host in
  the client's process) in a pseudo-terminal of 80x24, from spawning the process until the
  table's first frame is on the screen (a terminal emulator fed what the program writes).
- render: the full 80x24 (and 132x43) table of a 5-player game in its second round: a
  full repaint, and the redraw after one bid (prompt_toolkit draws only the difference).
- SSH: a real SSH connection (asyncssh client, pty 80x24) to the built-in server, its guest
  joining the real host as a player; bytes the guest receives for one bid by another
  player, one second of Open countdown, a new auction, and ten idle seconds.

Every table is the real host (net/host/) in this process, its people `NetSession`s.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import io
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

from modernart.cli.machine import machine


# ---------------------------------------------------------------------- start-up


#: A card of the hand panel as the table shows it (cli/tui/panels.py `hand_panel`: "1:O")
HAND_CARD = re.compile(r"(?<![0-9])1:\S")


def table_on_screen(lines: list[str]) -> bool:
    """Whether a screen (its lines of text) shows the whole table with this player's hand
    dealt: the "Your hand" box with a card of the hand below its title, and the table's
    key hints on the last line (a frame is written top to bottom: a read may end inside it)."""
    if not lines or "? help" not in lines[-1]:
        return False
    for row, line in enumerate(lines):
        if "Your hand" in line:
            column = line.index("Your hand")
            return any(HAND_CARD.search(below[max(0, column - 2) :]) for below in lines[row + 1 :])
    return False


def startup_seconds(
    argv: list[str], timeout: float = 30.0, cwd: str | None = None, bytecode_cache: str | None = None
) -> float:
    """Seconds from spawning `argv` in an 80x24 pty until the table's first frame is on its
    screen: what the program wrote is played into a terminal emulator (pyte, 80x24) as it
    arrives, and the clock stops once what has been written so far shows the table with
    the dealt hand (`table_on_screen`), not at the first bytes of it.  `cwd`: where it
    runs (`python -m` imports the checkout there first).  `bytecode_cache`: a directory
    where the program keeps its compiled modules (PYTHONPYCACHEPREFIX), even where this
    environment says not to write them (PYTHONDONTWRITEBYTECODE): an installed copy has
    them, so a start-up after the first loads byte code, as a player's does; None: the
    environment decides (with PYTHONDONTWRITEBYTECODE, every start-up compiles every
    module from source)."""
    import pyte

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    if bytecode_cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode_cache
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True, cwd=cwd
    )
    os.close(slave)
    try:
        while True:
            if time.perf_counter() - start > timeout:
                raise RuntimeError(f"no first frame within {timeout:g} s: {screen.display!r}")
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            while ready:  # everything written so far (a frame may come in several reads)
                try:
                    data = os.read(master, 65536)
                except OSError:
                    data = b""
                if not data:
                    raise RuntimeError(f"the client ended before its first frame: {screen.display!r}")
                stream.feed(data)
                ready, _, _ = select.select([master], [], [], 0)
            if table_on_screen(screen.display):
                return time.perf_counter() - start
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)


#: `modernart play` to its first table frame, at most this many times `play --offline`'s
#: (measured in one run, alternately; issue "Speed to the floor", start-up).
STARTUP_TARGET_RATIO = 1.3


#: What `--against REV` unpacks of an older commit: enough to run its `modernart play`
#: from the unpacked directory (its modernart/__init__.py finds net/ and cli/ beside it)
CHECKOUT_PATHS = ("modernart", "net", "cli", "pyproject.toml")


def startup_figures(repeat: int, against: str | None = None, cold: bool = False) -> dict[str, Any]:
    """`play --offline` and `play` (the host in a child process) started alternately,
    `repeat` times each, in one run: their medians and the ratio (child / offline).  With
    `against` (a commit of this repository), that commit's `play --offline` and `play`
    too, unpacked into a temporary directory and started in turn with these, under
    "before".  Every start-up loads its modules' byte code from a cache of the run's own,
    made by the first start-up of each checkout (`startup_seconds`), as an installed copy
    does; with `cold`, the environment decides (PYTHONDONTWRITEBYTECODE: compiled from
    source every time)."""
    tmp = tempfile.mkdtemp(prefix="modernart-bench-")
    try:
        return _startup_runs(repeat, against, tmp, None if cold else os.path.join(tmp, "bytecode"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def entry_module(tree: Path) -> str:
    """The module `python -m` starts the command of the checkout `tree` with: `modernart.cli.main`,
    or `cli.main` for the older layout whose `cli` and `net` were top-level packages (before
    they were installed under `modernart`, as at eedcaff)."""
    main = tree / "cli" / "main.py"
    if main.is_file() and "modernart.cli" not in main.read_text(encoding="utf-8"):
        return "cli.main"
    return "modernart.cli.main"


def _startup_runs(repeat: int, against: str | None, tmp: str, bytecode_cache: str | None) -> dict[str, Any]:
    load_before = os.getloadavg()[0]
    play = ["play", "--bot-pace", "1000", "--name", "Bench", "--config-dir", os.path.join(tmp, "config")]
    started = iter(range(1 << 30))

    def record_dir() -> list[str]:
        # a directory of its own per start-up: no unfinished game of an earlier one to offer
        return ["--record-dir", os.path.join(tmp, f"records-{next(started)}")]

    trees: dict[str, str | None] = {"": None}  # label prefix -> the directory `python -m` runs in
    commit = None
    if against is not None:
        from benchmarks.engine_ab import unpack_commit

        older = Path(tmp) / "before"
        commit = unpack_commit(against, older, CHECKOUT_PATHS)
        trees["before_"] = str(older)

    def base(cwd: str | None) -> list[str]:
        module = entry_module(Path(cwd)) if cwd is not None else "modernart.cli.main"
        return [sys.executable, "-m", module, *play]

    variants = [
        (f"{prefix}startup_{kind}_s", extra, cwd)
        for prefix, cwd in trees.items()
        for kind, extra in (("offline", ["--offline"]), ("protocol", []))
    ]
    runs: dict[str, list[float]] = {label: [] for label, _extra, _cwd in variants}
    for cwd in trees.values():  # a first start-up makes the keys, compiles and warms the caches
        startup_seconds(base(cwd) + record_dir(), cwd=cwd, bytecode_cache=bytecode_cache)
    for i in range(repeat):
        turn = i % len(variants)  # each variant first in turn, the rest in order after it
        for label, extra, cwd in variants[turn:] + variants[:turn]:
            runs[label].append(
                startup_seconds(base(cwd) + record_dir() + extra, cwd=cwd, bytecode_cache=bytecode_cache)
            )
    out = _ratio_of(runs, "")
    if commit is not None:
        out["before"] = {"commit": commit, **_ratio_of(runs, "before_")}
        # this checkout's start-ups against the older commit's, pair by pair (issue 27: "N x eedcaff")
        out["before"]["offline_vs"] = out["startup_offline_s"] / out["before"]["startup_offline_s"]
        out["before"]["protocol_vs"] = out["startup_protocol_s"] / out["before"]["startup_protocol_s"]
        out["before"]["offline_vs_pairs"] = [
            a / b for a, b in zip(runs["startup_offline_s"], runs["before_startup_offline_s"])
        ]
    out["runs"] = runs
    out["bytecode"] = (
        "byte code from the run's cache"
        if bytecode_cache is not None
        else "compiled from source each time"
        if os.environ.get("PYTHONDONTWRITEBYTECODE")
        else "byte code where the environment keeps it"
    )
    out["load_average"] = [load_before, os.getloadavg()[0]]  # 1-minute, at the start and at the end
    out["target_ratio"] = STARTUP_TARGET_RATIO
    out["target_met"] = out["ratio"] <= STARTUP_TARGET_RATIO
    return out


def _ratio_of(runs: dict[str, list[float]], prefix: str) -> dict[str, Any]:
    offline, protocol = runs[f"{prefix}startup_offline_s"], runs[f"{prefix}startup_protocol_s"]
    out: dict[str, Any] = {
        "startup_offline_s": statistics.median(offline),
        "startup_protocol_s": statistics.median(protocol),
    }
    out["ratio"] = out["startup_protocol_s"] / out["startup_offline_s"]
    out["pair_ratios"] = [p / o for p, o in zip(protocol, offline)]
    return out


# ---------------------------------------------------------------------- render


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True

    encoding = "utf-8"  # what a terminal reports (a StringIO's own is None)


async def _people_table(names: list[str], clocks: dict[str, Any], start: bool = True):
    """A table of the real host in this process (cli/tui/in_process_host.py) with `names`
    seated (and with `start`, the game started); (host, sessions)."""
    from modernart.net.trust.identity import Keys

    from modernart.cli.tui.in_process_host import InProcessHost, seat_people
    from modernart.cli.tui.local_game import TableSettings

    settings = TableSettings(levels=[], autostart=False, bot_pace=0.0, clocks={"decision": 0, **clocks})
    here = await InProcessHost.start(settings, keys=Keys.generate())
    return here, await seat_people(here, names, start=start)


async def _settled(here, sessions) -> None:
    """Until every session has seen everything the host did (one request each, answered
    after every frame sent before it, until a round changes nothing)."""
    while True:
        before = here.table.game.seq
        for session in sessions:
            await session.client.list_tables()
        await asyncio.sleep(0.005)
        if here.table.game.seq == before:
            return


async def _play_until(here, sessions, done) -> None:
    """Random moves for every seat (each from its own session's view) until `done(state)`."""
    from modernart.bots import make_bot

    bots = [make_bot("random", i) for i in range(len(sessions))]
    state = here.table.game.state
    while not done(state):
        if state.is_over():
            raise RuntimeError("the game ended before the table the benchmark needs came up; run it again")
        await _settled(here, sessions)
        for seat in state.to_move():
            obs = sessions[seat].obs
            move = bots[seat].choose(obs) if obs is not None and obs.my_turn else None
            if move is not None:
                await sessions[seat].send_move(move)
                break


async def _full_table(names: list[str]):
    """A 5-player table from round 2 on with purchases, an Open auction running and a long log
    (played on until the seller holds an Open card: the deal is shuffled, so in some games
    the first seller of round 2 holds none)."""
    from modernart.phase import Phase

    here, sessions = await _people_table(names, {"open_countdown": 3600})
    await _play_until(
        here,
        sessions,
        lambda state: (
            state.round >= 1
            and state.phase == Phase.PLAY_CARD
            and sum(map(len, state.bought)) >= 5
            and any(card.kind == 0 for card in state.hands[state.auctioneer])
        ),
    )
    for i in range(40):
        await sessions[i % 5].chat(f"message {i}: the Krypto market is hot")
    await open_an_auction(here.table.game.state, sessions)
    await _settled(here, sessions)
    return here, sessions


async def open_an_auction(state, by_seat) -> None:
    """The seller puts up an Open card (any card if they hold none: `_full_table` sees that they do)."""
    from modernart.moves import Move

    seller = state.auctioneer
    hand = state.hands[seller]
    card = next((c for c in hand if c.kind == 0), hand[0])
    await by_seat[seller].send_move(Move.play(seller, card))


async def render_figures(cols: int, rows: int, frames: int) -> dict[str, float]:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from modernart.moves import Move
    from modernart.phase import Phase
    from modernart.cli.tui.app import ClientApp

    here, sessions = await _full_table(["Ana", "Bea", "Cem", "Dai", "Eli"])
    term = _Terminal()
    out = Vt100_Output(term, lambda: Size(rows=rows, columns=cols), term="xterm-256color")
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        client = ClientApp(sessions[0], env={"TERM": "xterm-256color"})
        task = asyncio.ensure_future(client.run())
        await asyncio.sleep(0.3)
        app = client.app
        full, full_bytes = [], []
        for _ in range(frames):
            app.renderer.reset(leave_alternate_screen=False)
            before = len(term.getvalue())
            t0 = time.perf_counter()
            app.renderer.render(app, app.layout)
            full.append(time.perf_counter() - t0)
            full_bytes.append(len(term.getvalue()) - before)
        # the client's own redraws for one bid (the bid reaches it over the protocol): the time
        # spent drawing, and the bytes written, from the bid until every session has seen it
        drawing: list[float] = []
        app.before_render += lambda _app: drawing.append(-time.perf_counter())
        app.after_render += lambda _app: drawing.append(drawing.pop() + time.perf_counter())
        step, step_bytes = [], []
        for i in range(frames):
            state = here.table.game.state
            if state.phase != Phase.OPEN:
                break
            bidder = next(
                s for s in range(5) if s != state.high_seat and s != state.auctioneer and state.money[s] > state.high
            )
            await asyncio.sleep(0.05)  # the last bid's frame is drawn
            drawing.clear()
            before = len(term.getvalue())
            await sessions[bidder].send_move(Move.bid(bidder, state.high + 1))
            await _settled(here, sessions)
            await asyncio.sleep(0.05)  # the client draws this bid's frame
            step.append(sum(d for d in drawing if d > 0))
            step_bytes.append(len(term.getvalue()) - before)
        client.exit()
        await task
    await here.close()
    return {
        "full_frame_ms": statistics.median(full) * 1e3,
        "full_frame_bytes": statistics.median(full_bytes),
        "bid_frame_ms": statistics.median(step) * 1e3,
        "bid_frame_bytes": statistics.median(step_bytes),
    }


# ---------------------------------------------------------------------- bytes over SSH


async def ssh_figures() -> dict[str, float]:
    import asyncssh

    from modernart.moves import Move
    from modernart.phase import Phase
    from modernart.cli.tui.launch import ssh_sessions_through
    from modernart.cli.tui.sshserve import serve

    tmp = tempfile.mkdtemp(prefix="modernart-bench-")
    here, others = await _people_table(["Bea", "Cem", "Dai"], {"open_countdown": 30}, start=False)
    guests: Any = set()  # the SSH guest's session (a NetSession joining the host as a player)
    session_for = ssh_sessions_through(here.join_string, config_dir=os.path.join(tmp, "config"), sessions=guests)
    acceptor = await serve(0, session_for, host="127.0.0.1", host_key_path=os.path.join(tmp, "hostkey"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    received = 0
    try:
        async with asyncssh.connect(
            "127.0.0.1", acceptor.get_port(), username="Ana", client_keys=[key], known_hosts=None
        ) as conn:
            proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)

            async def read() -> None:
                nonlocal received
                while data := await proc.stdout.read(65536):
                    received += len(data)

            reader = asyncio.get_running_loop().create_task(read())
            await asyncio.sleep(1.0)
            sessions = [*others, *guests]
            for session in sessions:
                await session.set_ready(True)
            await others[0].start()  # Bea sat first: she is the table's host player
            await asyncio.sleep(1.0)
            state = here.table.game.state
            by_seat = {s.seat: s for s in sessions}

            async def measure(action, settle: float = 0.5) -> int:
                start = received
                if action is not None:
                    await action
                await asyncio.sleep(settle)
                return received - start

            figures: dict[str, float] = {"first_table_frame_bytes": received}
            figures["new_auction_bytes"] = await measure(open_an_auction(state, by_seat))
            if state.phase == Phase.OPEN:  # a bid, then the countdown ticking
                bidder = next(s for s in range(4) if s != state.auctioneer)
                figures["bid_bytes"] = await measure(by_seat[bidder].send_move(Move.bid(bidder, 3)))
                figures["countdown_second_bytes"] = await measure(None, settle=5.0) / 5
            else:
                figures["idle_10s_bytes"] = await measure(None, settle=10.0)
            reader.cancel()
        await asyncio.sleep(0.5)  # let the server notice the guest has gone
        return figures
    finally:
        acceptor.close()
        await here.close()


# ---------------------------------------------------------------------- the command


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repeat", type=int, default=3, help="start-ups per variant (default 3)")
    p.add_argument("--startup-only", action="store_true", help="measure the start-up only")
    p.add_argument(
        "--against",
        metavar="REV",
        default=None,
        help="also start this older commit's play and play --offline, in turn with this checkout's",
    )
    p.add_argument(
        "--cold",
        action="store_true",
        help="start-ups without the run's byte-code cache: the environment decides "
        "(with PYTHONDONTWRITEBYTECODE every module is compiled from source every time)",
    )


def run(args: argparse.Namespace) -> int:
    repeat = max(1, args.repeat)
    figures: dict[str, Any] = {"machine": machine(), "repeat": repeat}
    figures["startup"] = startup_figures(repeat, args.against, args.cold)
    if args.startup_only:
        return _print(figures, args.json)
    figures["render_80x24"] = asyncio.run(render_figures(80, 24, 20 * repeat))
    figures["render_132x43"] = asyncio.run(render_figures(132, 43, 20 * repeat))
    figures["ssh"] = asyncio.run(ssh_figures())
    return _print(figures, args.json)


def _print(figures: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(json.dumps(figures, indent=1))
        return 0
    repeat = figures["repeat"]
    m = figures["machine"]
    print(
        f"modernart client benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), "
        f"{m['implementation']} {m['python']}, median of {repeat}"
    )
    s = figures["startup"]
    verdict = "met" if s["target_met"] else "MISSED"
    print(
        f"start-up to the first table frame (80x24 pty, alternately): offline {s['startup_offline_s'] * 1e3:.0f} ms, "
        f"host in a child process {s['startup_protocol_s'] * 1e3:.0f} ms = {s['ratio']:.2f}x offline "
        f"(pairs {' '.join(f'{r:.2f}' for r in s['pair_ratios'])}); target <= {s['target_ratio']:g}x: {verdict}; "
        f"load average {s['load_average'][0]:.1f} -> {s['load_average'][1]:.1f}; {s['bytecode']}"
    )
    if "before" in s:
        b = s["before"]
        print(
            f"  the same run, commit {b['commit'][:10]}: offline {b['startup_offline_s'] * 1e3:.0f} ms, "
            f"host in a child process {b['startup_protocol_s'] * 1e3:.0f} ms = {b['ratio']:.2f}x offline "
            f"(pairs {' '.join(f'{r:.2f}' for r in b['pair_ratios'])})"
        )
        print(
            f"  this checkout against {b['commit'][:7]}: play --offline {b['offline_vs']:.2f} x {b['commit'][:7]} "
            f"(pairs {' '.join(f'{r:.2f}' for r in b['offline_vs_pairs'])}), "
            f"play {b['protocol_vs']:.2f} x {b['commit'][:7]}"
        )
    if "ssh" not in figures:
        return 0
    for size in ("80x24", "132x43"):
        r = figures[f"render_{size}"]
        print(
            f"render {size}, 5 players: full frame {r['full_frame_ms']:.1f} ms ({r['full_frame_bytes']:.0f} B), "
            f"after a bid {r['bid_frame_ms']:.1f} ms ({r['bid_frame_bytes']:.0f} B)"
        )
    ssh = figures["ssh"]
    print("over SSH (bytes the guest receives): " + ", ".join(f"{k} {v:.0f}" for k, v in ssh.items()))
    return 0
