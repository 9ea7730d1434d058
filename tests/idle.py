"""Wait until a host in this process and its clients are idle: the barrier a test on the
host's injected clock (`ManualClock`) needs between "the clock moved" and "now check".

A client's request is answered after every frame the host sent that client before it (one
connection keeps its order), so once each client has had an answer it has seen all the host
had done.  The host's own work can start more (a bot's move answers a move, reveals follow
the last commitment), so the round is repeated until it changes nothing.  A negative check
("nothing happened") is then a check, not a hope: whatever the host would have done by
that clock's time is done and seen.
"""

from __future__ import annotations

import asyncio
from typing import Any, Iterable

from tests.slowdown import scaled

#: Longest the host and its clients may keep moving before `idle` gives up (seconds, scaled)
IDLE_LIMIT = 10.0


def progress(host: Any) -> tuple[tuple[int, int, int], ...]:
    """What the host has done: for each table, its game's last event, the events still
    to be sent and the last written (a move, a send or a write moves one of them)."""
    done = []
    for table in host.tables.values():
        game = table.game
        done.append((game.seq if game is not None else 0, len(table.outbox), table.durable_seq))
    return tuple(done)


async def idle(host: Any, clients: Iterable[Any], *, limit: float = IDLE_LIMIT, strict: bool = True) -> None:
    """Return once every one of `clients` (connected `Client`s of `host`) has seen all the
    host has done and a further round changes nothing.

    `strict`: a host still moving after `limit` seconds (scaled) fails the test, saying what
    it kept doing; otherwise `idle` returns then (a table whose real-time clock keeps it
    moving: the test waits for what it needs).
    """
    clients = list(clients)
    first = progress(host)
    try:
        async with asyncio.timeout(scaled(limit)):
            while True:
                before = progress(host)
                for client in clients:
                    await client.list_tables()  # answered after every frame sent to it before
                await asyncio.sleep(0.005)  # the host's own tasks take their turn (a bot answers a move)
                if progress(host) == before:
                    return
    except TimeoutError:
        if strict:
            raise AssertionError(
                f"the host was not idle within {scaled(limit):.0f} s: its tables (last event, unsent, written) "
                f"went from {first} to {progress(host)}"
            ) from None
