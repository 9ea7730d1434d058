"""The screen between tables: connecting to a host, and "connection lost" or "no seat for
you" once a session has nothing to show (the "gone" screen)."""

from __future__ import annotations

from prompt_toolkit.layout import AnyContainer, HSplit

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.session import Status
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line
from modernart.cli.tui.widgets import Parts, title_bar, window


def connecting_text(cs: ClientState, width: int) -> list[Line]:
    session = cs.session
    if session is None:
        return [[("", " " + _("Connecting..."))]]
    if cs.screen() == "gone":
        if session.status == Status.DISCONNECTED:
            words = _("Connection lost: {detail}") if session.detail else _("Connection lost...")
        else:
            words = _("No seat for you: {detail}") if session.detail else _("No seat for you...")
    else:
        words = _("Connecting: {detail}") if session.detail else _("Connecting...")
    return [[], [("class:title", " " + words.format(detail=session.detail))]]


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    return HSplit(
        [
            title_bar(cs, " " + _("MODERN ART")),
            window(lambda w, h: connecting_text(cs, w)),
            parts.message,
            parts.hint_bar,
        ]
    )


def commands(controls: Controls, modes: Modes) -> list[Command]:
    here = lambda: controls.current() in ("connecting", "gone")  # noqa: E731
    return [Command(("q", "c-c"), "q", _("quit"), here, lambda e: controls.exit(), modes.always, 80)]
