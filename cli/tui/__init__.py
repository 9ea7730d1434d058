"""The terminal client (prompt_toolkit, full screen).

Entry points: `run_client(session)` / `run_client_async(session)` (cli/tui/app.py),
`play_here(...)` (a table hosted in this process, cli/tui/in_process_host.py) and
`serve(...)` (cli/tui/sshserve.py).
See docs/client.md.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:  # import lazily: `modernart --help` must stay fast
    if name in ("run_client", "run_client_async", "ClientApp"):
        from modernart.cli.tui import app

        return getattr(app, name)
    if name in ("play_here", "InProcessHost", "HostGameSettings"):
        from modernart.cli.tui import in_process_host

        return getattr(in_process_host, name)
    raise AttributeError(name)
