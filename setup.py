"""Optional compiled build of the rules engine (see docs/engine-performance.md).

`pip install .` (and the default editable install) builds pure Python.  With
`MODERNART_COMPILE=1 pip install .` the hot engine modules are compiled with mypyc; the
very same source files stay the pure-Python engine.  mypy is then needed at build time
only: pip's isolated build asks setuptools for the build requirements (by running this
file with the `egg_info` command), and gets mypy as a `setup_requires` entry.

An editable install is always pure Python: the compiled extension modules would sit
next to the sources and silently run stale code after every edit.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: The engine's hot path: everything a move goes through, plus the random player.
COMPILED_MODULES = [
    "modernart/phase.py",
    "modernart/moves.py",
    "modernart/scoring.py",
    "modernart/state.py",
    "modernart/auctions.py",
    "modernart/game.py",
    "modernart/bots/random_bot.py",
]
MYPY_REQUIREMENT = "mypy>=2.4"  # the version the compiled build is tested with


def _compile_requested() -> bool:
    return os.environ.get("MODERNART_COMPILE", "").strip().lower() in ("1", "true", "yes")


def _ext_modules() -> list:
    if not _compile_requested():
        return []
    if any(cmd in sys.argv for cmd in ("develop", "editable_wheel")):
        raise SystemExit(
            "MODERNART_COMPILE=1 builds a regular install only (pip install ., not -e): an editable "
            "install would run stale compiled modules after every edit of the sources."
        )
    try:
        from mypyc.build import mypycify
    except ImportError:
        if "egg_info" in sys.argv:  # pip is only asking what the build needs: mypy, see setup_requires
            return []
        raise SystemExit(f"MODERNART_COMPILE=1 needs mypy at build time: pip install '{MYPY_REQUIREMENT}'")
    opt_level = os.environ.get("MODERNART_COMPILE_OPT", "3")
    # mypy reads every module these import (views, bots/base, ...) for their types, but only
    # type errors in the compiled modules themselves should stop the build
    return mypycify(["--follow-imports=silent", *COMPILED_MODULES], opt_level=opt_level)


setup(
    ext_modules=_ext_modules(),
    setup_requires=[MYPY_REQUIREMENT] if _compile_requested() else [],
)
