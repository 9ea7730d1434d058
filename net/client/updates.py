"""What the client tells its UI: the latest `ConnectionState`, and an `Update` per change
(on the queue `updates`, to the callback `on_update`, and by setting `changed`).

Inside a burst of frames (net/client/receiving.py) updates are held until the burst's
host signature is checked, so nothing acts on an event before it is proven; those of a
burst that does not check out are withdrawn, never shown.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from modernart.net.client.state import ConnectionState, Update

#: Updates that show an event: withdrawn from a burst whose signature does not check out
UNPROVEN_KINDS = ("event", "observation")


class UpdateFeed:
    """The client's state and the updates about it (see the module docstring)."""

    def __init__(self, queue: bool = True) -> None:
        self.state = ConnectionState()
        self.updates: asyncio.Queue[Update] | None = asyncio.Queue() if queue else None
        self.changed = asyncio.Event()  # set on every change, for consumers that only want the latest state
        self.on_update: Callable[[Update], None] | None = None
        self.held: list[Update] | None = None  # inside a burst: its updates so far

    def emit(self, update: Update) -> None:
        if self.held is not None:  # inside a burst: after its check
            self.held.append(update)
            return
        if self.updates is not None:
            self.updates.put_nowait(update)
        if self.on_update is not None:
            self.on_update(update)
        self.changed.set()

    def set_status(self, status: str) -> None:
        if self.state.status != status:
            self.state.status = status
            self.emit(Update("status", status))

    def error(self, code: str, message: str) -> None:
        self.state.errors.append((code, message))
        self.emit(Update("error", (code, message)))

    # ------------------------------------------------------------------ bursts

    def hold(self) -> None:
        """Hold every update from now on, until `release`."""
        self.held = []

    def withdraw_unproven(self) -> None:
        """Drop the held updates that show events (their burst did not check out)."""
        if self.held is not None:
            self.held[:] = [u for u in self.held if u.kind not in UNPROVEN_KINDS]

    def release(self) -> list[Update]:
        """Stop holding; the updates held (for `emit_all` once the burst is done)."""
        held, self.held = self.held or [], None
        return held

    def emit_all(self, updates: list[Update]) -> None:
        for update in updates:
            self.emit(update)
