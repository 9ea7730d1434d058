"""The help overlay: every key of the table (or of the lobby), how to read the screen, and
how friends join."""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cards import ARTISTS

from modernart.cli.i18n import N_, _
from modernart.cli.tui.keys import Command, Modes, Pred
from modernart.cli.tui.panels import ARTIST_STYLE
from modernart.cli.tui.screens.lobby import LOBBY_HELP, LOCAL_ONLY, join_lines
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit, wrap
from modernart.cli.tui.widgets import overlay

WIDTH = 78

HELP = [
    (N_("Selling"), N_("<- -> or 1-9, 0 choose a painting; Enter puts it up")),
    (N_("Double"), N_("Enter adds the chosen card of the same artist; p passes")),
    (N_("Amounts"), N_("type digits, Up/Down +-1, Backspace; Enter sends")),
    (N_("Open"), N_("bid any time: + bids high+1, f +5, t +10; p passes; o stays out; h sells (auctioneer)")),
    (N_("Once-around"), N_("each player once, auctioneer last: bid or p")),
    (N_("Sealed"), N_("type your bid (hidden, 0 = none) and Enter; b shows or hides it")),
    (N_("Fixed price"), N_("auctioneer types a price; others a accept, p decline")),
    (N_("Table"), N_("c chat, PgUp/PgDn scroll the log, s last scoring, v scores so far, r rules, ? help")),
    (N_("Leave"), N_("q or Ctrl-C (asks first)")),
    (N_("Reading"), N_("* = you, > = must act, ? = hidden money, letters:")),
    ("", N_("O Open, 1 Once-around, S Sealed, F Fixed price, D Double")),
]


def help_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    lines: list[Line] = []
    lobby = cs.session.lobby if cs.session is not None else None
    in_lobby = cs.screen() == "lobby"
    if not in_lobby and cs.obs is not None and cs.obs.seat < 0:  # the keys below are for players
        lines.append([("class:title", " " + _("You are watching:")), ("", " " + _("every seat is taken."))])
        lines.append([("", " " + _("You see what every player sees, and cannot play."))])
    for head, text in LOBBY_HELP if in_lobby else HELP:
        for i, chunk in enumerate(wrap(_(text), max(10, width - 15))):
            lines.append([("class:title", fit(f" {_(head)}" if i == 0 and head else "", 14)), ("", " " + chunk)])
    if not in_lobby:
        ed = cs.edition
        artists: Line = [("", " " + _("Artists:") + " ")]
        for a in ARTISTS:
            artists += [(ARTIST_STYLE[a], ed.initials[a]), ("", f" {ed.artists[a]}  ")]
        lines.append(artists)
        lines.append([("class:dim", " " + _("The round ends with an artist's fifth painting (not sold)."))])
        lines.append([("class:dim", " " + _("Top three artists pay 30/20/10 plus earlier tiles."))])
    intro: list[str]
    join: list[str]
    if cs.session is not None and cs.session.local_only:  # nobody can join a table of this machine only
        intro, join = [" " + chunk for chunk in wrap(_(LOCAL_ONLY), max(10, width - 1))], []
    else:
        intro, join = join_lines(lobby, width)
    lines += [[("class:dim", t)] for t in intro] + [[("", t)] for t in join]
    lines.append([("class:dim", " " + _("Esc or ? closes this help"))])
    return lines


def commands(modes: Modes) -> list[Command]:
    """`?` opens the help where there is one; Esc, `?`, Enter or `q` close it."""
    finder = modes.free("finder")
    return [
        Command(
            ("?", "f1"), "?", _("help"), lambda: modes.talk() or finder(), modes.set_overlay("help"), modes.always, 70
        ),
        Command(
            ("escape", "?", "enter", "q", "f1"),
            "Esc",
            _("close help"),
            modes.overlay("help"),
            modes.set_overlay(None),
            modes.always,
            1,
        ),
    ]


def floating(cs: ClientState, shown: Pred) -> Float:
    """The help overlay, floating over the screen while `shown()`."""
    return overlay(cs, shown, _("Help"), help_panel, WIDTH)
