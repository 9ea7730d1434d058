"""The host's socket: one CURVE ROUTER on the table port, what reads it and what sends on it.

Socket roles (zguide style):
  router  ROUTER, CURVE server, bound to the table port.  Receives every client frame;
          sends each peer its own frames with DONTWAIT (a full or gone peer is dropped,
          never waited for; its event bytes are bounded by net/host/flow.py).  Peers are
          identified by the key their hello proved, never by routing id.  A plain (not
          asyncio) socket driven by the event loop: a reader on its FD reads every waiting
          frame, and any send schedules one more look (the FD signals changes, and a send
          may consume the signal of a frame that arrived meanwhile).  It never blocks, and
          costs far less per frame than zmq.asyncio's futures.
  (auth)  ZAP handler (zmq.auth AsyncioAuthenticator, CURVE_ALLOW_ANY) started before
          bind, so every frame carries the client's authenticated CURVE key (User-Id).

No tasks and no threads of its own: the FD reader runs on the event loop.  What a frame
means is not known here: each one goes to `receive(rid, curve, data)`, and a send that
fails goes to `lost(rid, lagging)` (the host drops that peer).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any, Callable, Sequence, cast

import zmq
import zmq.asyncio
import zmq.auth
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85

from modernart.net.lan.address import JoinTarget
from modernart.net.protocol import HOST_HANDSHAKE_MS, MAX_HOST_FRAME, pack
from modernart.net.protocol.frames import MAX_OTHER_ADDRESSES
from modernart.net.trust.identity import Keys

log = logging.getLogger("modernart.net.host.host")

READS_PER_TURN = 256  # frames read before the other tasks get a turn
#: Frames queued per peer before a send fails (EAGAIN: the peer is dropped as lagging).  It
#: counts frames, not bytes: event frames are bounded in bytes by net/host/flow.py, so this
#: bounds the small ones (ticks, lobby, chat, replies) of a peer that does not read.
SNDHWM = 1000

_MORE = int(zmq.DONTWAIT | zmq.SNDMORE)  # plain ints: no enum arithmetic per frame
_LAST = int(zmq.DONTWAIT)

#: What a received frame is handed to: (routing id, the sender's raw CURVE key, the bytes)
Receiver = Callable[[bytes, bytes, bytes], None]
#: Told of a send that failed: (routing id, whether its queue was full rather than gone)
LossHandler = Callable[[bytes, bool], None]


@functools.lru_cache(maxsize=4096)
def curve_key(user_id: str) -> bytes:
    """The raw CURVE key ZAP put in a frame's User-Id (z85 text; decoded once per key)."""
    return z85.decode(user_id.encode("ascii"))


