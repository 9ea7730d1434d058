"""Key bindings, grouped by mode, and the key-hint bar drawn from the same table.

Each `Command` names its keys, when it is active (a mode filter), when its hint is shown
(what makes sense right now) and what it does.  The hint bar lists the commands whose
hints apply, so it never offers a key that does nothing.  Every screen module
(cli/tui/screens/) lists its own commands; `Modes` holds the mode filters they share, and
`Controls` is all a key may ask of the running client (so that no screen imports the
application).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Coroutine, Protocol

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from modernart.cli.i18n import _
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, width

Pred = Callable[[], bool]


@dataclass(frozen=True)
class Command:
    keys: tuple[str, ...]
    shown: str  # the key as the hint bar writes it
    label: str | Callable[[], str]  # what it does, in a word or two
    when: Pred  # the mode in which the keys act
    run: Callable[[KeyPressEvent], None]
    hint: Pred | None = None  # when the hint is shown (default: never)
    order: int = 50  # position in the hint bar


class Controls(Protocol):
    """What keys may ask of the running client (`ClientApp` provides it): the screen shown,
    background session calls, leaving, and the text fields' focus."""

    def current(self) -> str: ...

    def spawn(self, coro: Coroutine) -> None: ...

    def exit(self) -> None: ...

    def stray_key(self, event: KeyPressEvent) -> None: ...

    def open_chat(self) -> None: ...

    def close_chat(self) -> None: ...

    def send_chat(self) -> None: ...

    def open_finder_input(self, mode: str) -> None: ...

    def close_finder_input(self) -> None: ...

    def finder_text(self) -> str: ...

    def connect(self, join_string: str, code: str) -> None: ...


class Modes:
    """The mode filters every screen's commands share."""

    def __init__(self, cs: ClientState, controls: Controls) -> None:
        self.cs = cs
        self.controls = controls

    def free(self, screen: str) -> Pred:
        """Active on `screen` when no overlay, chat or text entry has the keys."""
        cs, controls = self.cs, self.controls
        return lambda: (
            controls.current() == screen and cs.overlay is None and not cs.chat_open and cs.finder_input is None
        )

    def talk(self) -> bool:
        """Where chat and help are offered: the table, the lobby and the final result."""
        return (
            self.controls.current() in ("table", "lobby", "over") and self.cs.overlay is None and not self.cs.chat_open
        )

    def overlay(self, name: str) -> Pred:
        """Overlay `name`'s own keys: while it is up, unless your turn came meanwhile (then
        any key closes it: `turn_came_commands`)."""
        return lambda: self.cs.overlay == name and self.controls.current() != "small" and not self.cs.turn_came()

    def turn_came(self) -> bool:
        return self.controls.current() != "small" and not self.cs.chat_open and self.cs.turn_came()

    @staticmethod
    def always() -> bool:
        return True

    def set_overlay(self, name: str | None) -> Callable[[KeyPressEvent], None]:
        def run(event: KeyPressEvent) -> None:
            if name is not None and self.cs.message is not None and self.cs.message.kind == "error":
                self.cs.message = None  # an old error would stay under the dialog, and after it
            self.cs.overlay = name

        return run


def view_commands(modes: Modes, name: str, key: str) -> list[Command]:
    """The keys of overlay `name` that only shows something (the Scores view, a round's
    scoring): Enter, Esc or Space go back to the table, and so does `key`, which opened it."""
    shown = modes.overlay(name)
    close = modes.set_overlay(None)
    return [
        Command(("enter", "escape", " "), "Enter", _("back to the table"), shown, close, modes.always, 1),
        Command((key,), "", "", shown, close),
    ]


def turn_came_commands(modes: Modes) -> list[Command]:
    """Your decision came while an overlay was up: the next key, whichever it is, closes it
    and does nothing else (it was meant for the overlay, not for the table)."""
    close = modes.set_overlay(None)
    return [
        Command(("enter",), "Enter", _("back to the table"), modes.turn_came, close, modes.always, 1),
        Command(("<any>",), "", "", modes.turn_came, close),
        Command(("escape",), "", "", modes.turn_came, close),
    ]


def everywhere(modes: Modes, controls: Controls) -> list[Command]:
    """Ctrl-L redraws anywhere; a key with no meaning on the table, in the lobby or on the
    final result says so (a key of its own always wins over this catch-all)."""
    screens = [modes.free(screen) for screen in ("table", "lobby", "over")]
    stray = lambda: any(free() for free in screens)  # noqa: E731
    return [
        Command(("c-l",), "", "", modes.always, lambda e: e.app.renderer.clear()),
        Command(("<any>",), "", "", stray, controls.stray_key),
    ]


def bind(commands: list[Command]) -> KeyBindings:
    kb = KeyBindings()
    for cmd in commands:
        for key in cmd.keys:
            # Esc must not wait for a longer Meta- sequence of the text field's bindings
            kb.add(key, filter=Condition(cmd.when), eager=key == "escape")(_handler(cmd))
    return kb


def _handler(cmd: Command):
    def handle(event: KeyPressEvent) -> None:
        cmd.run(event)

    return handle


def hint_line(commands: list[Command], cs: ClientState, cells: int) -> Line:
    """The key-hint bar: hints of the commands that apply now, as many as fit."""
    shown = [c for c in commands if c.when() and c.hint is not None and c.hint()]
    shown.sort(key=lambda c: c.order)
    line: Line = []
    used = 0
    for cmd in shown:
        label = cmd.label() if callable(cmd.label) else cmd.label
        piece = [("class:hint.key", f" {cmd.shown}"), ("class:hint", f" {label} ")]
        need = width(cmd.shown) + width(label) + 3
        if used + need > cells:
            break
        line += piece
        used += need
    return line
