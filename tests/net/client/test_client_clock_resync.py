"""A player who comes back after a drop sees the host's clock, not the clock of the events
caught up on return (those carry the time left when they were sent, long ago)."""

from __future__ import annotations

import asyncio
import time

import pytest

from modernart.cli.tui.net_session import NetSession
from modernart.net.client.client import Client
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run, until

pytestmark = pytest.mark.timeout(60)


async def _back_after_a_drop(tmp, away: float) -> tuple[float, float]:
    """(the host's decision deadline, the returning player's) on time.monotonic()."""
    host, table = await in_process_host(tmp, clocks={"decision": 60}, autostart=3)
    keys = [Keys.generate() for _ in range(3)]
    clients = []
    session = None
    try:
        for i, k in enumerate(keys):
            c = Client(host.target(), keys=k)
            await c.connect()
            assert (await c.take_seat(f"P{i}")).ok
            clients.append(c)
        for c in clients:
            assert (await c.ready()).ok
        await clients[0].wait_until(lambda s: s.observation is not None and s.deadlines.get("decide"), 15)
        # a player who is not the one to decide (so the clock does not wait for them)
        leaver = next(c for c in clients if c.state.seat not in table.game.state.to_move())
        index = clients.index(leaver)
        await leaver.close()  # the terminal closes; the seat waits
        clients.remove(leaver)
        await asyncio.sleep(away)
        session = NetSession(host.target(), name=f"P{index}", keys=keys[index])
        await session.open()
        await until(lambda: session.obs is not None and session.decision_deadline is not None, 10)
        await asyncio.sleep(2.5)  # a host tick (one a second) has come by now
        deadline = table.game.decide_end - host.clock.now() + time.monotonic()
        return deadline, session.decision_deadline
    finally:
        if session is not None:
            await session.close()
        for c in clients:
            await c.close()
        await host.close()


def test_a_returning_player_sees_the_hosts_decision_clock(tmp_path):
    host_deadline, shown = run(_back_after_a_drop(tmp_path, away=4.0), 50)
    assert abs(shown - host_deadline) < 1.0, f"the screen's clock is {shown - host_deadline:+.1f} s off the host's"
