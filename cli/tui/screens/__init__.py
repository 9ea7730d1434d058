"""The client's screens, one module each: its text, its keys (the commands of its mode,
with their filters) and the container it composes from shared parts (cli/tui/widgets.py).

join (tables heard on the LAN), connecting (and "gone"), lobby, table, game_over, and the
overlays scoring, help and quit; too_small stands in for all of them on a small terminal.
The application state is one `ClientState` (cli/tui/state.py); cli/tui/layout.py puts the
screens together and cli/tui/app.py runs them.
"""
