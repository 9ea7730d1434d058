"""The terminal client (prompt_toolkit, full screen).

Entry points: `run_client(session)` / `run_client_async(session)` (cli/tui/app.py),
`local_game(...)` (cli/tui/local_session.py) and `serve(...)` (cli/tui/sshserve.py).
See docs/client.md.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:  # import lazily: `modernart --help` must stay fast
    if name in ("run_client", "run_client_async", "ClientApp"):
        from modernart.cli.tui import app

        return getattr(app, name)
    if name in ("local_game", "LocalSession"):
        from modernart.cli.tui import local_session

        return getattr(local_session, name)
    raise AttributeError(name)
