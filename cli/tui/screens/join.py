"""The join screen: tables heard on the LAN, a join string typed or pasted, the join code.

Choosing a table found on the LAN asks for the join code shown on the host's screen
(so a look-alike table cannot catch you); a pasted join string carries the host's key
and needs no code.  Connecting is the finder's business (`NetFinder.connect`).
"""

from __future__ import annotations

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import AnyContainer, BufferControl, ConditionalContainer, HSplit, VSplit, Window

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit, wrap
from modernart.cli.tui.widgets import PanelControl, Parts, boxed, title_bar, window


def finder_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    finder = cs.finder
    tables = list(finder.tables) if finder is not None else []
    lines: list[Line] = []
    missing = getattr(finder, "missing_code", None)
    if missing:
        if tables:
            words = _(
                "No table with join code {code} was heard. The tables heard are below. Check the code on the "
                "host's screen, or ask for its join string (j)."
            )
        else:
            words = _(
                "No table with join code {code} was heard. No table at all was heard. Check the code on the "
                "host's screen, or ask for its join string (j)."
            )
        for chunk in wrap(words.format(code=missing), max(10, width - 2)):
            lines.append([("class:error", " " + chunk)])
    if not tables:
        lines.append([("class:dim", " " + _("Listening for tables on this network..."))])
        lines.append([("class:dim", " " + _("None heard yet. Ask the host for a join string and press j."))])
        return lines
    cs.finder_cursor = max(0, min(cs.finder_cursor, len(tables) - 1))
    lines.append([("class:dim", "  " + fit(_("Table"), max(10, width - 36)) + fit(_("Address"), 22) + _("Seats"))])
    for i, ad in enumerate(tables):
        arrow = ">" if i == cs.finder_cursor else " "
        style = "class:selected" if arrow == ">" else ""
        text = f"{arrow} " + fit(ad.name, max(10, width - 36)) + fit(ad.address, 22) + f"{ad.seats_taken}/{ad.seats}"
        # TRANSLATORS: a mark of at most 7 columns after a table's seats in the list of tables
        lines.append([(style, text + ("  " + _("hidden") if ad.hidden_hands else ""))])
    if any(ad.hidden_hands for ad in tables):
        for chunk in wrap(_("hidden: the players' hands are hidden even from the host"), max(10, width - 2)):
            lines.append([("class:dim", " " + chunk)])
    return lines


def finder_prompt(cs: ClientState, width: int) -> list[Line]:
    """Explanation above the text entry, when one is open."""
    if cs.finder_input == "join":
        text = _("Paste or type the join string from the host, then Enter (Esc: back).")
    elif cs.finder_input == "code":
        text = _("Type the join code shown on the host's screen, then Enter (Esc: back).")
    else:
        return []
    return [[("class:title", " " + chunk)] for chunk in wrap(text, max(10, width - 2))]


def chosen_table(cs: ClientState):
    finder = cs.finder
    tables = list(finder.tables) if finder is not None else []
    if not tables:
        return None
    return tables[max(0, min(cs.finder_cursor, len(tables) - 1))]


class JoinEntry:
    """The join screen's text field: a join string or a join code, typed or pasted."""

    def __init__(self, cs: ClientState) -> None:
        self.buffer = Buffer(name="finder", multiline=False)
        self.window = Window(BufferControl(self.buffer), height=1)
        self.container = ConditionalContainer(
            HSplit(
                [
                    window(lambda w, h: finder_prompt(cs, w), height=2),
                    VSplit(
                        [Window(PanelControl(lambda w, h: [[("class:title", " > ")]]), width=3, height=1), self.window]
                    ),
                ]
            ),
            filter=Condition(lambda: cs.finder_input is not None),
        )


def container(cs: ClientState, parts: Parts, entry: JoinEntry) -> AnyContainer:
    return HSplit(
        [
            title_bar(cs, " " + _("MODERN ART - join a table")),
            window(boxed(cs, _("Tables on this network"), finder_panel)),
            entry.container,
            parts.message,
            parts.hint_bar,
        ]
    )


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    finder = modes.free("finder")

    def move(step: int):
        def run(event) -> None:
            tables = list(cs.finder.tables) if cs.finder is not None else []
            if tables:
                cs.finder_cursor = (cs.finder_cursor + step) % len(tables)

        return run

    def choose(event) -> None:
        ad = chosen_table(cs)
        if ad is None:
            cs.error(_("No table heard yet: press j to type a join string"))
            return
        if ad.needs_code:
            cs.finder_choice = ad.join_string
            controls.open_finder_input("code")
        else:
            controls.connect(ad.join_string, "")

    def submit(event) -> None:
        text = controls.finder_text().strip()
        if not text:
            cs.error(_("Type something first, or Esc to go back"))
            return
        mode = cs.finder_input
        controls.close_finder_input()
        if mode == "join":
            controls.connect(text, "")
        else:
            controls.connect(cs.finder_choice, text)

    entry = lambda: cs.finder_input is not None and controls.current() == "finder"  # noqa: E731
    return [
        Command(("q", "c-c"), "q", _("quit"), finder, lambda e: controls.exit(), modes.always, 80),
        Command(("up",), "Up/Dn", _("choose"), finder, move(-1), lambda: bool(cs.finder and cs.finder.tables), 10),
        Command(("down",), "", "", finder, move(1)),
        Command(("enter",), "Enter", _("join"), finder, choose, lambda: bool(cs.finder and cs.finder.tables), 11),
        Command(
            ("j",), "j", _("type a join string"), finder, lambda e: controls.open_finder_input("join"), lambda: True, 12
        ),
        Command(("enter",), "Enter", _("connect"), entry, submit, lambda: True, 1),
        Command(("escape",), "Esc", _("back"), entry, lambda e: controls.close_finder_input(), lambda: True, 2),
        Command(("c-c",), "", "", entry, lambda e: controls.close_finder_input()),
    ]
