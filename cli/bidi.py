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

Text is reordered piece by piece (a panel's cell, a sentence), never a whole screen line:
the layout itself stays left to right, so a table's columns stay under their headers.

>>> from modernart.cli.i18n import use_language
>>> use_language("fa"); use_bidi("client")
>>> visual("کارت 3:S")
'3:S ﺕﺭﺎﮐ'
>>> visual(visual("کارت 3:S")) == visual("کارت 3:S")
True
>>> use_bidi("terminal"); visual("کارت 3:S")
'کارت 3:S'
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from functools import lru_cache
from typing import Iterator

from modernart.cli.i18n import is_right_to_left

#: The `--bidi` choices.
BIDI_MODES: tuple[str, ...] = ("client", "terminal")
#: Sent at start in client mode: BiDi-aware terminals (VTE) stop reordering ("explicit mode").
EXPLICIT_MODE_ON = "\x1b[8l"
#: Sent when leaving: the terminal's own reordering back on ("implicit mode").
EXPLICIT_MODE_OFF = "\x1b[8h"

_process_mode = "client"
_mode: ContextVar[str | None] = ContextVar("modernart_bidi", default=None)

# Letters written right to left, in logical order: Hebrew and Arabic (Persian included), not
# their presentation forms, which only shaped text (`visual`'s result) holds: so `visual` of
# its own result changes nothing, and a piece drawn twice is reordered once.  Letters only: the
# Arabic comma and semicolon (، ؛) are not shaped, so a shaped text still holds them.
# (Translations write numbers in Latin digits, which read the same in both directions.)
_RTL = re.compile("[\u05d0-\u05ea\u0620-\u064a\u066e\u066f\u0671-\u06d3\u06d5\u06ee\u06ef\u06fa-\u06fc\u06ff]")
# A run of Latin words and numbers ("Ana 30", "[3:S]", "L Y", "2/4", "$100", "+:+1"): kept
# left to right inside a right-to-left line.
_TOKEN = r"[\[(]?[0-9A-Za-z$+<>?*][0-9A-Za-z:+\-./%$<>?*#]*[\])]?"
_LTR_RUN = re.compile(rf"{_TOKEN}(?: {_TOKEN})*")
# Where a line's pieces meet: columns (two spaces or more), the status line's " | ", and
# borders.  Each piece is reordered on its own, so columns stay in their places.
_SEPARATOR = re.compile(r"( {2,}| \| |[─│┌┐└┘]+|[-+|]{2,})")
# Zero-width direction marks and isolates: some terminals draw them as boxes; the display
# order already holds what they said.
_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The zero-width non-joiner keeps letters apart before shaping; shaped, they are apart already.
_ZWNJ = "\u200c"
# Left-to-right embedding around each Latin run (the algorithm module knows embeddings, not
# isolates); taken out again with the other controls.
_LRE, _PDF = "\u202a", "\u202c"


def set_bidi(mode: str) -> None:
    """This process's mode (for every context that did not `use_bidi`)."""
    global _process_mode
    _process_mode = _checked(mode)


def use_bidi(mode: str) -> None:
    """The mode of the current context (an SSH guest's client)."""
    _mode.set(_checked(mode))


@contextlib.contextmanager
def reordering(mode: str | None) -> Iterator[None]:
    """Within the block, this context's mode is `mode` (None: as it was); restored after."""
    if mode is None:
        yield
        return
    token = _mode.set(_checked(mode))
    try:
        yield
    finally:
        _mode.reset(token)


def bidi_mode() -> str:
    return _mode.get() or _process_mode


def reorders_here() -> bool:
    """Whether this client reorders right-to-left text itself (its language is written
    right to left and the mode is ``client``)."""
    return bidi_mode() == "client" and is_right_to_left()


def _checked(mode: str) -> str:
    if mode not in BIDI_MODES:
        raise ValueError(f"unknown BiDi mode {mode!r}; choose from {', '.join(BIDI_MODES)}")
    return mode


def visual(text: str) -> str:
    """`text` as this client draws it: in client mode, each piece of it holding right-to-left
    letters (pieces meet at columns, " | " and borders) is shaped and put in display order,
    as a right-to-left paragraph; otherwise `text` unchanged.  The result takes exactly as
    many cells as `text`, and `visual` of it is itself."""
    if not _RTL.search(text) or not reorders_here():
        return text
    pieces = _SEPARATOR.split(text)
    return "".join(piece if i % 2 else _visual_piece(piece) for i, piece in enumerate(pieces))


@lru_cache(maxsize=8192)  # a screen redraws the same pieces many times a second
def _visual_piece(piece: str) -> str:
    core = piece.strip(" ")
    if not _RTL.search(core):
        return piece
    from arabic_reshaper import reshape  # imported only where Persian is drawn
    from bidi.algorithm import get_display  # python-bidi's own algorithm: it mirrors brackets
    from prompt_toolkit.utils import get_cwidth

    lead = piece[: len(piece) - len(piece.lstrip(" "))]
    trail = piece[len(piece.rstrip(" ")) :]
    embedded = _LTR_RUN.sub(lambda m: _LRE + m.group(0) + _PDF, _CONTROLS.sub("", core))
    shown = _CONTROLS.sub("", get_display(reshape(embedded), base_dir="R")).replace(_ZWNJ, "")
    # joined letters (lam-alef) take fewer cells: pad, so that what follows keeps its column
    return lead + shown + " " * max(0, get_cwidth(core) - get_cwidth(shown)) + trail
