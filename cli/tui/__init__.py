"""The terminal client (prompt_toolkit, full screen).

Entry points: `run_client_async(session)` (cli/tui/app.py), `play_here(...)` (a table hosted
in this process, cli/tui/in_process_host.py) and `serve(...)` (cli/tui/sshserve.py).
See docs/client.md.
"""
