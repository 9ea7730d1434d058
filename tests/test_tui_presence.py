"""A player who loses touch with a running game is shown as away, and told in the log; their
return is told too.  A real host on 127.0.0.1, the screens driven through `NetSession`."""

from __future__ import annotations

import asyncio
import re

import pytest

from cli.tui.net_session import NetSession
from net.client import Client
from net.identity import Keys
from tests.e2e.screen import Screen, run_async

from .net_helpers import in_process_host, seat_bots, until

pytestmark = pytest.mark.timeout(60)


async def ana_and_bob_playing(screen, host, table, bob) -> int:
    """Ana's screen up, Bob seated and ready, a bot in the third seat, the game dealt: Bob's seat."""
    await screen.wait_for(r"Ana \(you\)")
    await bob.connect()
    assert (await bob.take_seat("Bob")).ok and (await bob.ready()).ok
    seat_bots(host, table, 1)
    await screen.wait_for(r"Your hand")
    return bob.state.seat


@run_async
async def test_a_player_who_drops_is_away_until_they_return(tmp_path):
    host, table = await in_process_host(tmp_path, clocks={"grace": 300}, autostart=3)
    bob_keys = Keys.generate()
    bob = Client(host.target(), keys=bob_keys)
    session = NetSession(host.target(), name="Ana", keys=Keys.generate(), ready=True)
    try:
        async with Screen(session) as screen:
            seat = await ana_and_bob_playing(screen, host, table, bob)
            assert not session.away
            await bob.close()                       # Bob's terminal closes
            text = await screen.wait_for(r"Bob +\S+ +\d+ .*away")
            assert session.away == {seat}
            assert any(e.text == "Bob lost touch with the table" for e in session.log)
            bob = Client(host.target(), keys=bob_keys)  # and he comes back with his key
            await bob.connect()
            await until(lambda: not session.away, 10)
            await screen.settle(0.3)
            assert not re.search(r"Bob .*away", "\n".join(screen.rows)), text
            assert any(e.text == "Bob is back at the table" for e in session.log)
    finally:
        await bob.close()
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_a_player_played_by_a_stand_in_stays_away_and_is_welcomed_back_once(tmp_path):
    host, table = await in_process_host(tmp_path, clocks={"grace": 0.5}, autostart=3)
    bob_keys = Keys.generate()
    bob = Client(host.target(), keys=bob_keys)
    session = NetSession(host.target(), name="Ana", keys=Keys.generate(), ready=True)
    try:
        async with Screen(session) as screen:
            seat = await ana_and_bob_playing(screen, host, table, bob)
            await bob.close()
            await until(lambda: any(e.text == "A bot plays for Bob until they return" for e in session.log), 20)
            await screen.settle(1.5)                 # the stand-in is connected and playing
            assert session.away == {seat}
            assert re.search(r"Bob +\S+ +\d+ .*away", "\n".join(screen.rows))
            bob = Client(host.target(), keys=bob_keys)
            await bob.connect()
            await until(lambda: not session.away, 15)
            texts = [e.text for e in session.log]
            assert texts.count("Bob lost touch with the table") == 1
            assert texts.count("Bob is back at the table") == 1 and "Bob is back" not in texts
    finally:
        await bob.close()
        async with asyncio.timeout(15):
            await host.close()
