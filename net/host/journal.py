"""The host's files: the game journal (record format) and its event log beside it.

The journal (`<name>.jsonl`) is modernart.journal_format (read by modernart.record): a header with the deck order,
one line per applied move, the result at the end.  The event log (`<name>.jsonl.events`)
holds what the journal cannot: every protocol event exactly as sent (public part,
private parts, chain hash, host signature) plus the signed action it came from, so a
resumed host continues the same chain and relays the same signatures.  The held file
(`<name>.jsonl.held`) keeps what the host acknowledged before any event published it: a
Sealed auction's commitments, until the complete set.  Both are mode 0600
(they hold hands).

Durability (docs/protocol.md "Journal and resume"): every line and entry is handed to the
operating system (`write()`) before its event is sent, so a crash of the host process loses
nothing; the fsync comes after the sending, off the path of a move.  What a power loss
can take is the tail written since the last fsync; the boot marker (`<name>.jsonl.boot`,
the kernel's boot id when the journal was opened, synced) tells a resuming host whether
the machine was restarted since, and so whether its files may lack a tail that clients
hold (net/host/game.py `HostedGame.recover` then gets it back from them).
"""

from __future__ import annotations

import os
import struct
from typing import Any, Iterator

import msgpack

from modernart.journal_format import header_line, move_line, result_line
from modernart.net.durable import open_fd, sync_directory
from modernart.moves import Move
from modernart.record import GameRecord, parse_journal

_LEN = struct.Struct(">I")


