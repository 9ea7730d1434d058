"""`modernart audit` names what a reader of a finished game needs to know, besides ok/failed:
every forfeited sealed bid (seat and why) and every stand-in period (seat, from move, to move).

One real game over CURVE sockets on 127.0.0.1: Ana keeps her own transcript; Bob's client
stores a changed amount for his first sealed bid (his reveal will not open his commitment:
a forfeit), and Bob drops mid-game and comes back (a stand-in plays his seat meanwhile,
with no grace period).  The audit runs as the real command on the host's record.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from modernart.moves import Action
from modernart.net.client.bot import BotClient
from modernart.net.protocol import decode_host_inner

from tests.net_helpers import PY, ROOT, env, in_process_host, run, seat_bots, until


def _applied(pub) -> list:
    """The engine moves an event applied: a move's, or a settlement's (every seat's sealed bid)."""
    return [pub["m"]] if pub["k"] == "move" else [b["m"] for b in pub["bids"]] if pub["k"] == "settle" else []


def _moves(table) -> int:
    return sum(len(_applied(decode_host_inner(e.public))) for e in table.game.log)


def _moves_before_stand_in(table, seat: int) -> int:
    """How many moves were made when a stand-in first took `seat` (its delegate event)."""
    moves = 0
    for event in table.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == "delegate" and pub["seat"] == seat and pub.get("vk") is not None:
            return moves
        moves += len(_applied(pub))
    raise AssertionError("no stand-in took the seat")


def _forfeits(table) -> list[tuple[int, str]]:
    pubs = (decode_host_inner(e.public) for e in table.game.log)
    bids = (b for pub in pubs if pub["k"] == "settle" for b in pub["bids"])
    return [(b["m"][0], b["why"]) for b in bids if b["m"][1] == Action.SEALED_FORFEIT]


def _cheat_once(bot: BotClient) -> None:
    """Bob's first sealed-bid secret is stored with another amount: his reveal will not open it."""
    vault = bot.client.fair.vault
    put = vault.put
    cheated: list[int] = []

    def changed_put(secret):
        if secret.kind == "bid" and not cheated:
            cheated.append(secret.auction)
            secret = replace(secret, value=secret.value + 1)
        put(secret)

    vault.put = changed_put  # type: ignore[method-assign]


async def _game(tmp: Path):
    host, table = await in_process_host(tmp, clocks={"grace": 0, "reveal": 2})
    loop = asyncio.get_running_loop()
    ana = BotClient(host.target(), config_dir=str(tmp / "ana"), name="Ana", pace_scale=0, transcript=True)
    bob = BotClient(host.target(), config_dir=str(tmp / "bob"), name="Bob", pace_scale=0, level="medium")
    _cheat_once(bob)
    tasks = [loop.create_task(ana.run()), loop.create_task(bob.run())]
    try:
        await until(lambda: len(table.lobby.taken()) == 2, 10)
        seat_bots(host, table, 2)
        # Bob stays until his changed sealed bid was forfeited (and a few moves more)
        await until(lambda: table.game is not None and bool(_forfeits(table)), 40)
        tasks[1].cancel()  # Bob drops: a stand-in takes his seat at once
        await asyncio.gather(tasks[1], return_exceptions=True)
        left = _moves(table)
        await until(lambda: table.game.is_over or _moves(table) >= left + 15, 30)
        back = BotClient(host.target(), config_dir=str(tmp / "bob"), name="Bob", pace_scale=0, level="medium")
        tasks.append(loop.create_task(back.run()))
        async with asyncio.timeout(60):
            await tasks[0]
        await until(lambda: table.record_path is not None, 10)
        bob_seat = [p.name for p in table.game.players].index("Bob")  # whoever sat first
        return table.record_path, _forfeits(table), _moves_before_stand_in(table, bob_seat), bob_seat
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await host.close()


@pytest.mark.timeout(150)
def test_audit_notes_name_every_forfeit_and_every_stand_in_period(tmp_path):
    record, forfeits, left, bob = run(_game(tmp_path), 130)
    done = subprocess.run(
        [PY, "-m", "modernart.cli.main", "audit", str(record)],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert out.strip().splitlines()[-1].startswith("ok: ")
    assert (bob, "mismatch") in forfeits, forfeits
    assert f"seat {bob} (Bob)'s sealed bid was forfeited: the reveal does not match the commitment" in out, out
    periods = re.findall(
        rf"note: seat {bob} \(Bob\) was played by a stand-in bot from move (\d+) to "
        r"(?:move (\d+)|the end of the game \(move (\d+)\))",
        out,
    )
    assert periods, out
    start, end, end_of_game = (int(x) if x else None for x in periods[0])
    assert start == left  # from the move at which the stand-in took his seat
    assert (end or end_of_game) > start  # the stand-in played on until Bob came back (or the end)
