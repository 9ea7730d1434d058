"""What a terminal smaller than 80x24 shows instead of any screen (resizing redraws at once)."""

from __future__ import annotations

from prompt_toolkit.layout import AnyContainer, HSplit

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import MIN_COLUMNS, MIN_ROWS, ClientState, needed
from modernart.cli.tui.text import Line
from modernart.cli.tui.widgets import Parts, window


def too_small_text(width: int, height: int, asking: bool = False, your_turn: bool = False) -> list[Line]:
    """Why nothing else is shown; and, when the table waits for you, that it does (the
    table's clocks run on: a decision clock may play for you)."""
    if asking:  # q asks first, as at the table
        return [
            [("class:title", " " + _("Leave the table?"))],
            [("", " " + _("y: leave   n or Esc: stay"))],
        ]
    return [
        [("class:error", " " + _("Terminal too small"))],
        [
            (
                "",
                " "
                + _("need {need}, have {have}.").format(need=f"{MIN_COLUMNS}x{MIN_ROWS}", have=f"{width}x{height + 1}"),
            )
        ],
        [("", " " + _("Enlarge the window, or press q to leave."))],
    ] + ([[("class:turn", " " + _("YOUR TURN: the table is waiting for you"))]] if your_turn else [])


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    def your_turn() -> bool:
        obs = cs.obs
        return cs.screen() == "table" and obs is not None and not obs.is_over and needed(obs)

    return HSplit([window(lambda w, h: too_small_text(w, h, cs.overlay == "quit", your_turn())), parts.hint_bar])


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    """`q` asks first (the leave overlay's y and n answer, drawn here while the screen is too
    small for overlays); Ctrl-C over the question leaves at once."""
    here = lambda: controls.current() == "small" and cs.overlay != "quit"  # noqa: E731
    asking = lambda: controls.current() == "small" and cs.overlay == "quit"  # noqa: E731
    return [
        Command(("q", "c-c"), "q", _("quit"), here, modes.set_overlay("quit"), modes.always, 80),
        Command(("y",), "y", _("leave"), asking, lambda e: controls.exit(), modes.always, 1),
        Command(("n", "escape"), "n", _("stay"), asking, modes.set_overlay(None), modes.always, 2),
        Command(("c-c",), "", "", asking, lambda e: controls.exit()),
    ]
