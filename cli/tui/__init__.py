"""The terminal client (prompt_toolkit, full screen).

Entry points: `run_client_async(session)` (cli/tui/app.py), the host of a table on this
machine (cli/tui/in_process_host.py, cli/tui/child_host.py; started by cli/local_table.py
`LocalTable.start`) and `serve(...)` (cli/tui/sshserve.py).
See docs/client.md.
"""
