"""Files that must survive a crash byte for byte, written the same way on every platform.

Two things differ on Windows.  `os.open` opens a file in text mode there unless
`O_BINARY` is given, and text mode turns every b"\\n" written into b"\\r\\n": a journal
or a transcript (length-prefixed msgpack) would be corrupted.  And a directory cannot be
opened as a file there, so it cannot be fsync'ed; NTFS journals a rename itself, so
there is nothing to do.  Every `os.open` of modernart is `open_fd` (tests/test_platform_imports.py
checks that no other module calls `os.open`).
"""

from __future__ import annotations

import os

#: Binary mode where the platform has a text mode (Windows); 0 elsewhere
BINARY = getattr(os, "O_BINARY", 0)


def open_fd(path: str | os.PathLike[str], flags: int, mode: int = 0o600) -> int:
    """`os.open(path, flags, mode)`, in binary mode on every platform."""
    return os.open(path, flags | BINARY, mode)


def sync_directory(path: str | os.PathLike[str]) -> None:
    """Make the renames in directory `path` durable (fsync it), where the platform can."""
    if os.name == "nt":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
