"""The host: one ROUTER socket serving every table, player and spectator of this process.

Socket roles (zguide style):
  router  ROUTER, CURVE server, bound to the table port.  Receives every client frame;
          sends each peer its own frames with DONTWAIT (a full or gone peer is dropped,
          never waited for; its event bytes are bounded by net/host/flow.py).  Peers are identified by the key their hello proved, never
          by routing id.  A plain (not asyncio) socket driven by the event loop: a
          reader on its FD reads every waiting frame, and any send schedules one more
          look (the FD signals changes, and a send may consume the signal of a frame
          that arrived meanwhile).  It never blocks, and costs far less per frame than
          zmq.asyncio's futures.
  (auth)  ZAP handler (zmq.auth AsyncioAuthenticator, CURVE_ALLOW_ANY) started before
          bind, so every frame carries the client's authenticated CURVE key (User-Id).
Tasks: one timer loop (clock defaults, grace periods, on the injectable clock), one tick
loop (liveness), one flusher per table with events waiting for the disk, and one task
per in-process bot client.  Threads: the journal syncs (`SYNCERS`, below).  Lobby
requests are in `host_lobby.py`, hello and catch-up in `host_hello.py`, moves, seeds,
commitments and reveals in `host_game.py`, presence, stand-ins and timers in
`presence.py` (mixins of `Host`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, cast

import zmq
import zmq.asyncio
import zmq.auth
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85

from modernart.net.lan.address import JoinTarget
from modernart.net.clocks import MonotonicClock, cancel_and_wait
from modernart.net.trust.identity import Keys, check_zmq
from modernart.net.host.flow import PEER_BUDGET, Link
from modernart.net.host.game_requests import GameOps
from modernart.net.host.admission import Admission, Peer
from modernart.net.host.lobby_requests import LobbyOps
from modernart.net.host.lobby import Lobby
from modernart.net.host.presence import Presence
from modernart.net.protocol import MAX_HOST_FRAME, VERSION, ProtocolError, decode_client_frame, pack
from modernart.net.host.game import LoggedEvent
from modernart.net.host.table import Table
from modernart.net.trust.shuffle import FixedDeal

log = logging.getLogger("modernart.net.host.host")

READS_PER_TURN = 256  # frames read before the other tasks get a turn

#: Where journals are fsync'ed: worker threads shared by every table of the process, so a
#: table waiting for the disk never delays another table's events (asyncio's default pool
#: has only a handful of threads).  A sync is a system call that releases the GIL; the
#: threads start on first use.
SYNCERS = ThreadPoolExecutor(max_workers=64, thread_name_prefix="journal-sync")
RATE = 100.0  # frames per second per key, sustained
BURST = 300.0
BUCKET_REFILL = BURST / RATE  # seconds after which an idle bucket is full: forgetting it changes nothing
#: Frames queued per peer before a send fails (EAGAIN: the peer is dropped as lagging).  It
#: counts frames, not bytes: event frames are bounded in bytes by net/host/flow.py, so this
#: bounds the small ones (ticks, lobby, chat, replies) of a peer that does not read.
SNDHWM = 1000


#: Connections without a seat a table serves at once (lobby visitors and watchers)
MAX_WATCHERS = 16

#: How long a finished table waits for a person who was away at the end (seconds) before it
#: is freed: long enough to come back from a dropped link, short enough to bound the memory
AWAY_AT_THE_END = 1800.0

#: How long closing waits once it said goodbye, before it closes the connections: a
#: connection closed with input unread is reset, and a reset can make the peer's system
#: drop what it had received but not yet handed over (the goodbye)
GOODBYE_SECONDS = 0.2

_MORE = int(zmq.DONTWAIT | zmq.SNDMORE)  # plain ints: no enum arithmetic per frame
_LAST = int(zmq.DONTWAIT)


def _bot_table(bot: Any) -> str | None:
    """The table an in-process bot client plays at (None if it does not say)."""
    target = getattr(getattr(bot, "client", None), "target", None)
    return getattr(target, "table", None)


@functools.lru_cache(maxsize=4096)
def _curve_key(user_id: str) -> bytes:
    """The raw CURVE key ZAP put in a frame's User-Id (z85 text; decoded once per key)."""
    return z85.decode(user_id.encode("ascii"))


