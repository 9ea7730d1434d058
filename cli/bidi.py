"""Right-to-left text on terminals: who reorders it, the terminal or the client.

prompt_toolkit writes code points in the order it is given, one cell each.  Persian is
written right to left with joined letters, and terminals differ: most (xterm, kitty,
alacritty, Windows Terminal, tmux itself) draw characters left to right as sent and do not
join Arabic letters, so logical order reads backwards, in isolated letter forms; a few
(Konsole, mlterm, GNOME Terminal's VTE, macOS Terminal) apply the Unicode BiDi algorithm
to each line themselves.  Hence two modes (`--bidi`):

* ``client`` (the default): the client reorders and shapes.  Each piece of text it draws
  is shaped with arabic-reshaper (letters in their joined presentation forms) and put in
  display order with python-bidi (the Unicode BiDi algorithm, right-to-left paragraph; its
  `bidi.algorithm` module, which also mirrors brackets, unlike its faster `get_display`).
  Runs of Latin letters and digits (names, amounts, card codes like ``3:S``, the artist
  initials) are isolated first, so that they keep their own left-to-right order inside a
  right-to-left line.  The client also sends ``CSI 8 l`` (the BiDi working group's
  "explicit mode"), which tells a VTE terminal not to reorder a second time.
* ``terminal``: text goes out in logical order, for terminals that reorder themselves
  and offer no way to switch that off (Konsole, mlterm).

In client mode a right-to-left client mirrors every line it draws (`visual_line`), as a
right-to-left application would: a line's pieces (its columns and sentences, which meet at
two spaces or more, " | " and borders) go from right to left, the first at the right edge,
and each piece is put in display order as a whole: a sentence built from a catalog message
with its placeholders filled ("High bid: 14 by Bot A") is one piece, reordered as one
paragraph whatever styles its parts have, so it reads in its own order.  Padding a line
at its logical end right-aligns it; the border corners are mirrored too.  Every row of a
panel pads its columns alike, so the mirrored columns still stand under their headings.

>>> from modernart.cli.i18n import use_language
>>> use_language("fa"); use_bidi("client")
>>> visual("کارت 3:S")
'3:S ﺕﺭﺎﮐ'
>>> visual("Ana 12  کارت 3:S")  # two pieces: the first at the right
'3:S ﺕﺭﺎﮐ  Ana 12'
>>> visual_line([("", "بالاترین: "), ("class:title", "14"), ("", " از Ana")])  # one sentence
[('', ' Ana ﺯﺍ '), ('class:title', '14'), ('', ' :ﻦﯾﺮﺗﻻﺎﺑ')]
>>> use_bidi("terminal"); visual("کارت 3:S")
'کارت 3:S'
"""

from __future__ import annotations

import contextlib
import re
from functools import lru_cache
from typing import Sequence

from modernart.cli.context_setting import ContextSetting
from modernart.cli.i18n import is_right_to_left

#: The `--bidi` choices.
BIDI_MODES: tuple[str, ...] = ("client", "terminal")
#: Sent at start in client mode: BiDi-aware terminals (VTE) stop reordering ("explicit mode").
EXPLICIT_MODE_ON = "\x1b[8l"
#: Sent when leaving: the terminal's own reordering back on ("implicit mode").
EXPLICIT_MODE_OFF = "\x1b[8h"

_mode = ContextSetting("BiDi mode", "modernart_bidi", BIDI_MODES, "client")

