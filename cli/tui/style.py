"""Colours and attributes, and how many colours to use.

Colour only ever repeats what the text already says (artist initials, auction letters,
"YOUR TURN" in words), so `NO_COLOR` or a one-bit terminal loses nothing.  Colours are
ANSI names, which follow the user's palette and work at 16 colours; 256-colour terminals
get a brown for the fifth artist, as on the board.
"""

from __future__ import annotations

from typing import Mapping

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

#: Board colours of the five artists (docs/rules.md §1.1): yellow, green, red, blue, brown.
ARTIST_COLOURS_16 = ("ansiyellow", "ansigreen", "ansired", "ansiblue", "ansimagenta")
ARTIST_COLOURS_256 = ("ansiyellow", "ansigreen", "ansired", "ansiblue", "#af5f00")

_BASE = {
    "title": "bold",
    "frame": "",
    "frame.title": "bold",
    "status": "reverse",
    "status.turn": "reverse bold",
    "hint": "reverse",
    "hint.key": "reverse bold",
    "you": "bold",
    "turn": "bold underline",
    "selected": "reverse",
    "dim": "ansibrightblack",
    "error": "bold ansired",
    "info": "ansicyan",
    "good": "bold ansigreen",
    "countdown": "bold",
    "countdown.low": "bold ansired",
    "chat": "ansicyan",
    "chat.who": "bold ansicyan",
    "log.system": "ansibrightblack",
    "log.error": "ansired",
    "winner": "bold reverse",
    "overlay": "",
}


def make_style(depth: ColorDepth | None = None) -> Style:
    """The client's style for a colour depth (the fifth artist's colour differs)."""
    colours = ARTIST_COLOURS_16 if depth in (ColorDepth.DEPTH_1_BIT, ColorDepth.DEPTH_4_BIT) else ARTIST_COLOURS_256
    rules = dict(_BASE)
    for i, colour in enumerate(colours):
        rules[f"artist-{i}"] = f"{colour} bold"
    return Style.from_dict(rules)


_DEPTHS = {
    "none": ColorDepth.DEPTH_1_BIT,
    "16": ColorDepth.DEPTH_4_BIT,
    "256": ColorDepth.DEPTH_8_BIT,
    "truecolor": ColorDepth.DEPTH_24_BIT,
}
COLOR_CHOICES = ("auto",) + tuple(_DEPTHS)


def resolve_color_depth(choice: str, env: Mapping[str, str], term: str | None) -> ColorDepth | None:
    """How many colours to use: the user's choice, else `NO_COLOR`, else the terminal.

    `env` is the environment of the person at the keyboard (over SSH, the SSH client's
    environment, not this process's).  None means: ask the output (by `TERM`).
    """
    if choice != "auto":
        return _DEPTHS[choice]
    if env.get("NO_COLOR"):
        return ColorDepth.DEPTH_1_BIT
    forced = env.get("PROMPT_TOOLKIT_COLOR_DEPTH")
    if forced in {d.value for d in ColorDepth}:
        return ColorDepth(forced)
    if term in ("dumb", "unknown"):
        return ColorDepth.DEPTH_1_BIT
    if term in ("linux", "eterm-color", "vt100", "vt220", "xterm", "ansi", "screen"):
        return ColorDepth.DEPTH_4_BIT
    if env.get("COLORTERM") in ("truecolor", "24bit"):
        return ColorDepth.DEPTH_24_BIT
    return ColorDepth.DEPTH_8_BIT
