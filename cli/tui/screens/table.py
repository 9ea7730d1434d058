"""The table: the artists board, the auction, the players, your hand, the log, and every
key of play (what each key does is `TableActions`, cli/tui/actions.py).

Narrow terminals (80-131 columns) show two columns with the log below; from 132 columns
the log is a third column of full height and a "Sales this round" panel appears.
"""

from __future__ import annotations

from prompt_toolkit.layout import AnyContainer, DynamicContainer, HSplit

from modernart.moves import Action
from modernart.phase import Phase

from modernart.cli.i18n import N_, _
from modernart.cli.tui.actions import PASS_ACTIONS, TableActions
from modernart.cli.tui.auction_panel import auction_panel
from modernart.cli.tui.panels import artists_panel, hand_panel, log_panel, players_panel, sales_panel, status_line
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.widgets import Parts, boxed, one_line, side_by_side, size, window

WIDE = 132  # from this many columns the log is a column of its own


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    status = one_line(status_line, cs, style="class:status")
    # narrow (80-131 columns): board and auction, players and hand, log below;
    # wide (132+): the same two columns, and the log as a third column of full height
    left_w = lambda: 40 if size()[0] < 100 or size()[0] >= WIDE else size()[0] // 2  # noqa: E731
    top = side_by_side(
        lambda: [
            window(boxed(cs, _("Artists"), artists_panel), height=8, width=left_w),
            window(boxed(cs, _("Auction"), auction_panel), height=8),
        ]
    )
    middle = side_by_side(
        lambda: [
            window(boxed(cs, _("Players"), players_panel), height=8, width=left_w),
            window(boxed(cs, _("Your hand"), hand_panel), height=8),
        ]
    )
    narrow = HSplit([status, top, middle, parts.log, *parts.footer])
    wide = HSplit(
        [
            status,
            side_by_side(
                lambda: [
                    HSplit([top, middle, window(boxed(cs, _("Sales this round"), sales_panel))], width=92),
                    window(boxed(cs, _("Log and chat"), log_panel), width=lambda: max(40, size()[0] - 92)),
                ]
            ),
            *parts.footer,
        ]
    )
    return DynamicContainer(lambda: wide if size()[0] >= WIDE else narrow)


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    acts = TableActions(cs, controls.spawn)
    hints = TableHints(cs)
    table = modes.free("table")

    def up_down(step: int):
        def run(event) -> None:
            if cs.digits_mean_amount():
                acts.adjust(-step)
            else:
                acts.select(step)

        return run

    return [
        Command(("left",), "<- ->", _("choose"), table, lambda e: acts.select(-1), hints.choosing_card, 10),
        Command(("right",), "", "", table, lambda e: acts.select(1)),
        Command(("up",), "Up/Dn", _("+-1"), table, up_down(-1), hints.amount_open, 12),
        Command(("down",), "", "", table, up_down(1)),
        Command(
            ("enter",),
            "Enter",
            hints.enter_label,
            table,
            lambda e: acts.primary(),
            hints.card_or_amount,
            20,
        ),
        Command(("backspace",), "", "", table, lambda e: acts.backspace()),
        Command(("0",), "0-9", hints.digits_label, table, lambda e: acts.digit("0"), hints.digits_open, 11),
        *[Command((d,), "", "", table, (lambda d: lambda e: acts.digit(d))(d)) for d in "123456789"],
        Command(("p",), "p", hints.pass_label, table, lambda e: acts.pass_(), hints.can_pass, 22),
        Command(("a",), "a", _("accept"), table, lambda e: acts.accept(), hints.can_accept, 21),
        Command(("h",), "h", _("sell now"), table, lambda e: acts.hammer(), hints.can_hammer, 23),
        Command(("m",), "m", _("turn up"), table, lambda e: acts.flip_mystery(), hints.can_flip, 24),
        Command(("+",), "+ f t", _("raise 1/5/10"), table, lambda e: acts.quick_raise(1), hints.can_raise, 15),
        Command(("=",), "", "", table, lambda e: acts.quick_raise(1)),
        Command(("f",), "", "", table, lambda e: acts.quick_raise(5)),
        Command(("t",), "", "", table, lambda e: acts.quick_raise(10)),
        Command(("pageup",), "PgUp", _("log"), table, lambda e: cs.scroll_log(1)),
        Command(("pagedown",), "", "", table, lambda e: cs.scroll_log(-1)),
        Command(("s",), "", "", table, lambda e: cs.show_last_scoring()),
        Command(("v",), "v", _("scores"), table, lambda e: cs.show_scores()),
        Command(("r",), "r", _("rules"), table, lambda e: cs.show_rules(), hints.first_game, 90),
        Command(("o",), "o", hints.out_label, table, lambda e: acts.stay_out(), hints.can_stay_out, 24),
        Command(("b",), "b", hints.sealed_label, table, lambda e: acts.toggle_sealed(), hints.has_sealed, 25),
        # a seat late at a table that hides hands: this person's vote (docs/fair-play.md "No table waits for ever")
        Command(("w",), "w", hints.wait_label, table, lambda e: acts.vote("wait"), hints.can_vote, 5),
        Command(("e",), "e", hints.end_label, table, lambda e: acts.vote("end"), hints.can_vote, 6),
    ]


