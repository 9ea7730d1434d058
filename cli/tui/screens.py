"""Screens other than the table: lobby, join (tables found), game over, and overlays
(round scoring, help, leave?), as text functions `(cs, width, height) -> lines`."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, TypeVar, cast

from modernart.cards import ARTISTS, DECK_TABLES, EDITIONS
from modernart.rules import RuleOptions
from modernart.scoring import RoundResult

from modernart.cli.tui.panels import ARTIST_STYLE, artist_label
from modernart.net.clocks import ClockSettings

from modernart.cli.tui.session import LobbyView
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut, fit, wrap

# ---------------------------------------------------------------------- lobby

#: Values the lobby offers for each rule option and clock, in order (Left/Right step through them).
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "edition": tuple(EDITIONS),
    "deck": tuple(DECK_TABLES),
    "start_money": (80, 100, 120, 150),
    "double_split": (False, True),
    "open_pass_is_final": (False, True),
    "three_player_first_deal": (10, 11),
    "sealed_offender_fine": (0, 5, 10, 20),
}
OPTION_LABELS = {
    "edition": "Artist names",
    "deck": "Card table",
    "start_money": "Start money",
    "double_split": "Double split",
    "open_pass_is_final": "Open pass final",
    "three_player_first_deal": "3p first deal",
    "sealed_offender_fine": "Sealed fine",
}
#: Clock rows: fields of the host's `ClockSettings` (seconds; a decision clock of 0 is none)
CLOCK_CHOICES: dict[str, tuple[Any, ...]] = {
    "open_countdown": (5.0, 8.0, 10.0, 15.0, 20.0, 30.0),
    "decision": (0.0, 30.0, 60.0, 120.0),
    "grace": (0.0, 15.0, 30.0, 60.0, 120.0, 300.0),
}
CLOCK_LABELS = {
    "open_countdown": "Open countdown",
    "decision": "Decision clock",
    "grace": "Stand-in after",
}
#: Clocks whose 0 means "no limit" (the lobby says "none"); a grace of 0 means "at once"
CLOCKS_OFF_AT_ZERO = frozenset({"open_countdown", "decision"})


def lobby_rows(lobby: LobbyView) -> list[tuple[str, object]]:
    """The rows the lobby cursor moves over: seats, then options, then clocks."""
    rows: list[tuple[str, object]] = [("seat", s.seat) for s in lobby.seats]
    rows += [("option", f.name) for f in fields(RuleOptions) if f.name in OPTION_CHOICES]
    rows += [("clock", name) for name in CLOCK_CHOICES]
    return rows


def value_text(value: object, seconds: bool = False) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if seconds and isinstance(value, (int, float)):
        return f"{value:g}s"
    return str(value)


T = TypeVar("T")


def cycled(choices: tuple[T, ...], current: object, step: int) -> T:
    index = choices.index(current) if current in choices else -1
    return choices[(index + step) % len(choices)]


def next_options(options: RuleOptions, name: str, step: int) -> RuleOptions:
    return replace(options, **{name: cycled(OPTION_CHOICES[name], getattr(options, name), step)})


def clock_text(name: str, seconds: float) -> str:
    """A clock's value as the lobby shows it ("none" for a limit that is off)."""
    return "none" if seconds == 0 and name in CLOCKS_OFF_AT_ZERO else value_text(seconds, seconds=True)


def next_clocks(clocks: ClockSettings, name: str, step: int) -> ClockSettings:
    return replace(clocks, **{name: cycled(CLOCK_CHOICES[name], getattr(clocks, name), step)})