#: Where Linux names the current boot; it changes at every start of the machine
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def boot_id() -> str | None:
    """This boot's id, or None where the system does not say (then every resume recovers)."""
    try:
        with open(BOOT_ID, encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


def same_boot(path: str) -> bool:
    """Whether the journal `path` was last written during this boot of the machine: then
    everything it had written is still there (in the page cache or on disk), whatever
    happened to the host process.  False after a restart of the machine (a power loss may
    have taken the tail not yet synced), or when either boot is unknown."""
    now = boot_id()
    try:
        with open(path + ".boot", encoding="ascii") as f:
            then = f.read().strip()
    except OSError:
        return False
    return now is not None and then == now


def _mark_boot(path: str, sync: bool) -> None:
    """Write the boot marker of `path` (synced, with the directory entries of the files)."""
    fd = open_fd(path + ".boot", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (boot_id() or "unknown").encode("ascii") + b"\n")
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
    if sync:  # the new files' names are on disk too, not only their contents
        sync_directory(os.path.dirname(os.path.abspath(path)))


def _open_append(path: str) -> Any:
    fd = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    return os.fdopen(fd, "ab")


class Journal:
    """Appends moves and events.  Writes reach the OS at once and the disk on `sync()`.

    Each write is in the operating system when the method returns (a host process crash
    loses nothing of it); the host calls `sync()` in worker threads after it sent the
    events (net/host/fanout.py), and before it sends an event holding host-only secrets.
    """

    def __init__(self, path: str, *, sync: bool = True) -> None:
        self.path = path
        self.fsync = sync
        self._moves = _open_append(path)
        self._events = _open_append(path + ".events")
        self._held: Any = None  # `write_held`'s file, once it has an entry
        _mark_boot(path, sync)  # before anything new is written: a resume knows which boot wrote it

    def _flush(self, f: Any) -> None:
        f.flush()  # write(): in the OS now (a process crash keeps it); `sync()` puts it on disk

    def sync(self) -> None:
        """Put everything written so far on disk (fsync both files; run in a worker thread)."""
        for part in self.sync_parts():
            part()

    def sync_parts(self) -> list[Any]:
        """One fsync call per file, for worker threads to run side by side."""
        if not self.fsync:
            return []
        return [lambda f=f: _fsync(f) for f in self._files()]

    def _files(self) -> list[Any]:
        return [self._moves, self._events] + ([self._held] if self._held is not None else [])

    def write_header(self, record: GameRecord) -> None:
        self._moves.write(header_line(record).encode("utf-8"))
        self._flush(self._moves)

    def write_move(self, move: Move) -> None:
        self._moves.write(move_line(move).encode("utf-8"))
        self._flush(self._moves)

    def write_result(self, result: dict[str, Any]) -> None:
        self._moves.write(result_line(result).encode("utf-8"))
        self._flush(self._moves)

    def write_event(self, entry: list[Any]) -> None:
        data = msgpack.packb(entry, use_bin_type=True)
        self._events.write(_LEN.pack(len(data)) + data)
        self._flush(self._events)

    def write_held(self, entry: dict[str, Any]) -> None:
        """What the host acknowledged and holds until an event publishes it (a sealed-bid
        commitment until its set, net/host/game.py `HostedGame.submit_commit`), in the held
        file (`<name>.jsonl.held`, opened at the first such entry)."""
        if self._held is None:
            self._held = _open_append(self.path + ".held")
        data = msgpack.packb(entry, use_bin_type=True)
        self._held.write(_LEN.pack(len(data)) + data)
        self._flush(self._held)

    @property
    def closed(self) -> bool:
        """Whether both files are closed (`close` ran)."""
        return all(f.closed for f in self._files())

    def close(self) -> None:
        for f in self._files():
            if f.closed:
                continue
            try:
                f.flush()
                if self.fsync:
                    os.fsync(f.fileno())
                f.close()
            except OSError:
                pass


#: The files beside a journal that only a resume reads (the event log, the held file, the
#: boot marker): a finished game, its record and transcript saved, needs none of them.
RESUME_SUFFIXES = (".events", ".held", ".boot")


def discard_resume_files(path: str) -> None:
    """Remove the resume-only files beside the finished journal `path` (its record and its
    transcript hold what they held that anyone may read; a finished game is not resumed)."""
    for suffix in RESUME_SUFFIXES:
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def _fsync(f: Any) -> None:
    try:
        os.fsync(f.fileno())
    except (OSError, ValueError):
        pass  # closed meanwhile (the game ended): its data was synced on close


def read_journal(path: str) -> GameRecord:
    """The journal as a record (a line cut short by a crash is dropped)."""
    with open(path, encoding="utf-8") as f:
        return parse_journal(f.read(), allow_partial_tail=True)


def read_events(path: str) -> Iterator[list[Any]]:
    """Entries of the event log; stops at a record cut short by a crash."""
    yield from _read_entries(path + ".events")


def read_held(path: str) -> Iterator[dict[str, Any]]:
    """Entries of the held file (`Journal.write_held`), oldest first; stops at one cut short."""
    for entry in _read_entries(path + ".held"):
        if isinstance(entry, dict):
            yield entry


def _read_entries(name: str) -> Iterator[Any]:
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return
    pos = 0
    while pos + _LEN.size <= len(data):
        (size,) = _LEN.unpack_from(data, pos)
        end = pos + _LEN.size + size
        if end > len(data):
            return
        try:
            entry = msgpack.unpackb(data[pos + _LEN.size : end], raw=False, strict_map_key=False)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError):
            return
        yield entry
        pos = end


def truncate_events(path: str, keep: int) -> None:
    """Cut the event log after its first `keep` entries (drops a torn or orphan tail)."""
    name = path + ".events"
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return
    pos = 0
    for _ in range(keep):
        (size,) = _LEN.unpack_from(data, pos)
        pos += _LEN.size + size
    with open(name, "r+b") as f:
        f.truncate(pos)
        f.flush()
        os.fsync(f.fileno())


def drop_torn_line(path: str) -> None:
    """If a crash cut the journal's last line short, remove that partial line."""
    with open(path, "r+b") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)
            f.flush()
            os.fsync(f.fileno())


def truncate_moves(path: str, keep: int) -> None:
    """Cut the journal after its header and first `keep` move lines: a move it holds without
    its event, which can never be announced again (a hidden card play's opening was only in
    the lost event), goes with everything after it."""
    with open(path, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    kept, moves = lines[:1], 0
    for line in lines[1:]:
        if line.startswith(b'{"m"'):
            if moves == keep:
                break
            moves += 1
        kept.append(line)
    with open(path, "r+b") as f:
        f.truncate(len(b"".join(kept)))
        f.flush()
        os.fsync(f.fileno())
