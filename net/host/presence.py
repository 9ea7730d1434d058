"""Who is at the host's tables: liveness, dropped players, grace periods, stand-in bots,
clocks, and freeing a table once nobody needs it.

The tick loop (real time) drops silent peers and keeps the others informed; the timer loop
(the host's injectable clock) plays default actions when a decision limit runs out and
starts a stand-in bot when a seat's grace period ends, looking only at the tables touched
since it last looked and at those whose deadline has come (net/host/deadlines.py).  Both
are tasks `Host.start` makes.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import secrets
import time
from typing import Any, Callable

from modernart.net.host.bot_clients import BotClients, forget_bots
from modernart.net.host.connections import Connections, Peer
from modernart.net.host.deadlines import DueTables
from modernart.net.host.fanout import Fanout
from modernart.net.host.quiet_gc import QuietCollector
from modernart.net.host.rates import RateLimits
from modernart.net.host.registry import TableRegistry
from modernart.net.host.table import Table
from modernart.net.host.visitors import Visitors

log = logging.getLogger("modernart.net.host.host")
PEER_TIMEOUT = 6.0  # seconds of silence before a peer counts as gone
TICK_EVERY = 1.0
#: How long a finished table waits for a person who was away at the end (seconds) before it
#: is freed: long enough to come back from a dropped link, short enough to bound the memory
AWAY_AT_THE_END = 1800.0


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


class Presence:
    """Presence, stand-ins, timers and the freeing of the host's tables."""

    def __init__(
        self,
        registry: TableRegistry,
        connections: Connections,
        fanout: Fanout,
        bots: BotClients,
        rates: RateLimits,
        clock: Any,
        due: DueTables[Table],
    ) -> None:
        self.registry = registry
        self.connections = connections
        self.fanout = fanout
        self.bots = bots
        self.rates = rates
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.due = due  # the tables whose deadlines may have changed, and when each is due
        self.absent: dict[tuple[str, int], float] = {}  # (table, seat) -> since (host clock)
        self.retiring: dict[bytes, Table] = {}  # stand-ins whose player is back, kept until they reveal
        self.freed = False  # something was dropped: the next tick returns its memory
        self.running = True  # the timer loop goes on (until the host closes)
        self.sleeping_until: float | None = None  # when the timer loop wakes up by itself (host clock)
        self.looking = False  # `run_touched` is scheduled
        self.collector: QuietCollector | None = None  # the process's garbage collection, if the host runs it
        self.visitors: Visitors | None = None  # connections before hello, dropped here once idle

    # ------------------------------------------------------------------ seats coming and going

    def table_added(self, table: Table) -> None:
        """A resumed table's seats are all absent until their players return."""
        if table.game is not None:
            now = self.clock.now()
            for seat in range(table.game.n):
                self.absent[(table.id, seat)] = now
        self.due.touch(table)

    def arrived(self, table: Table, seat: int) -> None:
        """Someone plays `seat` of `table` again (its player or a stand-in)."""
        self.absent.pop((table.id, seat), None)
        # not touched: a reveal's grace holds until something else happens at the table, so a
        # client back from a restart reveals from its disk in the time its hello gave it

    def player_returns(self, table: Table, seat: int) -> None:
        """The player of `seat` is back: its stand-in hands the seat back (once it owes no
        reveal), and one started for it that has not said hello yet is stopped, its token
        withdrawn (it is refused if it comes: one seat, one key at a time)."""
        self.withdraw_standins(table, seat)
        sess = table.game
        standin = sess.delegates[seat] if sess is not None else None
        if sess is None or standin is None or sess.recovering is not None:
            return  # recovering: handed back once the game plays on (`recovered`)
        for token in self.bots.tokens_of(standin):
            if sess.sealed is not None and sess.sealed.awaits(standin):
                self.retiring[token] = table  # its sealed bid is committed: it must still reveal
            else:
                self.bots.stop(token)
        for p in [p for p in self.connections.at(table) if p.role == "standin" and p.seat == seat]:
            p.seat, p.role = None, "spectator"
            self.connections.tell_seat(p)
        self.fanout.publish(table, sess.set_delegate(seat, None, self.clock.now()))

    def withdraw_standins(self, table: Table, seat: int) -> None:
        """Stop the stand-ins started for `seat` that have not said hello yet and forget their
        seat tokens: its player is back."""
        for token in [t for t, s in table.delegate_tokens.items() if s == seat]:
            del table.delegate_tokens[token]
            self.bots.stop(token)
            log.info("stand-in withdrawn before its hello table=%s seat=%d", table.id, seat)

    def recovered(self, table: Table) -> None:
        """`table`'s game plays on after recovering a lost tail: the stand-ins of the seats
        whose players are back hand them back, and the clocks run again."""
        sess = table.game
        if sess is None:
            return
        for seat in sorted({p.seat for p in self.connections.at(table) if p.role == "player" and p.seat is not None}):
            self.player_returns(table, seat)
        self.due.touch(table)

    def retire_standins(self, table: Table) -> None:
        """Stop the retired stand-ins of `table` that owe no reveal any more."""
        sess = table.game
        for token, owner in list(self.retiring.items()):
            vk = self.bots.key_of(token)
            if owner is not table or vk is None:
                self.retiring.pop(token, None)
                continue
            if sess is None or sess.sealed is None or not sess.sealed.awaits(vk):
                self.retiring.pop(token, None)
                self.bots.stop(token)

    def drop_peer(self, rid: bytes, why: str) -> None:
        peer = self.connections.peers.pop(rid, None)
        if peer is None:
            return
        self.freed = True
        log.info("peer gone table=%s seat=%s why=%s", peer.table.id, peer.seat, why)
        if peer.seat is not None and peer.role != "spectator":
            if peer.role == "player" and self.has_its_copy(peer, why):
                peer.table.done_seats.add(peer.seat)  # its player is not waited for at the end
            elif not any(p.seat == peer.seat and p.role == peer.role for p in self.connections.at(peer.table)):
                self.absent[(peer.table.id, peer.seat)] = self.clock.now()
        self.fanout.lobby_soon(peer.table)  # not now: this may run inside a broadcast whose send failed
        self.due.touch(peer.table)
        self.free_if_done(peer.table)  # last: a freed table is forgotten by all the above

    # ------------------------------------------------------------------ freeing tables

    @staticmethod
    def has_its_copy(peer: Peer, why: str) -> bool:
        """Whether the player of `peer`, going, needs nothing more of its finished game: it
        left it (a bye once the game was over and disclosed), or its client acknowledged
        every event (and so saved its own copy)."""
        sess = peer.table.game
        if sess is None or not sess.disclosed:
            return False
        return why == "bye" or (peer.next_seq > sess.seq and not peer.link.pending)

    def free_if_done(self, table: Table) -> None:
        """Forget `table` once its game is over, on disk, sent, and its last peer has gone:
        nothing of it stays (its peers, absences, stand-ins and journal go with it).  A person
        who was away at the end (gone before taking their copy: not in `Table.done_seats`) is
        waited for, at most AWAY_AT_THE_END seconds: coming back, their client catches up on
        the last events and saves its own copy of the game."""
        sess = table.game
        if (
            sess is None
            or not sess.disclosed
            or table.durable_seq != sess.seq
            or table.outbox
            or table.flusher is not None
            or (table.journal_path is not None and table.record_path is None)
            or self.registry.tables.get(table.id) is not table
            or self.connections.at(table)
        ):
            return
        away = [
            seat
            for (tid, seat) in self.absent
            if tid == table.id and not sess.players[seat].bot and seat not in table.done_seats
        ]
        if away and time.monotonic() - (table.ended_at or 0.0) < AWAY_AT_THE_END:
            return  # the tick loop looks again
        forget_bots(table, [p.vk for p in sess.players if p.bot])  # their saved keys: the game is saved
        self.free_table(table)

    def free_table(self, table: Table) -> None:
        """Forget `table` and everything the host keeps for it (its peers are dropped without
        a word: whoever closes a table tells its peers first)."""
        self.registry.remove(table)
        self.due.forget(table)
        for rid in [p.rid for p in self.connections.at(table)]:
            self.connections.peers.pop(rid, None)
        for key in [k for k in self.absent if k[0] == table.id]:
            del self.absent[key]
        self.fanout.forget(table)  # nobody left to tell
        for token, owner in list(self.retiring.items()):
            if owner is table:
                del self.retiring[token]
                self.bots.stop(token)
        self.bots.stop_at(table)
        if table.game is not None and table.game.journal is not None:
            table.game.journal.close()
        self.freed = True
        if self.collector is not None:
            self.collector.table_freed()
        log.info("table freed table=%s", table.id)

    # ------------------------------------------------------------------ the loops

    async def tick_loop(self) -> None:
        while True:
            await asyncio.sleep(TICK_EVERY)
            self.tick_all(time.monotonic())

    def tick_all(self, now: float) -> None:
        """Drop silent and lagging peers, tick the others, forget the state of gone connections."""
        peers = self.connections.peers
        for rid, peer in list(peers.items()):
            if now - peer.last_seen > PEER_TIMEOUT:
                self.drop_peer(rid, "silent")
            elif peer.link.stalled(now):
                self.drop_peer(rid, "lagging")  # it does not read: the others never wait for it
            elif rid in peers and now - peer.last_event >= TICK_EVERY:  # events tick too
                self.fanout.tick(peer)
        if self.connections.forget_silent_links(now, PEER_TIMEOUT):  # ZeroMQ's heartbeat has closed them
            self.freed = True
        self.rates.forget_idle()
        if self.visitors is not None and self.visitors.drop_idle(now):
            self.freed = True  # their connections' libzmq buffers, if they have gone too
        for table in [t for t in self.registry.tables.values() if t.ended_at is not None]:
            self.free_if_done(table)  # one whose person away at the end has waited long enough
        if self.collector is not None:  # before the trim: what it frees is given back too
            in_play = any(t.phase == "playing" for t in self.registry.tables.values())
            self.collector.tick(now, in_play, self.bots.ended_count)
        if self.freed:
            self.freed = False
            return_free_memory()

    def stop(self) -> None:
        """Let the timer loop end (the host is closing)."""
        self.running = False

    async def timer_loop(self) -> None:
        """Wait for the earliest deadline of any table and run the timers of the tables due.
        The tables something happened at are looked at in `run_touched`, right after the
        handler that touched them, without waking this task, which is woken only when that
        made a deadline earlier than the one it sleeps until (an event at a table in play
        costs no task switch and no new timeout)."""
        due = self.due
        due.soon = self.look_soon
        try:
            while self.running:
                due.wake.clear()
                now = self.clock.now()
                self.run_due(now)
                wait = due.wait(self.clock.now())
                self.sleeping_until = self.clock.now() + max(wait, 0.0)
                await self.clock.sleep(max(wait, 0.0), due.wake)
                if wait <= 0:
                    await asyncio.sleep(0)
        finally:
            due.soon = None
            self.sleeping_until = None

    def look_soon(self) -> None:
        """Look at the touched tables once, right after the current handler."""
        if not self.looking:
            self.looking = True
            asyncio.get_running_loop().call_soon(self.run_touched)

    def run_touched(self) -> None:
        self.looking = False
        if not self.running or self.sleeping_until is None:
            self.due.wake.set()  # the timer loop is not asleep: it looks itself
            return
        self.run_due(self.clock.now())
        earliest = self.due.earliest()
        if earliest is not None and earliest < self.sleeping_until:  # earlier than the loop's wake-up
            self.due.wake.set()

    def run_due(self, now: float) -> None:
        """Run the timers of the tables touched or due (a method, not the loop's body: no
        local of the loop keeps a freed table alive while it sleeps)."""
        for table in self.due.take(now):
            if self.registry.tables.get(table.id) is not table:
                self.due.forget(table)  # freed meanwhile
                continue
            self.due.set(table, min(self.run_timers(table, now), default=None))

    def run_timers(self, table: Table, now: float) -> list[float]:
        """Play the defaults of `table` whose time has come; its pending deadlines."""
        sess = table.game
        if sess is None or sess.recovering is not None or (sess.is_over and sess.deck_disclosed):
            return []  # recovering: nothing is signed, not even a stand-in's arrival
        # (over: only a hidden-hands table's deck keys may still be owed, and late)
        absent = {seat for (tid, seat) in self.absent if tid == table.id}
        events = sess.apply_defaults(now, absent)
        self.fanout.publish_all(table, events)
        if events and self.retiring:
            self.retire_standins(table)
        deadline = sess.next_deadline(absent)
        return ([] if deadline is None else [deadline]) + self.check_absent(table, now)

    def check_absent(self, table: Table, now: float) -> list[float]:
        """Start stand-in bots for seats whose grace period ran out; return pending deadlines."""
        sess = table.game
        assert sess is not None
        pending = []
        for seat in range(sess.n):
            since = self.absent.get((table.id, seat))
            if since is None or sess.delegates[seat] is not None or seat in table.delegate_tokens.values():
                continue
            if sess.hidden is not None:
                # only the player holds the seat's deck key: the clocks' defaults play its bids;
                # the host's own bot (a resumed host lost it) starts again from its saved keys
                if sess.players[seat].bot:
                    self.bots.respawn(table, sess.players[seat].vk, str(sess.players[seat].bot))
                continue
            grace = 0.0 if sess.players[seat].bot else sess.clocks.grace
            if now - since >= grace:
                token = secrets.token_bytes(16)
                table.delegate_tokens[token] = seat
                level = sess.players[seat].bot or sess.clocks.bot_level
                log.info("stand-in bot table=%s seat=%d level=%s", table.id, seat, level)
                self.bots.spawn(table, token, level)
            else:
                pending.append(since + grace)
        return pending
