"""Join strings: `ma://HOST:PORT/<host key>[/TABLE]`, the key in unpadded RFC 4648 base32.

The host key is the host's raw 32-byte CURVE public key; a client given a join string
connects only to a host holding that key (CURVE enforces it in the handshake).

A table's join code (`table_code`) is 60 bits of a hash of the host key, the port and the
table id: it authenticates the key as the key's own code did (`join_code`: a second
preimage of 60 bits), and two tables are told apart by it even when one config dir (one
host key) serves both, on two ports or as two tables of one host.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from zmq.utils import z85

import hashlib

from modernart.net.protocol.signed import HOST_KEY_DOMAIN
from modernart.net.trust.identity import b32, unb32

#: What a table's join code hashes after the host key's domain (see the module docstring)
TABLE_CODE_DOMAIN = b"table\0"


def table_code(host_key: bytes, port: int, table: str | None) -> str:
    """The join code of table `table` (None: a join string that names none) served on
    `port` by the host holding `host_key`, shown as 'XXXX-XXXX-XXXX'.

    >>> key = bytes(32)
    >>> table_code(key, 47000, "t1") != table_code(key, 47001, "t1") != table_code(key, 47000, "t2")
    True
    >>> len(table_code(key, 47000, "t1"))
    14
    """
    data = HOST_KEY_DOMAIN + TABLE_CODE_DOMAIN + host_key + port.to_bytes(2, "big") + (table or "").encode("ascii")
    digest = b32(hashlib.sha256(data).digest())[:12]
    return f"{digest[:4]}-{digest[4:8]}-{digest[8:12]}"


_JOIN = re.compile(
    r"^ma://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]{1,253}):(\d{1,5})/([A-Za-z2-7]{52})(?:/([A-Za-z0-9_\-]{1,32}))?/?$"
)


class JoinStringError(ValueError):
    """A join string that cannot be parsed."""


@dataclass(frozen=True)
class JoinTarget:
    """Where a table is and which key its host must hold."""

    host: str
    port: int
    host_key: bytes  # raw 32-byte CURVE public key
    table: str | None = None

    @property
    def endpoint(self) -> str:
        return f"tcp://{self.host}:{self.port}"

    @property
    def host_key_z85(self) -> bytes:
        return z85.encode(self.host_key)

    @property
    def code(self) -> str:
        """This table's join code (`table_code`)."""
        return table_code(self.host_key, self.port, self.table)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        tail = f"/{self.table}" if self.table else ""
        return f"ma://{host}:{self.port}/{b32(self.host_key)}{tail}"


def parse_join_string(text: str) -> JoinTarget:
    match = _JOIN.match(text.strip())
    if not match:
        raise JoinStringError(f"not a join string (expected ma://HOST:PORT/KEY): {text.strip()[:80]!r}")
    host, port, key, table = match.groups()
    host = host.strip("[]")
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise JoinStringError(f"bad IPv6 address {host!r}") from None
    port_no = int(port)
    if not 1 <= port_no <= 65535:
        raise JoinStringError(f"port {port_no} out of range")
    raw = unb32(key)
    if len(raw) != 32:
        raise JoinStringError("the host key must be 32 bytes")
    return JoinTarget(host, port_no, raw, table)
