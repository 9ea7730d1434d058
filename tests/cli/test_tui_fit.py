"""Everything fits at 80x24: clocks where they are never cut off, columns that keep their
place, sentences that wrap instead of running off the edge."""

from __future__ import annotations

import re

from prompt_toolkit.utils import get_cwidth

from modernart.cli.bidi import reordering, visual
from modernart.cli.i18n import _, speaking

import pytest

from modernart.net.clocks import ClockSettings
from modernart.rules import RuleOptions
from modernart.moves import Move
from tests.e2e.screen import D, F, O, ONE, S, Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_the_sellers_decision_clock_is_always_in_view_at_80x24():
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], [ANA_HAND], clocks=ClockSettings(open_countdown=60, decision=30)
    )
    # the 30 s clock, seen within 10 s of its start (a loaded machine took over 2 s to draw)
    async with Screen(ana) as screen, Screen(bea) as other:
        text = await screen.wait_for("YOUR TURN: put up a painting")
        assert re.search(r"\| \[(30|2\d)s\] YOUR TURN", screen.rows[0]), screen.rows[0]
        assert re.search(r"Time to decide: (30|2\d)s", text)
        text = await other.wait_for("Ana is choosing a painting to sell")
        assert re.search(r"Time to decide: (30|2\d)s", text), text


@run_async
async def test_a_long_bought_list_keeps_the_now_column_in_place():
    hands = [[(0, O), (3, O)], [(1, O), (4, O)], [(2, O)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands)
    for seller, artist in ((ana, 0), (bea, 1), (cem, 2), (ana, 3), (bea, 4)):
        await seller.send_move(Move.play(seller.seat, card_of(seller, artist, O)))
        if seller is not ana:
            await ana.send_move(Move.bid(0, 1))
        await seller.send_move(Move.hammer(seller.seat))
    assert len(ana.obs.bought[0]) == 5
    async with Screen(ana) as screen:
        text = await screen.wait_for("Cem is choosing")
        head = next(r for r in screen.rows if "Money Hand" in r)
        now = head.index("Now")
        ana_row = next(r for r in screen.rows if "*" in r[:4] and "Ana" in r)
        cem_row = next(r for r in screen.rows if r[1:4] == " > " or ("Cem" in r[:12] and "seller" in r))
        assert cem_row.index("seller") == now, text
        assert "LYCGK" in ana_row and ana_row[now : now + 3].strip() == "", text


FIVE = ["Ana", "Bot Alpha", "Bot Bravo", "Bot Charlie", "Bot Delta"]


def whole(screen: Screen) -> None:
    """Every row of the screen is exactly as wide as the terminal (nothing spills over)."""
    assert all(len(r) == 80 for r in screen.rows)


@run_async
async def test_five_long_names_sealed_status_counts_instead_of_cutting():
    table, sessions = await table_with(FIVE, [ANA_HAND, [(2, S)]], first=1)
    ana, bea = sessions[0], sessions[1]
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await screen.wait_for("SEALED auction")
        await screen.type("5")
        await screen.keys("enter")
        await screen.wait_for("waiting for 4 more")
        assert screen.rows[0].rstrip().endswith("waiting for 4 more")
        text = screen.text
        for name in FIVE[1:]:  # the panel lists them, on lines of their own when needed
            assert name in text.split("Waiting for:")[1], name


@run_async
async def test_once_around_order_wraps_instead_of_cutting():
    table, sessions = await table_with(FIVE, [ANA_HAND, [(2, ONE)]], first=1)
    ana, bea = sessions[0], sessions[1]
    async with Screen(ana) as screen:
        await screen.wait_for("Bot Alpha is choosing")
        await bea.send_move(Move.play(1, card_of(bea, 2, ONE)))
        await screen.wait_for("ONCE-AROUND")
        auction = "\n".join(r[40:] for r in screen.rows[1:9])
        assert "C Christin P. (1)  ONCE-AROUND" in auction and "auctio│" not in auction
        assert "[Bot Bravo]" in auction and "Bot Charlie" in auction and "Bot Delta" in auction
        assert re.search(r"Ana\s*>\s*Bot Alpha", auction.replace("│", " ")), auction
        order = [
            r[40:].strip("│ ")
            for r in screen.rows[1:9]
            if re.search(r"\bBot (Alpha|Charlie|Delta)\b|\bAna\b", r) and "Auctioneer" not in r
        ]
        assert len(order) >= 2 and all(r.startswith("> ") for r in order[1:]), order  # a wrapped order goes on


@run_async
async def test_open_hints_fit_for_the_auctioneer():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await ana.send_move(Move.play(0, card_of(ana, 0, O)))
        text = await screen.wait_for("OPEN auction")
        assert "Enter:bid +/f/t:+1/5/10 p:pass h:sell" in text


@run_async
async def test_offered_double_text_is_whole():
    hands = [ANA_HAND, [], [(2, D)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=2)
    async with Screen(ana) as screen:
        await cem.send_move(Move.play(2, card_of(cem, 2, D)))
        await cem.send_move(Move.decline_second(2))
        await bea.send_move(Move.decline_second(1))
        text = await screen.wait_for("Offered to YOU")
        assert "Christin P. (not a Double) and" in text and "auction both, or p to pass it on" in text


@run_async
async def test_cmon_artist_names_are_all_in_one_style():
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], [ANA_HAND], options=RuleOptions(edition="cmon2017")
    )
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN")
        panels = "\n".join(r[:40] for r in screen.rows[1:17])
        for surname in ("Carvalho", "Thaler", "Melim", "Martins", "Silveira"):
            assert surname in panels, surname
        assert "Daniel Melim" not in panels and not re.search(r"\b(MC|ST|DM|RM|RS)\b", panels), panels


