"""Persian read in its own order: every screen, drawn for a terminal without BiDi, read
back the way a Persian reader reads it (right to left, Latin runs left to right), says
what the same screen says in logical order, word for word; and each line's Persian words
come in the order of one catalog sentence (issue 27 item 1).

Two clients watch one seat: one draws in client mode (what xterm, kitty or tmux show:
shaped and mirrored by the client), one in terminal mode (logical order, what a BiDi
terminal is sent).  Moves go through the session, keys that only show something go to
both clients, so both draw the same situation.

On a2b2fc2 the reading fails where lines were glued from fragments: "High bid: 14 by
Bot A" read as "by Bot A 14 High bid:" (each fragment reordered alone, left to right), the
Sealed and the Price lines likewise; and the panels stood left to right.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from modernart.cli.i18n import speaking
from modernart.moves import Move
from modernart.phase import Phase
from tests.e2e.screen import D, F, O, ONE, S, Screen, play_to_the_end, quick_game, run_async, table_with, until
from tests.cli.test_tui_keys import ANA_HAND, ROUND_END_HANDS, card_of, play_to_round_end

pytestmark = pytest.mark.timeout(120)

CATALOG = Path(__file__).resolve().parents[2] / "cli" / "locale" / "fa" / "LC_MESSAGES" / "modernart.po"
ARABIC = re.compile("[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06ff\ufb50-\ufdff\ufe70-\ufefc]")  # letters
# Persian punctuation, read in the right-to-left flow (between two names it keeps them apart)
RTL_PUNCTUATION = re.compile("([\u060c\u061b\u061f])")
# where a screen row's pieces meet: cells (the client's cell marks, drawn here as zero-width
# spaces: a reader sees a table's columns, a test does not), columns, " | ", and borders
CELL = "\u200b"
PIECES = re.compile(r" {2,}| \| |[─│┌┐└┘]+|\u200b")
PUNCTUATION = "()[]{}<>:;,.!?،؛؟«»*_-+=/|\"'"
# the short vowels a drawn letter leaves out (shaping drops them, as print mostly does)
DIACRITICS = re.compile("[\u064b-\u065f\u0670]")


def words_of(text: str) -> list[str]:
    """The words of `text` in logical order: letters in their base forms (a shaped letter
    is the same letter), without the joiners and the punctuation around them."""
    text = DIACRITICS.sub("", unicodedata.normalize("NFKC", text)).replace("\u200c", "").replace(CELL, " ")
    out = []
    for word in text.split():
        word = word.strip(PUNCTUATION)
        if word:
            out.append(word)
    return out


def read_piece(piece: str) -> list[str]:
    """A piece of a drawn row as a Persian reader reads it: the words from right to left,
    each Persian word's letters from right to left, a run of Latin words and numbers (a
    name, an amount, `3:S`) from left to right."""
    if not ARABIC.search(piece):
        return words_of(piece)
    groups: list[list[str]] = []
    tokens: list[str] = []
    for word in RTL_PUNCTUATION.sub(r" \1 ", piece).split():
        if not ARABIC.search(word) and not nested(word):  # a bracket of the Persian text around
            tokens += [t for t in re.split(r"([()])", word) if t]
        else:
            tokens.append(word)
    for word in tokens:
        if ARABIC.search(word) or RTL_PUNCTUATION.fullmatch(word) or word in "()":
            groups.append([word[::-1]])
        elif groups and not (
            ARABIC.search(groups[-1][-1]) or RTL_PUNCTUATION.fullmatch(groups[-1][-1]) or groups[-1][-1] in "()"
        ):
            groups[-1].append(word)
        else:
            groups.append([word])
    return [w for group in reversed(groups) for w in words_of(" ".join(group))]


def read_row(row: str) -> list[str]:
    """A drawn row read from its right end to its left."""
    return [w for piece in reversed(PIECES.split(row)) for w in read_piece(piece)]


def logical_row(row: str) -> list[str]:
    return [w for piece in PIECES.split(row) for w in words_of(piece)]


PLACEHOLDER = re.compile(r"\{[^}]*\}")


@lru_cache(maxsize=1)
def sentences() -> list[tuple[str | None, ...]]:
    """Each Persian catalog message as its words in order, None for a placeholder (a word
    holding one, "د{number}", is one too)."""
    with open(CATALOG, "rb") as f:
        catalog = read_po(f, locale="fa")
    out: list[tuple[str | None, ...]] = []
    for message in catalog:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            tokens: list[str | None] = []
            for word in text.split():
                if PLACEHOLDER.search(word):
                    tokens.append(None)
                else:
                    tokens += words_of(word)
            if any(t is not None and ARABIC.search(t) for t in tokens):
                out.append(tuple(tokens))
    return out


def fits_sentence(words: tuple[str, ...], pattern: tuple[str | None, ...]) -> bool:
    """`words` are a stretch of `pattern` filled in (a placeholder takes one word or more,
    or at either end of the stretch part of its words: a sentence wrapped over lines)."""

    @lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i == len(words):
            return True  # the stretch may end anywhere
        if j == len(pattern):
            return False
        if pattern[j] is None:  # this word and maybe more are the placeholder's
            return match(i + 1, j) or match(i + 1, j + 1)
        return words[i] == pattern[j] and match(i + 1, j + 1)

    return any(match(0, j) for j in range(len(pattern)))


def in_catalog_order(words: list[str]) -> bool:
    """`words` (a piece of a row) are one catalog sentence filled in, or a stretch of one."""
    key = tuple(words)
    return any(fits_sentence(key, pattern) for pattern in sentences())


def rows_sent(screen: Screen, left: int = 0, right: int | None = None) -> list[str]:
    """The rows the client last drew (columns `left` to `right`), as it sent them (its
    renderer's own screen: a terminal emulator would draw the logical order's zero-width
    joiners its own way)."""
    last = screen.client.app.renderer._last_screen
    assert last is not None
    right = screen.size.columns if right is None else right
    return ["".join(last.data_buffer[y][x].char for x in range(left, right)) for y in range(screen.size.rows)]


def nested(row: str) -> bool:
    """Every bracket of `row` closes one opened before it, left to right."""
    depth = 0
    for ch in row:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


async def sent(screen: Screen, text: str, timeout: float = 10.0) -> None:
    """Until the client has drawn `text` (as sent: see `rows_sent`)."""
    for _ in range(int(timeout / 0.05)):
        await screen.drawn()
        if any(text in row for row in rows_sent(screen)):
            return
        await screen.settle(0.05)
    raise AssertionError(f"{text!r} never drawn:\n" + "\n".join(rows_sent(screen)))


def check(drawn: Screen, logical: Screen, what: str, overlay: int | None = None) -> None:
    """Every row of `drawn` (client mode) reads as the same row of `logical` (terminal
    mode) says, and every Persian piece of it keeps a catalog sentence's order.  With an
    `overlay` (its width), only its rows and columns: the screen under it shows pieces
    of mirrored and unmirrored rows around it."""
    rows = list(zip(rows_sent(drawn), rows_sent(logical)))
    if overlay is not None:
        cols = drawn.size.columns
        left = (cols - min(overlay + 2, cols)) // 2
        right = left + min(overlay + 2, cols)
        rows = list(zip(rows_sent(drawn, left, right), rows_sent(logical, left, right)))
        edge = [row[0] for row in rows_sent(drawn, left + 1, left + 2)]  # the box's left border
        assert "┌" in edge, (what, left, rows_sent(drawn))
        top = edge.index("┌")
        rows = rows[top : edge.index("└", top) + 1]  # the box's rows
    for i, (shown, plain) in enumerate(rows):
        assert read_row(shown) == logical_row(plain), (what, i, shown, plain)
        # brackets that enclose in logical order still enclose as drawn (never "+ Enter) ...)")
        assert nested(shown) or not nested(plain), (what, i, shown, plain)
        for piece in PIECES.split(plain):
            words = words_of(piece)
            if any(ARABIC.search(w) for w in words) and not piece.rstrip().endswith("…"):  # a cut one has a mark
                assert in_catalog_order(words), (what, i, piece)


@pytest.fixture(autouse=True)
def cells_seen(monkeypatch):
    """Cell marks drawn as zero-width spaces, so that the reader sees a table's cells."""
    monkeypatch.setattr("modernart.cli.bidi._COLUMN_DRAWN", CELL)


