"""The parts screens are built of: a window drawing a panel function, a border with a
title, a one-line bar, an overlay, and `Parts`, the pieces every screen shares.

A panel function is `(cs, width, height) -> lines`; `PanelControl` passes the real width
and height and fits every line to the width (borders included), so wide characters can
never spill into a neighbour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, cast

from prompt_toolkit.application.current import get_app_or_none
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    DynamicContainer,
    Float,
    UIContent,
    UIControl,
    VSplit,
    Window,
)

from modernart.cli.bidi import reorders_here

from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut, fit_line, shown
from modernart.cli.tui.text import width as text_width

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

Render = Callable[[int, int], list[Line]]
Panel = Callable[[ClientState, int, int], list[Line]]


class PanelControl(UIControl):
    """Draws `render(width, height)` cut and padded to the window, each line put in display
    order (mirrored for a right-to-left client) as a whole, once."""

    def __init__(self, render: Render, focusable: bool = False) -> None:
        self.render = render
        self.focusable = focusable  # the hint bar holds the focus when no text is typed

    def create_content(self, width: int, height: int) -> UIContent:
        # a Line (style, text pairs) is formatted text; a list of them is not one to the checker (lists are invariant)
        lines = cast(
            "list[StyleAndTextTuples]", [shown(fit_line(line, width)) for line in self.render(width, height)[:height]]
        )
        while len(lines) < height:
            lines.append([("", " " * width)])
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return self.focusable


def boxed(cs: ClientState, title: str | Callable[[], str], inner: Panel) -> Render:
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


def side_by_side(children: Callable[[], list[AnyContainer]]) -> AnyContainer:
    """`children()` side by side, the first at the left; for a client that mirrors
    right-to-left text (modernart.cli.bidi), the first at the right, as a right-to-left
    table reads (each order has windows of its own, as a window has one place)."""
    left_to_right, right_to_left = VSplit(children()), VSplit(children()[::-1])
    return DynamicContainer(lambda: right_to_left if reorders_here() else left_to_right)


def window(render: Render, **kw) -> Window:
    return Window(PanelControl(render), **kw)


def one_line(fn: Callable[[ClientState, int], Line], cs: ClientState, style: str = "") -> Window:
    return Window(PanelControl(lambda w, h: [fn(cs, w)]), height=1, style=style)


def title_bar(cs: ClientState, text: str) -> Window:
    """A screen's top line: its name, in the status style."""
    return one_line(lambda cs_, w: [("class:status", text)], cs, style="class:status")


#: The size `size()` gives before the application runs (while the layout is built): the
#: one prompt_toolkit's stand-in application would give (its DummyOutput's)
SIZE_BEFORE_THE_APP = (80, 40)


def size() -> tuple[int, int]:
    """The terminal's (columns, rows).  Before the application runs, `SIZE_BEFORE_THE_APP`,
    without asking prompt_toolkit's `get_app()`: that builds a new stand-in application, all
    its default key bindings included, on every call (about 20 ms each on the start-up path).

    >>> size()
    (80, 40)
    """
    app = get_app_or_none()
    if app is None:
        return SIZE_BEFORE_THE_APP
    s = app.output.get_size()
    return s.columns, s.rows


def overlay(
    cs: ClientState, shown: Callable[[], bool], title: str | Callable[[], str], inner: Panel, width: int
) -> Float:
    """`inner` boxed over the screen while `shown()`: as tall as its text, at most the
    terminal, and at most `width` wide, with a blank cell on either side, so that no
    border of the screen under it stands against its own (at 80 columns a 78-wide box
    covers the whole row)."""
    box = boxed(cs, title, inner)

    def render(w: int, h: int) -> list[Line]:
        return [[("", " ")] + line + [("", " ")] for line in box(max(0, w - 2), h)]

    content = ConditionalContainer(window(render, style="class:overlay"), filter=Condition(shown))

    def outer() -> int:
        return min(width + 2, size()[0])

    def height() -> int:
        return min(len(inner(cs, outer() - 4, size()[1])) + 2, size()[1])

    return Float(content, width=outer, height=height)


@dataclass(frozen=True)
class Parts:
    """What screens share: the log window, the message line, the chat line and the key-hint
    bar (which holds the focus when no text is typed)."""

    log: AnyContainer
    message: AnyContainer
    chat: AnyContainer
    hint_bar: Window

    @property
    def footer(self) -> list[AnyContainer]:
        return [self.message, self.chat, self.hint_bar]
