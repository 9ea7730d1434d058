"""A fixed deal (net/trust/shuffle.py `FixedDeal`) from the attacker's side, over real CURVE
sockets: no client frame can give a table one, a fixed deal is announced to every player
and checked by each client, and a client refuses a host that deals a fixed deal its table
did not announce (or announces one that event 1 does not have)."""

from __future__ import annotations

import pytest

from modernart.game import GameState
from modernart.net.client.client import Client
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError, pack
from modernart.net.protocol.frames import decode_client_frame
from modernart.net.trust.identity import Keys
from modernart.net.trust.shuffle import FixedDeal

from tests.net_helpers import in_process_host, run

pytestmark = pytest.mark.timeout(60)

FIELDS = ("fixed_deal", "fixed", "deal", "deck_order", "first_auctioneer")


def a_deal(players: int = 3) -> FixedDeal:
    state = GameState(players, seed=7)
    return FixedDeal.of(list(range(len(state.deck)))[::-1], players - 1)


async def seated(host, count: int) -> list[Client]:
    clients = []
    for i in range(count):
        c = Client(host.target(), keys=Keys.generate())
        await c.connect()
        assert (await c.take_seat(f"P{i}")).ok
        clients.append(c)
    for c in clients:
        await c.wait_until(lambda s: bool(s.table) and s.table.get("seats", [None])[0] is not None, 5)
    return clients


async def close(clients, host) -> None:
    for c in clients:
        await c.close()
    await host.close()


def lobby_frames(deal: dict) -> list[dict]:
    """Every way a lobby request could try to carry a deal: as an option, a clock, an
    argument of any operation, or a field of the frame itself."""
    frames = []
    for name in FIELDS:
        frames += [
            {"t": "lobby", "id": 1, "op": "options", "args": {"options": {name: deal}}},
            {"t": "lobby", "id": 1, "op": "clocks", "args": {"clocks": {name: deal}}},
            {"t": "lobby", "id": 1, "op": "start", "args": {name: deal}},
            {"t": "lobby", "id": 1, "op": "ready", "args": {"ready": True, name: deal}},
            {"t": "lobby", "id": 1, "op": "start", name: deal},
        ]
    return frames


def test_no_lobby_frame_can_carry_a_fixed_deal_past_the_schema():
    """Only the options and clocks maps are open; every other place is refused as it is read."""
    for frame in lobby_frames(a_deal().to_wire()):
        if frame["op"] in ("options", "clocks"):
            continue  # refused by the lobby itself (the next test)
        with pytest.raises(ProtocolError):
            decode_client_frame(pack(frame))


def test_a_deal_sent_by_a_client_is_refused_and_the_game_is_shuffled(tmp_path):
    async def body():
        host, table = await in_process_host(tmp_path, autostart=False)
        clients = await seated(host, 3)
        try:
            admin = clients[0]
            for frame in lobby_frames(a_deal().to_wire()) + lobby_frames(7):
                admin.state.errors.clear()
                admin.sock.send(pack(frame))  # a plain socket (net/client/client.py)
                await admin.wait_until(lambda s: bool(s.errors), 5)
            assert table.fixed_deal is None and table.game is None
            for c in clients:
                assert (await c.ready()).ok
            assert (await admin.start()).ok
            for c in clients:
                await c.wait_until(lambda s: s.observation is not None, 10)
            game = table.game
            assert game.fixed_deal is None and game.seeding.fixed is None
            assert all("fixed_deal" not in (c.state.table or {}) for c in clients)
            # the deck is the shuffle of every seat's seed (as every client checks at the end)
            _order, first = game.seeding.derive(game.options.deck_table.size)
            assert first == game.state.first_auctioneer
        finally:
            await close(clients, host)

    run(body(), timeout=50)


def test_an_announced_fixed_deal_is_dealt_and_every_client_knows(tmp_path):
    async def body():
        host, table = await in_process_host(tmp_path, autostart=False)
        deal = a_deal()
        table.fixed_deal = deal  # the program running the host: the only way to set one
        host.fanout.broadcast_lobby(table)
        clients = await seated(host, 3)
        try:
            assert all(FixedDeal.from_wire(c.state.table["fixed_deal"]) == deal for c in clients)
            for c in clients:
                assert (await c.ready()).ok
            assert (await clients[0].start()).ok
            for c in clients:
                await c.wait_until(lambda s: s.observation is not None, 10)
            state = table.game.state
            assert state.first_auctioneer == deal.first
            assert [int(c) for c in state.deal_log[0][0]] == list(deal.order[: len(state.deal_log[0][0])])
            assert all(c.state.status == "connected" for c in clients)
        finally:
            await close(clients, host)

    run(body(), timeout=50)


def test_a_client_refuses_a_fixed_deal_its_table_did_not_announce(tmp_path, monkeypatch):
    """A cheating host keeps the fixed deal out of its lobby message (so nobody sees it before
    the start) and deals it: every seated client refuses the game at event 1."""

    async def body():
        host, table = await in_process_host(tmp_path, autostart=False)
        clients = await seated(host, 3)
        try:
            for c in clients:
                assert (await c.ready()).ok
            honest_wire = Table.lobby_description

            def unannounced(self, *args, **kwargs):
                wire = honest_wire(self, *args, **kwargs)
                wire.pop("fixed_deal", None)
                return wire

            monkeypatch.setattr(Table, "lobby_description", unannounced)
            table.fixed_deal = a_deal()
            await clients[0].start()
            for c in clients:
                await c.wait_until(lambda s: s.status == "failed", 10)
                codes = [code for code, _ in c.state.errors]
                assert "untrusted_host" in codes
                assert any("did not announce" in message for _, message in c.state.errors)
                assert c.state.observation is None  # nothing of that game was shown
        finally:
            await close(clients, host)

    run(body(), timeout=50)


def test_a_client_refuses_a_table_that_announces_a_fixed_deal_the_game_does_not_have(tmp_path, monkeypatch):
    """The other way round: the lobby shows a fixed deal (say, to look harmless) while event 1
    deals from the shuffle with other cards: refused as well."""

    async def body():
        host, table = await in_process_host(tmp_path, autostart=False)
        clients = await seated(host, 3)
        try:
            for c in clients:
                assert (await c.ready()).ok
            honest_wire = Table.lobby_description
            shown = a_deal().to_wire()

            def claims_a_deal(self, *args, **kwargs):
                return {**honest_wire(self, *args, **kwargs), "fixed_deal": shown}

            monkeypatch.setattr(Table, "lobby_description", claims_a_deal)
            await clients[0].start()
            for c in clients:
                await c.wait_until(lambda s: s.status == "failed", 10)
                assert any("first event does not have" in message for _, message in c.state.errors)
        finally:
            await close(clients, host)

    run(body(), timeout=50)


def test_a_fixed_deal_that_does_not_fit_the_table_is_refused_at_the_start(tmp_path):
    async def body():
        host, table = await in_process_host(tmp_path, autostart=False)
        table.fixed_deal = FixedDeal.of([0, 1, 2], 0)  # not the whole deck
        clients = await seated(host, 3)
        try:
            for c in clients:
                assert (await c.ready()).ok
            reply = await clients[0].start()
            assert not reply.ok and reply.code == "fixed_deal"
            assert table.game is None
        finally:
            await close(clients, host)

    run(body(), timeout=50)
