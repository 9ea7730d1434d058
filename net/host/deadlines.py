"""Which of the host's tables the timer loop must look at, and when (net/host/presence.py).

A table's next deadline (a decision clock, a reveal, a hammer call, a grace period) changes
only when something happens at it: an event, a frame from one of its peers, a seat left
or taken.  Whatever does that `touch`es the table; the timer loop then looks again at the
tables touched and at those whose deadline has come, never at every table: with 100 live
tables, every event looking through all of them cost the host about 2 ms per move.

    >>> due = DueTables()
    >>> due.set("t1", 5.0); due.set("t2", 9.0); due.touch("t3")
    >>> due.take(6.0)
    ['t3', 't1']
    >>> due.set("t1", None)  # the timer loop ran t1's timers: nothing more is due there
    >>> due.wait(6.0)
    3.0
"""

from __future__ import annotations

import asyncio
from typing import Callable, Generic, Hashable, TypeVar

T = TypeVar("T", bound=Hashable)

#: How long the timer loop sleeps when no table has a deadline (it wakes on a touch anyway)
IDLE_WAIT = 3600.0


class DueTables(Generic[T]):
    """Tables touched since the timer loop last looked, and each table's next deadline."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()  # the timer loop's: set, it looks again
        #: who looks at the touched tables soon (the host's presence, once its loops run);
        #: None: the timer loop, woken
        self.soon: Callable[[], None] | None = None
        self.touched: dict[T, None] = {}  # in the order touched (a set that keeps its order)
        self.deadlines: dict[T, float] = {}  # a table -> its next deadline (host clock)

    def touch(self, table: T) -> None:
        """Something happened at `table` that may change its deadlines."""
        self.touched[table] = None
        if self.soon is not None:
            self.soon()
        else:
            self.wake.set()

    def set(self, table: T, deadline: float | None) -> None:
        """`table`'s next deadline, or None for none."""
        if deadline is None:
            self.deadlines.pop(table, None)
        else:
            self.deadlines[table] = deadline

    def forget(self, table: T) -> None:
        """`table` is gone: nothing to look at any more."""
        self.touched.pop(table, None)
        self.deadlines.pop(table, None)

    def take(self, now: float) -> list[T]:
        """The tables to look at now (touched first, then those whose deadline has come);
        they count as looked at."""
        touched, self.touched = self.touched, {}
        return [*touched, *(t for t, deadline in self.deadlines.items() if deadline <= now and t not in touched)]

    def earliest(self) -> float | None:
        """The earliest deadline of any table (host clock), or None."""
        return min(self.deadlines.values(), default=None)

    def wait(self, now: float) -> float:
        """Seconds until the earliest deadline (IDLE_WAIT if none); 0 or less once it has come."""
        return min(self.deadlines.values(), default=now + IDLE_WAIT) - now
