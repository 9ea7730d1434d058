"""Game transcripts: every event of a game as it was sent, for `modernart audit`.

A transcript file is a sequence of records, each a 4-byte big-endian length followed by
that many bytes of msgpack.  The first record is the header `{"format":
"modernart-transcript", "version": 3}` (the protocol its game was played in: 1 and 2 are still read); every later record is one `ev` frame: `seq`,
`pub`, `ph`, `h`, `hs` and `priv` (the host's copy holds no private part; a player's copy
holds its own).  The last event of a finished game discloses every seed and every
seat's salt key, so the transcript alone lets anyone check the whole game.  A client that
stops trusting the host saves an *evidence* transcript instead: every event it checked and
the one it refused, as the host signed them, its header naming the host's key (`host_vk`)
and what the client found (`untrusted`); `modernart audit` checks it as far as it goes.  The host
writes `<journal name>.transcript` beside the record; a client saves its own copy.
"""

from __future__ import annotations

import os
import struct
from typing import Any, Iterable

import msgpack

from modernart.net.durable import open_fd

FORMAT = "modernart-transcript"
#: 2: the events of protocol 2 (a Sealed auction's commitments published in its set only,
#: its settlement one `settle` event); 3: a hidden deck's steps signed by their seats and a
#: hidden card played in two events (`play`, then its `move`); versions 1 and 2 are still read
VERSION = 3
READABLE = (1, 2, 3)
MAX_TRANSCRIPT = 64 * 1024 * 1024
_LEN = struct.Struct(">I")


class TranscriptError(ValueError):
    """A transcript that cannot be read."""


def write_transcript(path: str, frames: Iterable[dict[str, Any]], header: dict[str, Any] | None = None) -> None:
    """Write the transcript atomically (mode 0600 while written, then renamed); `header`:
    more fields for its first record (an evidence transcript's `host_vk` and `untrusted`)."""
    tmp = f"{path}.tmp{os.getpid()}"
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    with os.fdopen(fd, "wb") as f:
        for item in [{"format": FORMAT, "version": VERSION, **(header or {})}, *frames]:
            data = msgpack.packb(item, use_bin_type=True)
            f.write(_LEN.pack(len(data)) + data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_transcript(path: str) -> list[dict[str, Any]]:
    """The event frames of a transcript (TranscriptError if it is not one, or damaged)."""
    return read_versioned_transcript(path)[1]


def read_versioned_transcript(path: str) -> tuple[int, list[dict[str, Any]]]:
    """(the transcript's version, which is the protocol its game was played in; its event
    frames), or TranscriptError if it is not one, or damaged."""
    header, frames = read_transcript_and_header(path)
    return header["version"], frames


def read_transcript_and_header(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the transcript's header record, its event frames), or TranscriptError."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_TRANSCRIPT + 1)
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc}") from None
    if len(data) > MAX_TRANSCRIPT:
        raise TranscriptError(f"{path} is larger than {MAX_TRANSCRIPT} bytes")
    items: list[Any] = []
    pos = 0
    while pos < len(data):
        if pos + _LEN.size > len(data):
            raise TranscriptError(f"{path}: truncated at byte {pos}")
        (size,) = _LEN.unpack_from(data, pos)
        end = pos + _LEN.size + size
        if end > len(data):
            raise TranscriptError(f"{path}: record {len(items)} is truncated")
        try:
            item = msgpack.unpackb(data[pos + _LEN.size : end], raw=False, strict_map_key=True, max_ext_len=0)
        except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
            raise TranscriptError(f"{path}: record {len(items)} is not msgpack ({type(exc).__name__})") from None
        items.append(item)
        pos = end
    if not items or not isinstance(items[0], dict) or items[0].get("format") != FORMAT:
        raise TranscriptError(f"{path} is not a Modern Art transcript")
    if type(items[0].get("version")) is not int or items[0]["version"] not in READABLE:
        raise TranscriptError(f"{path}: unsupported transcript version {items[0].get('version')!r}")
    frames = items[1:]
    for i, frame in enumerate(frames):
        if not isinstance(frame, dict) or frame.get("t") != "ev":
            raise TranscriptError(f"{path}: record {i + 1} is not an event")
    return items[0], frames
