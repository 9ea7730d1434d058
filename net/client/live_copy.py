"""The client's own copy of the game it is playing, on disk as it goes: every event it has
checked, so that a client that restarts (a crash, a closed laptop, `q` and `play` again)
asks the host only for what came after, instead of the whole game from event 1.

On a slow link that is the difference between catching up in seconds and not at all: a
whole game's log is a few hundred kilobytes, which a 8 kB/s link carries in half a minute
while the table plays on.

One file per host key, table and client key (and whether it watches), under
`<state dir>/live/`: a header record
(the game, the host's signing key, the seat and role it was played as), then each event as
the host sent it to this seat (`t`, `seq`, `pub`, `ph`, `h`, `hs`, `priv`), each record a
4-byte big-endian length and msgpack, appended once the burst that brought it is checked.
Nothing on disk is trusted: a restarted client checks every event of its copy again
(chain, signatures, the host's signature on the last one) before it asks from there, and a
copy that does not check out, or is torn, is dropped (from its first bad record) and the
client asks from where the good part ends.  The file is not synced: what a power loss
takes is asked for again.  It is removed once the game's record is saved.
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
from dataclasses import dataclass
from typing import Any

import msgpack

from modernart.net.durable import open_fd

log = logging.getLogger("modernart.net.client.client")

_LEN = struct.Struct(">I")
#: The most a copy may hold (a game's log is well under 1 MiB; a larger file is not ours)
MAX_COPY = 16 * 1024 * 1024
#: The fields of an event that are kept (a batch's events carry no more)
FIELDS = ("t", "seq", "pub", "ph", "h", "hs", "priv")


@dataclass(frozen=True)
class Held:
    """What a copy on disk says: the game, who signed it, as whom it was played, its events."""

    game: bytes
    host_vk: bytes
    seat: int | None
    role: str | None
    frames: list[dict[str, Any]]


class LiveCopy:
    """The copy of one table's game (see the module docstring)."""

    def __init__(self, state_dir: str, host_key: bytes, table: str | None, own_key: bytes, watching: bool) -> None:
        parts = [host_key, (table or "").encode(), own_key, b"watch" if watching else b"play"]
        name = hashlib.sha256(b"/".join(parts)).hexdigest()[:24]
        self.directory = os.path.join(state_dir, "live")
        self.path = os.path.join(self.directory, f"{name}.copy")
        self.fd: int | None = None
        self.game: bytes | None = None  # the game the open file holds
        self.written = 0  # the last event written

    def load(self) -> Held | None:
        """The copy on disk, its records read as far as they are whole (None: none, or not one)."""
        try:
            with open(self.path, "rb") as f:
                data = f.read(MAX_COPY + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.info("live copy unreadable: %s", exc)
            return None
        if len(data) > MAX_COPY:
            return None
        records: list[Any] = []
        pos = 0
        while pos + _LEN.size <= len(data):
            (size,) = _LEN.unpack_from(data, pos)
            end = pos + _LEN.size + size
            if end > len(data):
                break  # torn: the last write was cut off
            try:
                records.append(msgpack.unpackb(data[pos + _LEN.size : end], raw=False, strict_map_key=True))
            except (ValueError, msgpack.UnpackException):
                break
            pos = end
        if not records or not isinstance(records[0], dict):
            return None
        head = records[0]
        game, host_vk, seat, role = head.get("game"), head.get("host_vk"), head.get("seat"), head.get("role")
        if not isinstance(game, bytes) or not isinstance(host_vk, bytes):
            return None
        if not (seat is None or type(seat) is int) or not (role is None or isinstance(role, str)):
            return None
        frames: list[dict[str, Any]] = []
        for record in records[1:]:
            if not isinstance(record, dict) or record.get("seq") != len(frames) + 1:
                break
            frames.append(record)
        return Held(game, host_vk, seat, role, frames)

    def begin(self, game: bytes, host_vk: bytes, seat: int | None, role: str | None, upto: int = 0) -> None:
        """Write a new copy of `game` (or go on with the one on disk, if it holds `game` and
        event `upto` is its last whole one)."""
        self.close()
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        held = self.load() if upto else None
        if held is not None and held.game == game and len(held.frames) == upto:
            self.fd = open_fd(self.path, os.O_WRONLY | os.O_APPEND)
            self._cut_after_whole_records()
        else:
            upto = 0
            self.fd = open_fd(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            self._write({"game": game, "host_vk": host_vk, "seat": seat, "role": role})
        self.game, self.written = game, upto

    def _cut_after_whole_records(self) -> None:
        """Drop a torn record at the end (appending after it would hide every later one)."""
        with open(self.path, "rb") as f:
            data = f.read()
        pos = 0
        while pos + _LEN.size <= len(data):
            (size,) = _LEN.unpack_from(data, pos)
            if pos + _LEN.size + size > len(data):
                break
            pos += _LEN.size + size
        if pos != len(data):
            os.truncate(self.path, pos)

    def append(self, frames: list[dict[str, Any]]) -> None:
        """Append the checked events after the last written one (their seqs follow on)."""
        if self.fd is None:
            return
        for frame in frames:
            if frame["seq"] != self.written + 1:
                continue
            self._write({k: frame.get(k) for k in FIELDS})
            self.written = frame["seq"]

    def _write(self, record: dict[str, Any]) -> None:
        assert self.fd is not None
        data = msgpack.packb(record, use_bin_type=True)
        try:
            os.write(self.fd, _LEN.pack(len(data)) + data)
        except OSError as exc:  # a full disk: the copy ends here, the game goes on
            log.warning("live copy not written: %s", exc)
            self.close()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def remove(self) -> None:
        """The game is saved (or is not this one any more): the copy goes."""
        self.close()
        self.game, self.written = None, 0
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