@dataclass
class Bucket:
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    warned: float = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Host(Admission, LobbyOps, GameOps, Presence):
    """Serves tables over one CURVE ROUTER socket.  Use `await start()`, then `await close()`."""

    def __init__(
        self,
        keys: Keys,
        *,
        bind: str = "127.0.0.1",
        port: int = 0,
        clock: Any = None,
        advertise: str | None = None,
        bot_pace: float = 1.0,
        bot_factory: Callable[..., Any] | None = None,
        peer_budget: int = PEER_BUDGET,
        max_watchers: int = MAX_WATCHERS,
    ) -> None:
        check_zmq()
        self.keys = keys
        self.bind_addr = bind
        self.port = port
        self.advertise = advertise or ("127.0.0.1" if bind in ("0.0.0.0", "*", "127.0.0.1") else bind)
        self.clock = clock or MonotonicClock()
        self.bot_pace = bot_pace
        self.bot_factory = bot_factory
        self.tables: dict[str, Table] = {}
        self._serial = 0  # tables opened without an id: t1, t2...
        self.peers: dict[bytes, Peer] = {}
        self.buckets: dict[bytes, Bucket] = {}
        self.links: dict[bytes, Link] = {}  # routing id -> its unacknowledged event bytes (net/host/flow.py)
        self.peer_budget = peer_budget  # event bytes one connection may hold unacknowledged
        # connections without a seat, per table (lobby visitors and watchers): with the seats,
        # they bound the peers and so the memory a table's connections hold (each its budget)
        self.max_watchers = max_watchers
        self.freed = False  # something was dropped: the next tick returns its memory
        self._lobby_due: dict[str, Table] = {}  # tables whose lobby goes out after this handler
        self.bots: dict[bytes, tuple[asyncio.Task, Any]] = {}  # token -> (task, bot client)
        self.stopping: set[asyncio.Task] = set()  # bots told to stop that have not ended yet
        self.retiring: dict[bytes, Table] = {}  # stand-ins whose player is back, kept until they reveal
        self.absent: dict[tuple[str, int], float] = {}  # (table, seat) -> since (host clock)
        self.wake = asyncio.Event()
        self.closing = False
        self.tasks: list[asyncio.Task] = []
        self.ctx: zmq.asyncio.Context | None = None
        self.sock: zmq.Socket | None = None
        self._fd: int | None = None
        self._read_soon = False
        self.stats = {"frames_in": 0, "bytes_in": 0, "frames_out": 0, "bytes_out": 0, "errors": 0}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.ctx = zmq.asyncio.Context()
        self.auth = AsyncioAuthenticator(self.ctx)
        self.auth.start()  # before bind: without a ZAP handler there is no User-Id
        self.auth.configure_curve(domain="*", location=zmq.auth.CURVE_ALLOW_ANY)
        s: zmq.Socket = zmq.Context.shadow(self.ctx.underlying).socket(zmq.ROUTER)  # plain: see the docstring
        self.sock = s
        s.curve_server = True
        s.curve_secretkey = self.keys.curve_secret
        s.curve_publickey = self.keys.curve_public
        s.router_mandatory = 1
        s.maxmsgsize = MAX_HOST_FRAME
        s.linger = 0
        s.sndhwm = SNDHWM
        s.heartbeat_ivl, s.heartbeat_timeout, s.handshake_ivl = 2000, 6000, 5000
        if self.port:
            s.bind(f"tcp://{self.bind_addr}:{self.port}")
        else:
            self.port = s.bind_to_random_port(f"tcp://{self.bind_addr}")
        loop = asyncio.get_running_loop()
        self._fd = cast(int, s.getsockopt(zmq.FD))  # FD is an int option
        loop.add_reader(self._fd, self._readable)
        self.tasks = [loop.create_task(self._timer_loop()), loop.create_task(self._tick_loop())]
        log.info("host listening port=%d key=%s", self.port, self.target().code)

    async def close(self) -> None:
        """Stop serving: loops first (no stand-in is spawned while bots leave), then the
        in-process bots (their clients close on the live context), then a goodbye to every
        peer (`_say_goodbye`), then files and sockets.  The socket and context close even if
        this is cancelled half-way: a context left to the garbage collector with a socket
        open blocks in zmq_ctx_term."""
        self.closing = True
        try:
            await cancel_and_wait(self.tasks)
            while self.bots or self.stopping:
                tokens, stopping = list(self.bots), list(self.stopping)
                # forgotten only once they have ended: a close cancelled meanwhile leaves them known
                await cancel_and_wait([self.bots[t][0] for t in tokens] + stopping)
                for token in tokens:
                    self.bots.pop(token, None)
                self.stopping.difference_update(stopping)  # their own discard may not have run yet
            flushers = [t.flusher for t in self.tables.values() if t.flusher is not None]
            await asyncio.gather(*flushers, return_exceptions=True)
            if self._say_goodbye():
                await asyncio.sleep(GOODBYE_SECONDS)
        finally:
            for table in self.tables.values():
                if table.game and table.game.journal:
                    table.game.journal.close()
            if self._fd is not None:
                asyncio.get_running_loop().remove_reader(self._fd)
                self._fd = None
            if self.sock is not None:
                self.sock.close(linger=0)
            if self.ctx is not None:
                self.auth.stop()
                # let the cancelled ZAP task drop its poll reader before the socket's fd closes:
                # a stale reader left in the event loop stops the next host's ZAP handler
                # (a second Host in this process then never finishes a handshake)
                try:
                    for _ in range(3):
                        await asyncio.sleep(0)
                finally:
                    self.ctx.destroy(linger=0)

    def _say_goodbye(self) -> bool:
        """Tell every peer its table is closed on purpose, with the journal it can be resumed
        from (a path on this machine) and the record of a finished game.  Sent directly, not
        through `_send`: a peer that is gone is nothing to act on now.  True if any was sent."""
        sock, said = self.sock, False
        if sock is None or sock.closed:
            return False
        for rid, peer in list(self.peers.items()):
            table = peer.table
            try:
                sock.send(rid, _MORE)
                sock.send(
                    pack(
                        {"t": "closed", "table": table.id, "journal": table.journal_path, "record": table.record_path}
                    ),
                    _LAST,
                )
                said = True
            except zmq.ZMQError:
                continue  # gone or full: it will find out by the silence
        log.info("goodbye peers=%d said=%s", len(self.peers), said)
        return said

    def forget_idle_buckets(self) -> None:
        """Drop the rate buckets of keys idle long enough to be full again (keys are free to make)."""
        idle = time.monotonic() - BUCKET_REFILL
        self.buckets = {k: b for k, b in self.buckets.items() if b.stamp > idle}

    def _free_if_done(self, table: Table) -> None:
        """Forget `table` once its game is over, on disk, sent, and its last peer has gone:
        nothing of it stays (its peers, absences, stand-ins and journal go with it).  A person
        who was away at the end is waited for, at most AWAY_AT_THE_END seconds: coming back,
        their client catches up on the last events and saves its own copy of the game."""
        sess = table.game
        if (
            sess is None
            or not sess.disclosed
            or table.durable_seq != sess.seq
            or table.outbox
            or table.flusher is not None
            or (table.journal_path is not None and table.record_path is None)
            or self.tables.get(table.id) is not table
            or self._table_peers(table)
        ):
            return
        away = [seat for (tid, seat) in self.absent if tid == table.id and not sess.players[seat].bot]
        if away and time.monotonic() - (table.ended_at or 0.0) < AWAY_AT_THE_END:
            return  # the tick loop looks again
        self.free_table(table)

    def free_table(self, table: Table) -> None:
        """Forget `table` and everything the host keeps for it (its peers are dropped without
        a word: whoever closes a table tells its peers first)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for rid in [p.rid for p in self._table_peers(table)]:
            self.peers.pop(rid, None)
        for key in [k for k in self.absent if k[0] == table.id]:
            del self.absent[key]
        self._lobby_due.pop(table.id, None)  # nobody left to tell
        for token, owner in list(self.retiring.items()):
            if owner is table:
                del self.retiring[token]
                self._stop_bot(token)
        for token in [t for t, (_task, bot) in self.bots.items() if _bot_table(bot) == table.id]:
            self._stop_bot(token)
        if table.game is not None and table.game.journal is not None:
            table.game.journal.close()
        self.freed = True
        log.info("table freed table=%s", table.id)

    def target(self, table: str | None = None) -> JoinTarget:
        return JoinTarget(self.advertise, self.port, self.keys.curve_public_raw, table)

    def add_table(self, table: Table) -> Table:
        self.tables[table.id] = table
        if table.game is not None:  # resumed: every seat is absent until its player returns
            now = self.clock.now()
            for seat in range(table.game.n):
                self.absent[(table.id, seat)] = now
        self.wake.set()
        return table

    def open_table(
        self,
        name: str = "table",
        *,
        table_id: str | None = None,
        journal_dir: str | None = None,
        lobby: Lobby | None = None,
        autostart: bool | int = False,
        fsync: bool = True,
        fixed_deal: FixedDeal | None = None,
    ) -> Table:
        """A new table of this host; `fixed_deal` (the program's choice, never a client's)
        deals those cards instead of the shuffle, announced to everyone (net/host/table.py)."""
        if table_id is None:
            self._serial += 1
            while f"t{self._serial}" in self.tables:
                self._serial += 1
            table_id = f"t{self._serial}"  # counted, not len(tables): never a freed table's id again
        return self.add_table(
            Table(
                table_id,
                name,
                self.keys,
                journal_dir=journal_dir,
                lobby=lobby,
                autostart=autostart,
                fsync=fsync,
                fixed_deal=fixed_deal,
            )
        )

    # ------------------------------------------------------------------ sending

    def _send(self, rid: bytes, data: bytes) -> bool:
        assert self.sock is not None
        try:
            self.sock.send(rid, _MORE)  # a multipart message is atomic: the data part cannot fail after it
            self.sock.send(data, _LAST)  # copying is cheaper for small frames
        except zmq.ZMQError as exc:
            return self._send_failed(rid, exc)
        finally:
            self._look_again()
        self.stats["frames_out"] += 1
        self.stats["bytes_out"] += len(data)
        return True

    def _send_failed(self, rid: bytes, exc: BaseException) -> bool:
        """A full queue (SNDHWM frames wait: it does not read) drops the peer as lagging, a
        gone one as unreachable; either may say hello again and catch up."""
        lagging = isinstance(exc, zmq.ZMQError) and exc.errno == zmq.EAGAIN
        self._drop_peer(rid, "lagging" if lagging else "unreachable")
        return False

    def _send_event(self, peer: Peer, data: bytes, seq: int, nonce: bytes | None = None) -> bool:
        """Queue an event frame (up to event `seq`) for `peer` if its link has room for it
        (net/host/flow.py); False if it has none (it falls behind, and catches up as it acknowledges)."""
        if not peer.link.room_for(len(data)) or not self._send(peer.rid, data):
            return False
        peer.link.queued(seq, len(data), nonce)
        return True

    def send(self, rid: bytes, obj: dict[str, Any]) -> bool:
        return self._send(rid, pack(obj))

    def _table_peers(self, table: Table) -> list[Peer]:
        return [p for p in self.peers.values() if p.table is table]

    def publish(self, table: Table, event: LoggedEvent, ack: tuple[bytes, dict[str, Any]] | None = None) -> None:
        """Send `event` (and `ack`) once the journal holding it is on disk (group commit)."""
        table.outbox.append((event, ack))
        if table.flusher is None:
            table.flusher = asyncio.get_running_loop().create_task(self._flush_outbox(table))

    def publish_all(
        self, table: Table, events: list[LoggedEvent], ack: tuple[bytes, dict[str, Any]] | None = None
    ) -> None:
        """Send `events` in order, then `ack` (at once if there is no event to wait for)."""
        for i, event in enumerate(events):
            self.publish(table, event, ack if i == len(events) - 1 else None)
        if not events and ack is not None:
            self.send(*ack)

    async def _flush_outbox(self, table: Table) -> None:
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
                        self.send(*ack)
        finally:
            table.flusher = None

    def broadcast_event(self, table: Table, event: LoggedEvent) -> None:
        frames: dict[int | None, bytes] = {}
        now = time.monotonic()
        for peer in self._table_peers(table):
            if peer.next_seq != event.seq:
                continue  # behind (catching up, or out of room): `_pump` brings it as it acknowledges
            data = frames.get(peer.seat)
            if data is None:
                seat = peer.seat if peer.role != "spectator" else None
                data = frames[peer.seat] = pack(event.frame_for(seat))
            if self._send_event(peer, data, event.seq):
                peer.next_seq = event.seq + 1
                peer.last_event = now  # the event carries what a tick would: no tick needed this second
        self.wake.set()
        sess = table.game
        if sess is not None and sess.disclosed and table.record_path is None and event.seq == sess.seq:
            path = table.save_record()
            table.ended_at = time.monotonic()
            log.info("game over table=%s record=%s", table.id, path)
            self.broadcast_lobby(table)  # the lobby message names the saved record
            self._free_if_done(table)

    def lobby_soon(self, table: Table) -> None:
        """Broadcast the lobby of `table` once, right after the current handler.  Many changes
        at once (hellos, a tick dropping hundreds of peers, a send failing in the middle of a
        broadcast) make one message each, never a recursion through the peers."""
        if not self._lobby_due:
            asyncio.get_running_loop().call_soon(self._send_lobbies)
        self._lobby_due[table.id] = table

    def _send_lobbies(self) -> None:
        due, self._lobby_due = self._lobby_due, {}
        for table in due.values():
            if self.tables.get(table.id) is table:  # not freed meanwhile
                self.broadcast_lobby(table)

    def broadcast_lobby(self, table: Table) -> None:
        connected = {p.seat for p in self._table_peers(table) if p.seat is not None and p.role != "spectator"}
        target = self.target(table.id)
        data = pack(table.lobby_wire(connected, str(target), target.code))
        for peer in self._table_peers(table):
            self._send(peer.rid, data)

    # ------------------------------------------------------------------ receiving

    def _look_again(self) -> None:
        """Read the socket once more soon (after a send, which may have taken the FD's signal)."""
        if not self._read_soon and self._fd is not None:
            self._read_soon = True
            asyncio.get_running_loop().call_soon(self._readable)

    def _readable(self) -> None:
        """Read and handle every frame waiting (a turn at a time), without ever blocking."""
        self._read_soon = False
        sock = self.sock
        if sock is None or sock.closed:
            return
        for _ in range(READS_PER_TURN):
            try:
                frames = sock.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            except zmq.ZMQError as exc:  # closed under us
                log.info("receive stopped: %s", exc)
                return
            try:
                self._on_frames(frames)
            except Exception:  # a bug must never take the table down
                log.exception("error handling a frame")
        self._look_again()  # more may wait: after the other tasks' turn

    def _on_frames(self, frames: list[zmq.Frame]) -> None:
        if len(frames) != 2:
            return
        rid, body = frames[0].bytes, frames[1]
        try:
            curve = _curve_key(body.get("User-Id"))
        except (zmq.ZMQError, ValueError):
            return
        data = body.bytes
        self.stats["frames_in"] += 1
        self.stats["bytes_in"] += len(data)
        if len(self.buckets) > 4096:  # keys are free to make: forget the idle ones (also every tick)
            self.forget_idle_buckets()
        bucket = self.buckets.setdefault(curve, Bucket())
        if not bucket.take():
            if time.monotonic() - bucket.warned > 1.0:
                bucket.warned = time.monotonic()
                self.send(rid, {"t": "err", "code": "rate_limited", "msg": "too many frames; slow down"})
            return
        peer = self.peers.get(rid)
        if peer is not None:
            peer.last_seen = time.monotonic()
        link = self.links.get(rid)
        if link is not None:
            link.last_seen = time.monotonic()
        try:
            msg = decode_client_frame(data)
            self._dispatch(rid, curve, peer, msg)
        except ProtocolError as exc:
            self.stats["errors"] += 1
            log.info("refused frame code=%s reason=%s", exc.code, exc.message)
            reply: dict[str, Any] = {"t": "err", "code": exc.code, "msg": exc.message}
            if isinstance(getattr(exc, "request", None), int):
                reply["id"] = exc.request  # type: ignore[attr-defined]
            self.send(rid, reply)

    def _dispatch(self, rid: bytes, curve: bytes, peer: Peer | None, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "tables":
            self.send(
                rid,
                {
                    "t": "tables",
                    "id": msg.get("id", 0),
                    "tables": [t.info() for t in self.tables.values()],
                    "v": VERSION,
                },
            )
            return
        if kind == "hello":
            self._hello(rid, curve, msg)
            return
        if peer is None or peer.curve != curve:
            link = self.links.get(rid)
            if kind == "ping" and link is not None:  # dropped as lagging: it may be reading its queue now
                link.ack(msg.get("seq", 0), msg.get("n"))
            raise ProtocolError("hello_first", "say hello before anything else")
        if kind == "ping":  # last_seen is updated; the tick loop answers every peer once a second
            peer.link.ack(msg.get("seq", 0), msg.get("n"))
            self._pump(peer)
        elif kind == "bye":
            self._drop_peer(rid, "bye")
        elif kind == "act":
            self._act(peer, msg)
        elif kind in ("commit", "seed", "reveal"):
            self._fair(peer, kind, msg)
        elif kind == "lobby":
            self._lobby(peer, msg)

    def _tick(self, peer: Peer) -> dict[str, Any]:
        sess = peer.table.game
        # the last event queued for this peer: one it is being paced to is not missing (a
        # client that holds less once the tick arrives lost something, and says hello)
        head = min(peer.table.durable_seq, peer.next_seq - 1) if sess else 0
        tick: dict[str, Any] = {"t": "tick", "head": head}
        if sess is not None:
            tick["clk"] = sess.clock_view(self.clock.now())
        return tick
