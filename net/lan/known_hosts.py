"""Trust on first use for host keys: remember which key each host address presented.

`<state dir>/known_hosts` (the client's state dir, by default `<config dir>/state`; mode
0600) holds one line per address:
`HOST:PORT <host CURVE key, base32> <table name>`.  A join string always carries the
full key, and CURVE refuses a host without it; this file adds the SSH-style check that
the host at an address you played at before still has the same key.  A different key
is an error (`host_key_changed`) that names both join codes; the player accepts the
new key explicitly (`Client(..., accept_new_host_key=True)`).
"""

from __future__ import annotations

import os
from pathlib import Path

from modernart.net.trust.identity import b32, join_code, private_temp_file, unb32


class HostKeyChanged(Exception):
    def __init__(self, address: str, known: bytes, offered: bytes, name: str) -> None:
        self.address, self.known, self.offered, self.name = address, known, offered, name
        label = f"table {name!r} at {address}" if name else address
        super().__init__(
            f"the host key of {label} changed: it was {join_code(known)}, the join string says "
            f"{join_code(offered)}.  If that host was set up again, accept the new key "
            f"explicitly; otherwise someone may be impersonating it"
        )


class KnownHosts:
    def __init__(self, directory: str | os.PathLike) -> None:
        self.path = Path(directory) / "known_hosts"
        self._remembered: tuple[str, bytes, str] | None = None  # the last entry known to be on file

    def _read(self) -> dict[str, tuple[bytes, str]]:
        out: dict[str, tuple[bytes, str]] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return out
        for line in text.splitlines():
            parts = line.split(" ", 2)
            if len(parts) < 2:
                continue
            try:
                key = unb32(parts[1])
            except ValueError:
                continue
            if len(key) == 32:
                out[parts[0]] = (key, parts[2] if len(parts) > 2 else "")
        return out

    def check(self, address: str, key: bytes) -> None:
        """Raise HostKeyChanged if `address` is known with another key."""
        known = self._read().get(address)
        if known is not None and known[0] != key:
            raise HostKeyChanged(address, known[0], key, known[1])

    def remember(self, address: str, key: bytes, name: str = "") -> None:
        name = " ".join(name.split())[:64]
        if self._remembered == (address, key, name):
            return  # every lobby message names the table: the file is read once, not each time
        entries = self._read()
        if entries.get(address) != (key, name):
            entries[address] = (key, name)
            text = "".join(f"{addr} {b32(k)} {n}".rstrip() + "\n" for addr, (k, n) in sorted(entries.items()))
            os.replace(private_temp_file(self.path, text), self.path)
        self._remembered = (address, key, name)