class Router:
    """The ROUTER socket of one host (see the module docstring)."""

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
    ) -> None:
        self.keys = keys
        self.bind_addr = bind
        self.port = port  # 0 until `start` binds a random one
        self.advertise = advertise or ("127.0.0.1" if bind in ("0.0.0.0", "*", "127.0.0.1") else bind)
        #: the machine's other addresses (another interface: Wi-Fi beside Ethernet, a VPN)
        self.also_at = tuple(a for a in dict.fromkeys(also_at) if a != self.advertise)[:MAX_OTHER_ADDRESSES]
        self.receive = receive
        self.lost = lost
        self.ctx: zmq.asyncio.Context | None = None  # also the context of the host's in-process bots
        self.auth: AsyncioAuthenticator | None = None
        self.sock: zmq.Socket | None = None
        self.fd: int | None = None  # the socket's FD while the event loop reads it
        self.read_soon = False
        self.stats = {"frames_in": 0, "bytes_in": 0, "frames_out": 0, "bytes_out": 0, "errors": 0}
        self.frame: zmq.Frame | None = None  # the frame being handled (its metadata: `peer_address`)

    def target(self, table: str | None = None) -> JoinTarget:
        """Where clients reach this socket (and `table` on it)."""
        return JoinTarget(self.advertise, self.port, self.keys.curve_public_raw, table)

    def other_targets(self, table: str | None = None) -> list[JoinTarget]:
        """The same socket (and `table`) at this machine's other addresses."""
        return [JoinTarget(a, self.port, self.keys.curve_public_raw, table) for a in self.also_at]

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
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
        s.heartbeat_ivl, s.heartbeat_timeout, s.handshake_ivl = 2000, 6000, HOST_HANDSHAKE_MS
        if self.port:
            s.bind(f"tcp://{self.bind_addr}:{self.port}")
        else:
            self.port = s.bind_to_random_port(f"tcp://{self.bind_addr}")
        self.fd = cast(int, s.getsockopt(zmq.FD))  # FD is an int option
        asyncio.get_running_loop().add_reader(self.fd, self.readable)

    async def close(self, linger: float = 0.0) -> None:
        """Stop reading, close the socket and the context (also when cancelled half-way: a
        context left to the garbage collector with a socket open blocks in zmq_ctx_term).
        `linger`: seconds the socket may still deliver what it has queued (terminating the
        context waits for that, bounded: a peer that never reads holds it no longer)."""
        if self.fd is not None:
            asyncio.get_running_loop().remove_reader(self.fd)
            self.fd = None
        if self.sock is not None:
            self.sock.close(linger=int(linger * 1000))
        if self.ctx is not None:
            if self.auth is not None:
                self.auth.stop()
            # let the cancelled ZAP task drop its poll reader before the socket's fd closes:
            # a stale reader left in the event loop stops the next host's ZAP handler
            try:
                for _ in range(3):
                    await asyncio.sleep(0)
            finally:
                self.ctx.destroy(linger=0)

    def say_goodbye(self, messages: list[tuple[bytes, bytes]]) -> bool:
        """Send each (routing id, data) directly, not through `send`: a peer that is gone is
        nothing to act on now.  True if any was sent."""
        sock, said = self.sock, False
        if sock is None or sock.closed:
            return False
        for rid, data in messages:
            try:
                sock.send(rid, _MORE)
                sock.send(data, _LAST)
                said = True
            except zmq.ZMQError:
                continue  # gone or full: it will find out by the silence
        return said

    # ------------------------------------------------------------------ sending

    def send(self, rid: bytes, data: bytes) -> bool:
        """Queue `data` for the peer at `rid`; False (and `lost` told) if that failed."""
        assert self.sock is not None
        try:
            self.sock.send(rid, _MORE)  # a multipart message is atomic: the data part cannot fail after it
            self.sock.send(data, _LAST)  # copying is cheaper for small frames
        except zmq.ZMQError as exc:
            # a full queue (SNDHWM frames wait: it does not read) is a lagging peer, else a gone one
            self.lost(rid, exc.errno == zmq.EAGAIN)
            return False
        finally:
            self.look_again()
        self.stats["frames_out"] += 1
        self.stats["bytes_out"] += len(data)
        return True

    def send_frame(self, rid: bytes, frame: dict[str, Any]) -> bool:
        return self.send(rid, pack(frame))

    # ------------------------------------------------------------------ receiving

    def look_again(self) -> None:
        """Read the socket once more soon (after a send, which may have taken the FD's signal)."""
        if not self.read_soon and self.fd is not None:
            self.read_soon = True
            asyncio.get_running_loop().call_soon(self.readable)

    def readable(self) -> None:
        """Read and hand on every frame waiting (a turn at a time), without ever blocking."""
        self.read_soon = False
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
                self.on_frames(frames)
            except Exception:  # a bug must never take the table down
                log.exception("error handling a frame")
        self.look_again()  # more may wait: after the other tasks' turn

    def peer_address(self) -> str:
        """The source address (IP) of the connection the frame being handled came on."""
        frame = self.frame
        try:
            return str(frame.get("Peer-Address")) if frame is not None else ""
        except zmq.ZMQError:
            return ""

    def on_frames(self, frames: list[zmq.Frame]) -> None:
        if len(frames) != 2:
            return
        rid, body = frames[0].bytes, frames[1]
        try:
            curve = curve_key(body.get("User-Id"))
        except (zmq.ZMQError, ValueError):
            return
        data = body.bytes
        self.frame = body  # its metadata, for `peer_address` while it is handled
        self.stats["frames_in"] += 1
        self.stats["bytes_in"] += len(data)
        try:
            self.receive(rid, curve, data)
        finally:
            self.frame = None
