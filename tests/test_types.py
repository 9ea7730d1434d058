"""The whole code base type-checks (settings in pyproject.toml), and the engine strictly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.timeout(300)
def test_mypy_reports_no_errors(tmp_path: Path) -> None:
    """`mypy -p modernart` over the package as installed: net/ and cli/ are modernart.net and
    modernart.cli (pyproject's package-dir mapping), which mypy cannot follow in a checkout, so
    the test lays the package out the installed way with symbolic links."""
    package = tmp_path / "tree" / "modernart"
    package.mkdir(parents=True)
    for entry in Path(ROOT, "modernart").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for folder in ("net", "cli"):
        (package / folder).symlink_to(Path(ROOT, folder))
    (tmp_path / "tree" / "benchmarks").symlink_to(Path(ROOT, "benchmarks"))
    # the cache goes to a temporary directory: no .mypy_cache left in the work tree
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            "--config-file",
            str(Path(ROOT, "pyproject.toml")),
            "-p",
            "modernart",
            "-p",
            "benchmarks",
        ],
        cwd=tmp_path / "tree",
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
