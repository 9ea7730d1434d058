"""Boundaries between the subsystems of net/ that an import check of the source alone does
not see: what a module loads, transitively, when it is imported."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLIENT_MODULES = sorted(
    f"modernart.net.client.{path.stem}" for path in (ROOT / "net" / "client").glob("*.py") if path.stem != "__init__"
)


@pytest.mark.parametrize("module", CLIENT_MODULES)
def test_the_client_does_not_load_the_host(module):
    """A client module, imported alone in a fresh interpreter, loads no module of the host
    side (a client needs the wire format, net/protocol/, never the host's code)."""
    probe = (
        "import importlib, json, sys; "
        f"importlib.import_module({module!r}); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('modernart.net.host'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == [], f"importing {module} loads host modules: {loaded}"


def test_every_client_module_is_probed():
    assert {"modernart.net.client.client", "modernart.net.client.receiving", "modernart.net.client.bot"} <= set(
        CLIENT_MODULES
    )
