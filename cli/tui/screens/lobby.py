"""The lobby: seats (people, bots, who is ready), the rule options and clocks the host
sets, how friends join, and the keys that change them.  The lobby view comes from the
session (`LobbyView`); the cursor is `ClientState.lobby_cursor`."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, TypeVar, cast

from prompt_toolkit.layout import AnyContainer, HSplit, VSplit

from modernart.cards import DECK_TABLES, EDITIONS
from modernart.rules import RuleOptions

from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.net.clocks import ClockSettings

from modernart.cli.tui.session import LobbyView
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut, fit, wrap
from modernart.cli.tui.widgets import Parts, boxed, one_line, size, window
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
    "hammer_call": (0.0, 2.0, 3.0, 5.0, 8.0),
    "bot_pace": (0.0, 0.5, 1.0, 2.0),
}
CLOCK_LABELS = {
    "open_countdown": "Open countdown",
    "decision": "Decision clock",
    "grace": "Stand-in after",
    "hammer_call": "Hammer call",
    "bot_pace": "Bot pace",
}
#: Clocks whose 0 means "no limit" (the lobby says "none"); a grace of 0 means "at once"
CLOCKS_OFF_AT_ZERO = frozenset({"open_countdown", "decision", "hammer_call"})


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
    if name == "bot_pace":  # a factor of the bots' natural pauses, not seconds
        return "instant" if seconds == 0 else f"x{seconds:g}"
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
    only when the terminal is narrower than the string), so that it can be read and copied;
    then the host's other addresses' join strings (another interface, a VPN), the same way."""
    if lobby is None or not lobby.join_string or lobby.join_string.startswith("("):  # "(this machine)"
        return [], []
    code = f" with the code {lobby.join_code}" if lobby.join_code else ""
    how = " modernart join followed by" if lobby.join_string.startswith("ma://") else ""
    which = " (the one of their network)" if how and lobby.other_joins else ""
    intro = [" " + chunk for chunk in wrap(f"Friends join{code}:{how}{which}", max(10, width - 1))]
    lines: list[str] = []
    for text in (lobby.join_string, *lobby.other_joins):
        if len(text) <= width - 1:
            lines.append(" " + text)
        else:
            lines += [text[i : i + width] for i in range(0, len(text), max(1, width))]
    return intro, lines


def lobby_join(cs: ClientState, width: int, height: int) -> list[Line]:
    intro, join = join_lines(cs.session.lobby if cs.session is not None else None, width)
    return [[("class:dim", t)] for t in intro] + [[("class:title", t)] for t in join]


