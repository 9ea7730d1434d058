"""No module of modernart, modernart.net or modernart.cli imports a platform-only module
(fcntl, termios, msvcrt, winreg, ...) when it is imported, so every one of them loads on
Linux, macOS and Windows alike.

Each check runs in a fresh interpreter.  First the libraries modernart uses are loaded
as this platform loads them (they choose their own platform code); then the platform-only
modules are made unavailable (a meta-path finder that refuses them, and their entries
dropped from `sys.modules`), `sys.platform` is made to say "win32" or "darwin" where
asked, and every module file of the checkout's three folders is imported (but `__main__`, which runs
the program).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap

import pytest

from .net_helpers import ROOT

#: Modules only some platforms have: POSIX's, then Windows'
PLATFORM_ONLY = (
    "fcntl",
    "termios",
    "tty",
    "pty",
    "pwd",
    "grp",
    "resource",
    "syslog",
    "posix",
    "_posixsubprocess",
    "readline",
    "curses",
    "_curses",
    "msvcrt",
    "winreg",
    "_winreg",
    "winsound",
    "_winapi",
    "_overlapped",
    "nt",
    "asyncio.unix_events",
    "asyncio.windows_events",
    "asyncio.windows_utils",
)

#: Each package and the folder of the checkout it installs from (pyproject.toml)
PACKAGES = (("modernart", "modernart"), ("modernart.net", "net"), ("modernart.cli", "cli"))

#: Loads the libraries (as the real platform does), refuses PLATFORM_ONLY, fakes the
#: platform, imports every module of PACKAGES; prints what failed and what was refused
PROBE = textwrap.dedent("""
    import importlib, importlib.abc, json, pathlib, sys, traceback

    BLOCKED, PACKAGES, PLATFORM = json.loads(sys.argv[1])

    def every_module():
        for package, folder in PACKAGES:
            for path in sorted(pathlib.Path(folder).rglob("*.py")):
                parts = path.relative_to(folder).with_suffix("").parts
                if parts[-1] == "__main__":  # that one runs the program
                    continue
                yield ".".join((package, *parts[:-1]) if parts[-1] == "__init__" else (package, *parts))

    names = sorted(set(every_module()))
    # the libraries as this platform loads them: every module of ours once, then forget ours
    for name in names:
        importlib.import_module(name)
    for name in [n for n in sys.modules if n == "modernart" or n.startswith("modernart.")]:
        del sys.modules[name]

    refused = []

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            if fullname in BLOCKED:
                refused.append(fullname)
                raise ImportError(f"{fullname} is not on this platform", name=fullname)
            return None

    for name in BLOCKED:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, Refuse())
    real = sys.platform
    sys.platform = PLATFORM or real

    failed = {}
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            failed[name] = traceback.format_exc(limit=-3)
    sys.platform = real
    print(json.dumps({"modules": len(names), "failed": failed, "refused": sorted(set(refused))}))
""")


def import_everything(platform: str | None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([PLATFORM_ONLY, PACKAGES, platform])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("platform", [None, "win32", "darwin"])
def test_every_module_imports_without_the_platform_only_modules(platform):
    out = import_everything(platform)
    assert out["modules"] > 100  # every module was tried, not just the packages
    assert out["failed"] == {}
    assert out["refused"] == []  # not even a guarded attempt


FINDS_THE_LOOP = textwrap.dedent("""
    import asyncio, json, sys
    sys.platform = sys.argv[1]

    class Selector(asyncio.DefaultEventLoopPolicy):  # stands for Windows' own, absent here
        pass

    asyncio.WindowsSelectorEventLoopPolicy = Selector
    from modernart.net.runtime import choose_event_loop, stop_signals
    choose_event_loop()
    print(json.dumps({"selector": type(asyncio.get_event_loop_policy()) is Selector,
                      "signals": [s.name for s in stop_signals()]}))
""")


@pytest.mark.parametrize("platform", ["win32", "darwin", "linux"])
def test_the_selector_loop_is_chosen_on_windows_only(platform):
    done = subprocess.run(
        [sys.executable, "-c", FINDS_THE_LOOP, platform], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["selector"] is (platform == "win32")
    assert out["signals"][:2] == ["SIGINT", "SIGTERM"]


def test_every_os_open_is_binary_on_every_platform():
    """`os.open` is text mode on Windows unless O_BINARY is given (b"\\n" written as
    b"\\r\\n"): every call goes through net/durable.py, which adds it."""
    callers = []
    for _package, folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "net" / "durable.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "open"
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "os"
                ):
                    callers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert callers == []


def test_sighup_is_left_alone_under_nohup():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import signal; signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "from modernart.net.runtime import stop_signals; print([s.name for s in stop_signals()])",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "SIGHUP" not in done.stdout and "SIGTERM" in done.stdout
