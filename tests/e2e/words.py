"""The player's `Words` (tests/e2e/player.py) in another language, made from the client's
own catalogs and drawn as the client draws them (Persian shaped and reordered, `--bidi
client`), so that an end-to-end test reads a Chinese or Persian screen as a person would."""

from __future__ import annotations

import re

from modernart.cards import AuctionType
from modernart.cli.bidi import reordering, visual
from modernart.cli.i18n import _, is_right_to_left, speaking
from modernart.cli.tui.auction_panel import kind_words
from modernart.cli.words import auction_word

from .player import Words

SENTINEL = 8  # a number no round or count on screen has where it stands in for one
RTL_CHUNK = re.compile(r"[^\x00-\x7f（）：，。；！？]+")  # a run with no ASCII nor CJK punctuation


def drawn(text: str) -> str:
    """`text` as the client draws it (in the language and mode of the `speaking` block)."""
    return visual(text)


def numbered(message: str, group: str = r"(\d)", **values: object) -> str:
    """A regex for `message` drawn with {SENTINEL} where the number goes (group 1)."""
    shown = drawn(_(message).format(**{k: SENTINEL if v is None else v for k, v in values.items()}))
    return re.escape(shown).replace(str(SENTINEL), group, 1)


def chunk_of(message: str, **values: object) -> str:
    """A regex matching `message`'s status line however it is cut: the longest piece of
    its translation that holds no number, placeholder or Latin word, as drawn; checked to
    appear in the whole sentence as drawn."""
    text = _(message)
    whole = drawn(text.format(**values))
    pieces = [p.strip(" ،,") for p in re.split(r"\{[^}]*\}|[A-Za-z0-9<>()（）+=?-]+", text)]
    pieces = [p for p in pieces if len(p) >= 2]
    best = max(pieces, key=len)
    shown = drawn(best)
    assert shown in whole, (message, best, shown, whole)
    return re.escape(shown)


def words_in(lang: str) -> Words:
    with speaking(lang), reordering("client"):
        kinds = {
            "OPEN auction": AuctionType.OPEN,
            "ONCE-AROUND": AuctionType.ONCE_AROUND,
            "SEALED auction": AuctionType.SEALED,
            "FIXED PRICE": AuctionType.FIXED_PRICE,
            "DOUBLE": AuctionType.DOUBLE,
        }
        letters = r"\([O1SFD](?:\+[O1SFD])*\)"

        def lot(kind: AuctionType) -> str:
            """The lot's auction letters, then the auction's name (mirrored right to left)."""
            named = "(?:" + "|".join(re.escape(drawn(w)) for w in kind_words(kind)) + ")"
            return f"{named}  {letters}" if is_right_to_left() else f"{letters}  {named}"

        panels = tuple((name, lot(kind)) for name, kind in kinds.items())
        logged = tuple((re.escape(drawn(auction_word(kind))), name) for name, kind in kinds.items())
        turns = (
            ("sell", chunk_of("YOUR TURN: put up a painting (<- -> choose, Enter)")),
            ("double", chunk_of("YOUR TURN: add a second {artist} (Enter) or p to pass", artist="X")),
            ("open-seller", chunk_of("OPEN AUCTION: h to sell now")),
            ("open-seller", chunk_of("OPEN AUCTION: bid, p to pass, h to sell now")),
            ("open", chunk_of("OPEN AUCTION: bid any time, or p to pass")),
            ("once", chunk_of("YOUR TURN: bid above {high} or p to pass (once around)", high=1)),
            ("sealed", chunk_of("YOUR TURN: seal a bid 0-{money} (type + Enter)", money=1)),
            ("price", chunk_of("YOUR TURN: set the price {low}-{high} (type + Enter)", low=1, high=2)),
            ("buy", chunk_of("YOUR TURN: buy for {price}? a = accept, p = decline", price=1)),
            ("cannot-pay", chunk_of("YOUR TURN: you cannot pay {price}: p to decline", price=1)),
        )
        return Words(
            game_over=re.escape(drawn(_("GAME OVER. {headline}").split("{")[0].strip())),
            scoring_title=r"[─-] " + numbered("Round {round} scoring", round=None) + r" [─-]",
            scoring_close=drawn("Enter " + _("back to the table")),
            round_status=numbered("Round {round}/{rounds}", round=None, rounds=4),
            scrolled=numbered("Log and chat (scrolled {lines})", r"(\d+)", lines=None),
            panels=panels,
            logged=logged,
            turns=turns,
            english=False,
        )
