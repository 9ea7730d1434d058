"""The rules screen (`r` at the table): the auction in progress explained first, with this
table's names, then the whole game (docs/rules.md, the project's rules reference, in
short).  Up/Down and PgUp/PgDn scroll it; `r`, Enter or Esc close it.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cards import AuctionType
from modernart.phase import Phase
from modernart.views import Observation

from modernart.cli.i18n import N_, _
from modernart.cli.tui.keys import Command, Modes, Pred
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, wrap
from modernart.cli.tui.widgets import overlay

WIDTH = 78


def auction_rules(kind: AuctionType) -> str:
    """One auction's rules, as a paragraph."""
    return {
        AuctionType.OPEN: _(
            "Open: anyone, the seller too, bids any time, in any order, more than the high bid. A pass lasts "
            "until the next bid. The auction closes when everyone but the high bidder has passed, when its "
            "countdown runs out (every bid starts it again), or when the seller brings the hammer down: then "
            "the hammer is called for a few seconds, and any bid stops the call. The highest bid buys; with no "
            "bid the seller keeps the painting for free."
        ),
        AuctionType.ONCE_AROUND: _(
            "Once-around: each player in turn from the seller's left, the seller last, bids once (more than "
            "the high bid) or passes. The highest bid buys; if everyone passes, the seller keeps it for free."
        ),
        AuctionType.SEALED: _(
            "Sealed: everyone, the seller too, secretly chooses one amount (0: no bid); all are shown at once "
            "and the highest buys. A tie goes to the seller if they are in it, else to the tied player first "
            "clockwise from the seller's left. All 0: the seller keeps it for free."
        ),
        AuctionType.FIXED_PRICE: _(
            "Fixed price: the seller names a price (at most their money); from the seller's left each player "
            "in turn accepts or declines; the first to accept buys. If nobody does, the seller must buy it at "
            "that price, paid to the bank."
        ),
        AuctionType.DOUBLE: _(
            "Double: the seller may add a second painting of the same artist (not a Double); if they do not, "
            "it is offered round the table, and whoever adds one becomes the seller of both. The pair is sold "
            "by the second card's auction. If nobody adds one, the seller keeps the Double for free."
        ),
    }[kind]


def now_paragraph(cs: ClientState, obs: Observation) -> str:
    """What is going on at the table, in the rules' words."""
    if obs.is_over:
        return _("The game is over: the player with the most money wins (ties: every one of them).")
    seller = cs.name(obs.auctioneer)
    if obs.phase == Phase.PLAY_CARD:
        return _(
            "{seller} is to put up a painting from their hand; its symbol decides the auction. The seller "
            "gets the money (from themselves: the bank does)."
        ).format(seller=seller)
    if obs.phase == Phase.DOUBLE_OFFER:
        return auction_rules(AuctionType.DOUBLE)
    kind = next((c.kind for c in reversed(obs.lot) if c.kind != AuctionType.DOUBLE), AuctionType.DOUBLE)
    return _("{seller} is selling.").format(seller=seller) + " " + auction_rules(kind)


GAME = (
    N_(
        "The game: four rounds. In turn each player puts up a painting and sells it by its auction; the "
        "seller gets the money, or the bank when the seller buys their own."
    ),
    N_(
        "A round ends the moment an artist's fifth painting is put up (it is not sold), or when every "
        "hand is empty. The three artists with the most paintings this round get tiles of 30, 20 and "
        "10 (ties go to the artist further left on the board)."
    ),
    N_(
        "The bank then buys every painting of those three artists, each at the sum of its artist's "
        "tiles so far (earlier rounds count only if the artist is in the top three now); the others "
        "are worth nothing. Paintings go away; money stays, hidden."
    ),
    N_("You never bid more than you hold. After the fourth round the most money wins."),
)


def rules_lines(cs: ClientState, width: int) -> list[Line]:
    obs = cs.obs
    lines: list[Line] = []
    if obs is not None:
        lines.append([("class:title", " " + _("Now"))])
        lines += [[("", " " + chunk)] for chunk in wrap(now_paragraph(cs, obs), max(10, width - 2))]
        lines.append([("", "")])
    lines.append([("class:title", " " + _("The whole game"))])
    for paragraph in GAME:
        lines += [[("", " " + chunk)] for chunk in wrap(_(paragraph), max(10, width - 2))]
    for kind in AuctionType:
        lines += [[("class:dim", " " + chunk)] for chunk in wrap(auction_rules(kind), max(10, width - 2))]
    lines.append(
        [
            (
                "class:dim",
                " " + _("The table's rule options (lobby) may change some of this; docs/rules.md has them all."),
            )
        ]
    )
    return lines


def rules_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    lines = rules_lines(cs, width)
    room = max(1, height - 1)
    cs.rules_scroll = max(0, min(cs.rules_scroll, len(lines) - room))
    shown = lines[cs.rules_scroll : cs.rules_scroll + room]
    more = len(lines) - room
    hint = _("Up/Down scroll   r, Enter or Esc: back") if more > 0 else _("r, Enter or Esc: back")
    return shown + [[("class:dim", " " + hint)]]


def commands(cs: ClientState, modes: Modes) -> list[Command]:
    shown = modes.overlay("rules")
    close = modes.set_overlay(None)

    def scroll(lines: int):
        def run(event) -> None:
            cs.rules_scroll = max(0, cs.rules_scroll + lines)

        return run

    return [
        Command(("enter", "escape", "r"), "Enter", _("back to the table"), shown, close, modes.always, 1),
        Command(("down",), "Up/Down", _("scroll"), shown, scroll(1), modes.always, 2),
        Command(("up",), "", "", shown, scroll(-1)),
        Command(("pagedown", " "), "", "", shown, scroll(10)),
        Command(("pageup",), "", "", shown, scroll(-10)),
    ]


def floating(cs: ClientState, shown: Pred) -> Float:
    """The rules screen, floating over the table while `shown()`."""
    return overlay(cs, shown, lambda: _("Rules"), rules_panel, WIDTH)
