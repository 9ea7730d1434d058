"""The lobby: seats (people, bots, who is ready), the rule options and clocks the host
sets, how friends join, and the keys that change them.  The lobby view comes from the
session (`LobbyView`); the cursor is `ClientState.lobby_cursor`."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, TypeVar, cast

from prompt_toolkit.layout import AnyContainer, HSplit, VSplit

from modernart.cards import DECK_TABLES, EDITIONS
from modernart.rules import RuleOptions

from modernart.cli.i18n import N_, _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.net.clocks import ClockSettings

from modernart.cli.tui.session import LobbyView
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut, fit, wrap
from modernart.cli.tui.text import width as cell_width
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
    "edition": N_("Artist names"),
    "deck": N_("Card table"),
    "start_money": N_("Start money"),
    "double_split": N_("Double split"),
    "open_pass_is_final": N_("Open pass final"),
    "three_player_first_deal": N_("3p first deal"),
    "sealed_offender_fine": N_("Sealed fine"),
}
#: Clock rows: fields of the host's `ClockSettings` (seconds; a decision clock of 0 is none)
CLOCK_CHOICES: dict[str, tuple[Any, ...]] = {
    "open_countdown": (5.0, 8.0, 10.0, 15.0, 20.0, 30.0),
    "decision": (0.0, 30.0, 60.0, 120.0),
    "grace": (0.0, 15.0, 30.0, 60.0, 120.0, 300.0),
    "hammer_call": (0.0, 2.0, 3.0, 5.0, 8.0),
}
CLOCK_LABELS = {
    "open_countdown": N_("Open countdown"),
    "decision": N_("Decision clock"),
    "grace": N_("Stand-in after"),
    "hammer_call": N_("Hammer call"),
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
        return _("none")
    if isinstance(value, bool):
        return _("on") if value else _("off")
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
    return _("none") if seconds == 0 and name in CLOCKS_OFF_AT_ZERO else value_text(seconds, seconds=True)


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
            text, kind, ready = _("(empty)"), "", ""
        else:
            suffix = " " + _("(you)") if mine else ""
            text = cut(info.name, name_w - 1 - cell_width(suffix)) + suffix
            kind = _("bot {level}").format(level=_(info.bot_level)) if info.kind == "bot" else _("person")
            ready = _("READY") if info.ready or info.kind == "bot" else _("not ready")
            if not info.connected:
                ready = _("away")
        style = "class:selected" if arrow == ">" else ("class:you" if mine else "")
        lines.append(
            [
                (style, f"{arrow}{info.seat + 1} " + fit(text, name_w) + fit(kind, 12)),
                ("class:good" if ready == _("READY") else "class:dim", " " + ready),
            ]
        )
    taken = len(lobby.filled)
    lines.append([])
    lines.append(
        [
            (
                "class:dim",
                " "
                + _("{taken} of {seats} seats taken; a game needs 3-5.").format(taken=taken, seats=len(lobby.seats)),
            )
        ]
    )
    if lobby.can_start:
        ready_words = _("Everyone is ready. Press s to start.") if lobby.admin else _("Everyone is ready.")
        lines.append([("class:good", " " + ready_words)])
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
        label = _(OPTION_LABELS.get(field_name) or CLOCK_LABELS[field_name])
        value = getattr(lobby.options if kind == "option" else lobby.clocks, field_name)
        arrow = ">" if cursor == (kind, name) else " "
        style = "class:selected" if arrow == ">" else ""
        shown = clock_text(field_name, value) if kind == "clock" else value_text(value)
        lines.append([(style, f"{arrow}{fit(label, 16)}" + fit(shown, max(4, width - 17)))])
    if not lobby.admin:
        lines.append([("class:dim", " " + _("Only the host changes these."))])
    return lines


def lobby_header(cs: ClientState, width: int) -> Line:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return [("class:status", " " + _("MODERN ART - lobby"))]
    name = lobby.table_name
    if name.strip().lower() == "modern art":  # not twice
        text = " " + _("MODERN ART")
    else:
        text = " " + _("MODERN ART - {table}").format(table=name)
    if lobby.join_code:
        text += " | " + _("join code {code}").format(code=lobby.join_code)
    return ([("class:error", f" {cs.notice} ")] if cs.notice else []) + [("class:status", text)]


def join_lines(lobby: LobbyView | None, width: int) -> tuple[list[str], list[str]]:
    """How friends join, then the join string whole: on a line of its own (cut into pieces
    only when the terminal is narrower than the string), so that it can be read and copied;
    then the host's other addresses' join strings (another interface, a VPN), the same way."""
    if lobby is None or not lobby.join_string or lobby.join_string.startswith("("):  # "(this machine)"
        return [], []
    by_string = lobby.join_string.startswith("ma://")
    if lobby.join_code:
        if by_string and lobby.other_joins:
            words = _("Friends join with the code {code}: modernart join followed by (the one of their network)")
        elif by_string:
            words = _("Friends join with the code {code}: modernart join followed by")
        else:
            words = _("Friends join with the code {code}:")
    elif by_string and lobby.other_joins:
        words = _("Friends join: modernart join followed by (the one of their network)")
    else:
        words = _("Friends join: modernart join followed by") if by_string else _("Friends join:")
    intro = [" " + chunk for chunk in wrap(words.format(code=lobby.join_code), max(10, width - 1))]
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


#: Bot levels, for the catalog: the lobby names a seat's bot "bot medium" in the client's language.
BOT_LEVEL_WORDS = (N_("random"), N_("medium"), N_("hard"))

LOBBY_HELP = [
    (N_("Move"), N_("Up/Down choose a seat, a rule or a clock")),
    (N_("Seat"), N_("Enter on an empty seat takes it; on yours, ready or not")),
    (N_("Ready"), N_("r: ready (or not); the game starts when everyone is")),
    (
        N_("Host"),
        N_("b seats a bot (again: next level), x removes it, <- -> change a rule or clock, s starts the game"),
    ),
    (N_("Talk"), N_("c chat, ? help")),
    (N_("Leave"), N_("q or Ctrl-C (asks first)")),
]


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    return HSplit(
        [
            one_line(lobby_header, cs, style="class:status"),
            window(lambda w, h: lobby_join(cs, w, h), height=lambda: len(lobby_join(cs, size()[0], 0))),
            VSplit(
                [
                    window(boxed(cs, _("Seats"), lobby_seats), height=12),
                    window(boxed(cs, _("Rules and clocks"), lobby_rules), height=12),
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

    def admin(starting: bool = False) -> bool:
        view = cs.session.lobby if cs.session is not None else None
        if view is None or not view.admin:
            cs.error(_("Only the host starts the game") if starting else _("Only the host changes the table"))
            return False
        return True

    def change(step: int):
        def run(event) -> None:
            current = row()
            if current is None or current[0] == "seat":
                cs.say(_("Left/Right change the rules and clocks (below the seats)"))
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
            cs.error(_("Seat {seat} is taken by {player}").format(seat=slot + 1, player=info.name))

    def ready(event) -> None:
        assert cs.session is not None and cs.session.lobby is not None  # the lobby is shown
        info = next((s for s in cs.session.lobby.seats if s.seat == cs.session.seat), None)
        if info is None:
            cs.error(_("Take a seat first (Up/Down, Enter on an empty seat)"))
            return
        controls.spawn(cs.session.set_ready(not info.ready))

    def bot(event) -> None:
        current = row()
        if current is None or current[0] != "seat":
            cs.error(_("Move to a seat (Up/Down) to seat a bot there"))
            return
        if not admin():
            return
        assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
        view = cs.session.lobby
        info = view.seats[current[1]]
        if info.kind == "human":
            cs.error(_("Seat {seat} is taken by {player}").format(seat=info.seat + 1, player=info.name))
            return
        levels = view.bot_levels or ("random",)
        level = levels[(levels.index(info.bot_level) + 1) % len(levels)] if info.bot_level in levels else levels[0]
        controls.spawn(cs.session.add_bot(info.seat, level))

    def unbot(event) -> None:
        current = row()
        view = cs.session.lobby if cs.session is not None else None  # not None when a row is shown
        if current is None or current[0] != "seat" or view is None or view.seats[current[1]].kind != "bot":
            cs.error(_("Move to a bot's seat to remove it"))
            return
        if admin():
            assert cs.session is not None  # admin() saw it
            controls.spawn(cs.session.remove_bot(current[1]))

    def start(event) -> None:
        if admin(starting=True):
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            view = cs.session.lobby
            if not view.can_start:
                waiting = [s.name for s in view.filled if s.kind == "human" and not s.ready]
                cs.error(
                    _("Waiting for {players} to be ready").format(players=_(", ").join(waiting))
                    if waiting
                    else _("A game needs 3 to 5 seats taken")
                )
                return
            controls.spawn(cs.session.start())

    is_admin = lambda: bool(cs.session and cs.session.lobby and cs.session.lobby.admin)  # noqa: E731
    return [
        Command(("up",), "Up/Dn", _("move"), lobby, move(-1), lambda: True, 10),
        Command(("down",), "", "", lobby, move(1)),
        Command(("enter", " "), "Enter", _("choose"), lobby, seat_action, lambda: True, 11),
        Command(("left",), "<- ->", _("change"), lobby, change(-1), lambda: bool(row()) and row()[0] != "seat", 12),
        Command(("right",), "", "", lobby, change(1)),
        Command(("r",), "r", _("ready"), lobby, ready, lambda: True, 13),
        Command(("b",), "b", _("bot"), lobby, bot, is_admin, 14),
        Command(("x",), "x", _("no bot"), lobby, unbot, is_admin, 15),
        Command(("s",), "s", _("start"), lobby, start, is_admin, 16),
    ]
