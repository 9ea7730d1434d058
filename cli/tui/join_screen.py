"""The join screen: tables heard on the LAN, a join string typed or pasted, the join code.

Choosing a table found on the LAN asks for the join code shown on the host's screen
(so a look-alike table cannot catch you); a pasted join string carries the host's key
and needs no code.  Connecting is the finder's business (`Finder.connect`).
"""

from __future__ import annotations

from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit, wrap


def finder_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    finder = cs.finder
    tables = list(finder.tables) if finder is not None else []
    lines: list[Line] = []
    missing = getattr(finder, "missing_code", None)
    if missing:
        heard = "The tables heard are below." if tables else "No table at all was heard."
        for chunk in wrap(
            f"No table with join code {missing} was heard. {heard} Check the code on the "
            "host's screen, or ask for its join string (j).",
            max(10, width - 2),
        ):
            lines.append([("class:error", " " + chunk)])
    if not tables:
        lines.append([("class:dim", " Listening for tables on this network...")])
        lines.append([("class:dim", " None heard yet. Ask the host for a join string and press j.")])
        return lines
    cs.finder_cursor = max(0, min(cs.finder_cursor, len(tables) - 1))
    lines.append([("class:dim", "  " + fit("Table", max(10, width - 36)) + fit("Address", 22) + "Seats")])
    for i, ad in enumerate(tables):
        arrow = ">" if i == cs.finder_cursor else " "
        style = "class:selected" if arrow == ">" else ""
        text = f"{arrow} " + fit(ad.name, max(10, width - 36)) + fit(ad.address, 22) + f"{ad.seats_taken}/{ad.seats}"
        lines.append([(style, text)])
    return lines


def finder_prompt(cs: ClientState, width: int) -> list[Line]:
    """Explanation above the text entry, when one is open."""
    if cs.finder_input == "join":
        text = "Paste or type the join string from the host, then Enter (Esc: back)."
    elif cs.finder_input == "code":
        text = "Type the join code shown on the host's screen, then Enter (Esc: back)."
    else:
        return []
    return [[("class:title", " " + chunk)] for chunk in wrap(text, max(10, width - 2))]


def chosen_table(cs: ClientState):
    finder = cs.finder
    tables = list(finder.tables) if finder is not None else []
    if not tables:
        return None
    return tables[max(0, min(cs.finder_cursor, len(tables) - 1))]
