"""What the host sends to the peers of a table: its events once on disk, its lobby, ticks.

Events go out in order as soon as the journal holds them (written: a host crash keeps them),
to the seats at once and to watchers once the fsync that follows has put them on disk (a
round of syncs on `SYNCERS` per table while it has events not on disk; an event holding
host-only secrets waits for the disk before it goes to anyone).  A peer gets an event as it
is made only while it is live (`Peer.next_seq` is that event); one that is behind catches
up from the log as it acknowledges (net/host/admission.py).  Lobby messages are coalesced
to one per table per turn of the loop (`lobby_soon`), and those of rule changes to one per
LOBBY_EVERY seconds (`lobby_paced`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from modernart.net.host.connections import Connections, Peer
from modernart.net.host.deadlines import DueTables
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

#: Events a table may have sent to its seats beyond the last fsync: the most a power loss can
#: take that the seats' clients must give back (each keeps more: net/client/receiving.py
#: TAIL_KEPT), and a bound on what waits for a slow disk
UNSYNCED_MAX = 32

#: How long a change of what the host holds without an event (a commitment held, a reveal
#: held) waits before every peer is ticked about it: a person sees it at once, and when the
#: rest of the Sealed auction's commitments or reveals follow within it, their event tells
#: everyone and no tick is sent at all (seconds)
PROGRESS_DELAY = 0.05

#: Seconds between two lobby messages of a table while its admin changes the rules (a
#: burst of changes goes out as one message: `Fanout.lobby_paced`)
LOBBY_EVERY = 0.25

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
        due: DueTables[Table],
        game_saved: Callable[[Table], None],
    ) -> None:
        self.router = router
        self.connections = connections
        self.tables = tables  # the host's tables by id (a lobby is sent only to a table still there)
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.due = due  # the timer loop's: an event may change its table's deadlines
        self.wake = due.wake
        self.game_saved = game_saved  # told once a finished game's record is saved
        self.lobby_due: dict[str, Table] = {}  # tables whose lobby goes out after this handler
        self.lobby_sent: dict[str, float] = {}  # table id -> when its lobby last went out (time.monotonic)
        self.lobby_held: set[str] = set()  # tables whose paced lobby is due (`lobby_paced`)
        self.ticks_due: dict[str, tuple[Table, int]] = {}  # tables whose peers get a tick soon (and its seq then)

    # ------------------------------------------------------------------ events

    def publish(self, table: Table, event: LoggedEvent, ack: Ack | None = None) -> None:
        """Send `event` (and `ack`) now if it may go before the fsync, else once it is on disk.

        The event is written already (net/host/game.py journals it as it is made), so a host
        crash cannot lose it; the fsync follows in `flush` (docs/protocol.md "Journal and
        resume" says what a power loss does)."""
        table.outbox.append((event, ack))
        self.due.touch(table)
        self.send_ready(table)

    def publish_all(self, table: Table, events: list[LoggedEvent], ack: Ack | None = None) -> None:
        """Send `events` in order, then `ack` (at once if there is no event to wait for)."""
        for i, event in enumerate(events):
            self.publish(table, event, ack if i == len(events) - 1 else None)
        if not events and ack is not None:
            self.router.send_frame(*ack)

    def send_ready(self, table: Table) -> None:
        """Send the seats every event of the outbox that needs no fsync before it, in order,
        and start the flusher for what is not on disk yet.  An event that holds host-only
        secrets (the host's seed and the salt keys in event 1, a player's seed: nobody could
        give them back after a power loss), or one more than UNSYNCED_MAX past the last
        fsync, waits for the disk, and so does every event after it."""
        journal = table.game.journal if table.game else None
        syncing = journal is not None and journal.fsync and not journal.closed
        outbox = table.outbox
        while outbox:
            event, ack = outbox[0]
            if syncing and event.seq > table.synced_seq:
                if event.hidden is not None or event.seq - table.synced_seq > UNSYNCED_MAX:
                    break
            outbox.popleft()
            table.durable_seq = event.seq
            self.broadcast_event(table, event)
            if ack is not None:
                self.router.send_frame(*ack)
        if not syncing:
            table.synced_seq = table.durable_seq
            self.release_watchers(table)
        elif table.flusher is None and (outbox or table.synced_seq < table.durable_seq):
            loop = asyncio.get_running_loop()
            table.flusher = loop.create_future()  # done once every event made is on disk
            loop.call_soon(self.sync_round, table)  # after this handler: its events go in one sync

    def sync_round(self, table: Table) -> None:
        """Sync the journal until every event made is on disk (group commit: everything
        written during one sync goes with the next); after each sync (`synced`), the
        watchers get the events now on disk and the outbox what waited for it.

        No task and no asyncio futures per round: one `SYNCERS` thread syncs both files
        (the second fsync finds the filesystem's journal committed by the first: measured
        here, 0.42 ms for both one after the other against 0.55 ms side by side, p50) and
        hands the round back to the event loop: one thread and one loop wake-up per round,
        where every extra one waits for a core on a loaded machine."""
        try:
            sess = table.game
            if sess is None or table.synced_seq >= sess.seq:
                self.flushed(table)
                return
            journal = sess.journal
            target = sess.seq  # written so far: this sync covers all of it
            if journal is None or journal.closed or not journal.fsync:
                self.synced(table, target)
                return
            loop = asyncio.get_running_loop()

            def round_done(_: Future[None]) -> None:  # in a SYNCERS thread
                try:
                    loop.call_soon_threadsafe(self.synced, table, target)
                except RuntimeError:  # the loop is closed: the host is gone, and the journal with it
                    pass

            SYNCERS.submit(journal.sync).add_done_callback(round_done)
        except Exception:  # never leave the table waiting for a round that will not come
            log.exception("journal sync table=%s", table.id)
            self.flushed(table)

    def synced(self, table: Table, target: int) -> None:
        """Every event up to `target` is on disk: send what waited for it, then sync again if
        more was written meanwhile."""
        try:
            table.synced_seq = max(table.synced_seq, target)
            self.send_ready(table)
            self.release_watchers(table)
        except Exception:
            log.exception("after a journal sync table=%s", table.id)
            self.flushed(table)
            return
        self.sync_round(table)

    def flushed(self, table: Table) -> None:
        """The flush of `table` is over (every event on disk, or its game gone)."""
        done, table.flusher = table.flusher, None
        if done is not None and not done.done():
            done.set_result(None)
        if table.outbox:  # the journal closed meanwhile (the game was saved): nothing waits for a disk now
            self.send_ready(table)

    def broadcast_event(self, table: Table, event: LoggedEvent) -> None:
        """Send `event`, written, to every live peer of `table` that plays a seat (its own
        private part to each)."""
        self.send_to(table, event, watchers=False)

    def send_to(self, table: Table, event: LoggedEvent, *, watchers: bool) -> None:
        """Send `event` to the live peers of `table` that play a seat, or (`watchers`) to its
        live watchers: watchers get an event only once it is on disk, so after a power loss
        the seats' clients hold every event anyone got (net/host/game.py `HostedGame.adopt`)."""
        frames: dict[int | None, bytes] = {}
        now = time.monotonic()
        for peer in self.connections.at(table):
            if peer.next_seq != event.seq or (peer.role == "spectator") != watchers:
                continue  # behind (catching up, or out of room): its catch-up brings it as it acknowledges
            data = frames.get(peer.seat)
            if data is None:
                seat = peer.seat if peer.role != "spectator" else None
                data = frames[peer.seat] = pack(event.frame_for(seat))
            if self.connections.send_event(peer, data, event.seq):
                peer.next_seq = event.seq + 1
                peer.last_event = now  # the event carries what a tick would: no tick needed this second

    def release_watchers(self, table: Table) -> None:
        """Send the watchers the events now on disk and sent to the seats; once the last event
        of a finished game is there, save its record."""
        sess = table.game
        if sess is None:
            return
        upto = min(table.synced_seq, table.durable_seq)
        while table.watched_seq < upto:
            table.watched_seq += 1
            self.send_to(table, sess.log[table.watched_seq - 1], watchers=True)
        if sess.disclosed and sess.deck_disclosed and table.record_path is None and table.watched_seq == sess.seq:
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
        self.lobby_sent.pop(table.id, None)

    def send_lobbies(self) -> None:
        due, self.lobby_due = self.lobby_due, {}
        for table in due.values():
            if self.tables.get(table.id) is table:  # not freed meanwhile
                self.broadcast_lobby(table)

    def broadcast_lobby(self, table: Table, only: Peer | None = None) -> None:
        """Send the lobby of `table` to its peers (or to `only`)."""
        peers = self.connections.at(table)
        connected = {p.seat for p in peers if p.seat is not None and p.role != "spectator"}
        watchers = [p.vk for p in peers if p.role == "spectator"] if table.game is None else []
        target = self.router.target(table.id)
        also = [str(t) for t in self.router.other_targets(table.id)]
        data = pack(lobby_frame(table.lobby_description(connected, str(target), target.code, also, watchers)))
        if only is not None:
            self.router.send(only.rid, data)
            return
        self.lobby_sent[table.id] = time.monotonic()
        for peer in peers:
            self.router.send(peer.rid, data)

    def lobby_paced(self, table: Table, asker: Peer) -> None:
        """Broadcast the lobby of `table` at most once every LOBBY_EVERY seconds: a burst of
        rule changes makes one message for the whole burst (its last state) to each peer,
        never one per change; `asker`, who made the change, gets it at once (its next
        change starts from this one)."""
        self.broadcast_lobby(table, only=asker)
        if table.id in self.lobby_held:
            return  # one is due already: it carries this change too
        wait = LOBBY_EVERY - (time.monotonic() - self.lobby_sent.get(table.id, -LOBBY_EVERY))
        if wait <= 0:
            self.lobby_soon(table)
            return
        self.lobby_held.add(table.id)

        def send() -> None:
            self.lobby_held.discard(table.id)
            if self.tables.get(table.id) is table:  # not freed meanwhile
                self.broadcast_lobby(table)

        asyncio.get_running_loop().call_later(wait, send)

    def tick_soon(self, table: Table) -> None:
        """Tick every peer of `table` once, PROGRESS_DELAY from now: what the host holds
        changed without an event (who has sealed, whose reveal is awaited).  The changes of
        that moment (the commitments of a Sealed auction arriving side by side) make one tick
        each, and none at all if an event, which carries the same clocks, went out meanwhile
        (the complete set after the last commitment, the settlement after the last reveal)."""
        if table.id not in self.ticks_due:
            seq = table.game.seq if table.game is not None else 0
            self.ticks_due[table.id] = (table, seq)
            asyncio.get_running_loop().call_later(PROGRESS_DELAY, self.send_ticks, table.id)

    def send_ticks(self, table_id: str) -> None:
        table, seq = self.ticks_due.pop(table_id, (None, 0))
        if table is None or self.tables.get(table_id) is not table:  # freed meanwhile
            return
        if table.game is not None and table.game.seq > seq:
            return  # an event told every peer since
        for peer in self.connections.at(table):
            self.tick(peer)

    def tick(self, peer: Peer) -> bool:
        """Send `peer` a tick: the clocks, and the last event queued for it (one it is being
        paced to is not missing: a client that holds less once the tick arrives lost
        something, and says hello)."""
        sess = peer.table.game
        head = min(peer.table.durable_seq, peer.next_seq - 1) if sess else 0
        return self.router.send_frame(
            peer.rid, tick_frame(head, sess.clock_view(self.clock.now()) if sess is not None else None)
        )