@contextlib.asynccontextmanager
async def two_clients(session, cols: int = 80, rows: int = 24):
    async with Screen(session, lang="fa", bidi="client", cols=cols, rows=rows) as drawn:
        async with Screen(session, lang="fa", bidi="terminal", cols=cols, rows=rows) as logical:
            yield drawn, logical


async def both(screens: tuple[Screen, Screen], *keys: str) -> None:
    for screen in screens:
        if keys:
            await screen.keys(*keys)
    for screen in screens:
        await screen.drawn()


def test_the_reader_reads_a_mirrored_sentence_and_not_a_glued_one():
    """The check itself: the sentence as the client draws it reads right; the fragments as
    a2b2fc2 drew them (each reordered alone, left to right) do not."""
    from modernart.cli.bidi import reordering, visual

    logical = "بالاترین پیشنهاد: 14 از Bot A"
    with speaking("fa"), reordering("client"):
        assert read_row(visual(logical)) == logical_row(logical)
        glued = visual("بالاترین پیشنهاد:") + " " + "14" + " " + visual("از Bot A")
        assert read_row(glued) != logical_row(logical)
        assert read_row(" " + visual("Ana 12  کارت 3:S")) == ["Ana", "12", "کارت", "3:S"]  # columns mirrored
        sealed = visual("نوبت شما: پیشنهاد مخفی 0-100 (بنویسید + Enter)")  # a2b2fc2: "+ Enter) ...)"
        assert nested(sealed) and sealed.count("(") == 1, sealed


