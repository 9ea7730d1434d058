"""LAN discovery: the host announces each table by UDP broadcast; `modernart join` listens.

Payload (at most 512 bytes): b"MART" | version byte | msgpack map {port, key (32-byte
CURVE public key), table, name, state, taken, free, options, fpr}.  The sender's address
is taken from the datagram.  Beacons are unauthenticated: the join code (derived from the
key, the port and the table: net/lan/address.py `table_code`) is what a player checks.  Malformed or oversized datagrams are ignored; a listener
never replies (no amplification).  Default targets are the directed broadcast address of
every interface that is up (Wi-Fi, Ethernet, a VPN: net/lan/interfaces.py), looked up
again every round, so an interface that comes up later is announced too; tests inject
127.255.255.255 inside their own network namespace.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable

import msgpack

from modernart.net.lan.address import JoinTarget
from modernart.net.lan.interfaces import broadcast_addresses
from modernart.net.trust.identity import fingerprint

log = logging.getLogger("modernart.net.lan.beacon")

MAGIC = b"MART"
VERSION = 1
PORT = 47999
MAX_BEACON = 512
EXPIRE = 5.0


def encode_beacon(port: int, key: bytes, info: dict[str, Any]) -> bytes:
    body = {
        "port": port,
        "key": key,
        "table": info["id"],
        "name": info["name"][:48],
        "state": info["state"],
        "taken": info["taken"],
        "free": info["free"],
        "options": info.get("options", {}),
        "fpr": fingerprint(key),
    }
    if info.get("hidden"):
        body["hidden"] = True  # hands hidden even from the host
    data = MAGIC + bytes([VERSION]) + msgpack.packb(body, use_bin_type=True)
    if len(data) > MAX_BEACON:
        body["options"] = {"more": True}
        data = MAGIC + bytes([VERSION]) + msgpack.packb(body, use_bin_type=True)
    return data


@dataclass(frozen=True)
class Heard:
    """A table heard on the LAN."""

    target: JoinTarget
    name: str
    state: str
    taken: int
    free: int
    options: dict[str, Any]
    seen: float
    hidden: bool = False  # the table hides hands even from its host (docs/fair-play.md)

    @property
    def code(self) -> str:
        return self.target.code  # the table's own: two tables of one host key differ


def decode_beacon(data: bytes, sender: str) -> Heard | None:
    if len(data) > MAX_BEACON or not data.startswith(MAGIC) or len(data) < 6 or data[4] != VERSION:
        return None
    try:
        body = msgpack.unpackb(
            data[5:], raw=False, max_str_len=256, max_bin_len=64, max_array_len=32, max_map_len=32, max_ext_len=0
        )
        port, key, table = body["port"], body["key"], body["table"]
        if type(port) is not int or not 0 < port < 65536 or type(key) is not bytes or len(key) != 32:
            return None
        if type(table) is not str or not 0 < len(table) <= 32:
            return None
        options = body.get("options") if isinstance(body.get("options"), dict) else {}
        return Heard(
            JoinTarget(sender, port, key, table),
            str(body.get("name", ""))[:48],
            str(body.get("state", "")),
            int(body.get("taken", 0)),
            int(body.get("free", 0)),
            options,
            time.monotonic(),
            body.get("hidden") is True,
        )
    except (ValueError, TypeError, KeyError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return None


class Announcer:
    """Sends one beacon per table every `every` seconds to each target (host, port)."""

    def __init__(
        self,
        tables: Callable[[], list[dict[str, Any]]],
        tcp_port: int,
        key: bytes,
        targets: list[tuple[str, int]] | None = None,
        every: float = 1.0,
    ) -> None:
        self.tables = tables
        self.tcp_port = tcp_port
        self.key = key
        self.fixed_targets = targets  # None: every interface's broadcast address, looked up each round
        self.every = every
        self.sent = 0

    def targets(self) -> list[tuple[str, int]]:
        """Where this round's beacons go."""
        if self.fixed_targets is not None:
            return self.fixed_targets
        return [(address, PORT) for address in broadcast_addresses()]

    async def run(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.setblocking(False)
        try:
            while True:
                targets = self.targets()
                for info in self.tables():
                    data = encode_beacon(self.tcp_port, self.key, info)
                    for target in targets:
                        try:
                            sock.sendto(data, target)
                            self.sent += 1
                        except OSError as exc:
                            log.debug("beacon to %s failed: %s", target, exc)
                await asyncio.sleep(self.every)
        finally:
            sock.close()


class Listener(asyncio.DatagramProtocol):
    """Collects tables heard on `port`; `tables()` lists those heard in the last EXPIRE seconds."""

    def __init__(self, code: str | None = None) -> None:
        self.heard: dict[tuple[str, int, str], Heard] = {}
        self.code = code
        self.transport: asyncio.DatagramTransport | None = None

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        heard = decode_beacon(data, addr[0])
        if heard is None or (self.code is not None and heard.code != self.code):
            return
        t = heard.target
        self.heard[(t.host, t.port, t.table or "")] = heard

    def tables(self) -> list[Heard]:
        now = time.monotonic()
        return sorted((h for h in self.heard.values() if now - h.seen < EXPIRE), key=lambda h: (h.name, h.target.host))

    @classmethod
    async def open(cls, bind: str = "0.0.0.0", port: int = PORT, code: str | None = None) -> "Listener":
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((bind, port))
        listener = cls(code)
        await asyncio.get_running_loop().create_datagram_endpoint(lambda: listener, sock=sock)
        return listener

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]


async def discover(
    seconds: float = 2.0, *, bind: str = "0.0.0.0", port: int = PORT, code: str | None = None
) -> list[Heard]:
    """Listen for `seconds` and return the tables heard."""
    listener = await Listener.open(bind, port, code)
    try:
        await asyncio.sleep(seconds)
        return listener.tables()
    finally:
        listener.close()
