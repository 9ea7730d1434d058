"""The modules form layers: no import cycles, no private names across modules (engine, net/, cli/).

The import graph is read from the sources with `ast`: every `import` and `from ... import`
counts wherever it stands (module level, under `if TYPE_CHECKING:`, inside a function), and
so does `importlib.import_module("a.literal.name")`.  A package's `__init__` running before
its submodules is not an edge of its own (Python starts a package first); what the
`__init__` itself imports is.  The folders net/ and cli/ import as `modernart.net` and
`modernart.cli` (pyproject's package-dir mapping), so their modules carry those names.

`import_cycles(folder)` and `private_uses(folder)` hold for all three folders.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: checkout folder -> the package name it imports as
PACKAGES = {"modernart": "modernart", "net": "modernart.net", "cli": "modernart.cli"}
#: folders whose modules must import one another without cycles
LAYERED_FOLDERS = ("modernart", "net", "cli")
#: folders whose modules must not use one another's private names
PRIVATE_CHECKED_FOLDERS = ("modernart", "net", "cli")
#: receivers whose private attributes a class may use: its own instance and its own class
OWN_RECEIVERS = {"self", "cls"}


def _module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = [PACKAGES[relative.parts[0]], *relative.parts[1:]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, Path]:
    """Every module of the three packages: its dotted name -> its source file."""
    found = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[_module_name(path)] = path
    return found


def _folder_of(name: str) -> str:
    """The checkout folder that holds module `name`."""
    return next(f for f, package in sorted(PACKAGES.items(), key=lambda fp: -len(fp[1])) if name.startswith(package))


def _in_folder(name: str, folder: str) -> bool:
    return _folder_of(name) == folder


def _resolve(base: str, known: dict[str, Path]) -> str | None:
    """The project module `base` names, or the nearest enclosing one, or None if outside."""
    parts = base.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def _package_of(name: str, path: Path) -> list[str]:
    """The package a relative import in module `name` starts from."""
    parts = name.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _imported(name: str, path: Path, node: ast.AST, known: dict[str, Path]) -> list[str]:
    """The dotted names one import statement or call brings in."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            package = _package_of(name, path)
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        # `from package import submodule` imports the submodule; any other name comes from base
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


@functools.cache
def import_graph() -> dict[str, frozenset[str]]:
    """Module -> the project modules it imports (anywhere in its source)."""
    known = modules()
    graph = {}
    for name, path in known.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for dotted in _imported(name, path, node, known):
                target = _resolve(dotted, known)
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = frozenset(targets)
    return graph


def strongly_connected_components(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: every strongly connected component of `graph`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in graph:
                    continue
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def import_cycles(folder: str) -> list[list[str]]:
    """The import cycles among the modules of checkout folder `folder` (each a sorted list of
    module names); only imports between two modules of that folder count."""
    graph = {
        name: frozenset(t for t in targets if _in_folder(t, folder))
        for name, targets in import_graph().items()
        if _in_folder(name, folder)
    }
    return sorted(c for c in strongly_connected_components(graph) if len(c) > 1)


def _is_private(name: str) -> bool:
    # `_` alone is gettext's translation function (modernart.cli.i18n): public by convention
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


def private_uses(folder: str) -> list[str]:
    """Where a module of `folder` imports another module's private name, or reads a private
    attribute of anything but `self`/`cls`/`super()` (another module's object, or another module)."""
    known = modules()
    found = []
    for name, path in known.items():
        if not _in_folder(name, folder):
            continue
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{where}:{node.lineno} imports {a.name}" for a in node.names if _is_private(a.name)]
            elif isinstance(node, ast.Import):
                found += [
                    f"{where}:{node.lineno} imports {a.name}"
                    for a in node.names
                    if any(_is_private(part) for part in a.name.split("."))
                ]
            elif isinstance(node, ast.Attribute) and _is_private(node.attr):
                receiver = node.value
                own = isinstance(receiver, ast.Name) and receiver.id in OWN_RECEIVERS
                inherited = (  # super()._hook() in a method that overrides the hook
                    isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"
                )
                if not (own or inherited):
                    found.append(f"{where}:{node.lineno} uses {ast.unparse(node)}")
    return found


def test_the_checker_sees_every_kind_of_import():
    """Sanity of the checker itself: known edges of the layout are found."""
    graph = import_graph()
    assert "modernart.game" in graph["modernart"]  # `from .game import GameState` in __init__
    assert "modernart.cli.main" in graph["modernart.__main__"]  # importlib.import_module("...")
    assert "modernart.auctions" in graph["modernart.game"]  # `from . import auctions`: the submodule
    assert {_folder_of(n) for n in graph} == set(PACKAGES)


def test_a_cycle_is_found():
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert [c for c in strongly_connected_components(graph) if len(c) > 1] == [["a", "b", "c"]]


def test_the_private_name_check_sees_private_uses(tmp_path, monkeypatch):
    """Sanity of the checker: another object's private attribute and a private import are
    found; `self`, `cls` and `super()` are the class's own."""
    source = (
        "from modernart.game import _hidden\n"
        "class A(B):\n"
        "    def f(self, game):\n"
        "        return game._events_done, self._mine, super()._hook()\n"
    )
    (tmp_path / "modernart").mkdir()
    (tmp_path / "modernart" / "probe.py").write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    modules.cache_clear()
    try:
        found = private_uses("modernart")
    finally:
        modules.cache_clear()
    assert found == ["modernart/probe.py:1 imports _hidden", "modernart/probe.py:4 uses game._events_done"]


def test_no_import_cycles():
    for folder in LAYERED_FOLDERS:
        assert import_cycles(folder) == [], f"import cycles in {folder}/"


def test_no_private_names_across_modules():
    for folder in PRIVATE_CHECKED_FOLDERS:
        assert private_uses(folder) == [], f"{folder}/ uses private names of other modules"
