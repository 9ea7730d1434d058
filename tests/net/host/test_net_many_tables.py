"""A host of many tables does per event the work of one table: its peers come from an index
(net/host/connections.py `PeerMap`), its timer loop looks only at the tables touched or due
(net/host/deadlines.py), and a table's journal syncs end in one callback per round
(net/host/fanout.py)."""

from __future__ import annotations

import asyncio
import doctest

import pytest

from modernart.net.clocks import ClockSettings, ManualClock
from modernart.net.host import deadlines
from modernart.net.host.connections import Peer, PeerMap
from modernart.net.host.deadlines import DueTables
from modernart.net.host.flow import Link
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, run, seat_bots, until


def _peer(rid: bytes, table: Table) -> Peer:
    return Peer(rid, b"c" * 32, table, b"v" * 32, None, "spectator", Link())


def test_the_peer_index_follows_every_change() -> None:
    keys = Keys.generate()
    t1, t2 = Table("t1", "a", keys), Table("t2", "b", keys)
    peers = PeerMap()
    a, b, c = _peer(b"a", t1), _peer(b"b", t2), _peer(b"c", t1)
    peers[b"a"], peers[b"b"], peers[b"c"] = a, b, c
    assert peers.at(t1) == [a, c] and peers.at(t2) == [b]
    moved = _peer(b"a", t2)  # the same routing id says hello at another table
    peers[b"a"] = moved
    assert peers.at(t1) == [c] and peers.at(t2) == [b, moved]
    assert list(peers) == [b"a", b"b", b"c"]  # a routing id seen before keeps its place, as in a dict
    del peers[b"b"]
    assert peers.pop(b"c") is c and peers.pop(b"zz", None) is None
    with pytest.raises(KeyError):
        peers.pop(b"zz")
    assert peers.at(t1) == [] and peers.at(t2) == [moved] and set(peers.by_table) == {t2}
    peers.update({b"d": _peer(b"d", t1)})
    assert peers.setdefault(b"d") is peers[b"d"] and [p.rid for p in peers.at(t1)] == [b"d"]
    peers.clear()
    assert not peers and not peers.by_table and peers.at(t2) == []


def test_due_tables_gives_the_touched_and_the_due_once() -> None:
    assert doctest.testmod(deadlines).failed == 0
    due: DueTables[str] = DueTables()
    due.set("a", 10.0)
    due.set("b", 20.0)
    assert due.take(5.0) == [] and due.wait(5.0) == 5.0
    due.touch("b")
    assert due.wake.is_set()
    assert due.take(5.0) == ["b"] and due.take(5.0) == []  # looked at: not again until touched or due
    assert due.take(10.0) == ["a"]
    due.set("a", None)
    due.forget("b")
    assert due.wait(0.0) == deadlines.IDLE_WAIT and due.take(100.0) == []


async def _timers_of_many_tables() -> tuple[int, int, int]:
    """50 tables in their lobby and one playing: the moves of the one must not run the
    timers of the 50."""
    host = Host(Keys.generate(), clock=ManualClock(), bot_pace=0)
    await host.start()
    looked: dict[str, int] = {}
    run_timers = host.presence.run_timers

    def counted(table: Table, now: float) -> list[float]:
        looked[table.id] = looked.get(table.id, 0) + 1
        return run_timers(table, now)

    host.presence.run_timers = counted  # type: ignore[method-assign]
    try:
        for i in range(50):
            host.open_table(f"idle {i}", lobby=Lobby(clocks=ClockSettings.from_dict(FAST)))
        playing = host.open_table(
            "playing", autostart=3, fsync=False, lobby=Lobby(clocks=ClockSettings.from_dict(FAST))
        )
        await asyncio.sleep(0.05)
        idle_before = sum(n for tid, n in looked.items() if tid != playing.id)
        seat_bots(host, playing, 3)
        await until(lambda: playing.game is not None and playing.game.seq >= 40, 60)
        idle_after = sum(n for tid, n in looked.items() if tid != playing.id)
        return idle_before, idle_after, looked.get(playing.id, 0)
    finally:
        await host.close()


def test_the_timer_loop_looks_only_at_the_tables_something_happened_at() -> None:
    idle_before, idle_after, playing = run(_timers_of_many_tables(), 90)
    assert idle_after == idle_before  # 40 events at one table: not one look at the 50 others
    assert playing >= 10  # the playing table's timers ran as its events came
