"""The layout: windows whose text comes from the panel functions, chosen by screen and size.

Built once per application; every window reads `ClientState` when drawn, so a change of
state only needs `app.invalidate()`.  Panels are drawn by `PanelControl`, which passes
the real width and height to the panel function and fits every line to the width
(borders included), so wide characters can never spill into a neighbour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from prompt_toolkit.application import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    UIContent,
    UIControl,
    VSplit,
    Window,
)

from modernart.cli.tui import auction_panel, join_screen, panels, screens
from modernart.cli.tui.session import Status
from modernart.cli.tui.state import MIN_COLUMNS, MIN_ROWS, ClientState
from modernart.cli.tui.text import Line, cut, fit_line
from modernart.cli.tui.text import width as text_width

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

Render = Callable[[int, int], list[Line]]


class PanelControl(UIControl):
    """Draws `render(width, height)` cut and padded to the window."""

    def __init__(self, render: Render, focusable: bool = False) -> None:
        self.render = render
        self.focusable = focusable  # the hint bar holds the focus when no text is typed

    def create_content(self, width: int, height: int) -> UIContent:
        # a Line (style, text pairs) is formatted text; a list of them is not one to the checker (lists are invariant)
        lines = cast(
            "list[StyleAndTextTuples]", [fit_line(line, width) for line in self.render(width, height)[:height]]
        )
        while len(lines) < height:
            lines.append([("", " " * width)])
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return self.focusable


def boxed(
    cs: ClientState, title: str | Callable[[], str], inner: Callable[[ClientState, int, int], list[Line]]
) -> Render:
    """A panel function with a border and a title around `inner`."""

    def render(width: int, height: int) -> list[Line]:
        b = cs.borders
        name = title() if callable(title) else title
        inner_w = max(0, width - 2)
        head = cut(f"{b.h} {name} ", inner_w) if name else ""
        top = b.tl + head + b.h * (inner_w - text_width(head)) + b.tr
        body = inner(cs, inner_w, max(0, height - 2))
        out: list[Line] = [[("class:frame", top)]]
        for i in range(max(0, height - 2)):
            row = body[i] if i < len(body) else []
            out.append([("class:frame", b.v)] + fit_line(row, inner_w) + [("class:frame", b.v)])
        out.append([("class:frame", b.bl + b.h * max(0, width - 2) + b.br)])
        return out

    return render


def window(render: Render, **kw) -> Window:
    return Window(PanelControl(render), **kw)


def one_line(fn: Callable[[ClientState, int], Line], cs: ClientState, style: str = "") -> Window:
    return Window(PanelControl(lambda w, h: [fn(cs, w)]), height=1, style=style)


def size() -> tuple[int, int]:
    s = get_app().output.get_size()
    return s.columns, s.rows


class ClientLayout:
    """All containers of the client.  `hints(cs, width)` draws the key-hint bar."""

    def __init__(self, cs: ClientState, hints: Callable[[ClientState, int], Line]) -> None:
        self.cs = cs
        self.chat_buffer = Buffer(name="chat", multiline=False)
        self.finder_buffer = Buffer(name="finder", multiline=False)
        c = cs
        self.hint_bar = hint_bar = Window(
            PanelControl(lambda w, h: [hints(c, w)], focusable=True), height=1, style="class:hint"
        )
        message = ConditionalContainer(
            window(
                lambda w, h: panels.message_lines(c, w), height=lambda: max(1, len(panels.message_lines(c, size()[0])))
            ),
            filter=Condition(lambda: c.message is not None and not c.chat_open),
        )
        self.chat_window = Window(BufferControl(self.chat_buffer), height=1)
        chat = ConditionalContainer(
            VSplit(
                [
                    Window(PanelControl(lambda w, h: [[("class:chat.who", " Say: ")]]), width=6, height=1),
                    self.chat_window,
                ]
            ),
            filter=Condition(lambda: c.chat_open),
        )
        self.finder_window = Window(BufferControl(self.finder_buffer), height=1)
        finder_entry = ConditionalContainer(
            HSplit(
                [
                    window(lambda w, h: join_screen.finder_prompt(c, w), height=2),
                    VSplit(
                        [
                            Window(PanelControl(lambda w, h: [[("class:title", " > ")]]), width=3, height=1),
                            self.finder_window,
                        ]
                    ),
                ]
            ),
            filter=Condition(lambda: c.finder_input is not None),
        )
        footer = [message, chat, hint_bar]
        log = window(
            boxed(
                cs, lambda: "Log and chat" + (f" (scrolled {c.log_scroll})" if c.log_scroll else ""), panels.log_panel
            )
        )
        status = one_line(panels.status_line, cs, style="class:status")
        # narrow (80-131 columns): board and auction, players and hand, log below;
        # wide (132+): the same two columns, and the log as a third column of full height
        left_w = lambda: 40 if size()[0] < 100 or size()[0] >= 132 else size()[0] // 2  # noqa: E731
        top = VSplit(
            [
                window(boxed(cs, "Artists", panels.artists_panel), height=8, width=left_w),
                window(boxed(cs, "Auction", auction_panel.auction_panel), height=8),
            ]
        )
        middle = VSplit(
            [
                window(boxed(cs, "Players", panels.players_panel), height=8, width=left_w),
                window(boxed(cs, "Your hand", panels.hand_panel), height=8),
            ]
        )
        self.table_narrow = HSplit([status, top, middle, log, *footer])
        side_log = window(boxed(cs, "Log and chat", panels.log_panel), width=lambda: max(40, size()[0] - 92))
        self.table_wide = HSplit(
            [
                status,
                VSplit(
                    [
                        HSplit([top, middle, window(boxed(cs, "Sales this round", panels.sales_panel))], width=92),
                        side_log,
                    ]
                ),
                *footer,
            ]
        )
        lobby = HSplit(
            [
                one_line(screens.lobby_header, cs, style="class:status"),
                window(
                    lambda w, h: screens.lobby_join(c, w, h), height=lambda: len(screens.lobby_join(c, size()[0], 0))
                ),
                VSplit(
                    [
                        window(boxed(cs, "Seats", screens.lobby_seats), height=12),
                        window(boxed(cs, "Rules and clocks", screens.lobby_rules), height=12),
                    ]
                ),
                log,
                *footer,
            ]
        )
        over = HSplit(
            [
                one_line(lambda cs_, w: [("class:status", " MODERN ART - game over")], cs, style="class:status"),
                window(boxed(cs, "Final result", screens.game_over_panel), height=14),
                log,
                *footer,
            ]
        )
        finder = HSplit(
            [
                one_line(lambda cs_, w: [("class:status", " MODERN ART - join a table")], cs, style="class:status"),
                window(boxed(cs, "Tables on this network", join_screen.finder_panel)),
                finder_entry,
                message,
                hint_bar,
            ]
        )
        connecting = HSplit(
            [
                one_line(lambda cs_, w: [("class:status", " MODERN ART")], cs, style="class:status"),
                window(lambda w, h: connecting_text(c, w)),
                message,
                hint_bar,
            ]
        )
        too_small = HSplit([window(lambda w, h: too_small_text(w, h)), hint_bar])
        self.screens = {
            "table": None,
            "lobby": lobby,
            "over": over,
            "finder": finder,
            "connecting": connecting,
            "gone": connecting,
            "small": too_small,
        }

        def overlay(name: str, title, inner, width: int) -> Float:
            content = ConditionalContainer(
                window(boxed(cs, title, inner), style="class:overlay"),
                filter=Condition(lambda: c.overlay == name and self.current() != "small"),
            )

            def height() -> int:  # as tall as its text, at most the terminal
                w = min(width, size()[0])
                return min(len(inner(c, w - 2, size()[1])) + 2, size()[1])

            return Float(content, width=lambda: min(width, size()[0]), height=height)

        scoring_title = lambda: f"Round {c.scoring_round + 1} scoring"  # noqa: E731
        self.root = FloatContainer(
            DynamicContainer(self.container),
            floats=[
                overlay("scoring", scoring_title, screens.scoring_panel, 62),
                overlay("help", "Help", screens.help_panel, 78),
                overlay("quit", "Leave", screens.quit_panel, 56),
            ],
        )
        self.layout = Layout(self.root, focused_element=self.hint_bar)

    def current(self) -> str:
        cols, rows = size()
        if cols < MIN_COLUMNS or rows < MIN_ROWS:
            return "small"
        return self.cs.screen()

    def container(self):
        name = self.current()
        if name == "table":
            return self.table_wide if size()[0] >= 132 else self.table_narrow
        return self.screens[name]


def connecting_text(cs: ClientState, width: int) -> list[Line]:
    session = cs.session
    if session is None:
        return [[("", " Connecting...")]]
    if cs.screen() == "gone":
        word = "Connection lost" if session.status == Status.DISCONNECTED else "No seat for you"
    else:
        word = "Connecting"
    detail = f": {session.detail}" if session.detail else "..."
    return [[], [("class:title", f" {word}{detail}")]]


def too_small_text(width: int, height: int) -> list[Line]:
    return [
        [("class:error", " Terminal too small")],
        [("", f" need {MIN_COLUMNS}x{MIN_ROWS}, have {width}x{height + 1}.")],
        [("", " Enlarge the window, or press q to leave.")],
    ]
