"""The leave overlay: asks before leaving the table or the lobby, and says what leaving
does to the game."""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes, Pred
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line
from modernart.cli.tui.widgets import overlay

WIDTH = 56


def quit_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    playing = cs.obs is not None and not cs.obs.is_over
    lines: list[Line] = [[("class:title", " " + _("Leave the table?"))]]
    if playing and cs.session is not None and cs.session.ends_when_you_leave:  # never None while playing
        # TRANSLATORS: these three lines are one sentence, cut to fit the overlay
        lines.append([("", " " + _("This game runs on this machine:"))])
        lines.append([("", " " + _("leaving ends it for now. It is saved, and"))])
        lines.append([("", " " + _("the shell then says how to continue it."))])
    elif playing:
        # TRANSLATORS: this line and the next are one sentence, cut to fit the overlay
        lines.append([("", " " + _("The game goes on; the host keeps your seat"))])
        lines.append([("", " " + _("and a bot or the clock plays it until you return."))])
    lines.append([("", " " + _("y: leave   n or Esc: stay"))])
    return lines


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    """`q` or Ctrl-C at the table or in the lobby asks first; `y` leaves, `n` or Esc stays;
    Ctrl-C over any overlay leaves at once."""
    table, lobby = modes.free("table"), modes.free("lobby")
    shown = modes.overlay("quit")
    return [
        Command(("q", "c-c"), "q", _("leave"), lambda: table() or lobby(), modes.set_overlay("quit"), modes.always, 80),
        Command(("y",), "y", _("leave"), shown, lambda e: controls.exit(), modes.always, 1),
        Command(("n", "escape"), "n", _("stay"), shown, modes.set_overlay(None), modes.always, 2),
        Command(("c-c",), "", "", lambda: cs.overlay is not None, lambda e: controls.exit()),
    ]


def floating(cs: ClientState, shown: Pred) -> Float:
    """The leave overlay, floating over the screen while `shown()`."""
    return overlay(cs, shown, _("Leave"), quit_panel, WIDTH)
