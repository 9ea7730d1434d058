"""The table: the artists board, the auction, the players, your hand, the log, and every
key of play (what each key does is `TableActions`, cli/tui/actions.py).

Narrow terminals (80-131 columns) show two columns with the log below; from 132 columns
the log is a third column of full height and a "Sales this round" panel appears.
"""

from __future__ import annotations

from prompt_toolkit.layout import AnyContainer, DynamicContainer, HSplit, VSplit

from modernart.moves import Action
from modernart.phase import Phase

from modernart.cli.tui.auction_panel import auction_panel
from modernart.cli.tui.panels import artists_panel, hand_panel, log_panel, players_panel, sales_panel, status_line
from modernart.cli.tui.actions import TableActions
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


def table_predicates(cs: ClientState):
    """Small questions about the table the hints ask."""

    def obs():
        return cs.obs

    def may_act() -> bool:
        o = obs()
        return o is not None and o.seat in o.to_move

    def choosing_card() -> bool:
        o = obs()
        return o is not None and (
            (o.phase == Phase.PLAY_CARD and o.auctioneer == o.seat)
            or (o.phase == Phase.DOUBLE_OFFER and o.turn == o.seat)
        )

    def amount_open() -> bool:
        o = obs()
        return o is not None and o.amount_range() is not None and cs.digits_mean_amount()

    def can_raise() -> bool:
        o = obs()
        return o is not None and o.phase in (Phase.OPEN, Phase.ONCE_AROUND) and o.amount_range() is not None

    def can_pass() -> bool:
        o = obs()
        return o is not None and any(
            m.action in (Action.PASS, Action.DECLINE_SECOND, Action.DECLINE) for m in o.legal_moves(amounts=False)
        )

    def can_accept() -> bool:
        o = obs()
        return o is not None and o.phase == Phase.FIXED_OFFER and o.turn == o.seat and o.price <= o.money

    def can_hammer() -> bool:
        o = obs()
        return o is not None and o.phase == Phase.OPEN and o.auctioneer == o.seat

    def enter_label() -> str:
        o = obs()
        if o is None:
            return ""
        return {
            Phase.PLAY_CARD: "sell",
            Phase.DOUBLE_OFFER: "add",
            Phase.SEALED: "seal",
            Phase.FIXED_SET: "set price",
        }.get(o.phase, "bid")

    def pass_label() -> str:
        o = obs()
        return "decline" if o is not None and o.phase == Phase.FIXED_OFFER else "pass"

    return dict(
        may_act=may_act,
        choosing_card=choosing_card,
        amount_open=amount_open,
        can_raise=can_raise,
        can_pass=can_pass,
        can_accept=can_accept,
        can_hammer=can_hammer,
        enter_label=enter_label,
        pass_label=pass_label,
    )
