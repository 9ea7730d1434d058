"""A one-line progress bar with the time left, for long runs on a terminal (`modernart arena`).

It redraws one line of the stream with a carriage return, at most a few times a second,
and prints nothing at all when the stream is not a terminal (pipes, files, tests), unless
told to.  The time left is the elapsed time scaled by the share of the work still to do.

>>> import io
>>> out = io.StringIO()
>>> bar = Progress(4, "games", out, enabled=True, clock=iter([0.0, 10.0, 20.0]).__next__)
>>> bar.advance(2)
>>> out.getvalue().split("\\r")[-1]
'[##########..........] 2/4 games, 0:10 elapsed, about 0:10 left'
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO


def clock_text(seconds: float) -> str:
    """Seconds as h:mm:ss or m:ss."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Counts finished units of `total` and redraws the bar on `stream`."""

    WIDTH = 20

    def __init__(
        self,
        total: int,
        unit: str,
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = max(1, total)
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.clock = clock
        self.done = 0
        self.start = clock()
        self._drawn = -1.0

    def advance(self, units: int = 1) -> None:
        self.done += units
        if not self.enabled:
            return
        now = self.clock()
        if self.done < self.total and now - self._drawn < 0.2:
            return
        self._drawn = now
        self.stream.write("\r" + self.line(now - self.start))
        self.stream.flush()

    def line(self, elapsed: float) -> str:
        filled = self.WIDTH * self.done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        text = f"[{bar}] {self.done}/{self.total} {self.unit}, {clock_text(elapsed)} elapsed"
        if 0 < self.done < self.total:
            text += f", about {clock_text(elapsed * (self.total - self.done) / self.done)} left"
        return text

    def close(self) -> None:
        """End the bar's line (nothing when disabled)."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
