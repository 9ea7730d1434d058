"""Who is at the table: liveness, dropped players, grace periods, stand-in bots, clocks.

A mixin of `net.host.Host`.  The tick loop (real time) drops silent peers and keeps the
others informed; the timer loop (the host's injectable clock) plays default actions when
a decision limit runs out and starts a stand-in bot when a seat's grace period ends.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import secrets
import time
from typing import TYPE_CHECKING, Callable

from modernart.net.host.flow import LAG_TIMEOUT
from modernart.net.host.host_base import HostParts  # the Host parts a mixin uses, typed (see host_base)
from modernart.net.trust.identity import Keys

if TYPE_CHECKING:
    from modernart.net.host.table import Table


log = logging.getLogger("modernart.net.host.host")
PEER_TIMEOUT = 6.0  # seconds of silence before a peer counts as gone
TICK_EVERY = 1.0


def _malloc_trim() -> Callable[[], None]:
    """glibc's `malloc_trim(0)`, or nothing where there is none (musl, macOS)."""
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int

    def release() -> None:
        trim(0)

    return release


#: Gives the memory of what was just freed back to the system.  A dropped connection's
#: libzmq buffers (CURVE, pipes) and a freed table go back to the allocator, which keeps
#: the pages (RSS stays up) unless told to return them (docs/benchmarks-net.md has the
#: figures).  Called at most once a tick, and only after something was dropped.
return_free_memory = _malloc_trim()


class Presence(HostParts):
    """Presence, stand-ins and timers of the host's tables."""

    def spawn_bot(self, table: Table, token: bytes, level: str) -> None:
        """Start an in-process bot client that claims a seat (or a stand-in role) with `token`."""
        from modernart.net.client.bot import BotClient

        if self.closing:
            return
        factory = self.bot_factory or BotClient
        bot = factory(
            self.target(table.id),
            level=level,
            keys=Keys.generate(),
            token=token,
            pace_scale=self.bot_pace,
            ctx=self.ctx,
        )
        task = asyncio.get_running_loop().create_task(bot.run())
        self.bots[token] = (task, bot)
        task.add_done_callback(lambda done: self._bot_ended(token, done))

    def _bot_ended(self, token: bytes, task: asyncio.Task) -> None:
        """A bot whose game is over is forgotten (it holds its whole copy of the game)."""
        entry = self.bots.get(token)
        if entry is not None and entry[0] is task:
            del self.bots[token]

    def _stop_bot(self, token: bytes) -> None:
        entry = self.bots.pop(token, None)
        if entry is not None:
            task = entry[0]
            task.cancel()
            self.stopping.add(task)  # Host.close waits for it too
            task.add_done_callback(self.stopping.discard)

    def _player_returns(self, table: Table, seat: int) -> None:
        sess = table.game
        if sess is None or sess.delegates[seat] is None:
            return
        for token, (_task, bot) in list(self.bots.items()):
            if bot.keys.vk == sess.delegates[seat]:
                if sess.sealed is not None and sess.sealed.awaits(bot.keys.vk):
                    self.retiring[token] = table  # its sealed bid is committed: it must still reveal
                else:
                    self._stop_bot(token)
        for p in [p for p in self._table_peers(table) if p.role == "standin" and p.seat == seat]:
            p.seat, p.role = None, "spectator"
            self._tell_seat(p)
        self.publish(table, sess.set_delegate(seat, None, self.clock.now()))

    def _retire_standins(self, table: Table) -> None:
        """Stop the retired stand-ins of `table` that owe no reveal any more."""
        sess = table.game
        for token, owner in list(self.retiring.items()):
            entry = self.bots.get(token)
            if owner is not table or entry is None:
                self.retiring.pop(token, None)
                continue
            if sess is None or sess.sealed is None or not sess.sealed.awaits(entry[1].keys.vk):
                self.retiring.pop(token, None)
                self._stop_bot(token)

    def _drop_peer(self, rid: bytes, why: str) -> None:
        peer = self.peers.pop(rid, None)
        if peer is None:
            return
        self.freed = True
        log.info("peer gone table=%s seat=%s why=%s", peer.table.id, peer.seat, why)
        if peer.seat is not None and peer.role != "spectator":
            if not any(
                p.seat == peer.seat and p.table is peer.table and p.role == peer.role for p in self.peers.values()
            ):
                self.absent[(peer.table.id, peer.seat)] = self.clock.now()
        self.lobby_soon(peer.table)  # not now: this may run inside a broadcast whose send failed
        self._free_if_done(peer.table)
        self.wake.set()

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(TICK_EVERY)
            self._tick_all(time.monotonic())

    def _tick_all(self, now: float) -> None:
        """Drop silent and lagging peers, tick the others, forget the state of gone connections."""
        for rid, peer in list(self.peers.items()):
            if now - peer.last_seen > PEER_TIMEOUT:
                self._drop_peer(rid, "silent")
            elif peer.link.stalled(now, LAG_TIMEOUT):
                self._drop_peer(rid, "lagging")  # it does not read: the others never wait for it
            elif rid in self.peers and now - peer.last_event >= TICK_EVERY:  # events tick too
                self.send(rid, self._tick(peer))
        for rid in [r for r, link in self.links.items() if now - link.last_seen > PEER_TIMEOUT]:
            if rid not in self.peers:  # silent that long: ZeroMQ's heartbeat has closed it
                del self.links[rid]
                self.freed = True
        self.forget_idle_buckets()
        for table in [t for t in self.tables.values() if t.ended_at is not None]:
            self._free_if_done(table)  # one whose person away at the end has waited long enough
        if self.freed:
            self.freed = False
            return_free_memory()

    async def _timer_loop(self) -> None:
        while not self.closing:
            self.wake.clear()
            now = self.clock.now()
            deadlines = [d for table in list(self.tables.values()) for d in self._run_timers(table, now)]
            wait = min(deadlines) - now if deadlines else 3600.0
            await self.clock.sleep(max(wait, 0.0) if wait > 0 else 0.0, self.wake)
            if wait <= 0:
                await asyncio.sleep(0)

    def _run_timers(self, table: Table, now: float) -> list[float]:
        """Play the defaults of `table` whose time has come; its pending deadlines.  (A method,
        not the loop's body: no local of the loop keeps a freed table alive while it sleeps.)"""
        sess = table.game
        if sess is None or sess.is_over:
            return []
        absent = {seat for (tid, seat) in self.absent if tid == table.id}
        events = sess.apply_defaults(now, absent)
        self.publish_all(table, events)
        if events and self.retiring:
            self._retire_standins(table)
        deadline = sess.next_deadline(absent)
        return ([] if deadline is None else [deadline]) + self._check_absent(table, now)

    def _check_absent(self, table: Table, now: float) -> list[float]:
        """Start stand-in bots for seats whose grace period ran out; return pending deadlines."""
        sess = table.game
        assert sess is not None
        pending = []
        for seat in range(sess.n):
            since = self.absent.get((table.id, seat))
            if since is None or sess.delegates[seat] is not None or seat in table.delegate_tokens.values():
                continue
            grace = 0.0 if sess.players[seat].bot else sess.clocks.grace
            if now - since >= grace:
                token = secrets.token_bytes(16)
                table.delegate_tokens[token] = seat
                level = sess.players[seat].bot or sess.clocks.bot_level
                log.info("stand-in bot table=%s seat=%d level=%s", table.id, seat, level)
                self.spawn_bot(table, token, level)
            else:
                pending.append(since + grace)
        return pending
