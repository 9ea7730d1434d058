"""The lobby over real sockets: seats, ready marks, admin rights, bots, options, clocks,
start; several tables in one host; spectators; a wrong host key; reconnect by key."""

from __future__ import annotations

import pytest

from modernart.net.lan.address import JoinTarget
from modernart.net.client.client import Client, ConnectError
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run


async def _lobby(tmp):
    host, table = await in_process_host(tmp, autostart=False)
    second = host.open_table("second", journal_dir=str(tmp / "games2"), fsync=False)
    admin = Client(host.target("t1"), keys=Keys.generate())
    guest = Client(host.target("t1"), keys=Keys.generate())
    other = Client(host.target("t2"), keys=Keys.generate())
    watcher = Client(host.target("t1"), keys=Keys.generate(), spectate=True)
    clients = [admin, guest, other, watcher]
    out = {}
    try:
        for c in clients:
            await c.connect()
        tables = await admin.list_tables()
        out["tables"] = sorted(t["name"] for t in tables)
        assert (await admin.take_seat("Ana")).ok
        assert (await guest.take_seat("Ben", seat=3)).ok
        out["taken"] = (await other.take_seat("Cy")).ok and table.lobby.taken()
        out["seat taken"] = (await admin.take_seat("Ana", seat=3)).code
        out["not admin"] = (await guest.add_bot("random")).code
        out["bad level"] = (await admin.add_bot("grandmaster")).code
        out["bad option"] = (await admin.set_options({"start_money": -5})).code
        out["unknown option"] = (await admin.set_options({"cheat": True})).code
        out["bad clock"] = (await admin.set_clocks({"decision": -1})).code
        assert (await admin.set_options({"double_split": True})).ok
        assert (await admin.set_clocks({"decision": 30, "open_countdown": 5})).ok
        assert (await admin.add_bot("random", seat=1)).ok
        assert (await admin.add_bot("random")).ok
        await admin.wait_until(lambda s: sum(1 for x in s.table["seats"] if x and x["bot"] and x["fpr"]) == 2, 10)
        out["too early"] = (await admin.start()).code  # Ben is not ready yet
        assert (await admin.remove_bot(2)).ok
        out["remove person"] = (await admin.remove_bot(3)).code
        assert (await guest.ready()).ok and (await admin.ready()).ok
        out["guest start"] = (await guest.start()).code
        await admin.wait_until(lambda s: all(x is None or x["ready"] for x in s.table["seats"]), 10)
        out["chat"] = (await guest.chat("hello all")).ok
        await watcher.wait_until(lambda s: any(t == "hello all" for _, _, t in s.chat), 5)
        assert (await admin.start()).ok
        await admin.wait_until(lambda s: s.observation is not None, 10)
        await watcher.wait_until(lambda s: s.public is not None, 10)
        out["players"] = [p["name"] for p in admin.state.players]
        out["seats"] = (admin.state.seat, guest.state.seat)
        out["options"] = table.game.state.options.double_split
        out["clocks"] = (table.game.clocks.decision, table.game.clocks.open_countdown)
        out["watcher private"] = watcher.state.observation
        out["second table"] = second.phase
        out["late sit"] = (await watcher.take_seat("Late")).code
        # the guest drops and comes back on a new connection with the same key: same seat
        seat = guest.state.seat
        await guest.close()
        again = Client(host.target("t1"), keys=guest.keys)
        await again.connect()
        await again.wait_until(lambda s: s.observation is not None, 10)
        out["back"] = (again.state.seat == seat, again.state.role, again.state.observation.seat == seat)
        clients.append(again)
        return out
    finally:
        for c in clients:
            await c.close()
        await host.close()


@pytest.mark.timeout(60)
def test_lobby_admin_tables_spectators_and_return(tmp_path):
    out = run(_lobby(tmp_path), 50)
    assert out["tables"] == ["second", "test"]
    assert out["taken"] == [0, 3]
    assert out["seat taken"] == "seat_taken"
    assert out["not admin"] == "not_admin" and out["guest start"] == "not_admin"
    assert out["bad level"] == "bad_level"
    assert out["bad option"] == "bad_options" and out["unknown option"] == "bad_options"
    assert out["bad clock"] == "bad_clocks"
    assert out["too early"] == "not_ready"
    assert out["remove person"] == "not_a_bot"
    assert out["chat"]
    assert out["players"] == ["Ana", "Bot A", "Ben"]  # seats 0, 1, 3 renumbered 0, 1, 2
    assert out["seats"] == (0, 2)
    assert out["options"] is True and out["clocks"] == (30, 5)
    assert out["watcher private"] is None
    assert out["second table"] == "lobby"
    assert out["late sit"] == "started"
    assert out["back"] == (True, "player", True)


async def _wrong_key(tmp):
    host, _table = await in_process_host(tmp)
    try:
        wrong = JoinTarget("127.0.0.1", host.port, Keys.generate().curve_public_raw)
        client = Client(wrong, keys=Keys.generate())
        with pytest.raises(ConnectError) as info:
            await client.connect(timeout=8)
        return info.value.code
    finally:
        await host.close()


@pytest.mark.timeout(30)
def test_a_wrong_host_key_is_a_clear_error_not_a_silent_retry(tmp_path):
    assert run(_wrong_key(tmp_path), 25) == "host_key_mismatch"


async def _no_host():
    client = Client(JoinTarget("127.0.0.1", 9, Keys.generate().curve_public_raw), keys=Keys.generate())
    with pytest.raises(ConnectError) as info:
        await client.connect(timeout=1.5)
    return info.value.code


@pytest.mark.timeout(30)
def test_nobody_listening_times_out_with_a_clear_error():
    assert run(_no_host(), 20) == "timeout"
