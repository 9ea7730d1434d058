"""Key bindings, grouped by mode, and the key-hint bar drawn from the same table.

Each `Command` names its keys, when it is active (a mode filter), when its hint is shown
(what makes sense right now) and what it does.  The hint bar lists the commands whose
hints apply, so it never offers a key that does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from modernart.moves import Action
from modernart.phase import Phase

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
