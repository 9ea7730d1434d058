"""How much slower than its own CPU time this machine runs the suite right now: the factor by
which end-to-end waits in real seconds are stretched.

Logic tests never wait on the wall clock (they drive the host's clock).  End-to-end tests
(tmux, SSH, real processes) must, and a fixed number of seconds that is ample on a quiet
machine is too short when other processes share the cores.  So the suite measures, once per
process, how long a fixed amount of pure-Python work takes in wall-clock time against the CPU
time it took: 1.0 when this process has a core to itself, about 2 when two other processes
keep both cores busy.  That ratio is a fact about the machine at that moment, not a constant
tuned on one machine.  `MODERNART_TEST_SLOWDOWN` sets it instead (e.g. to reproduce a run).
"""

from __future__ import annotations

import os
import time

#: never below 1 (a quiet machine keeps the written waits), never above this (a wait that
#: needs more than ten times its quiet length points at a hang, not at a busy machine)
MOST = 10.0
#: CPU seconds of work per measurement: long enough to see the scheduler share the core
WORK_SECONDS = 0.15

_measured: float | None = None


def _busy_ratio() -> float:
    """Wall-clock time over CPU time of a loop that only computes."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    x = 0
    while time.process_time() - cpu0 < WORK_SECONDS:
        for i in range(2000):
            x = (x * 31 + i) & 0xFFFF
    return (time.perf_counter() - wall0) / max(time.process_time() - cpu0, 1e-6)


def factor() -> float:
    """The slowdown factor of this process, measured on first use (or from the environment)."""
    global _measured
    if _measured is None:
        given = os.environ.get("MODERNART_TEST_SLOWDOWN")
        ratio = float(given) if given else _busy_ratio()
        _measured = min(MOST, max(1.0, ratio))
    return _measured


def scaled(seconds: float) -> float:
    """`seconds` of a wall-clock wait, stretched by the slowdown factor.

    >>> import os; os.environ["MODERNART_TEST_SLOWDOWN"] = "1"
    >>> scaled(5.0) >= 5.0
    True
    """
    return seconds * factor()
