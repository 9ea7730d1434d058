"""The help overlay: every key of the table (or of the lobby), how to read the screen, and
how friends join."""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cards import ARTISTS

from modernart.cli.tui.keys import Command, Modes, Pred
from modernart.cli.tui.panels import ARTIST_STYLE
from modernart.cli.tui.screens.lobby import LOBBY_HELP, join_lines
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit, wrap
from modernart.cli.tui.widgets import overlay

WIDTH = 78

HELP = [
    ("Selling", "<- -> or 1-9, 0 choose a painting; Enter puts it up"),
    ("Double", "Enter adds the chosen card of the same artist; p passes"),
    ("Amounts", "type digits, Up/Down +-1, Backspace; Enter sends"),
    ("Open", "bid any time: + bids high+1, f +5, t +10; p passes; h sells (auctioneer)"),
    ("Once-around", "each player once, auctioneer last: bid or p"),
    ("Sealed", "type your bid (hidden, 0 = none) and Enter"),
    ("Fixed price", "auctioneer types a price; others a accept, p decline"),
    ("Table", "c chat, PgUp/PgDn scroll the log, s last scoring, v scores so far, ? help"),
    ("Leave", "q or Ctrl-C (asks first)"),
    ("Reading", "* = you, > = must act, ? = hidden money, letters:"),
    ("", "O Open, 1 Once-around, S Sealed, F Fixed price, D Double"),
]


def help_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    lines: list[Line] = []
    lobby = cs.session.lobby if cs.session is not None else None
    in_lobby = cs.screen() == "lobby"
    if not in_lobby and cs.obs is not None and cs.obs.seat < 0:  # the keys below are for players
        lines.append([("class:title", " You are watching:"), ("", " every seat is taken.")])
        lines.append([("", " You see what every player sees, and cannot play.")])
    for head, text in LOBBY_HELP if in_lobby else HELP:
        for i, chunk in enumerate(wrap(text, max(10, width - 15))):
            lines.append([("class:title", fit(f" {head}" if i == 0 else "", 14)), ("", " " + chunk)])
    if not in_lobby:
        ed = cs.edition
        artists: Line = [("", " Artists: ")]
        for a in ARTISTS:
            artists += [(ARTIST_STYLE[a], ed.initials[a]), ("", f" {ed.artists[a]}  ")]
        lines.append(artists)
        lines.append([("class:dim", " The round ends with an artist's fifth painting (not sold).")])
        lines.append([("class:dim", " Top three artists pay 30/20/10 plus earlier tiles.")])
    intro, join = join_lines(lobby, width)
    lines += [[("class:dim", t)] for t in intro] + [[("", t)] for t in join]
    lines.append([("class:dim", " Esc or ? closes this help")])
    return lines


def commands(modes: Modes) -> list[Command]:
    """`?` opens the help where there is one; Esc, `?`, Enter or `q` close it."""
    finder = modes.free("finder")
    return [
        Command(
            ("?", "f1"), "?", "help", lambda: modes.talk() or finder(), modes.set_overlay("help"), modes.always, 70
        ),
        Command(
            ("escape", "?", "enter", "q", "f1"),
            "Esc",
            "close help",
            modes.overlay("help"),
            modes.set_overlay(None),
            modes.always,
            1,
        ),
    ]


def floating(cs: ClientState, shown: Pred) -> Float:
    """The help overlay, floating over the screen while `shown()`."""
    return overlay(cs, shown, "Help", help_panel, WIDTH)