@run_async
async def test_a_long_message_wraps_to_a_second_line():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN")
        long = "A bid of 20 does not beat the high bid of 20: a bid is at least 1 more than the high bid, always"
        screen.cs.error(long)
        screen.client.app.invalidate()
        await screen.wait_for("always")
        rows = screen.rows
        assert rows[-3].startswith(" ! A bid of 20") and rows[-2].strip().endswith("always")
        whole(screen)


@run_async
async def test_a_long_status_line_drops_its_key_hint_then_is_cut_with_a_mark():
    table, (ana, bea, cem) = await table_with(
        ["Maximiliane", "Bea", "Cem"], [ANA_HAND], clocks=ClockSettings(open_countdown=60, decision=30)
    )
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN: put up a painting")
        top = screen.rows[0].rstrip()
        assert re.fullmatch(r" Round 1/4 \| Maximiliane \$100 \| \[\d+s\] YOUR TURN: put up a painting", top), top
    # the longest name the host takes (24 characters), with a five-digit fortune
    table, (ana, bea, cem) = await table_with(
        ["Maximiliane von Habsburg", "Bea", "Cem"],
        [ANA_HAND],
        clocks=ClockSettings(open_countdown=60, decision=30),
        options=RuleOptions(start_money=10_000),
    )
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN")
        top = screen.rows[0].rstrip()
        assert top.startswith(" Round 1/4 | ") and "[" in top and len(top) <= 80, top
        assert "(" not in top and top.endswith("…"), top


# ---------------------------------------------------------------------- every language

LANGS = ["en", "zh", "fa"]
BORDERS = set("│┌┐└┘─")


def cells_of(row: str) -> list[str]:
    """The characters of a screen row, one entry per terminal cell (a wide character fills
    two: itself and an empty one), measured as the client measures (get_cwidth, not len)."""
    out: list[str] = []
    for ch in row:
        w = get_cwidth(ch)
        out += [ch] + [""] * (w - 1) if w > 0 else []
    return out


def drawn_as(lang: str, message: str) -> str:
    """`message` as a client in `lang` draws it (translated; Persian shaped and reordered)."""
    with speaking(lang), reordering("client"):
        return visual(_(message))


def fits(screen: Screen, what: str, overlay: bool = False) -> None:
    """Every row takes exactly 80 cells, and (no overlay over them) the panels' borders are
    in their columns: no wide character pushed a border aside or spilled into the neighbour."""
    rows = screen.rows
    for i, row in enumerate(rows):
        assert get_cwidth(row) == 80, (what, i, row)
    if overlay:
        return
    for i, row in enumerate(rows[1:17], start=1):
        cells = cells_of(row)
        for col in (0, 39, 40, 79):
            assert cells[col] in BORDERS, (what, i, col, row)


@pytest.mark.parametrize("lang", LANGS)
@run_async
async def test_every_language_fits_80x24(lang):
    """Ana's client in `lang` at a table walked through the auction panels and overlays."""
    hands = [ANA_HAND, [(2, S), (1, ONE), (0, F)], [(4, D), (4, ONE)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands)
    async with Screen(ana, lang=lang) as screen:
        await screen.keys("right")
        await screen.drawn()
        fits(screen, f"{lang}: selling")
        assert drawn_as(lang, "Your hand") in screen.text  # in that language
        await screen.keys("?")
        await screen.drawn()
        fits(screen, f"{lang}: help", overlay=True)
        await screen.keys("esc")
        await ana.send_move(Move.play(0, card_of(ana, 0, O)))
        await screen.drawn()
        fits(screen, f"{lang}: open, auctioneer")
        await bea.send_move(Move.bid(1, 7))
        await screen.drawn()
        fits(screen, f"{lang}: open, outbid")
        await ana.send_move(Move.hammer(0))
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await screen.drawn()
        fits(screen, f"{lang}: sealed")
        await screen.type("3")
        await screen.keys("enter")
        await screen.drawn()
        fits(screen, f"{lang}: sealed, mine in")
        await screen.keys("q")
        await screen.drawn()
        fits(screen, f"{lang}: leave?", overlay=True)
        await screen.keys("n")


@pytest.mark.parametrize("lang", LANGS)
@run_async
async def test_every_language_fits_80x24_in_the_lobby_and_double_offer(lang):
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana, lang=lang) as screen:
        await screen.drawn()
        fits(screen, f"{lang}: lobby", overlay=True)
    hands = [ANA_HAND, [], [(2, D)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=2)
    async with Screen(ana, lang=lang) as screen:
        await cem.send_move(Move.play(2, card_of(cem, 2, D)))
        await cem.send_move(Move.decline_second(2))
        await bea.send_move(Move.decline_second(1))
        await screen.drawn()
        fits(screen, f"{lang}: double offered")
        assert ana.obs.card_action() is not None
