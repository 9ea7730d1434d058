"""A player who loses touch with a running game is shown as away, and told in the log; their
return is told too.  A real host on 127.0.0.1, the screens driven through `NetSession`."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest

from modernart.cli.tui.net_session import NetSession
from modernart.net.client.client import Client
from modernart.net.clocks import ManualClock
from modernart.net.trust.identity import Keys
from tests.e2e.screen import Screen, run_async

from tests.idle import idle
from tests.net_helpers import in_process_host, seat_bots, until

pytestmark = pytest.mark.timeout(60)


class Bob:
    """The other person at the table: his client can close and come back with the same key."""

    def __init__(self, host) -> None:
        self.host, self.keys = host, Keys.generate()
        self.client = Client(host.target(), keys=self.keys)

    async def drop(self) -> None:
        await self.client.close()  # Bob's terminal closes

    async def come_back(self) -> None:
        self.client = Client(self.host.target(), keys=self.keys)
        await self.client.connect()


@contextlib.asynccontextmanager
async def ana_and_bob_playing(tmp_path, grace: float, clock=None):
    """Ana's screen up, Bob seated and ready, a bot in the third seat, the game dealt (the
    host on `clock`): yields (Ana's screen, her session, Bob, his seat, the host); closes
    everything after."""
    host, table = await in_process_host(tmp_path, clocks={"grace": grace}, clock=clock, autostart=3)
    bob = Bob(host)
    session = NetSession(host.target(), name="Ana", keys=Keys.generate(), ready=True)
    try:
        async with Screen(session) as screen:
            await screen.wait_for(r"Ana \(you\)")
            await bob.client.connect()
            assert (await bob.client.take_seat("Bob")).ok and (await bob.client.ready()).ok
            seat_bots(host, table, 1)
            await screen.wait_for(r"Your hand")
            yield screen, session, bob, bob.client.state.seat, host
    finally:
        await bob.client.close()
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_a_player_who_drops_is_away_until_they_return(tmp_path):
    async with ana_and_bob_playing(tmp_path, grace=300) as (screen, session, bob, seat, _host):
        assert not session.away
        await bob.drop()
        text = await screen.wait_for(r"Bob +\S+ +\d+ .*away")
        assert session.away == {seat}
        assert any(e.text == "Bob lost touch with the table" for e in session.log)
        await bob.come_back()  # with his key
        await until(lambda: not session.away, 10)
        await screen.drawn()
        assert not re.search(r"Bob .*away", "\n".join(screen.rows)), text
        assert any(e.text == "Bob is back at the table" for e in session.log)


@run_async
async def test_a_player_played_by_a_stand_in_stays_away_and_is_welcomed_back_once(tmp_path):
    """On the host's clock: no stand-in until Bob's grace has run out, then one, while Bob
    stays away; back, he is welcomed once."""
    clock = ManualClock()
    async with ana_and_bob_playing(tmp_path, grace=30, clock=clock) as (screen, session, bob, seat, host):
        await bob.drop()
        await until(lambda: any(e.text == "Bob lost touch with the table" for e in session.log), 10)
        clock.advance(29)  # within his grace
        await idle(host, [session.client])
        assert not any(p.role == "standin" for p in host.peers.values())
        assert not any(e.text == "A bot plays for Bob until they return" for e in session.log)
        clock.advance(2)  # past it
        await until(lambda: any(p.role == "standin" and p.seat == seat for p in host.peers.values()), 20)
        await idle(host, [session.client])  # the stand-in is connected and has played what it could
        assert any(e.text == "A bot plays for Bob until they return" for e in session.log)
        await screen.drawn()
        assert session.away == {seat}
        assert re.search(r"Bob +\S+ +\d+ .*away", "\n".join(screen.rows))
        await bob.come_back()
        await until(lambda: not session.away, 15)
        texts = [e.text for e in session.log]
        assert texts.count("Bob lost touch with the table") == 1
        assert texts.count("Bob is back at the table") == 1 and "Bob is back" not in texts
