"""What the host sends to the peers of a table: its events once on disk, its lobby, ticks.

Events go out in order once the journal holding them is on disk (group commit: one flusher
task per table with events waiting, the syncs on `SYNCERS`).  A peer gets an event as it
is made only while it is live (`Peer.next_seq` is that event); one that is behind catches
up from the log as it acknowledges (net/host/admission.py).  Lobby messages are coalesced
to one per table per turn of the loop (`lobby_soon`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from modernart.net.host.connections import Connections, Peer
from modernart.net.host.game import LoggedEvent
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.protocol import pack
from modernart.net.protocol.frames import lobby_frame, tick_frame

log = logging.getLogger("modernart.net.host.host")

#: Where journals are fsync'ed: worker threads shared by every table of the process, so a
#: table waiting for the disk never delays another table's events (asyncio's default pool
#: has only a handful of threads).  A sync is a system call that releases the GIL; the
#: threads start on first use.
SYNCERS = ThreadPoolExecutor(max_workers=64, thread_name_prefix="journal-sync")

#: An answer to send once the events before it are out: (routing id, frame)
Ack = tuple[bytes, dict[str, Any]]


class Fanout:
    """Events, lobby messages and ticks to the peers of the host's tables."""

    def __init__(
        self,
        router: Router,
        connections: Connections,
        tables: dict[str, Table],
        clock: Any,
        wake: asyncio.Event,
        game_saved: Callable[[Table], None],
    ) -> None:
        self.router = router
        self.connections = connections
        self.tables = tables  # the host's tables by id (a lobby is sent only to a table still there)
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.wake = wake  # the timer loop's: an event may change a deadline
        self.game_saved = game_saved  # told once a finished game's record is saved
        self.lobby_due: dict[str, Table] = {}  # tables whose lobby goes out after this handler

    # ------------------------------------------------------------------ events

    def publish(self, table: Table, event: LoggedEvent, ack: Ack | None = None) -> None:
        """Send `event` (and `ack`) once the journal holding it is on disk (group commit)."""
        table.outbox.append((event, ack))
        if table.flusher is None:
            table.flusher = asyncio.get_running_loop().create_task(self.flush_outbox(table))

    def publish_all(self, table: Table, events: list[LoggedEvent], ack: Ack | None = None) -> None:
        """Send `events` in order, then `ack` (at once if there is no event to wait for)."""
        for i, event in enumerate(events):
            self.publish(table, event, ack if i == len(events) - 1 else None)
        if not events and ack is not None:
            self.router.send_frame(*ack)

    async def flush_outbox(self, table: Table) -> None:
        try:
            while table.outbox:
                batch, table.outbox = table.outbox, []
                journal = table.game.journal if table.game else None
                if journal is not None and journal.fsync:
                    loop = asyncio.get_running_loop()  # both files at once: one disk wait, not two
                    await asyncio.gather(*(loop.run_in_executor(SYNCERS, part) for part in journal.sync_parts()))
                for event, ack in batch:
                    table.durable_seq = event.seq
                    self.broadcast_event(table, event)
                    if ack is not None:
                        self.router.send_frame(*ack)
        finally:
            table.flusher = None

    def broadcast_event(self, table: Table, event: LoggedEvent) -> None:
        """Send `event`, now on disk, to every live peer of `table` (its own private part to each seat)."""
        frames: dict[int | None, bytes] = {}
        now = time.monotonic()
        for peer in self.connections.at(table):
            if peer.next_seq != event.seq:
                continue  # behind (catching up, or out of room): its catch-up brings it as it acknowledges
            data = frames.get(peer.seat)
            if data is None:
                seat = peer.seat if peer.role != "spectator" else None
                data = frames[peer.seat] = pack(event.frame_for(seat))
            if self.connections.send_event(peer, data, event.seq):
                peer.next_seq = event.seq + 1
                peer.last_event = now  # the event carries what a tick would: no tick needed this second
        self.wake.set()
        sess = table.game
        if sess is not None and sess.disclosed and table.record_path is None and event.seq == sess.seq:
            path = table.save_record()
            table.ended_at = time.monotonic()
            log.info("game over table=%s record=%s", table.id, path)
            self.broadcast_lobby(table)  # the lobby message names the saved record
            self.game_saved(table)

    # ------------------------------------------------------------------ lobby and ticks

    def lobby_soon(self, table: Table) -> None:
        """Broadcast the lobby of `table` once, right after the current handler.  Many changes
        at once (hellos, a tick dropping hundreds of peers, a send failing in the middle of a
        broadcast) make one message each, never a recursion through the peers."""
        if not self.lobby_due:
            asyncio.get_running_loop().call_soon(self.send_lobbies)
        self.lobby_due[table.id] = table

    def forget(self, table: Table) -> None:
        """`table` is freed: nobody is left to tell its lobby."""
        self.lobby_due.pop(table.id, None)

    def send_lobbies(self) -> None:
        due, self.lobby_due = self.lobby_due, {}
        for table in due.values():
            if self.tables.get(table.id) is table:  # not freed meanwhile
                self.broadcast_lobby(table)

    def broadcast_lobby(self, table: Table) -> None:
        peers = self.connections.at(table)
        connected = {p.seat for p in peers if p.seat is not None and p.role != "spectator"}
        target = self.router.target(table.id)
        also = [str(t) for t in self.router.other_targets(table.id)]
        data = pack(lobby_frame(table.lobby_description(connected, str(target), target.code, also)))
        for peer in peers:
            self.router.send(peer.rid, data)

    def tick(self, peer: Peer) -> bool:
        """Send `peer` a tick: the clocks, and the last event queued for it (one it is being
        paced to is not missing: a client that holds less once the tick arrives lost
        something, and says hello)."""
        sess = peer.table.game
        head = min(peer.table.durable_seq, peer.next_seq - 1) if sess else 0
        return self.router.send_frame(
            peer.rid, tick_frame(head, sess.clock_view(self.clock.now()) if sess is not None else None)
        )
