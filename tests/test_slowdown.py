"""The suite's slowdown factor reads the machine's contention, not a constant."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests import slowdown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = "import os; os.sched_setaffinity(0, {0}); from tests.slowdown import _busy_ratio; print(_busy_ratio())"
BURN = "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"


def _ratio_on_core_0() -> float:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return float(done.stdout)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_a_process_burning_the_same_core_doubles_the_measured_factor() -> None:
    alone = _ratio_on_core_0()
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    try:
        shared = _ratio_on_core_0()
    finally:
        burner.kill()
        burner.wait(10)
    assert alone >= 0.99
    # the scheduler gives each of the two about half the core; whatever else runs on it only adds
    assert shared > 1.5 and shared > alone * 1.2, (alone, shared)


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
