"""The Scores view: every round scored so far, per artist and per player, a key away (`v`)
at any time during the game (and on the game-over screen); Enter, Esc or `v` close it.

Per artist: the value one painting paid in each round (its tiles so far included; "-"
when it paid nothing) and its place that round.  Per player: the payout of each round
and the sum.  Money itself stays private (docs/rules.md): only payouts are public.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cards import ARTISTS, ROUNDS

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Modes, Pred, view_commands
from modernart.cli.tui.panels import artist_label
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit
from modernart.cli.tui.widgets import overlay

WIDTH = 62
#: Cells of each round's column
COLUMN = 7


def scores_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None or not obs.results:
        return [[("", " " + _("No round has been scored yet."))], [("class:dim", " " + _("Enter: back"))]]
    results = obs.results
    rounds = "".join(fit(_("R{number}").format(number=r + 1), COLUMN, "right") for r in range(ROUNDS))
    lines: list[Line] = [[("class:dim", " " + fit(_("Artist"), 15) + rounds)]]
    for a in ARTISTS:
        cells = ""
        for r in range(ROUNDS):
            if r < len(results):
                value = results[r].values[a]
                place = results[r].ranking.index(a) + 1 if a in results[r].ranking else 0
                cells += fit(f"{value}/{place}" if value and place else "-", COLUMN, "right")
            else:
                cells += fit(".", COLUMN, "right")
        lines.append([("", " ")] + artist_label(cs, a, 15) + [("", cells)])
    lines.append([("class:dim", " " + _("(what one painting paid / its place that round)"))])
    total = fit(_("Total"), COLUMN, "right")
    lines.append([("class:dim", " " + fit(_("Payouts"), 15) + rounds + total)])
    for s in range(obs.players):
        mark = "*" if s == obs.seat else " "
        cells = "".join(
            fit(f"+{results[r].payouts[s]}" if r < len(results) else ".", COLUMN, "right") for r in range(ROUNDS)
        )
        paid = sum(result.payouts[s] for result in results)
        style = "class:you" if s == obs.seat else ""
        lines.append(
            [(style, f" {mark} " + fit(cs.name(s), 13) + cells), ("class:title", fit(f"{paid}", COLUMN, "right"))]
        )
    lines.append([("class:dim", " " + _("Enter: back to the table   s: a round's scoring in full"))])
    return lines


def commands(modes: Modes) -> list[Command]:
    return view_commands(modes, "scores", "v")


def floating(cs: ClientState, shown: Pred) -> Float:
    """The Scores view, floating over the screen while `shown()`."""
    return overlay(cs, shown, lambda: _("Scores so far"), scores_panel, WIDTH)
