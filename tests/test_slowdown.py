"""The suite's slowdown factor reads the machine's contention, not a constant."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

import pytest

from tests import slowdown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = "import os; os.sched_setaffinity(0, {0}); from tests.slowdown import _busy_ratio; print(_busy_ratio())"
BURN = "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"
BURNERS = 3


def _ratio_on_core_0() -> float:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return float(done.stdout)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_processes_burning_the_same_core_raise_the_measured_factor() -> None:
    """Three burners pinned beside the probe take about three more fair shares of its core, so
    the factor rises by about 3 over whatever else runs there (a loaded machine only shifts
    both sides; the measurements alternate, so a change of load between them evens out)."""
    alone, shared = [], []
    for _ in range(3):
        alone.append(_ratio_on_core_0())
        burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(BURNERS)]
        try:
            shared.append(_ratio_on_core_0())
        finally:
            for burner in burners:
                burner.kill()
                burner.wait(10)
    assert min(alone) >= 0.99
    assert statistics.median(shared) > statistics.median(alone) + 1.0, (alone, shared)


def test_the_environment_sets_the_factor_and_it_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slowdown, "_measured", None)
    monkeypatch.setenv("MODERNART_TEST_SLOWDOWN", "3")
    assert slowdown.factor() == 3.0 and slowdown.scaled(2.0) == 6.0
    monkeypatch.setattr(slowdown, "_measured", None)
    monkeypatch.setenv("MODERNART_TEST_SLOWDOWN", "0.2")
    assert slowdown.factor() == 1.0
    monkeypatch.setattr(slowdown, "_measured", None)
    monkeypatch.setenv("MODERNART_TEST_SLOWDOWN", "500")
    assert slowdown.factor() == slowdown.MOST
