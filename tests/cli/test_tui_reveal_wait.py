"""While the host waits for a sealed-bid reveal, every screen names whose it waits for.

Real CURVE sockets on 127.0.0.1, the host on a ManualClock (the reveal deadline never
passes by itself): three players seal their bids, P1's client has lost its secret and never
reveals.  The host tells every client whose reveal is still awaited (who, never how much);
a seated player's screen and a watcher's screen say so, in the status line and the panel.
"""

from __future__ import annotations

import asyncio

from modernart.cli.tui.net_session import NetSession
from modernart.moves import Move
from modernart.net.clocks import ManualClock
from tests.e2e.screen import Screen, run_async

from tests.net_helpers import close_all, drive_to_sealed, in_process_host, seated_clients


@run_async
async def test_every_screen_names_whose_reveal_is_awaited(tmp_path):
    host, table = await in_process_host(tmp_path, clock=ManualClock(), autostart=3)
    clients = await seated_clients(host, 3, tmp_path)
    sessions: list[NetSession] = []
    try:
        a, b, c = clients
        auction = await drive_to_sealed(clients, table)
        assert (await a.send_move(Move.sealed_bid(0, 2))).ok
        assert (await b.send_move(Move.sealed_bid(1, 3))).ok
        b.fair.vault.drop(b.fair.vault.find("bid", b.state.game_id, auction, b.keys.vk))  # P1 cannot reveal
        assert (await c.send_move(Move.sealed_bid(2, 1))).ok
        await a.wait_until(lambda s: s.reveals_owed == (1,), 10)  # P0 and P2 revealed; P1 is awaited
        assert table.game.state.auction_no == auction  # nothing settled: the host holds the two reveals
        await a.close()  # P0 comes back with the full-screen client
        ana = NetSession(host.target(table.id), name="P0", config_dir=str(tmp_path / "player0"))
        dai = NetSession(host.target(table.id), name="Dai", config_dir=str(tmp_path / "dai"))
        sessions += [ana, dai]
        async with Screen(ana) as screen:
            text = await screen.wait_for("Reveal awaited from: P1")
            assert "All bids are sealed; waiting for the reveal of P1" in screen.rows[0], screen.rows[0]
            assert "All bids sealed." in text
        async with Screen(dai) as screen:
            text = await screen.wait_for("Reveal awaited from: P1")
            assert "WATCHING: all bids sealed, waiting for the reveal of P1" in screen.rows[0], screen.rows[0]
    finally:
        async with asyncio.timeout(15):
            for session in sessions:
                await session.close()
            await close_all(clients, host)
