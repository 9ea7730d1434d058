"""The layout: every screen's container, chosen by screen and size, with the overlays
floating above.

Built once per application; every window reads `ClientState` when drawn, so a change of
state only needs `app.invalidate()`.  The screens (cli/tui/screens/) compose their
containers from the shared `Parts` built here: the log, the message line, the chat line
and the key-hint bar.
"""

from __future__ import annotations

from typing import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import AnyContainer, ConditionalContainer, DynamicContainer, FloatContainer, Layout, Window

from modernart.cli.i18n import _
from modernart.cli.tui.panels import log_panel, message_lines
from modernart.cli.tui.chat import ChatLine
from modernart.cli.tui.screens import connecting, game_over, join, lobby, scores, scoring, table, too_small
from modernart.cli.tui.screens import help as help_screen
from modernart.cli.tui.screens import quit as quit_screen
from modernart.cli.tui.screens import remove as remove_screen
from modernart.cli.tui.screens import rules as rules_screen
from modernart.cli.tui.state import MIN_COLUMNS, MIN_ROWS, ClientState
from modernart.cli.tui.text import Line
from modernart.cli.tui.widgets import PanelControl, Parts, boxed, size, window


class ClientLayout:
    """All containers of the client.  `hints(cs, width)` draws the key-hint bar."""

    def __init__(self, cs: ClientState, hints: Callable[[ClientState, int], Line]) -> None:
        self.cs = cs
        self.chat = ChatLine(cs)
        self.join_entry = join.JoinEntry(cs)
        self.hint_bar = Window(PanelControl(lambda w, h: [hints(cs, w)], focusable=True), height=1, style="class:hint")
        message = ConditionalContainer(
            window(
                lambda w, h: message_lines(cs, w),
                height=lambda: max(1, len(message_lines(cs, size()[0]))),
            ),
            filter=Condition(lambda: cs.message is not None and not cs.chat_open),
        )
        log = window(
            boxed(
                cs,
                lambda: (
                    _("Log and chat (scrolled {lines})").format(lines=cs.log_scroll)
                    if cs.log_scroll
                    else _("Log and chat")
                ),
                log_panel,
            )
        )
        parts = Parts(log=log, message=message, chat=self.chat.container, hint_bar=self.hint_bar)
        waiting = connecting.container(cs, parts)
        self.screens: dict[str, AnyContainer] = {
            "table": table.container(cs, parts),
            "lobby": lobby.container(cs, parts),
            "over": game_over.container(cs, parts),
            "finder": join.container(cs, parts, self.join_entry),
            "connecting": waiting,
            "gone": waiting,
            "small": too_small.container(cs, parts),
        }

        def shown(name: str) -> Callable[[], bool]:
            return lambda: cs.overlay == name and self.current() != "small"

        self.root = FloatContainer(
            DynamicContainer(lambda: self.screens[self.current()]),
            floats=[
                scoring.floating(cs, shown("scoring")),
                scores.floating(cs, shown("scores")),
                rules_screen.floating(cs, shown("rules")),
                help_screen.floating(cs, shown("help")),
                quit_screen.floating(cs, shown("quit")),
                remove_screen.floating(cs, shown("remove")),
            ],
        )
        self.layout = Layout(self.root, focused_element=self.hint_bar)

    def current(self) -> str:
        cols, rows = size()
        if cols < MIN_COLUMNS or rows < MIN_ROWS:
            return "small"
        return self.cs.screen()
