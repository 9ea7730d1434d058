"""What a terminal smaller than 80x24 shows instead of any screen (resizing redraws at once)."""

from __future__ import annotations

from prompt_toolkit.layout import AnyContainer, HSplit

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import MIN_COLUMNS, MIN_ROWS
from modernart.cli.tui.text import Line
from modernart.cli.tui.widgets import Parts, window


def too_small_text(width: int, height: int) -> list[Line]:
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
    ]


def container(parts: Parts) -> AnyContainer:
    return HSplit([window(lambda w, h: too_small_text(w, h)), parts.hint_bar])


def commands(controls: Controls, modes: Modes) -> list[Command]:
    here = lambda: controls.current() == "small"  # noqa: E731
    return [Command(("q", "c-c"), "q", _("quit"), here, lambda e: controls.exit(), modes.always, 80)]
