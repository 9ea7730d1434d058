"""A worker of a club (net/host/club.py): one `Host` serving some of the club's tables,
whose frames the club's front process relays to it and from it.

Socket roles (zguide style):
  front   DEALER (routing id: the worker's name), connected to the front's `workers`
          ROUTER on an ipc:// endpoint in a directory only this user may enter.  Receives
          the frames of this worker's clients as [FRAME, rid, curve, data, rid, curve,
          data...] (the frames of one turn of the front's event loop; the front has
          checked each CURVE key and routed by the table the hello named), the front's
          failed sends as [LOST, rid, b"1" (lagging) or b"0" (gone)] and orders as
          [ORDER, json]; sends the frames for its clients of one turn of its event loop as
          [OUT, rid, data, rid, data...] (the front puts each on the table port) and its
          reports as [ORDER, json].
  (bots)  the in-process bot clients' sockets connect to the club's table port like any
          client's, on this worker's context.
The worker's stdin ties it to the front: its first line holds the worker's settings (the
host's keys among them: a pipe to a child process of the same user), and its end stops the
worker (the front has closed, or died).  No threads: the socket's and stdin's readers run
on the event loop.

Everything a host guarantees holds per worker, because it is the host: the signed chain,
admission, the lobby, each table's journal (a worker killed is resumed from its journals).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from functools import partial
from typing import Any, Callable, Sequence, cast

import zmq
import zmq.asyncio

from modernart.rules import RuleOptions

from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.host.router import LossHandler, Receiver, Router
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys

log = logging.getLogger("modernart.net.host.club")

# the first part of every message between the front and a worker (after the front's
# routing id): what the rest is
FRAME = b"f"  # front -> worker: rid, the sender's CURVE key, a client's frame
LOST = b"l"  # front -> worker: rid, b"1" if its queue was full (lagging), b"0" if it is gone
OUT = b"o"  # worker -> front: rid, a frame for that client
ORDER = b"c"  # either way: one JSON object (an order to the worker, or its report)

#: Messages queued on the relay, either way, before a send fails: far above what the
#: per-peer flow control (net/host/flow.py) and the rate limits let build up in practice;
#: a send that still fails is handled as the host's own socket handles a full queue.
RELAY_HWM = 200_000
REPORT_EVERY = 1.0  # seconds between the worker's reports of its tables (when they changed)
DONTWAIT = int(zmq.DONTWAIT)  # plain ints: no enum arithmetic per part of a message
_MORE = int(zmq.DONTWAIT | zmq.SNDMORE)


def send_parts(sock: zmq.Socket, parts: Sequence[bytes]) -> None:
    """Send `parts` as one message without waiting (zmq.Again if it cannot be queued: a
    message is queued whole or not at all); `send_multipart` with plain-int flags."""
    last = len(parts) - 1
    for i, part in enumerate(parts):
        sock.send(part, DONTWAIT if i == last else _MORE)


class RelayRouter(Router):
    """The host's socket part in a worker: the same interface as `Router` (targets, stats,
    send, goodbye), its frames relayed by the club's front (see the module docstring)."""

    def __init__(
        self,
        keys: Keys,
        *,
        bind: str,
        port: int,
        advertise: str | None,
        receive: Receiver,
        lost: LossHandler,
        also_at: Sequence[str] = (),
        endpoint: str,
        name: bytes,
    ) -> None:
        super().__init__(keys, bind=bind, port=port, advertise=advertise, receive=receive, lost=lost, also_at=also_at)
        self.endpoint = endpoint
        self.name = name
        self.ordered: Callable[[dict[str, Any]], None] = lambda order: None  # the worker's
        self.outgoing: list[bytes] = []  # rid, data, rid, data... of this turn (`flush`)

    def start(self) -> None:
        self.ctx = zmq.asyncio.Context()  # also the in-process bots' context
        s: zmq.Socket = zmq.Context.shadow(self.ctx.underlying).socket(zmq.DEALER)
        self.sock = s
        s.routing_id = self.name
        s.sndhwm = s.rcvhwm = RELAY_HWM
        s.linger = 0
        s.connect(self.endpoint)
        self.fd = cast(int, s.getsockopt(zmq.FD))
        asyncio.get_running_loop().add_reader(self.fd, self.readable)

    def send(self, rid: bytes, data: bytes) -> bool:
        """Queue `data` for the peer at `rid`: the frames of one turn of the event loop (an
        event to every seat, a catch-up) go to the front as one message (`flush`)."""
        if not self.outgoing:
            asyncio.get_running_loop().call_soon(self.flush)
        self.outgoing += (rid, data)
        self.stats["frames_out"] += 1
        self.stats["bytes_out"] += len(data)
        return True

    def flush(self) -> None:
        """Send the frames queued this turn, [OUT, rid, data, rid, data...]; if that fails
        their peers are lost, as the host's own socket would have them."""
        parts, self.outgoing = self.outgoing, []
        sock = self.sock
        if not parts or sock is None or sock.closed:
            return
        try:
            send_parts(sock, [OUT, *parts])
        except zmq.ZMQError as exc:
            for rid in parts[0::2]:
                self.lost(rid, exc.errno == zmq.EAGAIN)
        finally:
            self.look_again()

    def say_goodbye(self, messages: list[tuple[bytes, bytes]]) -> bool:
        self.flush()  # what was sent before the goodbye goes before it
        sock, said = self.sock, False
        if sock is None or sock.closed:
            return False
        for rid, data in messages:
            try:
                send_parts(sock, [OUT, rid, data])
                said = True
            except zmq.ZMQError:
                continue
        return said

    def report(self, report: dict[str, Any]) -> None:
        """Tell the front something (ready, the tables, an order refused)."""
        if self.sock is not None and not self.sock.closed:
            try:
                send_parts(self.sock, [ORDER, json.dumps(report).encode()])
            except zmq.ZMQError as exc:
                log.warning("report to the front failed: %s", exc)

    def on_frames(self, frames: list[zmq.Frame]) -> None:
        kind = frames[0].bytes
        if kind == FRAME and len(frames) % 3 == 1:  # rid, curve, data, rid, curve, data...
            for i in range(1, len(frames), 3):
                data = frames[i + 2].bytes
                self.stats["frames_in"] += 1
                self.stats["bytes_in"] += len(data)
                self.receive(frames[i].bytes, frames[i + 1].bytes, data)
        elif kind == LOST and len(frames) == 3:
            self.lost(frames[1].bytes, frames[2].bytes == b"1")
        elif kind == ORDER and len(frames) == 2:
            self.ordered(json.loads(frames[1].bytes))


