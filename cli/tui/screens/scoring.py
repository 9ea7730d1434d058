"""The round scoring overlay: what each artist was worth and what each player was paid.

It opens by itself when a round ends (`ClientState.open_scoring`, which lets the table have
the keys when the player is needed) and with `s`; Enter, Esc or space close it.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cards import ARTISTS
from modernart.scoring import RoundResult

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Modes, Pred, view_commands
from modernart.cli.tui.panels import ARTIST_STYLE, artist_label
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit
from modernart.cli.tui.widgets import overlay

WIDTH = 62


def scoring_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None or not 0 <= cs.scoring_round < len(obs.results):
        return [[("", " " + _("No round has been scored yet."))]]
    result: RoundResult = obs.results[cs.scoring_round]
    ed = cs.edition
    if result.ended_by == "fifth" and result.ending_cards:
        artist = ed.artists[result.ending_cards[-1].artist]
        how = " " + _("Ended by the fifth {artist}, played by {player}.").format(
            artist=artist, player=cs.name(result.ender)
        )
    else:
        how = " " + _("Ended: every hand was empty.")
    header = (
        "   "
        + fit(_("Artist"), 14)
        + fit(_("Paintings"), 9, "right")
        + fit(_("Place"), 6, "right")
        + fit(_("Tile"), 6, "right")
        + fit(_("Value"), 6, "right")
    )
    lines: list[Line] = [[("", how)], [("class:dim", header)]]
    places = {a: i for i, a in enumerate(result.ranking)}
    for a in sorted(ARTISTS, key=lambda a: (places.get(a, 9), a)):
        place = (_("1st"), _("2nd"), _("3rd"), _("4th"), _("5th"))[places[a]] if a in places else "-"
        tile = str(result.tiles[a]) if result.tiles[a] else "-"
        line = [("", " ")] + artist_label(cs, a, 14)
        line.append(
            (
                "",
                fit(str(result.counts[a]), 9, "right")
                + fit(place, 6, "right")
                + fit(tile, 6, "right")
                + fit(str(result.values[a]), 6, "right"),
            )
        )
        lines.append(line)
    lines.append(
        [("class:dim", "   " + fit(_("Player"), 13) + fit(_("Paintings bought"), 16) + fit(_("Payout"), 12, "right"))]
    )
    for s, pay in enumerate(result.payouts):
        mark = "*" if s == obs.seat else " "
        line = [("class:you" if s == obs.seat else "", f" {mark} " + fit(cs.name(s), 13))]
        sold = [(a, result.sold[s][a]) for a in ARTISTS if result.sold[s][a]]
        used = 0
        for a, n in sold:
            line.append((ARTIST_STYLE[a], f"{ed.initials[a]}{n} "))
            used += len(f"{ed.initials[a]}{n} ")
        if not sold:
            line.append(("class:dim", "-"))
            used = 1
        line.append(("", " " * max(1, 17 - used)))
        line.append(("class:title", fit(f"+{pay}", 9, "right")))
        lines.append(line)
    lines.append([("class:dim", " " + _("Enter: back to the table   s: this again later"))])
    return lines


def commands(modes: Modes) -> list[Command]:
    return view_commands(modes, "scoring", "s")


def floating(cs: ClientState, shown: Pred) -> Float:
    """The scoring overlay, floating over the screen while `shown()`."""
    return overlay(
        cs, shown, lambda: _("Round {round} scoring").format(round=cs.scoring_round + 1), scoring_panel, WIDTH
    )