# Letters written right to left, in logical order: Hebrew and Arabic (Persian included), not
# their presentation forms, which only shaped text (`visual`'s result) holds: a piece without
# them is drawn in its own order.  Letters only: the Arabic comma and semicolon (، ؛) are not
# shaped, so a shaped text still holds them.
# (Translations write numbers in Latin digits, which read the same in both directions.)
_RTL = re.compile("[\u05d0-\u05ea\u0620-\u064a\u066e\u066f\u0671-\u06d3\u06d5\u06ee\u06ef\u06fa-\u06fc\u06ff]")
# A run of Latin words and numbers ("Ana 30", "[3:S]", "L Y", "2/4", "$100", "+:+1", "`play --seed`"): kept
# left to right inside a right-to-left line.
_TOKEN = r"[\[(`]?[0-9A-Za-z$+<>?*\-#][0-9A-Za-z:+\-./%$<>?*#_`]*[\])`]?"
_LTR_RUN = re.compile(rf"{_TOKEN}(?: {_TOKEN})*")
#: Marks where a table's cell begins (`text.fit` puts it before every cell): zero cells
#: wide, never drawn, so that a mirrored row's cells trade places even where only one
#: space parts them ("R1 R2", "10 -").
COLUMN = "\x1f"
# Where a line's pieces meet: cells, columns (two spaces or more), the status line's " | ",
# and borders.  A mirrored line puts them in reverse order, each reordered on its own.
# What a cell's mark is drawn as: nothing (tests draw a zero-width space, to read cells by).
_COLUMN_DRAWN = ""
_SEPARATOR = re.compile(r"( {2,}| \| |\x1f|[─│┌┐└┘]+|-{3,}\+?|-*\+$|^\+-?|^\||\|$)")  # ASCII borders: at the ends
# Zero-width direction marks and isolates: some terminals draw them as boxes; the display
# order already holds what they said.
_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The zero-width non-joiner keeps letters apart before shaping; shaped, they are apart already.
_ZWNJ = "\u200c"
# Left-to-right embedding around each Latin run (the algorithm module knows embeddings, not
# isolates); taken out again with the other controls.
_LRE, _PDF = "\u202a", "\u202c"
# A right-to-left mark on either side of each embedded run: what stands between two runs
# (", " in "Ana، Bot A، Cem") is then read right to left, so the runs keep the sentence's
# order instead of merging into one left-to-right run.
_RLM = "\u200f"


