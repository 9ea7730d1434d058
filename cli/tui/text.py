"""Text measured in terminal cells: fitting, padding and the border character sets.

Every piece of text the client draws goes through `fit`/`fit_line`, which measure with
prompt_toolkit's `get_cwidth` (wide CJK characters take two cells, combining marks none)
and never let a wide character straddle a panel's edge.  Layout-critical symbols are
plain ASCII (`#`, `.`, `*`, `>`), because East Asian "ambiguous" characters are drawn
double-width by some terminals.  Lines are built, cut and padded in logical order; a
right-to-left client puts each whole line in display order once, as it is drawn
(`shown`, which is `modernart.cli.bidi.visual_line`), so a cut keeps the start of a
sentence wherever the terminal draws it, and a sentence made of several styled fragments
is still reordered as one.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Iterable, Union

from prompt_toolkit.utils import get_cwidth

from modernart.cli.bidi import COLUMN, visual_line

Fragment = tuple[str, str]
Line = list[Fragment]


#: A placeholder's value in `sentence`: its text (in the sentence's style), or (style, text).
Part = Union[str, int, tuple[str, Union[str, int]]]


def sentence(template: str, style: str = "", **parts: Part) -> Line:
    """A translated message with its named placeholders filled, as fragments: the message's
    own words in `style`, each part in its own style where it names one.  One sentence
    whatever its styles: a right-to-left client reorders the line as a whole, so the
    translation's word order is the order read.

    >>> sentence("High bid: {high} by {player}", high=("class:title", 14), player="Ana")
    [('', 'High bid: '), ('class:title', '14'), ('', ' by '), ('', 'Ana')]
    """
    out: Line = []
    for literal, field, spec, _conversion in string.Formatter().parse(template):
        if literal:
            out.append((style, literal))
        if field is not None:
            value = parts[field]
            part_style, text = value if isinstance(value, tuple) else (style, value)
            out.append((part_style, format(text, spec or "")))
    return out


def width(text: str) -> int:
    """Cells `text` takes on a terminal."""
    return get_cwidth(text)


def cut(text: str, cells: int) -> str:
    """The longest prefix of `text` that fits in `cells` cells."""
    if cells <= 0:
        return ""
    if len(text) <= cells and text.isascii():
        return text
    used = 0
    for i, ch in enumerate(text):
        w = get_cwidth(ch)
        if used + w > cells:
            return text[:i]
        used += w
    return text


def fit(text: str, cells: int, align: str = "left") -> str:
    """`text` cut or padded with spaces to exactly `cells` cells (in logical order): a
    table's cell, marked as one (`COLUMN`, which a mirrored row needs and nobody sees)."""
    text = cut(text, cells)
    pad = cells - width(text)
    if align == "right":
        return COLUMN + " " * pad + text
    if align == "center":
        return COLUMN + " " * (pad // 2) + text + " " * (pad - pad // 2)
    return COLUMN + text + " " * pad


def line_width(line: Iterable[Fragment]) -> int:
    return sum(width(text) for _, text in line)


def fit_line(line: Iterable[Fragment], cells: int, fill_style: str = "") -> Line:
    """Fragments cut to `cells` cells (across fragments) and padded to exactly that, in
    logical order (`shown` puts a whole line in display order)."""
    out: Line = []
    left = cells
    for style, text in line:
        if left <= 0:
            break
        piece = cut(text, left)
        if piece:
            out.append((style, piece))
            left -= width(piece)
        if len(piece) < len(text):
            break
    if left > 0:
        out.append((fill_style, " " * left))
    return out


def shown(line: Iterable[Fragment]) -> Line:
    """A whole line as this client draws it: mirrored for a right-to-left client in client
    mode (`modernart.cli.bidi.visual_line`), else as it is."""
    return visual_line(list(line))


def plain(line: Iterable[Fragment]) -> str:
    """A line's text, as in logical order (without the cells' marks)."""
    return "".join(text for _, text in line).replace(COLUMN, "")


def wrap(text: str, cells: int) -> list[str]:
    """Word-wrap `text` into lines of at most `cells` cells (long words are cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while width(word) > cells:
            if current:
                lines.append(current)
                current = ""
            head = cut(word, cells)
            lines.append(head)
            word = word[len(head) :]
        candidate = f"{current} {word}" if current else word
        if width(candidate) <= cells:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


@dataclass(frozen=True)
class Borders:
    """Characters for panel borders."""

    h: str
    v: str
    tl: str
    tr: str
    bl: str
    br: str


UNICODE_BORDERS = Borders("─", "│", "┌", "┐", "└", "┘")
ASCII_BORDERS = Borders("-", "|", "+", "+", "+", "+")


def encoding_has_box_drawing(encoding: str | None) -> bool:
    """Whether the output encoding can carry box-drawing characters."""
    try:
        "─│┌┐└┘".encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def countdown_bar(left: float, total: float, cells: int) -> str:
    """`#####.....`: the share of `total` still `left`, in plain ASCII."""
    if cells <= 0:
        return ""
    share = 0.0 if total <= 0 else max(0.0, min(1.0, left / total))
    full = round(share * cells)
    return "#" * full + "." * (cells - full)
