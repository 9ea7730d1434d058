"""A club on one machine: many tables over worker processes, behind one table port and one
beacon, so that the host uses every core.

The front process (this module's `Club`) holds the table port and the beacon's list of
tables; each worker process (net/host/club_worker.py) is a whole `Host` for some of the
tables: admission, lobby, game, signed chain, journal, presence, its in-process bots.  The
front reads no game: it checks each frame's CURVE key and rate (as any host does), routes
it by the table its connection's hello named, and puts each worker's frames on the port.
A hello that names no table the club has, and the table list, the front answers itself,
as a host would.

Socket roles (zguide style):
  router   ROUTER, CURVE server, bound to the table port (net/host/router.py: ZAP, the
           DONTWAIT sends, a full or gone peer reported as lost).  Receives every client
           frame; sends each client the frames its worker made.
  workers  ROUTER, bound to ipc://<a directory of mode 0700>/workers (only this user can
           connect: a worker is trusted with its clients' CURVE keys).  Each worker's
           DEALER connects with the worker's name as its routing id; the messages both ways
           (the frames of one turn of the event loop batched in one) are described in
           net/host/club_worker.py.
No threads: both sockets' readers and one upkeep task (forgetting silent connections,
watching the workers) run on the event loop.  A worker that dies is started again and its
tables that had a journal are resumed from it; their clients reconnect as they would to a
restarted host.

One process is the default (net/host/serve.py serves one table, and a table is one
process's work): the club is for a machine that serves many tables at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Sequence, cast

import zmq

from modernart.net.host.club_worker import FRAME, LOST, ORDER, OUT, RELAY_HWM, send_parts
from modernart.net.host.host import GOODBYE_LINGER
from modernart.net.host.presence import PEER_TIMEOUT
from modernart.net.host.rates import RateLimits
from modernart.net.host.router import Router
from modernart.net.host.serve import journal_meta
from modernart.net.lan.address import JoinTarget
from modernart.net.protocol import VERSION, ProtocolError
from modernart.net.protocol.frames import decode_client_frame, err_frame, tables_frame
from modernart.net.trust.identity import Keys, check_zmq

log = logging.getLogger("modernart.net.host.club")

START_SECONDS = 120.0  # a worker's start-up (imports, first bind) on a loaded machine, at most
CLOSE_SECONDS = 15.0  # a worker's goodbye to its peers and its journals' close, at most
UPKEEP_EVERY = 1.0
#: A connection silent this long is forgotten by the front (its worker dropped it long ago:
#: every client pings, and a host drops a peer silent for PEER_TIMEOUT)
ROUTE_TIMEOUT = 4 * PEER_TIMEOUT
#: Whether a frame may be a hello or a table list request: their kind as msgpack spells it
#: (a fixstr).  Only those are decoded here; the worker checks every frame in full.
_HELLO, _TABLES = b"\xa5hello", b"\xa6tables"
DONTWAIT = int(zmq.DONTWAIT)  # a plain int: no enum arithmetic per message


@dataclass
class WorkerProcess:
    """One worker as the front knows it."""

    name: bytes
    proc: subprocess.Popen[bytes]
    pid: int = 0  # once it said it is ready
    ready: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    tables: set[str] = field(default_factory=set)
    waiting: list[dict[str, Any]] = field(default_factory=list)  # orders given before it was ready
    incoming: list[bytes] = field(default_factory=list)  # rid, curve, data... of this turn (`Club.flush`)


@dataclass
class Route:
    worker: WorkerProcess
    heard: float


class Club:
    """Tables over `workers` processes behind one CURVE ROUTER port (see the module doc).
    Use `await start()`, `open_table(...)`, then `await close()`."""

    def __init__(
        self,
        keys: Keys,
        *,
        workers: int | None = None,
        bind: str = "127.0.0.1",
        port: int = 0,
        advertise: str | None = None,
        also_at: Sequence[str] = (),
        bot_pace: float = 1.0,
        quiet_gc: bool = True,
        verbose: bool = False,
    ) -> None:
        check_zmq()
        if not zmq.has("ipc"):
            raise RuntimeError("a club needs ZeroMQ's ipc transport, which this platform lacks")
        self.keys = keys
        self.count = workers or os.cpu_count() or 1
        self.bot_pace = bot_pace
        self.quiet_gc = quiet_gc
        self.verbose = verbose
        self.router = Router(
            keys, bind=bind, port=port, advertise=advertise, also_at=also_at, receive=self.receive, lost=self.lost
        )
        self.rates = RateLimits()
        self.routes: dict[bytes, Route] = {}  # routing id -> the worker of the table its hello named
        self.owner: dict[str, WorkerProcess] = {}  # table id -> its worker
        self.tables: dict[str, dict[str, Any]] = {}  # table id -> as its worker last told
        self.workers: dict[bytes, WorkerProcess] = {}
        self.sock: zmq.Socket | None = None
        self.fd: int | None = None
        self.read_soon = False
        self.directory: str | None = None
        self.serial = 0
        self.resuming: dict[str, asyncio.Future[str]] = {}  # journal path -> its table id, once resumed
        self.orders: dict[str, dict[str, Any]] = {}  # table id -> its order, until its worker reports it
        self.restarts = 0
        self.closing = False
        self.upkeep: asyncio.Task[None] | None = None
        self.relaying: list[WorkerProcess] = []  # the workers with frames queued this turn

    # ------------------------------------------------------------------ what it serves

    @property
    def port(self) -> int:
        return self.router.port

    def target(self, table: str) -> JoinTarget:
        return self.router.target(table)

    def infos(self) -> list[dict[str, Any]]:
        """What the beacon and the table list say: every worker's tables."""
        return [t["info"] for t in self.tables.values()]

    def pids(self) -> list[int]:
        """The worker processes' ids (for measuring what the club costs)."""
        return [w.proc.pid for w in self.workers.values()]

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.router.start()
        assert self.router.ctx is not None
        self.directory = tempfile.mkdtemp(prefix="modernart-club-")  # mode 0700
        s: zmq.Socket = zmq.Context.shadow(self.router.ctx.underlying).socket(zmq.ROUTER)
        self.sock = s
        s.router_mandatory = 1
        s.sndhwm = s.rcvhwm = RELAY_HWM
        s.linger = 0
        s.bind(f"ipc://{self.directory}/workers")
        self.fd = cast(int, s.getsockopt(zmq.FD))
        asyncio.get_running_loop().add_reader(self.fd, self.readable)
        try:
            for i in range(self.count):
                self.spawn(f"w{i}".encode())
            await asyncio.wait_for(asyncio.gather(*(w.ready for w in self.workers.values())), START_SECONDS)
        except BaseException:
            await self.close()
            raise
        self.upkeep = asyncio.get_running_loop().create_task(self.upkeep_loop())
        log.info("club listening port=%d workers=%d", self.port, self.count)

    def spawn(self, name: bytes) -> WorkerProcess:
        assert self.directory is not None
        proc = subprocess.Popen([sys.executable, "-m", "modernart.net.host.club_worker"], stdin=subprocess.PIPE)
        settings = {
            "keys": self.keys.to_json(),
            "endpoint": f"ipc://{self.directory}/workers",
            "name": name.decode(),
            "port": self.router.port,
            "advertise": self.router.advertise,
            "also_at": list(self.router.also_at),
            "bot_pace": self.bot_pace,
            "quiet_gc": self.quiet_gc,
            "log_level": logging.INFO if self.verbose else logging.WARNING,
        }
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(settings).encode() + b"\n")
        proc.stdin.flush()
        worker = WorkerProcess(name, proc)
        self.workers[name] = worker
        return worker

    async def close(self) -> None:
        """Each worker says goodbye to its peers and closes its journals (the front relays
        the goodbyes meanwhile), bounded by CLOSE_SECONDS; then the sockets close."""
        self.closing = True
        if self.upkeep is not None:
            self.upkeep.cancel()
            await asyncio.gather(self.upkeep, return_exceptions=True)
        try:
            for worker in self.workers.values():
                self.order(worker, {"do": "close"})
                if worker.proc.stdin is not None:
                    worker.proc.stdin.close()
            deadline = time.monotonic() + CLOSE_SECONDS
            while any(w.proc.poll() is None for w in self.workers.values()) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        finally:
            for worker in self.workers.values():
                if worker.proc.poll() is None:
                    log.warning("club worker %s did not stop: killed", worker.name.decode())
                    worker.proc.kill()
                worker.proc.wait()
            if self.fd is not None:
                asyncio.get_running_loop().remove_reader(self.fd)
                self.fd = None
            if self.sock is not None:
                self.sock.close(linger=0)
            await self.router.close(linger=GOODBYE_LINGER)
            if self.directory is not None:
                shutil.rmtree(self.directory, ignore_errors=True)

    # ------------------------------------------------------------------ tables

    def open_table(
        self,
        name: str = "table",
        *,
        journal_dir: str | None = None,
        options: dict[str, Any] | None = None,
        clocks: dict[str, Any] | None = None,
        admin: bytes | None = None,
        first_to_sit_admin: bool = True,
        autostart: bool | int = False,
        fsync: bool = True,
        hidden_hands: bool = False,
        bots: Sequence[str] = (),
    ) -> str:
        """A new table on the worker with the fewest; its id (t1, t2...).  Frames for it may
        come at once: the worker reads the order before them (one pipe, in order)."""
        self.serial += 1
        while f"t{self.serial}" in self.owner:  # a resumed table's
            self.serial += 1
        table_id = f"t{self.serial}"
        worker = min(self.workers.values(), key=lambda w: len(w.tables))
        order = {
            "do": "open",
            "table": table_id,
            "name": name,
            "journal_dir": journal_dir,
            "options": options or {},
            "clocks": clocks or {},
            "admin": admin.hex() if admin else None,
            "first_to_sit_admin": first_to_sit_admin,
            "autostart": autostart,
            "fsync": fsync,
            "hidden_hands": hidden_hands,
            "bots": list(bots),
        }
        self.place(table_id, worker)
        self.orders[table_id] = order
        self.order(worker, order)
        return table_id

    async def resume_table(self, path: str, *, fsync: bool = True) -> str:
        """Serve again the table whose journal is `path`; its id.  ValueError if the club
        serves a table of that id already (its players' hellos name it: it cannot change)."""
        table_id = journal_meta(path, "table") or "t1"  # as Table.resume names it
        if table_id in self.owner:
            raise ValueError(f"the club serves a table {table_id} already")
        worker = min(self.workers.values(), key=lambda w: len(w.tables))
        self.place(table_id, worker)
        order = {"do": "resume", "path": path, "table": table_id, "fsync": fsync}
        self.orders[table_id] = order  # kept until the worker has resumed it
        waiting: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.resuming[path] = waiting
        self.order(worker, order)
        return await waiting

    def place(self, table_id: str, worker: WorkerProcess) -> None:
        self.owner[table_id] = worker
        worker.tables.add(table_id)

    def order(self, worker: WorkerProcess, order: dict[str, Any]) -> None:
        if self.sock is None:
            return
        if not worker.ready.done():  # its socket may not be connected yet: sent once it is ready
            worker.waiting.append(order)
            return
        try:
            send_parts(self.sock, [worker.name, ORDER, json.dumps(order).encode()])
        except zmq.ZMQError as exc:
            log.warning("order to %s failed: %s", worker.name.decode(), exc)

    # ------------------------------------------------------------------ clients' frames

    def receive(self, rid: bytes, curve: bytes, data: bytes) -> None:
        refused = self.rates.take(curve)
        if refused is not None:
            if self.rates.should_warn(refused):
                self.router.send_frame(rid, err_frame("rate_limited", "too many frames; slow down"))
            return
        route = self.routes.get(rid)
        if route is not None:
            route.heard = time.monotonic()
        if route is None or _HELLO in data or _TABLES in data:
            try:
                route = self.routed(rid, data, route)
            except ProtocolError as exc:
                self.router.send_frame(rid, err_frame(exc.code, exc.message, None, exc.params))
                return
            if route is None:
                return  # answered here
        worker = route.worker if route is not None else next(iter(self.workers.values()))
        self.relay(worker, rid, curve, data)

    def routed(self, rid: bytes, data: bytes, route: Route | None) -> Route | None:
        """The route of a frame that may be a hello or a table list request.  A table list
        is answered here (None); a hello naming a table goes to that table's worker (the
        connection's route from now on), one naming none the club has is refused here as a
        host refuses it; anything else goes where it went, or (no hello yet) to a worker,
        which answers it as any host does."""
        try:
            msg = decode_client_frame(data)
        except ProtocolError:
            return route or Route(next(iter(self.workers.values())), time.monotonic())
        if msg["t"] == "tables":
            self.router.send_frame(rid, tables_frame(msg.get("id", 0), self.infos()))
            return None
        if msg["t"] != "hello":
            return route or Route(next(iter(self.workers.values())), time.monotonic())
        if msg["v"] != VERSION:
            raise ProtocolError("version", f"this host speaks protocol {VERSION}, not {msg['v']}")
        table_id = msg.get("table")
        if table_id is None and len(self.owner) == 1:
            table_id = next(iter(self.owner))
        worker = self.owner.get(table_id) if table_id is not None else None
        if worker is None:
            raise ProtocolError("no_table", f"no table {table_id!r}; tables: {', '.join(self.owner)}")
        if route is not None and route.worker is not worker:  # the same connection, another table
            self.tell_lost(route.worker, rid, False)
        route = Route(worker, time.monotonic())
        self.routes[rid] = route
        return route

    def relay(self, worker: WorkerProcess, rid: bytes, curve: bytes, data: bytes) -> None:
        """Queue a client's frame for its worker: the frames of one turn go as one message."""
        if not worker.incoming:
            if not self.relaying:
                asyncio.get_running_loop().call_soon(self.flush)
            self.relaying.append(worker)
        worker.incoming += (rid, curve, data)

    def flush(self) -> None:
        """Hand each worker the frames queued for it this turn."""
        relaying, self.relaying = self.relaying, []
        sock = self.sock
        for worker in relaying:
            parts, worker.incoming = worker.incoming, []
            if sock is None or sock.closed:
                continue
            try:
                send_parts(sock, [worker.name, FRAME, *parts])
            except zmq.ZMQError as exc:  # a worker restarting, or far behind: the clients send again
                log.info("frames for %s dropped: %s", worker.name.decode(), exc)
        self.look_again()

    def lost(self, rid: bytes, lagging: bool) -> None:
        route = self.routes.get(rid)
        if route is not None:
            self.tell_lost(route.worker, rid, lagging)

    def tell_lost(self, worker: WorkerProcess, rid: bytes, lagging: bool) -> None:
        if self.sock is None:
            return
        try:
            send_parts(self.sock, [worker.name, LOST, rid, b"1" if lagging else b"0"])
        except zmq.ZMQError:
            pass  # a worker gone has forgotten the peer already

    # ------------------------------------------------------------------ workers' messages

    def look_again(self) -> None:
        if not self.read_soon and self.fd is not None:
            self.read_soon = True
            asyncio.get_running_loop().call_soon(self.readable)

    def readable(self) -> None:
        self.read_soon = False
        sock = self.sock
        if sock is None or sock.closed:
            return
        for _ in range(1024):
            try:
                frames = sock.recv_multipart(DONTWAIT)
            except zmq.Again:
                return
            except zmq.ZMQError as exc:
                log.info("workers socket: %s", exc)
                return
            try:
                self.from_worker(frames)
            except Exception:  # a bug must never take the club down
                log.exception("error handling a worker's message")
        self.look_again()

    def from_worker(self, frames: list[bytes]) -> None:
        worker = self.workers.get(frames[0])
        if worker is None or len(frames) < 3:
            return
        if frames[1] == OUT and len(frames) % 2 == 0:  # rid, data, rid, data...
            send = self.router.send
            for i in range(2, len(frames), 2):
                send(frames[i], frames[i + 1])
        elif frames[1] == ORDER:
            self.reported(worker, json.loads(frames[2]))

    def reported(self, worker: WorkerProcess, report: dict[str, Any]) -> None:
        said = report.get("is")
        if said == "ready":
            worker.pid = report["pid"]
            if not worker.ready.done():
                worker.ready.set_result(None)
            held, worker.waiting = worker.waiting, []
            for order in held:
                self.order(worker, order)
        elif said == "tables":
            mine: dict[str, dict[str, Any]] = report["tables"]
            for table_id in [t for t in worker.tables if t not in mine and t not in self.orders]:
                self.forget_table(table_id)  # freed by its worker (an order not carried out yet is kept)
            for table_id, about in mine.items():
                self.tables[table_id] = about
                self.orders.pop(table_id, None)
                self.place(table_id, worker)
        elif said == "resumed":
            self.orders.pop(report["table"], None)
            self.place(report["table"], worker)
            waiting = self.resuming.pop(report["path"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(report["table"])
        elif said == "refused":
            log.warning("club worker %s refused %s: %s", worker.name.decode(), report.get("do"), report.get("why"))
            if report.get("table"):
                self.forget_table(report["table"])
            waiting = self.resuming.pop(report.get("path") or "", None)
            if waiting is not None and not waiting.done():
                waiting.set_exception(ValueError(report.get("why")))

    def forget_table(self, table_id: str) -> None:
        worker = self.owner.pop(table_id, None)
        if worker is not None:
            worker.tables.discard(table_id)
        self.tables.pop(table_id, None)
        self.orders.pop(table_id, None)

    # ------------------------------------------------------------------ upkeep

    async def upkeep_loop(self) -> None:
        while True:
            await asyncio.sleep(UPKEEP_EVERY)
            now = time.monotonic()
            for rid in [r for r, route in self.routes.items() if now - route.heard > ROUTE_TIMEOUT]:
                del self.routes[rid]
            self.rates.forget_idle()
            for worker in list(self.workers.values()):
                if worker.proc.poll() is not None and not self.closing:
                    try:
                        self.restart(worker)
                    except OSError as exc:  # tried again at the next round
                        log.error("club worker %s could not be started again: %r", worker.name.decode(), exc)

    def restart(self, dead: WorkerProcess) -> None:
        """A worker died: a new one resumes each of its tables that has a journal (its
        clients reconnect as to a restarted host); a table still in its lobby is gone."""
        log.error("club worker %s ended (code %s): starting it again", dead.name.decode(), dead.proc.returncode)
        worker = self.spawn(dead.name)  # first: if it cannot start, nothing is forgotten yet
        self.restarts += 1
        journals = {t: self.tables.get(t, {}).get("journal") for t in dead.tables}
        for table_id in list(dead.tables):
            self.forget_table(table_id)
        for rid in [r for r, route in self.routes.items() if route.worker is dead]:
            del self.routes[rid]
        for table_id, journal in journals.items():
            if journal:
                order = {"do": "resume", "path": journal, "table": table_id}
                self.orders[table_id] = order  # kept until the worker has resumed it
                self.place(table_id, worker)
                self.order(worker, order)
