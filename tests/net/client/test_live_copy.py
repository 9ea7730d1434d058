"""A client's own copy of the game on disk (net/client/live_copy.py), over real sockets: a
restarted client asks the host only for what came after the last event it checked, and a
copy that was tampered with or torn is checked again and never believed.

On the code before this (and on a2b2fc2) a restarted client kept nothing and asked from
event 0: the whole log again, which a slow link cannot carry while the table plays on.
"""

from __future__ import annotations

import re

import pytest

from modernart.net.client.client import Client
from modernart.net.client.live_copy import LiveCopy

from tests.net_helpers import captured_logs, close_all, drive_to_sealed, in_process_host, run, seated_clients


def _copy_of(client: Client) -> LiveCopy:
    live = client.receiving.live
    assert live is not None
    return live


async def _restart(tmp_path, spoil) -> tuple[int, int, int, bool]:
    """Play until a Sealed auction, close seat 0's client, `spoil` its copy, start it again:
    (events the host had, the event its hello asked from, the events it holds once caught
    up, whether it then shows what it showed before, what the other seats show, its own hand)."""
    host, table = await in_process_host(tmp_path)
    clients = await seated_clients(host, 3, tmp_path)
    try:
        await drive_to_sealed(clients, table)
        first = clients[0]
        await first.wait_until(lambda s: s.head_seq == table.game.seq, 10)
        path = _copy_of(first).path
        keys, state_dir, seat, log = first.keys, first.state_dir, first.state.seat, list(first.state.log)
        await first.close()
        had = table.game.seq
        spoil(path)
        with captured_logs() as logs:
            again = Client(host.target(), keys=keys, state_dir=state_dir)
            clients[0] = again
            await again.connect()
            await again.wait_until(lambda s: s.head_seq == table.game.seq, 15)
        await clients[1].wait_until(lambda s: s.head_seq == table.game.seq, 15)
        asked = [
            int(m.group(1))
            for m in (re.search(r"hello table=\S+ seat=\d+ role=player from=(\d+)", x) for x in logs.lines)
            if m
        ]
        engine = table.game.state.observation(seat)
        obs = again.state.observation
        same = (
            again.state.log == log
            and again.state.public == clients[1].state.public
            and (obs.hand, obs.money) == (engine.hand, engine.money)
        )
        return had, asked[0], again.state.head_seq, same
    finally:
        await close_all(clients, host)


def _keep(path: str) -> None:
    pass


def _tear(path: str) -> None:
    with open(path, "r+b") as f:
        f.truncate(len(f.read()) - 3)


def _tamper(path: str) -> None:
    """Change one byte inside the third event's record (its signed part)."""
    live = LiveCopy.__new__(LiveCopy)
    live.path = path
    held = LiveCopy.load(live)
    assert held is not None and len(held.frames) > 3
    data = bytearray(open(path, "rb").read())
    at = data.find(held.frames[2]["pub"]) + 20
    data[at] ^= 0x01
    open(path, "wb").write(bytes(data))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("spoil", ["kept", "torn", "tampered"])
def test_a_restarted_client_asks_only_for_what_its_checked_copy_lacks(tmp_path, spoil):
    had, asked, holds, same = run(_restart(tmp_path, {"kept": _keep, "torn": _tear, "tampered": _tamper}[spoil]), 100)
    assert holds >= had and same  # caught up, and holding what a client that never left holds
    if spoil == "kept":
        assert asked == had  # nothing asked again
    elif spoil == "torn":
        assert asked == had - 1  # the torn last event only
    else:
        assert asked == 0  # a copy that does not check out is not believed: all asked again
