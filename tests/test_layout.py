"""The project's shape: imports flow cli -> net -> modernart, never back; the game is pure."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The checkout's folders and the names they import as (pyproject's package-dir mapping).
FOLDERS = {"modernart": "modernart", "net": "modernart.net", "cli": "modernart.cli"}
NO_IO = ("zmq", "msgpack", "prompt_toolkit", "cryptography", "asyncssh", "socket", "threading", "asyncio")
NO_IO += ("curses", "subprocess", "selectors")
TERMINAL = ("modernart.cli", "prompt_toolkit", "asyncssh", "pyte", "curses")
#: folder (or sub-folder) -> module prefixes nothing in it may import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "modernart": ("modernart.net", "modernart.cli", *NO_IO),  # the engine: pure, no I/O
    "net": TERMINAL,  # nothing in net/ imports the terminal
    # the client side never imports the host side (the host does run bots that are clients)
    "net/client": ("modernart.net.host",),
    "net/trust": ("modernart.net.host", "modernart.net.client"),  # the checks both sides and audit share
    "net/lan": ("modernart.net.host", "modernart.net.client"),
}


def module_name(path: pathlib.Path) -> str:
    """The dotted name a file of the checkout imports as: net/host/table.py -> modernart.net.host.table."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([FOLDERS[parts[0]], *parts[1:]])


def imports_of(path: pathlib.Path) -> set[str]:
    """Every module `path` imports, by absolute dotted name (also under TYPE_CHECKING and in functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_imports_flow_one_way():
    for folder, forbidden in FORBIDDEN.items():
        for path in (ROOT / folder).rglob("*.py"):
            if folder == "modernart" and path.name == "__main__.py":
                continue  # the entry point, loads modernart.cli by name at run time
            bad = {name for name in imports_of(path) if name.startswith(forbidden)}
            bad = {name for name in bad if any(name == f or name.startswith(f + ".") for f in forbidden)}
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_checkout_imports_as_installed():
    """Nothing in the code imports a top-level `net` or `cli`: installed, they are modernart.net and
    modernart.cli, and site-packages gets no package of those common names."""
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            top = {name.split(".")[0] for name in imports_of(path)}
            assert not top & {"net", "cli"}, f"{path.relative_to(ROOT)} imports a top-level net or cli"


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
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]


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


def test_every_file_cited_exists():
    """A path like net/host/table.py named in the docs or the code is a file of the checkout
    (modules move: their citations must follow)."""
    import re

    for path in [p for p in SOURCES if "tests" not in p.parts] + DOCS:
        text = path.read_text(encoding="utf-8")
        for cited in set(re.findall(r"\b((?:modernart|net|cli|benchmarks|docs|tests)/[\w/.-]+\.(?:py|md))\b", text)):
            assert (ROOT / cited).exists(), f"{path.relative_to(ROOT)} cites {cited}, which is not in the checkout"
