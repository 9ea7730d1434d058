"""When a host process's garbage collector runs: never a full collection of every table.

CPython's collector looks at every tracked object of the oldest generation in one pass,
on the event loop: at 100 tables that was a pause of 120 ms of CPU (700 ms of wall time
on a loaded machine) during which no table moved.  A host's objects are of two kinds:
those of start-up (modules, keys, sockets) and those of its tables (games, logs, peers),
which live for minutes or hours and are freed by reference counting alone when a table
or a peer goes (tests/net/host/test_net_quiet_gc.py: a freed table and a dropped peer leave no
cycle behind).  So a process that is a host and nothing else (`modernart host`, unless it
also serves SSH guests, whose screens live in the process; `Host(quiet_gc=True)`):

* freezes what start-up made (`gc.freeze`: the collector never looks at it again);
* collects the young generations as CPython does, only less often (`YOUNG_THRESHOLD`);
* makes no automatic full collection; instead, once a `SETTLE_SECONDS` tick from the
  host's tick loop, it collects what was promoted to the old generation since the last
  time, and freezes what survived (`settle`): each such pass looks only at the objects
  of the last seconds, however many tables the host holds;
* looks at everything again (`reclaim`: unfreeze, collect, freeze) only when that is
  cheap or needed: when no game is in play and something ended since the last time, or
  after `BOTS_PER_RECLAIM` of the host's own bot clients ended (a client keeps its game in
  reference cycles; a remote player's client is not in this process).

A cycle that was alive at a settle and became garbage later waits for the next reclaim:
that is the price.  What it costs is measured: the net benchmark prints what each reclaim
found (`reclaimed`), and the pauses by kind (`QuietCollector.figures`).
"""

from __future__ import annotations

import gc
import time
from typing import Any

#: Allocations (net of frees) between two collections of the youngest generation: ten
#: times CPython's 700, a collection of at most a few milliseconds
YOUNG_THRESHOLD = 7000
#: Collections of the middle generation per collection of the youngest (CPython's)
MIDDLE_THRESHOLD = 10
#: Never reached: the oldest generation is collected by `settle` and `reclaim` only
NO_AUTOMATIC_FULL = 1 << 30
SETTLE_SECONDS = 10.0
BOTS_PER_RECLAIM = 50


class QuietCollector:
    """The garbage collection policy of a host process (one per process: `gc` is global).

    `install()` once start-up is over; `tick(now, in_play, bots_ended)` from the tick loop;
    `uninstall()` gives the process CPython's own policy back.  `figures()` says what the
    collections cost: the longest pause of each kind (wall and CPU milliseconds)."""

    def __init__(self) -> None:
        self.installed = False
        self.thresholds: tuple[int, int, int] = gc.get_threshold()
        self.last_settle = 0.0
        self.bots_at_reclaim = 0  # the bots-ended count at the last reclaim
        self.ended_since = False  # something ended (a table, a bot) since the last reclaim
        self.kind = "young"  # what the collection under way is: young, start-up, settle, reclaim
        self.started = (0.0, 0.0)
        self.pauses: dict[str, list[float]] = {}  # kind -> [count, longest wall s, longest CPU s, total wall s]
        self.reclaimed = 0  # unreachable objects the reclaims found (cycles the settles froze)

    def __repr__(self) -> str:
        return f"QuietCollector(installed={self.installed}, reclaimed={self.reclaimed})"

    # ------------------------------------------------------------------ policy

    def install(self, now: float) -> None:
        """Freeze what start-up made and take over the oldest generation."""
        if self.installed:
            return
        self.thresholds = gc.get_threshold()
        gc.callbacks.append(self._timed)
        self._pass("start-up", lambda: gc.collect())
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NO_AUTOMATIC_FULL)
        self.last_settle = now
        self.installed = True

    def uninstall(self) -> None:
        if not self.installed:
            return
        gc.unfreeze()
        gc.set_threshold(*self.thresholds)
        gc.callbacks.remove(self._timed)
        self.installed = False

    def tick(self, now: float, in_play: bool, bots_ended: int) -> None:
        """Once a second: a reclaim if it is due, else a settle if one is."""
        if not self.installed:
            return
        if bots_ended != self.bots_at_reclaim:
            self.ended_since = True
        if (self.ended_since and not in_play) or bots_ended - self.bots_at_reclaim >= BOTS_PER_RECLAIM:
            self.bots_at_reclaim = bots_ended
            self.ended_since = False
            self.reclaim()
            self.last_settle = now
        elif now - self.last_settle >= SETTLE_SECONDS:
            self.last_settle = now
            self.settle()

    def table_freed(self) -> None:
        self.ended_since = True

    def settle(self) -> None:
        """Collect what reached the old generation since the last settle, freeze the rest."""
        self._pass("settle", lambda: gc.collect(2))
        gc.freeze()

    def reclaim(self) -> None:
        """Look at every object again: the cycles that settles froze are freed."""
        gc.unfreeze()
        self.reclaimed += self._pass("reclaim", lambda: gc.collect(2))
        gc.freeze()

    # ------------------------------------------------------------------ measuring

    def _pass(self, kind: str, collect: Any) -> int:
        self.kind = kind
        try:
            return int(collect())
        finally:
            self.kind = "young"

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = (time.perf_counter(), time.thread_time())
            return
        wall, cpu = time.perf_counter() - self.started[0], time.thread_time() - self.started[1]
        kind = self.kind if info.get("generation") == 2 else "young"
        entry = self.pauses.setdefault(kind, [0, 0.0, 0.0, 0.0])
        entry[0] += 1
        entry[1] = max(entry[1], wall)
        entry[2] = max(entry[2], cpu)
        entry[3] += wall

    def figures(self) -> dict[str, Any]:
        """Per kind of collection: how many, the longest (wall and CPU ms), the total (ms)."""
        return {
            kind: {"count": int(c), "max_ms": w * 1e3, "max_cpu_ms": cpu * 1e3, "total_ms": t * 1e3}
            for kind, (c, w, cpu, t) in self.pauses.items()
        } | {"reclaimed": self.reclaimed}
