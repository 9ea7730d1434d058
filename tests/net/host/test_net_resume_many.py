"""One game resumed five times in a row, with real processes: a `modernart host` process with
three of its own bots and one person's client, stopped and resumed again and again in the
three ways a game is left: the person quits (the client closes and the host stops as
`modernart play` stops its own host, SIGTERM), the host is killed (SIGKILL; the client
stays and comes back by itself), or both (SIGKILL, and the client is closed and started
again after the resume).  After every resume the bots play again (stand-ins at a table
whose host sees the hands, the host's own bots from their saved keys at one that hides
them), the game is played to its end, and its record passes `modernart audit`.

On a2b2fc2 (and until the resume revoked the delegations of the stand-ins a stopped host
ran) the open table never moved again after its second resume: the journalled delegations
were restored and the presence code skipped those seats, waiting for ever on a bot."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from modernart.bots import make_bot
from modernart.net.client.client import Client
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, PY, ROOT, Procs, env, run
from tests.slowdown import scaled

#: how each of the five stops is made (see the module docstring)
STOPS = ["quit", "kill", "both", "kill", "quit"]


def journal_moves(games: Path) -> int:
    files = list(games.glob("*.jsonl"))
    return sum(1 for line in files[0].read_text().splitlines() if line.startswith('{"m"')) if files else 0


async def _person_plays(me: list[Client], stop: asyncio.Event) -> None:
    """The person's moves (random), whenever it is her turn, until `stop` is set or the game ends."""
    bot = make_bot("random", 3)
    while not stop.is_set():
        client = me[0]
        obs = client.state.observation
        if obs is not None and obs.is_over:
            return
        move = bot.choose(obs) if obs is not None and obs.my_turn and client.hand_ready else None
        if move is None:
            await asyncio.sleep(0.02)
            continue
        reply = await client.send_move(move)
        if not reply.ok:
            await asyncio.sleep(0.1)


async def _wait_for_moves(games: Path, moves: int, host: subprocess.Popen, procs: Procs, name: str) -> None:
    deadline = time.monotonic() + scaled(60)
    while journal_moves(games) < moves:
        assert host.poll() is None, procs.errors(name)[-3000:]
        assert time.monotonic() < deadline, (
            f"the game stopped at {journal_moves(games)} moves: " + (procs.errors(name)[-3000:])
        )
        await asyncio.sleep(0.05)


async def _resumed_five_times(tmp: Path, procs: Procs, flags: list[str]) -> str:
    games = tmp / "games"
    host = procs.host(
        tmp,
        "--port",
        "0",
        "--players",
        "4",
        "--bots",
        "3",
        "--bot-pace",
        "0.02",
        "--clocks",
        json.dumps(FAST),
        "--exit-when-over",
        *flags,
    )
    name = "host"
    join = procs.wait_output(name, r"join string: (\S+)", 30).group(1)
    port = re.search(r":(\d+)/", join).group(1)
    keys = Keys.generate()

    def person() -> Client:
        return Client(join, keys=keys, state_dir=str(tmp / "me"), transcript=True)

    me = [person()]
    await me[0].connect()
    assert (await me[0].take_seat("Ana")).ok
    assert (await me[0].ready()).ok
    stop = asyncio.Event()
    playing = asyncio.create_task(_person_plays(me, stop))
    try:
        moves = 6
        for k, how in enumerate(STOPS):
            await _wait_for_moves(games, moves, host, procs, name)
            if how in ("quit", "both"):
                stop.set()
                await playing
                await me[0].close()
            host.send_signal(signal.SIGTERM if how == "quit" else signal.SIGKILL)
            assert host.wait(timeout=scaled(20)) in (0, -signal.SIGKILL), procs.errors(name)[-3000:]
            journal = str(next(games.glob("*.jsonl")))
            name = f"host{k + 1}"
            host = procs.host(
                tmp, "--port", port, "--resume", journal, "--bot-pace", "0.02", "--exit-when-over", name=name
            )
            if how in ("quit", "both"):
                procs.wait_output(name, r"join string: (\S+)", 30)
                me[0] = person()
                await me[0].connect()
                stop = asyncio.Event()
                playing = asyncio.create_task(_person_plays(me, stop))
            moves = journal_moves(games) + 6  # the resumed game moves on, bots and person
        await me[0].wait_until(lambda s: s.observation is not None and s.observation.is_over, scaled(240))
        await asyncio.wait_for(playing, scaled(30))
        assert host.wait(timeout=scaled(60)) == 0, procs.errors(name)[-3000:]
        return procs.wait_output(name, r"record: +(\S+)", 5).group(1)
    finally:
        stop.set()
        playing.cancel()
        await me[0].close()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("hidden", [True, False], ids=["hidden hands", "open"])
def test_one_game_resumed_five_times_plays_to_a_passing_audit(tmp_path: Path, hidden: bool) -> None:
    procs = Procs(tmp_path)
    try:
        record = run(_resumed_five_times(tmp_path, procs, [] if hidden else ["--no-hidden-hands"]), scaled(560))
        with open(record) as f:
            assert json.load(f)["meta"].get("hidden_hands", False) is hidden
        audit = subprocess.run(
            [PY, "-m", "modernart.cli.main", "audit", record],
            cwd=ROOT,
            env=env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert audit.returncode == 0, audit.stdout + audit.stderr
    finally:
        procs.close()
