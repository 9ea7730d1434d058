"""The project's shape: imports flow cli -> net -> modernart, never back; the game is pure."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "modernart": {
        "net",
        "cli",
        "zmq",
        "msgpack",
        "prompt_toolkit",
        "cryptography",
        "asyncssh",
        "socket",
        "threading",
        "asyncio",
        "curses",
        "subprocess",
        "selectors",
    },
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


def test_ruff_lint_and_format_pass():
    """The lint (pyflakes, pycodestyle errors, a complexity limit per function instead of a
    cap on a module's length) and the format are gates: settings in pyproject.toml."""
    import subprocess
    import sys

    for args in (["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"ruff {args[0]}:\n{done.stdout}{done.stderr}"


SOURCES = [p for package in ("modernart", "net", "cli", "tests", "benchmarks") for p in (ROOT / package).rglob("*.py")]
DOCS = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]


def test_nothing_points_outside_the_repository():
    """Code and docs cite the project's own rules (docs/rules.md), never documents beside it."""
    outside = ("RULES.md", "shared/", "shared notes", "networking notes", "terminal-ui notes", "seeds/")
    for path in SOURCES + DOCS:
        if path.name == "test_layout.py":
            continue
        text = path.read_text(encoding="utf-8")
        for word in outside:
            assert word not in text.replace("docs/rules.md", ""), f"{path.relative_to(ROOT)} cites {word!r}"


def test_every_rule_cited_is_in_docs_rules():
    """Every section (§N, §N.N, §N.N.N) and worked example (T1..T13) cited exists in docs/rules.md."""
    import re

    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)*)[. ]", rules, re.M))
    examples = set(re.findall(r"\bT(\d+)\b", rules))
    for path in SOURCES + [p for p in DOCS if p.name != "rules.md"]:
        text = path.read_text(encoding="utf-8")
        for number in re.findall(r"§ ?(\d+(?:\.\d+)*)", text):
            assert number in headings, f"{path.relative_to(ROOT)} cites §{number}, which docs/rules.md lacks"
        if path.name == "test_rules_scenarios.py":
            for number in re.findall(r"\bT(\d+)\b", text):
                assert number in examples, f"{path.relative_to(ROOT)} cites T{number}, which docs/rules.md lacks"
