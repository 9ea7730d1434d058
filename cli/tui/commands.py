"""Every key of the client, by mode: table, lobby, game over, join screen, overlays, chat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from modernart.cli.tui.keys import Command, table_predicates
from modernart.cli.tui.screens import lobby_rows, next_clocks, next_options

if TYPE_CHECKING:
    from modernart.cli.tui.app import ClientApp


def build_commands(client: "ClientApp") -> list[Command]:
    cs = client.cs
    acts = client.actions
    p = table_predicates(cs)

    def free(screen: str):
        """Active on `screen` when no overlay, chat or text entry has the keys."""
        return lambda: (
            client.current() == screen and cs.overlay is None and not cs.chat_open and cs.finder_input is None
        )

    table, lobby, over, finder = free("table"), free("lobby"), free("over"), free("finder")
    talk = lambda: client.current() in ("table", "lobby", "over") and cs.overlay is None and not cs.chat_open  # noqa: E731
    always = lambda: True  # noqa: E731

    def overlay(name: str):
        return lambda: cs.overlay == name and client.current() != "small"

    def set_overlay(name: str | None):
        def run(event) -> None:
            cs.overlay = name

        return run

    def scoring(event) -> None:
        obs = cs.obs
        if obs is None or not obs.results:
            cs.error("No round has been scored yet")
            return
        cs.open_scoring(len(obs.results) - 1, asked=True)

    def scroll(pages: int):
        def run(event) -> None:
            cs.log_scroll = max(0, cs.log_scroll + pages * cs.log_page)

        return run

    def up_down(step: int):
        def run(event) -> None:
            if cs.digits_mean_amount():
                acts.adjust(-step)
            else:
                acts.select(step)

        return run

    cmds = [
        # -------------------------------------------------------------- the table
        Command(("left",), "<- ->", "choose", table, lambda e: acts.select(-1), p["choosing_card"], 10),
        Command(("right",), "", "", table, lambda e: acts.select(1)),
        Command(("up",), "Up/Dn", "+-1", table, up_down(-1), p["amount_open"], 12),
        Command(("down",), "", "", table, up_down(1)),
        Command(
            ("enter",),
            "Enter",
            p["enter_label"],
            table,
            lambda e: acts.primary(),
            lambda: p["choosing_card"]() or p["amount_open"](),
            20,
        ),
        Command(("backspace",), "", "", table, lambda e: acts.backspace()),
        Command(("0",), "0-9", "amount", table, lambda e: acts.digit("0"), p["amount_open"], 11),
        *[Command((d,), "", "", table, (lambda d: lambda e: acts.digit(d))(d)) for d in "123456789"],
        Command(("p",), "p", p["pass_label"], table, lambda e: acts.pass_(), p["can_pass"], 22),
        Command(("a",), "a", "accept", table, lambda e: acts.accept(), p["can_accept"], 21),
        Command(("h",), "h", "sell now", table, lambda e: acts.hammer(), p["can_hammer"], 23),
        Command(("+",), "+ f t", "raise 1/5/10", table, lambda e: acts.quick_raise(1), p["can_raise"], 15),
        Command(("=",), "", "", table, lambda e: acts.quick_raise(1)),
        Command(("f",), "", "", table, lambda e: acts.quick_raise(5)),
        Command(("t",), "", "", table, lambda e: acts.quick_raise(10)),
        Command(("pageup",), "PgUp", "log", lambda: table() or over(), scroll(1)),
        Command(("pagedown",), "", "", lambda: table() or over(), scroll(-1)),
        Command(
            ("s",),
            "s",
            "scoring",
            lambda: table() or over(),
            scoring,
            lambda: client.current() == "over" and bool(cs.obs and cs.obs.results),
            40,
        ),
        Command(
            ("c",),
            "c",
            "chat",
            talk,
            lambda e: client.open_chat(),
            lambda: not (p["may_act"]() and client.current() == "table"),
            60,
        ),
        Command(("?", "f1"), "?", "help", lambda: talk() or finder(), set_overlay("help"), always, 70),
        Command(("q", "c-c"), "q", "leave", lambda: table() or lobby(), set_overlay("quit"), always, 80),
        Command(
            ("q", "c-c"),
            "q",
            "quit",
            lambda: over() or finder() or client.current() in ("connecting", "gone"),
            lambda e: client.exit(),
            always,
            80,
        ),
        Command(("q", "c-c"), "q", "quit", lambda: client.current() == "small", lambda e: client.exit(), always, 80),
        Command(("c-l",), "", "", always, lambda e: e.app.renderer.clear()),
        Command(("<any>",), "", "", lambda: table() or lobby() or over(), client.stray_key),
        # -------------------------------------------------------------- overlays
        Command(
            ("enter", "escape", " "), "Enter", "back to the table", overlay("scoring"), set_overlay(None), always, 1
        ),
        Command(("s",), "", "", overlay("scoring"), set_overlay(None)),
        Command(
            ("escape", "?", "enter", "q", "f1"), "Esc", "close help", overlay("help"), set_overlay(None), always, 1
        ),
        Command(("y",), "y", "leave", overlay("quit"), lambda e: client.exit(), always, 1),
        Command(("n", "escape"), "n", "stay", overlay("quit"), set_overlay(None), always, 2),
        Command(("c-c",), "", "", lambda: cs.overlay is not None, lambda e: client.exit()),
        # -------------------------------------------------------------- chat line
        Command(("enter",), "Enter", "send", lambda: cs.chat_open, lambda e: client.send_chat(), always, 1),
        Command(("escape",), "Esc", "cancel", lambda: cs.chat_open, lambda e: client.close_chat(), always, 2),
        Command(("c-c",), "", "", lambda: cs.chat_open, lambda e: client.close_chat()),
    ]
    cmds += lobby_commands(client, lobby)
    cmds += finder_commands(client, finder)
    return cmds


def lobby_commands(client: "ClientApp", lobby) -> list[Command]:  # noqa: C901  (one small closure per lobby key)
    cs = client.cs

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
                client.spawn(cs.session.set_options(next_options(view.options, name, step)))
            else:
                client.spawn(cs.session.set_clocks(next_clocks(view.clocks, name, step)))

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
            client.spawn(cs.session.take_seat(slot))
        else:
            cs.error(f"Seat {slot + 1} is taken by {info.name}")

    def ready(event) -> None:
        assert cs.session is not None and cs.session.lobby is not None  # the lobby is shown
        info = next((s for s in cs.session.lobby.seats if s.seat == cs.session.seat), None)
        if info is None:
            cs.error("Take a seat first (Up/Down, Enter on an empty seat)")
            return
        client.spawn(cs.session.set_ready(not info.ready))

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
        client.spawn(cs.session.add_bot(info.seat, level))

    def unbot(event) -> None:
        current = row()
        view = cs.session.lobby if cs.session is not None else None  # not None when a row is shown
        if current is None or current[0] != "seat" or view is None or view.seats[current[1]].kind != "bot":
            cs.error("Move to a bot's seat to remove it")
            return
        if admin():
            assert cs.session is not None  # admin() saw it
            client.spawn(cs.session.remove_bot(current[1]))

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
            client.spawn(cs.session.start())

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


def finder_commands(client: "ClientApp", finder) -> list[Command]:
    cs = client.cs
    from modernart.cli.tui.join_screen import chosen_table

    def move(step: int):
        def run(event) -> None:
            tables = list(cs.finder.tables) if cs.finder is not None else []
            if tables:
                cs.finder_cursor = (cs.finder_cursor + step) % len(tables)

        return run

    def choose(event) -> None:
        ad = chosen_table(cs)
        if ad is None:
            cs.error("No table heard yet: press j to type a join string")
            return
        if ad.needs_code:
            cs.finder_choice = ad.join_string
            client.open_finder_input("code")
        else:
            client.connect(ad.join_string, "")

    def submit(event) -> None:
        text = client.layout.finder_buffer.text.strip()
        if not text:
            cs.error("Type something first, or Esc to go back")
            return
        mode = cs.finder_input
        client.close_finder_input()
        if mode == "join":
            client.connect(text, "")
        else:
            client.connect(cs.finder_choice, text)

    entry = lambda: cs.finder_input is not None and client.current() == "finder"  # noqa: E731
    return [
        Command(("up",), "Up/Dn", "choose", finder, move(-1), lambda: bool(cs.finder and cs.finder.tables), 10),
        Command(("down",), "", "", finder, move(1)),
        Command(("enter",), "Enter", "join", finder, choose, lambda: bool(cs.finder and cs.finder.tables), 11),
        Command(
            ("j",), "j", "type a join string", finder, lambda e: client.open_finder_input("join"), lambda: True, 12
        ),
        Command(("enter",), "Enter", "connect", entry, submit, lambda: True, 1),
        Command(("escape",), "Esc", "back", entry, lambda e: client.close_finder_input(), lambda: True, 2),
        Command(("c-c",), "", "", entry, lambda e: client.close_finder_input()),
    ]