@run_async
async def test_every_table_screen_reads_in_order_in_persian():
    hands = [ANA_HAND, [(2, S), (1, ONE), (0, F)], [(4, D), (4, ONE)]]
    with speaking("fa"):
        table, (ana, bea, cem) = await table_with(["Ana", "Bot A", "Cem"], hands)
    async with two_clients(ana) as screens:
        drawn, logical = screens
        await both(screens, "right")
        check(drawn, logical, "selling")
        status = rows_sent(drawn)[0]  # right-aligned: the line's first word at the right edge
        assert status.endswith(" ") and not status.endswith("  ") and logical.rows[0].startswith(" ")
        log = [r for r in drawn.rows[17:22] if r.strip("│ ")]
        assert log and all(r[-2] != " " for r in log), log  # each entry ends at the right border
        for key, what, width in (("?", "help", 78), ("r", "rules", 78), ("v", "scores", 62), ("q", "leave", 56)):
            await both(screens, key)
            check(drawn, logical, what, width)
            await both(screens, "esc")
        await ana.send_move(Move.play(0, card_of(ana, 0, O)))
        await both(screens)
        check(drawn, logical, "open, no bid")
        await bea.send_move(Move.bid(1, 14))
        await both(screens)
        assert "14" in drawn.text
        check(drawn, logical, "open, high bid by Bot A")
        await both(screens, "2")
        check(drawn, logical, "open, typing a bid")
        await both(screens, "backspace")
        await ana.send_move(Move.hammer(0))
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await both(screens)
        check(drawn, logical, "sealed")
        await both(screens, "3")
        check(drawn, logical, "sealed, typing")
        await drawn.keys("enter")
        logical.cs.my_sealed = drawn.cs.my_sealed  # what this client sent: the other one knows it too
        await both(screens)
        check(drawn, logical, "sealed, mine in")
        await cem.send_move(Move.sealed_bid(2, 0))
        await bea.send_move(Move.sealed_bid(1, 5))
        await both(screens)
        check(drawn, logical, "sealed, revealed")
        await cem.send_move(Move.play(2, card_of(cem, 4, ONE)))
        await both(screens)
        check(drawn, logical, "once-around")
        await ana.send_move(Move.bid(0, 2))
        await both(screens)
        check(drawn, logical, "once-around, bid")


@run_async
async def test_fixed_price_double_and_the_round_scoring_read_in_order_in_persian():
    hands = [ANA_HAND, [(0, F)], [(2, D)]]
    with speaking("fa"):
        table, (ana, bea, cem) = await table_with(["Ana", "Bot A", "Cem"], hands, first=1)
    async with two_clients(ana) as screens:
        drawn, logical = screens
        await bea.send_move(Move.play(1, card_of(bea, 0, F)))
        await both(screens)
        check(drawn, logical, "fixed price being set")
        await bea.send_move(Move.set_price(1, 9))
        await both(screens)
        check(drawn, logical, "fixed price offered")
        await cem.send_move(Move.decline(2))
        await ana.send_move(Move.decline(0))
        await cem.send_move(Move.play(2, card_of(cem, 2, D)))
        await cem.send_move(Move.decline_second(2))
        await bea.send_move(Move.decline_second(1))
        await both(screens)
        check(drawn, logical, "double offered")
    with speaking("fa"):
        table, sessions = await table_with(["Ana", "Bot A", "Cem"], ROUND_END_HANDS)
    async with two_clients(sessions[0]) as screens:
        drawn, logical = screens
        await play_to_round_end(sessions)
        await drawn.wait_for("1")
        await both(screens)
        assert drawn.cs.overlay == "scoring" == logical.cs.overlay
        check(drawn, logical, "round scoring", 62)
        await both(screens, "enter", "v")
        check(drawn, logical, "scores so far", 62)
        await both(screens, "esc")
        drawn.resize(60, 20)
        logical.resize(60, 20)
        await both(screens)
        check(drawn, logical, "too small")


