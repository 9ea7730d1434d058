"""`Host` and `Client` are composed of parts, not inherited from mixins (the import graph and
private names of net/ are checked with the rest in tests/test_import_graph.py)."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_host_and_client_are_composed_not_inherited():
    from modernart.net.client.client import Client
    from modernart.net.host.host import Host

    assert Host.__bases__ == (object,)
    assert Client.__bases__ == (object,)
    for cls, path in ((Host, "net/host/host.py"), (Client, "net/client/client.py")):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
        assert node.bases == [] and node.keywords == []  # no base written either (not even a typing-only one)
