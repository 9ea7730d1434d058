"""The host's memory stays bounded whatever peers do (real CURVE sockets on 127.0.0.1):
what it queues for one connection never exceeds its byte budget, a peer that does not read
(or lies that it did) is dropped as lagging while the others carry on, a finished table is
freed, and a dropped connection leaves nothing behind.  The RSS figures are a benchmark
(`python -m benchmarks memory`, docs/benchmarks-net.md), not a test."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import weakref
from collections import deque

import pytest
import zmq

import modernart.net.host.presence as presence
from benchmarks.memory import NeverReader
from modernart.net.client.client import Client, ConnectError
from modernart.net.clocks import ClockSettings
from modernart.net.host.flow import Link, Sent
from modernart.net.host.host import Host
from modernart.net.trust.identity import Keys
from modernart.net.host.lobby import Lobby
from modernart.net.host.presence import PEER_TIMEOUT
from modernart.net.protocol import pack

from tests.net_helpers import FAST, in_process_host, run, seat_bots, until
from tests.slowdown import scaled

BUDGET = 32 * 1024  # far below one game's event log (~260 KB): catch-up must be paced by acks
#: How long a never-reading peer's first catch-up batch may wait for its acknowledgement
#: (the rate it reads at is not measured yet: net/host/flow.py `Link.patience`)
FIRST_PATIENCE = Link(budget=BUDGET, pending=deque([Sent(1, Link(budget=BUDGET).batch_bytes(), b"n")])).patience()


def test_a_batch_is_released_only_by_its_nonce_and_a_seq_releases_live_events_before_it():
    link = Link(budget=1000)
    link.queued(10, 400, b"n1" * 4)  # a batch up to event 10
    link.queued(11, 100)  # live events
    link.queued(12, 100)
    assert not link.room_for(401) and link.room_for(400)
    link.ack(12, None)  # a seq alone: the batch before them was not proven read
    assert link.unacked == 600
    link.ack(12, b"xx" * 4)  # a nonce it never got
    assert link.unacked == 600
    link.ack(11, b"n1" * 4)  # the batch, and the live event it says it holds
    assert link.unacked == 100 and [s.seq for s in link.pending] == [12]
    assert Link(budget=10).room_for(5000)  # one frame always goes on an empty link


async def _finished_table(tmp, budget: int) -> tuple[Host, object, Client]:
    """A host whose table's game is over (5 bots played it), kept open by a reading spectator;
    connections made from now on get `budget`."""
    host = Host(Keys.generate(), bot_pace=0, max_watchers=10_000)  # the budgets, not the cap on watchers
    await host.start()
    table = host.open_table(
        "t", journal_dir=str(tmp / "games"), lobby=Lobby(clocks=ClockSettings.from_dict(FAST)), autostart=5, fsync=False
    )
    watcher = Client(host.target(), keys=Keys.generate(), spectate=True)
    await watcher.connect()
    seat_bots(host, table, 5)
    await until(lambda: table.record_path is not None and not host.bots, 60)
    await watcher.wait_until(lambda s: s.head_seq == table.game.seq, 10)
    host.peer_budget = budget
    return host, table, watcher


def _peer_of(host: Host, keys: Keys):
    return next((p for p in host.peers.values() if p.vk == keys.vk), None)


async def _sample_unacked(host: Host, worst: list[int], stop: asyncio.Event, budget: int = BUDGET) -> None:
    """The most unacknowledged bytes any connection with the small budget held (every 5 ms;
    the host only adds to them between two turns of the loop)."""
    while not stop.is_set():
        for link in list(host.links.values()):
            if link.budget == budget:
                worst[0] = max(worst[0], link.unacked)
        await asyncio.sleep(0.005)


async def _never_reading(tmp):
    host, table, watcher = await _finished_table(tmp, BUDGET)
    ctx = zmq.Context()
    readers = [NeverReader(ctx, host.target(), Keys.generate()) for _ in range(3)]
    liar = NeverReader(ctx, host.target(), Keys.generate())
    worst = [0]
    stop = asyncio.Event()
    sampler = None
    try:
        for r in readers + [liar]:
            r.hello()
        await until(lambda: all(_peer_of(host, r.keys) for r in readers + [liar]), 10)
        liar_peer = _peer_of(host, liar.keys)
        sampler = asyncio.get_running_loop().create_task(_sample_unacked(host, worst, stop))
        heard = watcher.state.last_heard
        dropped_at = {}
        loop = asyncio.get_running_loop()
        start = loop.time()
        while loop.time() - start < FIRST_PATIENCE + 4:
            for r in readers:
                r.hello()  # 4 times a second, as the measured attack did
            # the liar says it holds every event, with a nonce it made up
            liar.send({"t": "ping", "seq": table.game.seq, "n": os.urandom(8)})
            await asyncio.sleep(0.25)
            for r in readers + [liar]:
                if _peer_of(host, r.keys) is None:
                    dropped_at.setdefault(r.keys.vk, loop.time() - start)
            assert watcher.state.status == "connected"
        heard_since = watcher.state.last_heard > heard
        batches = sum(s.size for s in host.links[liar_peer.rid].pending if s.nonce is not None)
        return (
            worst[0],
            dropped_at,
            [_peer_of(host, r.keys) for r in readers + [liar]],
            heard_since,
            batches,
            table.game.seq,
            liar_peer.next_seq,
        )
    finally:
        stop.set()
        if sampler is not None:
            await sampler
        for r in readers + [liar]:
            r.close()
        ctx.destroy(linger=0)
        await watcher.close()
        await host.close()


@pytest.mark.timeout(90)
def test_peers_that_never_read_hold_at_most_their_budget_and_are_dropped_as_lagging(tmp_path):
    worst, dropped_at, still_peers, watcher_heard, liar_batches, head, liar_next = run(_never_reading(tmp_path), 80)
    assert 0 < worst <= BUDGET  # each was sent frames, never more bytes than its budget
    assert len(dropped_at) == 4  # all dropped as lagging...
    assert max(dropped_at.values()) <= FIRST_PATIENCE + 2.5
    assert still_peers == [None] * 4  # ...and their hellos refused since, however often they come
    assert watcher_heard  # the reading spectator was never kept waiting
    assert 0 < liar_batches <= BUDGET  # made-up acknowledgements release no catch-up
    assert liar_next < head  # so the liar never got the whole log


async def _paced_catch_up(tmp):
    host, table, watcher = await _finished_table(tmp, BUDGET)
    # about 0.9 KB an event, and a random game makes 120-400 of them: the budget is at most
    # a sixth of this game's log
    log_bytes = sum(len(pack(e.frame_for(None))) for e in table.game.log)
    budget = host.peer_budget = min(BUDGET, log_bytes // 6)
    late = Client(host.target(), keys=Keys.generate(), spectate=True)
    worst = [0]
    stop = asyncio.Event()
    sampler = asyncio.get_running_loop().create_task(_sample_unacked(host, worst, stop, budget))
    try:
        await late.connect()
        await late.wait_until(lambda s: s.head_seq == table.game.seq, 20)
        return worst[0], late.state.head_seq, table.game.seq, late.state.status, log_bytes, budget
    finally:
        stop.set()
        await sampler
        await late.close()
        await watcher.close()
        await host.close()


@pytest.mark.timeout(60)
def test_a_reading_client_catches_up_on_a_log_many_times_its_budget(tmp_path):
    worst, held, head, status, log_bytes, budget = run(_paced_catch_up(tmp_path), 50)
    assert log_bytes >= 6 * budget  # the log is several budgets long
    assert held == head and status == "connected"
    assert 0 < worst <= budget


async def _table_freed(tmp):
    host, table = await in_process_host(tmp, autostart=5)
    ref = weakref.ref(table)
    watcher = Client(host.target(), keys=Keys.generate(), spectate=True)
    await watcher.connect()
    try:
        seat_bots(host, table, 5)
        await until(lambda t=table: t.record_path is not None and not host.bots, 60)  # no closure kept
        kept_while_watched = table.id in host.tables
        session_ref = weakref.ref(table.game)
        journal = table.game.journal
        table_id = table.id
        del table
        await watcher.close()
        await until(lambda: table_id not in host.tables, 10)
        gc.collect()
        left = {
            "absent": [k for k in host.absent if k[0] == table_id],
            "peers": len(host.peers),
            "bots": len(host.bots),
            "retiring": len(host.retiring),
        }
        next_id = host.open_table("next").id
        return kept_while_watched, ref() is None, session_ref() is None, left, journal.closed, table_id, next_id
    finally:
        await host.close()


@pytest.mark.timeout(60)
def test_a_finished_table_is_freed_when_its_last_peer_leaves(tmp_path):
    kept, table_gone, session_gone, left, journal_closed, old_id, next_id = run(_table_freed(tmp_path), 50)
    assert kept  # a watcher keeps it open
    assert table_gone and session_gone  # nothing else holds it: its memory returns
    assert left == {"absent": [], "peers": 0, "bots": 0, "retiring": 0}
    assert journal_closed
    assert next_id != old_id  # a freed table's id is never given to another


async def _person_away_at_the_end(tmp, monkeypatch):
    host, table = await in_process_host(tmp, autostart=5, clocks={"grace": 0})
    ana = Client(host.target(), keys=Keys.generate())
    try:
        await ana.connect()
        assert (await ana.take_seat("Ana")).ok and (await ana.ready()).ok
        seat_bots(host, table, 4)
        await until(lambda: table.game is not None, 10)
        await ana.close()  # Ana's link drops: a stand-in plays to the end
        await until(lambda: table.record_path is not None and not host.bots, 90)
        await asyncio.sleep(2.5)  # ticks come and go
        kept = table.id in host.tables  # kept for her: back, she would take her copy
        monkeypatch.setattr(presence, "AWAY_AT_THE_END", 0.0)
        table_id = table.id
        await until(lambda: table_id not in host.tables, 5)  # waited long enough: freed by a tick
        return kept
    finally:
        await host.close()


@pytest.mark.timeout(120)
def test_a_finished_table_waits_a_while_for_a_person_away_at_the_end(tmp_path, monkeypatch):
    assert run(_person_away_at_the_end(tmp_path, monkeypatch), 110)


async def _silent(tmp):
    host, table = await in_process_host(tmp, autostart=False)
    host.max_watchers = 10_000  # what dropped connections leave, not the cap on watchers
    ctx = zmq.Context()
    silent = [NeverReader(ctx, host.target(), Keys.generate()) for _ in range(40)]
    try:
        for s in silent:
            s.hello()
        await until(lambda: len(host.peers) == 40, 20)
        during = (len(host.peers), len(host.links), len(host.buckets))
        for s in silent:
            s.close()
        await until(lambda: not host.peers and not host.links and not host.buckets, PEER_TIMEOUT + 6)
        return during, (len(host.peers), len(host.links), len(host.buckets))
    finally:
        ctx.destroy(linger=0)
        await host.close()


@pytest.mark.timeout(60)
def test_a_dropped_connection_leaves_no_state_behind(tmp_path):
    during, after = run(_silent(tmp_path), 50)
    assert during == (40, 40, 40)
    assert after == (0, 0, 0)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def _many_gone_at_once(tmp, count: int):
    host, table = await in_process_host(tmp, autostart=False)
    host.max_watchers = 10_000  # hundreds of peers at one table: past the cap on watchers
    errors = _Errors()
    logging.getLogger("modernart.net.host.host").addHandler(errors)
    ctx = zmq.Context()
    gone = [NeverReader(ctx, host.target(), Keys.generate()) for _ in range(count)]
    late = Client(host.target(), keys=Keys.generate())
    try:
        # the host hears so many hellos a second from one address (net/host/visitors.py):
        # those not heard say hello again, as a client does until it is welcomed
        deadline = asyncio.get_running_loop().time() + scaled(30)
        while len(host.peers) < count:
            assert asyncio.get_running_loop().time() < deadline, f"{len(host.peers)} of {count} heard"
            peers = {p.vk for p in host.peers.values()}
            for i, g in enumerate(g for g in gone if g.keys.vk not in peers):
                g.hello()
                if i % 50 == 49:
                    await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
        for g in gone:
            g.close()
        await asyncio.sleep(0.5)  # the host's ROUTER has seen them go: sends to them now fail
        await late.connect()  # its hello makes the host tell every peer: each send fails
        await until(lambda: len(host.peers) == 1, 10)
        return [r.getMessage() for r in errors.records], len(host.peers), late.state.status
    finally:
        logging.getLogger("modernart.net.host.host").removeHandler(errors)
        await late.close()
        ctx.destroy(linger=0)
        await host.close()


@pytest.mark.timeout(90)
def test_hundreds_of_peers_gone_at_once_are_dropped_without_recursing_through_each_other(tmp_path):
    errors, peers, status = run(_many_gone_at_once(tmp_path, 400), 80)
    assert errors == []  # before: a RecursionError (a failed send dropped a peer, which told the rest...)
    assert peers == 1 and status == "connected"


async def _closed_by_the_host(tmp):
    host, table = await in_process_host(tmp, autostart=False)
    player = Client(host.target(), keys=Keys.generate())
    try:
        await player.connect()
        assert (await player.take_seat("Ana")).ok
        ref = weakref.ref(table)
        host.free_table(table)  # closed by the host (whoever closes it tells its peers first)
        del table
        gc.collect()
        gone = ref() is None
        await player.wait_until(lambda s: any(code == "no_table" for code, _ in s.errors), 10)
        return gone, len(host.peers), len(host.tables)
    finally:
        await player.close()
        await host.close()


@pytest.mark.timeout(40)
def test_a_table_the_host_closes_is_freed_with_its_peers(tmp_path):
    gone, peers, tables = run(_closed_by_the_host(tmp_path), 30)
    assert gone and peers == 0 and tables == 0  # its peer, when it speaks again, hears there is no such table


async def _watchers_capped(tmp):
    host, table = await in_process_host(tmp, autostart=False)
    host.max_watchers = 3
    watchers = [Client(host.target(), keys=Keys.generate(), spectate=True) for _ in range(4)]
    try:
        for w in watchers[:3]:
            await w.connect()
        try:
            await watchers[3].connect(5)
            refused = None
        except ConnectError as exc:
            refused = exc.code
        again = Client(host.target(), keys=watchers[0].keys, spectate=True)  # the same key again: it replaces itself
        await again.connect()
        watchers.append(again)
        return refused, len(host.peers)
    finally:
        for w in watchers:
            await w.close()
        await host.close()


@pytest.mark.timeout(40)
def test_a_table_serves_at_most_max_watchers_connections_without_a_seat(tmp_path):
    """Keys are free to make: without a cap, connections that sit nowhere (each allowed its
    byte budget) would add up without end."""
    refused, peers = run(_watchers_capped(tmp_path), 30)
    assert refused == "watchers_full"
    assert peers == 3