def lobby_seats(cs: ClientState, width: int, height: int) -> list[Line]:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return []
    assert session is not None  # it holds the lobby
    rows = lobby_rows(lobby)
    cursor = rows[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(rows) else None
    lines: list[Line] = []
    # ">2 " name kind(12) " not ready"(10): the name column ends in at least one space
    name_w = max(8, width - 3 - 12 - 10)
    for info in lobby.seats:
        arrow = ">" if cursor == ("seat", info.seat) else " "
        mine = session.seat == info.seat
        if info.empty:
            text, kind, ready = "(empty)", "", ""
        else:
            suffix = " (you)" if mine else ""
            text = cut(info.name, name_w - 1 - len(suffix)) + suffix
            kind = f"bot {info.bot_level}" if info.kind == "bot" else "person"
            ready = "READY" if info.ready or info.kind == "bot" else "not ready"
            if not info.connected:
                ready = "away"
        style = "class:selected" if arrow == ">" else ("class:you" if mine else "")
        lines.append(
            [
                (style, f"{arrow}{info.seat + 1} " + fit(text, name_w) + fit(kind, 12)),
                ("class:good" if ready == "READY" else "class:dim", " " + ready),
            ]
        )
    taken = len(lobby.filled)
    lines.append([])
    lines.append([("class:dim", f" {taken} of {len(lobby.seats)} seats taken; a game needs 3-5.")])
    if lobby.can_start:
        lines.append([("class:good", " Everyone is ready." + (" Press s to start." if lobby.admin else ""))])
    return lines


def lobby_rules(cs: ClientState, width: int, height: int) -> list[Line]:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return []
    rows = lobby_rows(lobby)
    cursor = rows[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(rows) else None
    lines: list[Line] = []
    for kind, name in rows:
        if kind == "seat":
            continue
        field_name = cast(str, name)  # option and clock rows name a field
        label = OPTION_LABELS.get(field_name) or CLOCK_LABELS[field_name]
        value = getattr(lobby.options if kind == "option" else lobby.clocks, field_name)
        arrow = ">" if cursor == (kind, name) else " "
        style = "class:selected" if arrow == ">" else ""
        shown = clock_text(field_name, value) if kind == "clock" else value_text(value)
        lines.append([(style, f"{arrow}{fit(label, 16)}" + fit(shown, max(4, width - 17)))])
    if not lobby.admin:
        lines.append([("class:dim", " Only the host changes these.")])
    return lines


def lobby_header(cs: ClientState, width: int) -> Line:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return [("class:status", " MODERN ART - lobby")]
    name = lobby.table_name
    text = " MODERN ART" if name.strip().lower() == "modern art" else f" MODERN ART - {name}"  # not twice
    if lobby.join_code:
        text += f" | join code {lobby.join_code}"
    return ([("class:error", f" {cs.notice} ")] if cs.notice else []) + [("class:status", text)]


def join_lines(lobby: LobbyView | None, width: int) -> tuple[list[str], list[str]]:
    """How friends join, then the join string whole: on a line of its own (cut into pieces
    only when the terminal is narrower than the string), so that it can be read and copied."""
    if lobby is None or not lobby.join_string or lobby.join_string.startswith("("):  # "(this machine)"
        return [], []
    code = f" with the code {lobby.join_code}" if lobby.join_code else ""
    how = " modernart join followed by" if lobby.join_string.startswith("ma://") else ""
    intro = [" " + chunk for chunk in wrap(f"Friends join{code}:{how}", max(10, width - 1))]
    text = lobby.join_string
    if len(text) <= width - 1:
        return intro, [" " + text]
    return intro, [text[i : i + width] for i in range(0, len(text), max(1, width))]


def lobby_join(cs: ClientState, width: int, height: int) -> list[Line]:
    intro, join = join_lines(cs.session.lobby if cs.session is not None else None, width)
    return [[("class:dim", t)] for t in intro] + [[("class:title", t)] for t in join]


# ---------------------------------------------------------------------- round scoring


def scoring_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None or not 0 <= cs.scoring_round < len(obs.results):
        return [[("", " No round has been scored yet.")]]
    result: RoundResult = obs.results[cs.scoring_round]
    ed = cs.edition
    if result.ended_by == "fifth" and result.ending_cards:
        artist = ed.artists[result.ending_cards[-1].artist]
        how = f" Ended by the fifth {artist}, played by {cs.name(result.ender)}."
    else:
        how = " Ended: every hand was empty."
    lines: list[Line] = [[("", how)], [("class:dim", "   Artist        Paintings Place  Tile Value")]]
    places = {a: i for i, a in enumerate(result.ranking)}
    for a in sorted(ARTISTS, key=lambda a: (places.get(a, 9), a)):
        place = ("1st", "2nd", "3rd")[places[a]] if a in places else "-"
        tile = str(result.tiles[a]) if result.tiles[a] else "-"
        line = [("", " ")] + artist_label(cs, a, 14)
        line.append(
            (
                "",
                fit(str(result.counts[a]), 9, "right")
                + fit(place, 6, "right")
                + fit(tile, 6, "right")
                + fit(str(result.values[a]), 6, "right"),
            )
        )
        lines.append(line)
    lines.append([("class:dim", "   Player       Paintings bought      Payout")])
    for s, pay in enumerate(result.payouts):
        mark = "*" if s == obs.seat else " "
        line = [("class:you" if s == obs.seat else "", f" {mark} " + fit(cs.name(s), 13))]
        sold = [(a, result.sold[s][a]) for a in ARTISTS if result.sold[s][a]]
        used = 0
        for a, n in sold:
            line.append((ARTIST_STYLE[a], f"{ed.initials[a]}{n} "))
            used += len(f"{ed.initials[a]}{n} ")
        if not sold:
            line.append(("class:dim", "-"))
            used = 1
        line.append(("", " " * max(1, 17 - used)))
        line.append(("class:title", fit(f"+{pay}", 9, "right")))
        lines.append(line)
    lines.append([("class:dim", " Enter: back to the table   s: this again later")])
    return lines


# ---------------------------------------------------------------------- game over


def game_over_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    money = obs.final_money or tuple(0 for _ in range(obs.players))
    winners = set(obs.winners)
    names = [cs.name(s) for s in sorted(winners)]
    headline = ("Winner: " if len(names) == 1 else "Co-winners: ") + " and ".join(names)
    lines: list[Line] = [[("class:winner", f" GAME OVER. {headline} ")]]
    rounds_w = 6 * len(obs.results)
    # the round columns are the bank's payouts for paintings held; sales between players are
    # in the final money only: the headings say so
    lines.append([("class:dim", " " * 22 + fit("Bank paid for", rounds_w, "center"))])
    header = (
        "   Place  "
        + fit("Player", 12)
        + "".join(fit(f"R{r + 1}", 6, "right") for r in range(len(obs.results)))
        + fit("Final money", 14, "right")
    )
    lines.append([("class:dim", header)])
    order = sorted(range(obs.players), key=lambda s: (-money[s], s))
    for place, s in enumerate(order, start=1):
        mark = "*" if s == obs.seat else " "
        rounds = "".join(fit(f"+{r.payouts[s]}", 6, "right") for r in obs.results)
        line: Line = [
            (
                "class:you" if s == obs.seat else "",
                f" {mark} {place:>3}.  " + fit(cs.name(s), 12) + rounds + fit(str(money[s]), 14, "right"),
            )
        ]
        if s in winners:
            line.append(("class:winner", " WINNER"))
        lines.append(line)
    note = [("class:dim", " Final money also counts every sale between players.")]
    lines.append(note)
    path = cs.session.record_path if cs.session is not None else None
    host_copy = getattr(cs.session, "host_record_path", None)
    text = f"Record saved to {path}" if path else "The host saves the record of this game on its machine."
    if host_copy:
        text += f"; the host's copy: {host_copy}"
    for chunk in wrap(text, max(10, width - 2)):
        lines.append([("", " " + chunk)])
    if path:
        lines.append([("class:dim", " modernart replay FILE re-checks it and prints its result (JSON)")])
    if len(lines) > height:  # five players and two copies of the record: the note gives way
        lines.remove(note)
    return lines


# ---------------------------------------------------------------------- help and leave

HELP = [
    ("Selling", "<- -> or 1-9, 0 choose a painting; Enter puts it up"),
    ("Double", "Enter adds the chosen card of the same artist; p passes"),
    ("Amounts", "type digits, Up/Down +-1, Backspace; Enter sends"),
    ("Open", "bid any time: + bids high+1, f +5, t +10; p passes; h sells (auctioneer)"),
    ("Once-around", "each player once, auctioneer last: bid or p"),
    ("Sealed", "type your bid (hidden, 0 = none) and Enter"),
    ("Fixed price", "auctioneer types a price; others a accept, p decline"),
    ("Table", "c chat, PgUp/PgDn scroll the log, s last scoring, ? help"),
    ("Leave", "q or Ctrl-C (asks first)"),
    ("Reading", "* = you, > = must act, ? = hidden money, letters:"),
    ("", "O Open, 1 Once-around, S Sealed, F Fixed price, D Double"),
]


LOBBY_HELP = [
    ("Move", "Up/Down choose a seat, a rule or a clock"),
    ("Seat", "Enter on an empty seat takes it; on yours, ready or not"),
    ("Ready", "r: ready (or not); the game starts when everyone is"),
    ("Host", "b seats a bot (again: next level), x removes it, <- -> change a rule or clock, s starts the game"),
    ("Talk", "c chat, ? help"),
    ("Leave", "q or Ctrl-C (asks first)"),
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


def quit_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    playing = cs.obs is not None and not cs.obs.is_over
    lines: list[Line] = [[("class:title", " Leave the table?")]]
    if playing and cs.session is not None and cs.session.ends_when_you_leave:  # never None while playing
        lines.append([("", " This game runs on this machine:")])
        lines.append([("", " leaving ends it.")])
    elif playing:
        lines.append([("", " The game goes on; the host keeps your seat")])
        lines.append([("", " and a bot or the clock plays it until you return.")])
    lines.append([("", " y: leave   n or Esc: stay")])
    return lines
