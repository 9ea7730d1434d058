"""The table: the artists board, the auction, the players, your hand, the log, and every
key of play (what each key does is `TableActions`, cli/tui/actions.py).

Narrow terminals (80-131 columns) show two columns with the log below; from 132 columns
the log is a third column of full height and a "Sales this round" panel appears.
"""

from __future__ import annotations

from typing import Any, Callable

from prompt_toolkit.layout import AnyContainer, DynamicContainer, HSplit, VSplit

from modernart.moves import Action, Move

from modernart.cli.tui.actions import PASS_ACTIONS, TableActions
from modernart.cli.tui.auction_panel import auction_panel
from modernart.cli.tui.panels import artists_panel, hand_panel, log_panel, players_panel, sales_panel, status_line
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.widgets import Parts, boxed, one_line, size, window

WIDE = 132  # from this many columns the log is a column of its own


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    status = one_line(status_line, cs, style="class:status")
    # narrow (80-131 columns): board and auction, players and hand, log below;
    # wide (132+): the same two columns, and the log as a third column of full height
    left_w = lambda: 40 if size()[0] < 100 or size()[0] >= WIDE else size()[0] // 2  # noqa: E731
    top = VSplit(
        [
            window(boxed(cs, "Artists", artists_panel), height=8, width=left_w),
            window(boxed(cs, "Auction", auction_panel), height=8),
        ]
    )
    middle = VSplit(
        [
            window(boxed(cs, "Players", players_panel), height=8, width=left_w),
            window(boxed(cs, "Your hand", hand_panel), height=8),
        ]
    )
    narrow = HSplit([status, top, middle, parts.log, *parts.footer])
    side_log = window(boxed(cs, "Log and chat", log_panel), width=lambda: max(40, size()[0] - 92))
    wide = HSplit(
        [
            status,
            VSplit([HSplit([top, middle, window(boxed(cs, "Sales this round", sales_panel))], width=92), side_log]),
            *parts.footer,
        ]
    )
    return DynamicContainer(lambda: wide if size()[0] >= WIDE else narrow)


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    acts = TableActions(cs, controls.spawn)
    p = table_predicates(cs)
    table = modes.free("table")

    def up_down(step: int):
        def run(event) -> None:
            if cs.digits_mean_amount():
                acts.adjust(-step)
            else:
                acts.select(step)

        return run

    return [
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
        Command(("pageup",), "PgUp", "log", table, lambda e: cs.scroll_log(1)),
        Command(("pagedown",), "", "", table, lambda e: cs.scroll_log(-1)),
        Command(("s",), "", "", table, lambda e: cs.show_last_scoring()),
    ]


# ---------------------------------------------------------------------- predicates

#: Enter's hint, by the move it makes: a card put up or added, an amount sent.
ENTER_LABELS = {
    Action.PLAY: "sell",
    Action.ADD_SECOND: "add",
    Action.BID: "bid",
    Action.SEALED_BID: "seal",
    Action.SET_PRICE: "set price",
}


def table_predicates(cs: ClientState) -> dict[str, Callable[[], Any]]:
    """What the hints ask of the table, all from the seat's Observation: its legal moves,
    its amount range, and whether an amount or a card is asked of it."""

    def legal() -> list[Move]:
        obs = cs.obs
        return obs.legal_moves(amounts=False) if obs is not None else []

    def offers(*actions: Action) -> bool:
        return any(m.action in actions for m in legal())

    def choosing_card() -> bool:
        return cs.obs is not None and cs.obs.card_action() is not None

    def amount_open() -> bool:
        return cs.obs is not None and cs.obs.amount_range() is not None and cs.digits_mean_amount()

    def can_raise() -> bool:
        r = cs.obs.amount_range() if cs.obs is not None else None
        return r is not None and r[0] == Action.BID

    def enter_label() -> str:
        obs = cs.obs
        if obs is None:
            return ""
        card = obs.card_action()  # not `or`: PLAY is 0
        action = card if card is not None else obs.amount_action()
        return ENTER_LABELS[action] if action is not None else "bid"

    return dict(
        choosing_card=choosing_card,
        amount_open=amount_open,
        can_raise=can_raise,
        can_pass=lambda: offers(*PASS_ACTIONS),
        can_accept=lambda: offers(Action.ACCEPT),
        can_hammer=lambda: offers(Action.HAMMER),
        enter_label=enter_label,
        pass_label=lambda: "decline" if offers(Action.DECLINE) else "pass",
    )