def _balanced(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The Latin run `text[start:end]` in parts without a bracket whose partner is outside
    it: "(type + Enter)" in a Persian line embeds "+ Enter", "Enter (Esc: back)." embeds
    "Enter" and "Esc:"; the brackets left out are mirrored as the right-to-left text around
    them (never two ")")."""
    opened: list[int] = []
    alone: list[int] = []
    for i in range(start, end):
        if text[i] in "([":
            opened.append(i)
        elif text[i] in ")]":
            if opened and text[opened[-1]] == "([ "[")]".index(text[i])]:
                opened.pop()
            else:
                alone.append(i)
    parts, at = [], start
    for i in sorted(alone + opened):
        parts.append((at, i))
        at = i + 1
    parts.append((at, end))
    out = []
    for a, b in parts:  # without the spaces a cut left at either end
        while a < b and text[a] == " ":
            a += 1
        while b > a and text[b - 1] == " ":
            b -= 1
        if a < b:
            out.append((a, b))
    return out


def set_bidi(mode: str) -> None:
    """This process's mode (for every context that did not `use_bidi`)."""
    _mode.set_process(mode)


def use_bidi(mode: str) -> None:
    """The mode of the current context (an SSH guest's client)."""
    _mode.use(mode)


def reordering(mode: str | None) -> contextlib.AbstractContextManager[None]:
    """Within the block, this context's mode is `mode` (None: as it was); restored after."""
    return _mode.within(mode)


def bidi_mode() -> str:
    return _mode.get()


def reorders_here() -> bool:
    """Whether this client reorders right-to-left text itself (its language is written
    right to left and the mode is ``client``)."""
    return bidi_mode() == "client" and is_right_to_left()


def visual(text: str) -> str:
    """One line of `text` as this client draws it (`visual_line` of it, in one style): in
    client mode, a right-to-left client mirrors it; otherwise `text` unchanged.  The result
    takes exactly as many cells as `text`."""
    if not reorders_here():
        return text
    return "".join(part for _, part in visual_line([("", text)]))


# Border corners trade places in a mirrored line.
_MIRRORED_FRAME = str.maketrans("┌┐└┘", "┐┌┘└")


def visual_line(line: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """A line of (style, text) fragments, in logical order, as this client draws it.  In
    client mode with a right-to-left language the whole line is mirrored: its pieces (they
    meet at cells' marks, two spaces or more, " | " and borders) in reverse order, each piece shaped and
    put in display order as one right-to-left paragraph across its fragments, which keep
    their styles; a piece without right-to-left letters keeps its own order.  Otherwise
    the line unchanged.  Each fragment's cells stay as many in all."""
    if not reorders_here():
        return [(style, part.replace(COLUMN, _COLUMN_DRAWN)) for style, part in line]
    text = "".join(part for _, part in line)
    styles = [style for style, part in line for _ in part]
    out: list[tuple[str, str]] = []
    cuts = [0]
    for m in _SEPARATOR.finditer(text):
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    spans = list(zip(cuts, cuts[1:]))
    for i in range(len(spans) - 1, -1, -1):
        a, b = spans[i]
        if a == b:
            continue
        if i % 2:  # a separator: mirrored (a cell's mark is not drawn)
            out += [
                (styles[j], text[j].translate(_MIRRORED_FRAME) if text[j] != COLUMN else _COLUMN_DRAWN)
                for j in range(b - 1, a - 1, -1)
            ]
        else:
            out += _visual_piece(text[a:b], tuple(styles[a:b]))
    merged: list[tuple[str, str]] = []
    for style, ch in out:
        if not ch:
            continue
        if merged and merged[-1][0] == style:
            merged[-1] = (style, merged[-1][1] + ch)
        else:
            merged.append((style, ch))
    return merged


@lru_cache(maxsize=8192)  # a screen redraws the same pieces many times a second
def _visual_piece(piece: str, styles: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """One piece, mirrored: (style, character) pairs in display order.  Its spaces at either
    end trade places; a core holding right-to-left letters is shaped (arabic-reshaper, a
    style's run at a time) and reordered (python-bidi's algorithm, a right-to-left paragraph,
    brackets mirrored), Latin runs kept left to right inside it."""
    if not piece.strip(" "):
        return tuple((style, " ") for style in reversed(styles))
    lead = len(piece) - len(piece.lstrip(" "))
    end = len(piece.rstrip(" "))
    core = piece[lead:end]
    head = tuple((styles[j], " ") for j in range(len(piece) - 1, end - 1, -1))
    tail = tuple((styles[j], " ") for j in range(lead - 1, -1, -1))
    if not _RTL.search(core):
        return head + tuple(zip(styles[lead:end], core)) + tail
    from arabic_reshaper import reshape  # imported only where Persian is drawn
    from bidi import algorithm
    from prompt_toolkit.utils import get_cwidth

    kept = [(ch, styles[lead + j]) for j, ch in enumerate(core) if not _CONTROLS.match(ch)]
    plain = "".join(ch for ch, _ in kept)
    # each Latin run (names, amounts, `3:S`) embedded left to right, between right-to-left marks
    marked: list[tuple[str, str]] = []
    at = 0
    for m in _LTR_RUN.finditer(plain):
        for start, end in _balanced(plain, m.start(), m.end()):
            marked += kept[at:start]
            first, last = kept[start][1], kept[end - 1][1]
            marked += [(_RLM, first), (_LRE, first), *kept[start:end], (_PDF, last), (_RLM, last)]
            at = end
    marked += kept[at:]
    # shaped a style's run at a time (a ligature makes one character of two)
    shaped: list[tuple[str, str]] = []
    j = 0
    while j < len(marked):
        k = j
        while k < len(marked) and marked[k][1] == marked[j][1]:
            k += 1
        shaped += [(ch, marked[j][1]) for ch in reshape("".join(ch for ch, _ in marked[j:k]))]
        j = k
    storage = algorithm.get_empty_storage()
    storage["base_level"], storage["base_dir"] = 1, "R"
    algorithm.get_embedding_levels("".join(ch for ch, _ in shaped), storage)
    for entry, (_ch, style) in zip(storage["chars"], shaped):
        entry["style"] = style
    algorithm.explicit_embed_and_overrides(storage, False)
    algorithm.resolve_weak_types(storage, False)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    algorithm.reorder_resolved_levels(storage, False)
    algorithm.apply_mirroring(storage, False)
    shown = tuple(
        (entry["style"], entry["ch"])
        for entry in storage["chars"]
        if entry["ch"] != _ZWNJ and not _CONTROLS.match(entry["ch"])
    )
    # joined letters (lam-alef) take fewer cells: pad, so that what follows keeps its column
    missing = get_cwidth(core) - sum(get_cwidth(ch) for _, ch in shown)
    pad = tuple((shown[-1][0] if shown else styles[0], " ") for _ in range(max(0, missing)))
    return head + pad + shown + tail
