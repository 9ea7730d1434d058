"""The whole code base type-checks: `mypy modernart net cli` (settings in pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.timeout(300)
def test_mypy_reports_no_errors(tmp_path: Path) -> None:
    # the cache goes to a temporary directory: no .mypy_cache left in the work tree
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy_cache"), "modernart", "net", "cli"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert proc.returncode == 0, f"mypy found errors:\n{proc.stdout}{proc.stderr}"


@pytest.mark.timeout(300)
def test_the_engine_type_checks_strictly(tmp_path: Path) -> None:
    """`mypy --strict modernart`: the pure game is fully typed (no untyped defs, no bare generics)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy_cache"), "modernart"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert proc.returncode == 0, f"mypy --strict found errors:\n{proc.stdout}{proc.stderr}"