@run_async
async def test_the_lobby_reads_in_order_in_persian():
    with speaking("fa"):
        table, (ana, bea, cem) = await table_with(["Ana", "Bot A", "Cem"], start=False)
    async with two_clients(ana) as screens:
        drawn, logical = screens
        await both(screens)
        check(drawn, logical, "lobby")
        variant = next(r for r in rows_sent(logical) if "نسخه\u200cی قواعد" in r)
        assert "standard" not in variant and "استاندارد" in variant, variant  # the variant's name, in Persian
        for _ in range(6):
            await both(screens, "down")
            check(drawn, logical, "lobby, a row down")
        await both(screens, "?")
        assert drawn.cs.overlay == "help" == logical.cs.overlay, drawn.cs.message
        check(drawn, logical, "lobby help", 78)


@run_async
async def test_the_join_screen_reads_in_order_in_persian():
    from tests.e2e.screen import HostFinder

    table, _sessions = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.announce(name="Cem's table")
    finders = (HostFinder([table], name="Dai"), HostFinder([table], name="Dai"))
    async with Screen(finder=finders[0], lang="fa", bidi="client") as drawn:
        async with Screen(finder=finders[1], lang="fa", bidi="terminal") as logical:
            for screen in (drawn, logical):
                await sent(screen, "Cem's table")
            check(drawn, logical, "join screen")
            await both((drawn, logical), "enter")
            check(drawn, logical, "join screen, the code asked")


@run_async
async def test_the_final_result_reads_in_order_in_persian(tmp_path):
    from modernart.cli.local_table import play_here

    settings = quick_game(tmp_path)
    with speaking("fa"):
        host, session = await play_here(settings, "Ana")
    try:
        async with two_clients(session) as screens:
            drawn, logical = screens
            await play_to_the_end(session, drawn)
            # the final screen is complete once the record is saved and the host has said so
            # (the host's copy comes in its lobby frame): both screens then draw the same lines
            await until(
                lambda: session.record_path is not None and (session.client.state.table or {}).get("state") == "over",
                30,
            )
            # and each screen has read its comparison with earlier games (worked out apart, in an
            # executor, from the files on this machine): until then the two differ by that line
            await until(lambda: drawn.cs.game_comparison and drawn.cs.game_comparison == logical.cs.game_comparison, 30)
            await both(screens)
            assert drawn.cs.screen() == "over"
            check(drawn, logical, "the final result")
    finally:
        await host.close()


@run_async
async def test_a_posted_price_and_the_choice_of_buyer_read_in_order_in_persian():
    """The Persian sheet's reading of a Once-around card (docs/rules.md §10): a posted price;
    two takers, and the seller chooses the buyer."""
    from modernart.rules import RuleOptions

    hands = [ANA_HAND, [(1, ONE)], [(2, S)]]
    with speaking("fa"):
        table, (ana, bea, cem) = await table_with(
            ["Ana", "Bot A", "Cem"], hands, first=1, options=RuleOptions(once_around_posted=True)
        )
    async with two_clients(ana) as screens:
        drawn, logical = screens
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        await both(screens)
        check(drawn, logical, "posted price being set")
        await bea.send_move(Move.set_price(1, 4))
        await both(screens)
        assert ana.obs.phase == Phase.POSTED_OFFER
        check(drawn, logical, "posted price offered")
        await cem.send_move(Move.accept(2))
        await ana.send_move(Move.accept(0))
        await both(screens)
        assert ana.obs.phase == Phase.CHOOSE_BUYER
        check(drawn, logical, "the seller chooses the buyer")
