"""The structure of net/: no import cycles, no module reaching into another's private
names, and `Host` and `Client` composed of parts rather than inheriting them.

Read from the source with `ast` (net/ imports as `modernart.net`), so every import counts:
module-level, function-level and `if TYPE_CHECKING:` ones alike.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
NET = ROOT / "net"


def _dotted(path: pathlib.Path) -> str:
    """The name a file of net/ imports as: net/host/table.py -> modernart.net.host.table."""
    parts = ["modernart", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_dotted(path): path for path in sorted(NET.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def _module_of(name: str) -> str | None:
    """The module of net/ that importing `name` runs (a name inside a module: that module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported(module: str, tree: ast.Module) -> set[str]:
    """The modules of net/ that `module` imports, anywhere in its source."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{alias.name}" for alias in node.names]  # a submodule, or a name in `base`
        for name in names:
            target = _module_of(name)
            if target is not None and target != module:
                out.add(target)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_the_import_graph_of_net_has_no_cycles():
    graph = {module: _imported(module, tree) for module, tree in TREES.items()}
    assert sum(len(targets) for targets in graph.values()) > 100  # the graph was read (not empty)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_net_uses_private_names_of_another_object():
    """`x._name` only on `self` or `cls` (a private name is its own class's), and no
    `from module import _name` (a private name is its own module's)."""
    found = []
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    found.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom):
                found += [
                    f"{module}:{node.lineno}: from {node.module} import {alias.name}"
                    for alias in node.names
                    if _private(alias.name)
                ]
    assert found == []


def test_the_private_name_check_sees_a_private_access():
    tree = ast.parse("def f(game):\n    return game._events_done\n")
    assert [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _private(n.attr)] == ["_events_done"]


def test_host_and_client_are_composed_not_inherited():
    from modernart.net.client.client import Client
    from modernart.net.host.host import Host

    assert Host.__bases__ == (object,)
    assert Client.__bases__ == (object,)
    for cls, module in ((Host, "modernart.net.host.host"), (Client, "modernart.net.client.client")):
        (node,) = [n for n in TREES[module].body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
        assert node.bases == [] and node.keywords == []  # no base written either (not even a typing-only one)