LOBBY_HELP = [
    ("Move", "Up/Down choose a seat, a rule or a clock"),
    ("Seat", "Enter on an empty seat takes it; on yours, ready or not"),
    ("Ready", "r: ready (or not); the game starts when everyone is"),
    ("Host", "b seats a bot (again: next level), x removes it, <- -> change a rule or clock, s starts the game"),
    ("Talk", "c chat, ? help"),
    ("Leave", "q or Ctrl-C (asks first)"),
]


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    return HSplit(
        [
            one_line(lobby_header, cs, style="class:status"),
            window(lambda w, h: lobby_join(cs, w, h), height=lambda: len(lobby_join(cs, size()[0], 0))),
            VSplit(
                [
                    window(boxed(cs, "Seats", lobby_seats), height=12),
                    window(boxed(cs, "Rules and clocks", lobby_rules), height=12),
                ]
            ),
            parts.log,
            *parts.footer,
        ]
    )


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:  # noqa: C901  (one small closure per lobby key)
    lobby = modes.free("lobby")

    def rows():
        view = cs.session.lobby if cs.session is not None else None
        return lobby_rows(view) if view is not None else []

    def row():
        r = rows()
        return r[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(r) else None

    def move(step: int):
        def run(event) -> None:
            n = len(rows())
            if n:
                cs.lobby_cursor = (cs.lobby_cursor + step) % n

        return run

    def admin(what: str = "changes the table") -> bool:
        view = cs.session.lobby if cs.session is not None else None
        if view is None or not view.admin:
            cs.error(f"Only the host {what}")
            return False
        return True

    def change(step: int):
        def run(event) -> None:
            current = row()
            if current is None or current[0] == "seat":
                cs.say("Left/Right change the rules and clocks (below the seats)")
                return
            if not admin():
                return
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            view = cs.session.lobby
            kind, name = current
            if kind == "option":
                controls.spawn(cs.session.set_options(next_options(view.options, name, step)))
            else:
                controls.spawn(cs.session.set_clocks(next_clocks(view.clocks, name, step)))

        return run

    def seat_action(event) -> None:
        current = row()
        if current is None or current[0] != "seat":
            change(1)(event)
            return
        slot = current[1]
        assert cs.session is not None and cs.session.lobby is not None  # a seat row is shown
        info = cs.session.lobby.seats[slot]
        if slot == cs.session.seat:
            ready(event)
        elif info.empty:
            controls.spawn(cs.session.take_seat(slot))
        else:
            cs.error(f"Seat {slot + 1} is taken by {info.name}")

    def ready(event) -> None:
        assert cs.session is not None and cs.session.lobby is not None  # the lobby is shown
        info = next((s for s in cs.session.lobby.seats if s.seat == cs.session.seat), None)
        if info is None:
            cs.error("Take a seat first (Up/Down, Enter on an empty seat)")
            return
        controls.spawn(cs.session.set_ready(not info.ready))

    def bot(event) -> None:
        current = row()
        if current is None or current[0] != "seat":
            cs.error("Move to a seat (Up/Down) to seat a bot there")
            return
        if not admin():
            return
        assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
        view = cs.session.lobby
        info = view.seats[current[1]]
        if info.kind == "human":
            cs.error(f"Seat {info.seat + 1} is taken by {info.name}")
            return
        levels = view.bot_levels or ("random",)
        level = levels[(levels.index(info.bot_level) + 1) % len(levels)] if info.bot_level in levels else levels[0]
        controls.spawn(cs.session.add_bot(info.seat, level))

    def unbot(event) -> None:
        current = row()
        view = cs.session.lobby if cs.session is not None else None  # not None when a row is shown
        if current is None or current[0] != "seat" or view is None or view.seats[current[1]].kind != "bot":
            cs.error("Move to a bot's seat to remove it")
            return
        if admin():
            assert cs.session is not None  # admin() saw it
            controls.spawn(cs.session.remove_bot(current[1]))

    def start(event) -> None:
        if admin("starts the game"):
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            view = cs.session.lobby
            if not view.can_start:
                waiting = [s.name for s in view.filled if s.kind == "human" and not s.ready]
                cs.error(
                    f"Waiting for {', '.join(waiting)} to be ready" if waiting else "A game needs 3 to 5 seats taken"
                )
                return
            controls.spawn(cs.session.start())

    is_admin = lambda: bool(cs.session and cs.session.lobby and cs.session.lobby.admin)  # noqa: E731
    return [
        Command(("up",), "Up/Dn", "move", lobby, move(-1), lambda: True, 10),
        Command(("down",), "", "", lobby, move(1)),
        Command(("enter", " "), "Enter", "choose", lobby, seat_action, lambda: True, 11),
        Command(("left",), "<- ->", "change", lobby, change(-1), lambda: bool(row()) and row()[0] != "seat", 12),
        Command(("right",), "", "", lobby, change(1)),
        Command(("r",), "r", "ready", lobby, ready, lambda: True, 13),
        Command(("b",), "b", "bot", lobby, bot, is_admin, 14),
        Command(("x",), "x", "no bot", lobby, unbot, is_admin, 15),
        Command(("s",), "s", "start", lobby, start, is_admin, 16),
    ]