class Worker:
    """One worker process's host and what it does on the front's orders."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.keys = Keys.from_json(settings["keys"])
        self.host = Host(
            self.keys,
            port=settings["port"],
            advertise=settings["advertise"],
            also_at=settings.get("also_at", ()),
            bot_pace=settings.get("bot_pace", 1.0),
            quiet_gc=settings.get("quiet_gc", True),
            router=partial(RelayRouter, endpoint=settings["endpoint"], name=settings["name"].encode()),
        )
        self.relay = cast(RelayRouter, self.host.router)
        self.relay.ordered = self.order
        self.stop = asyncio.Event()
        self.told: Any = None  # the tables as last reported

    def order(self, order: dict[str, Any]) -> None:
        """Carry out one order of the front; a refused one is reported, never fatal."""
        try:
            if order["do"] == "open":
                self.open(order)
            elif order["do"] == "resume":
                table = Table.resume(order["path"], self.keys, self.host.clock.now(), fsync=order.get("fsync", True))
                self.host.add_table(table)
                self.relay.report({"is": "resumed", "path": order["path"], "table": table.id})
            elif order["do"] == "close":
                self.stop.set()
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("order refused: %s %r", order.get("do"), exc)
            self.relay.report(
                {
                    "is": "refused",
                    "do": order.get("do"),
                    "table": order.get("table"),
                    "path": order.get("path"),
                    "why": str(exc),
                }
            )
        self.report_tables()

    def open(self, order: dict[str, Any]) -> None:
        lobby = Lobby(
            RuleOptions.from_dict(order.get("options") or {}),
            ClockSettings.from_dict(order.get("clocks") or {}),
            admin=bytes.fromhex(order["admin"]) if order.get("admin") else None,
            first_to_sit_admin=order.get("first_to_sit_admin", True),
        )
        table = self.host.open_table(
            order["name"],
            table_id=order["table"],
            journal_dir=order.get("journal_dir"),
            lobby=lobby,
            autostart=order.get("autostart", False),
            fsync=order.get("fsync", True),
            hidden_hands=order.get("hidden_hands", False),
        )
        for level in order.get("bots", ()):
            _seat, token = table.lobby.add_bot(None, level)
            self.host.spawn_bot(table, token, level)

    def report_tables(self) -> None:
        """Tell the front this worker's tables (what the beacon and the table list say, and
        where each one's journal and record are), if that changed."""
        tables = {
            t.id: {"info": t.info(), "journal": t.journal_path, "record": t.record_path}
            for t in self.host.tables.values()
        }
        if tables != self.told:
            self.told = tables
            self.relay.report({"is": "tables", "tables": tables})

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(0, self.stdin_readable)
        await self.host.start()
        self.relay.report({"is": "ready", "pid": os.getpid()})
        try:
            while not self.stop.is_set():
                try:
                    await asyncio.wait_for(self.stop.wait(), REPORT_EVERY)
                except asyncio.TimeoutError:
                    pass
                self.report_tables()
        finally:
            loop.remove_reader(0)
            await self.host.close()

    def stdin_readable(self) -> None:
        try:
            more = os.read(0, 4096)
        except OSError:
            more = b""
        if not more:  # the front has closed our pipe, or died
            self.stop.set()


def read_settings() -> dict[str, Any]:
    """The first line of stdin, read byte-wise (nothing after it is buffered away)."""
    line = b""
    while not line.endswith(b"\n"):
        more = os.read(0, 1)
        if not more:
            raise SystemExit("club worker: no settings on stdin")
        line += more
    return cast(dict[str, Any], json.loads(line))


def main() -> int:
    settings = read_settings()
    logging.basicConfig(level=settings.get("log_level", logging.WARNING), stream=sys.stderr)
    asyncio.run(Worker(settings).run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
