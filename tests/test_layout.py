"""The project's shape: imports flow cli -> net -> modernart, never back; the game is pure."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "modernart": {"net", "cli", "zmq", "msgpack", "prompt_toolkit", "cryptography", "asyncssh",
                  "socket", "threading", "asyncio", "curses", "subprocess", "selectors"},
    "net": {"cli", "prompt_toolkit"},
}


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_imports_flow_one_way():
    for package, forbidden in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            if package == "modernart" and path.name == "__main__.py":
                continue  # the entry point, loads cli by name at run time
            bad = _imports(path) & forbidden
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_files_stay_reasonably_small():
    for package in ("modernart", "net", "cli"):
        for path in (ROOT / package).rglob("*.py"):
            lines = path.read_text(encoding="utf-8").count("\n")
            assert lines <= 600, f"{path.relative_to(ROOT)} has {lines} lines; split it"