# ---------------------------------------------------------------------- predicates

#: Enter's hint, by the move it makes: a card put up or added, an amount sent.
ENTER_LABELS = {
    Action.PLAY: N_("sell"),
    Action.ADD_SECOND: N_("add"),
    Action.BID: N_("bid"),
    Action.SEALED_BID: N_("seal"),
    Action.SET_PRICE: N_("set price"),
}


class TableHints:
    """What the hint bar asks of the table, all from the seat's Observation: its legal
    moves, its amount range, and whether an amount or a card is asked of it."""

    def __init__(self, cs: ClientState) -> None:
        self.cs = cs

    def _offers(self, *actions: Action) -> bool:
        obs = self.cs.obs
        return obs is not None and any(m.action in actions for m in obs.legal_moves(amounts=False))

    def can_vote(self) -> bool:
        session = self.cs.session
        return session is not None and session.vote_on is not None

    def _late_name(self) -> str:
        session = self.cs.session
        return self.cs.name(session.vote_on) if session is not None and session.vote_on is not None else ""

    def wait_label(self) -> str:
        return _("wait for {player}").format(player=self._late_name())

    def end_label(self) -> str:
        return _("end without {player}").format(player=self._late_name())

    def choosing_card(self) -> bool:
        obs = self.cs.obs
        return obs is not None and obs.card_action() is not None

    def amount_open(self) -> bool:
        obs = self.cs.obs
        return obs is not None and obs.amount_range() is not None and self.cs.digits_mean_amount()

    def choosing_buyer(self) -> bool:
        return self._offers(Action.CHOOSE_BUYER)

    def announcing(self) -> bool:
        return self._offers(Action.ANNOUNCE)

    def digits_open(self) -> bool:
        return self.amount_open() or self.choosing_buyer() or self.announcing()

    def digits_label(self) -> str:
        if self.announcing():
            return _("auction")
        return _("buyer's seat") if self.choosing_buyer() else _("amount")

    def card_or_amount(self) -> bool:
        return self.choosing_card() or self.amount_open()

    def can_raise(self) -> bool:
        r = self.cs.obs.amount_range() if self.cs.obs is not None else None
        return r is not None and r[0] == Action.BID

    def can_pass(self) -> bool:
        return self._offers(*PASS_ACTIONS)

    def can_accept(self) -> bool:
        return self._offers(Action.ACCEPT)

    def first_game(self) -> bool:
        """Until a first game is finished, the hint bar shows `r rules`."""
        return self.cs.first_game_hint

    def can_stay_out(self) -> bool:
        obs = self.cs.obs
        return obs is not None and obs.phase == Phase.OPEN and obs.seat >= 0 and obs.seat != obs.auctioneer

    def out_label(self) -> str:
        obs = self.cs.obs
        staying = obs is not None and self.cs.out_of_auction == obs.auction_no
        return _("back in") if staying else _("stay out")

    def has_sealed(self) -> bool:
        obs = self.cs.obs
        mine = self.cs.my_sealed
        return obs is not None and obs.phase == Phase.SEALED and mine is not None and mine[0] == obs.auction_no

    def sealed_label(self) -> str:
        return _("hide bid") if self.cs.show_sealed else _("show bid")

    def can_hammer(self) -> bool:
        return self._offers(Action.HAMMER)

    def can_flip(self) -> bool:
        return self._offers(Action.FLIP_MYSTERY)

    def enter_label(self) -> str:
        obs = self.cs.obs
        if obs is None:
            return ""
        card = obs.card_action()  # not `or`: PLAY is 0
        action = card if card is not None else obs.amount_action()
        return _(ENTER_LABELS[action]) if action is not None else _("bid")

    def pass_label(self) -> str:
        obs = self.cs.obs
        if obs is not None and obs.phase in (Phase.POSTED_OFFER, Phase.MYSTERY_FLIP):
            return _("leave")
        return _("decline") if self._offers(Action.DECLINE) else _("pass")
