"""Client screens, tier 2: the real client drawn through Vt100_Output into pyte at a fixed
size; assertions read the emulated terminal (exact rows, cells, colours)."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.utils import get_cwidth

from modernart.net.clocks import ClockSettings
from modernart.moves import Move
from tests.e2e.screen import (
    SGR,
    D,
    F,
    O,
    ONE,
    S,
    HostFinder,
    Screen,
    colour_codes,
    play_to_the_end,
    quick_game,
    run_async,
    squeezed,
    table_with,
    until,
)
from tests.cli.test_tui_keys import ANA_HAND, ROUND_END_HANDS, card_of, choose, play_to_round_end

pytestmark = pytest.mark.timeout(60)

BOX = set("─│┌┐└┘")


def cell(row: str, x: int) -> str:
    """The character drawn at cell column `x` of a pyte display row."""
    pos = 0
    for ch in row:
        if pos == x:
            return ch
        pos += max(1, get_cwidth(ch))
        if pos > x:
            return ""  # the right half of a wide character
    return " "


def cells(row: str) -> int:
    return sum(max(1, get_cwidth(ch)) for ch in row)


@run_async
async def test_table_at_80x24_shows_every_fact():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        text = await screen.wait_for("YOUR TURN: put up a painting")
        rows = screen.rows
        assert len(rows) == 24 and all(cells(r) == 80 for r in rows)
        assert rows[0].startswith(" Round 1/4 | Ana $100 | YOUR TURN")
        for name in ("L Lite Metal", "Y Yoko", "C Christin P.", "G Karl Gitter", "K Krypto"):
            assert name in text
        assert "R1 R2 R3 R4" in text
        assert re.search(r"\*>Ana +100 +10 ", text)  # you, to act, money, hand size
        assert re.search(r"  Bea +\? +10 ", text) and re.search(r"  Cem +\? +10 ", text)
        assert "[1:O]" in text  # the chosen card, readable without colour
        assert re.search(r"K Krypto +\d+:O +\d+:1 +\d+:F +\d+:D", text)
        assert "> 1: Lite Metal (Open)" in text
        for title in ("Artists", "Auction", "Players", "Your hand", "Log and chat"):
            assert f"─ {title} " in text
        assert "The game begins: Ana, Bea, Cem" in text
        assert rows[-1].startswith(" <- -> choose") and "Enter sell" in rows[-1] and "? help" in rows[-1]
        for y in range(1, 17):  # the two columns of panels meet at cells 39/40
            assert cell(rows[y], 0) in "│┌└" and cell(rows[y], 79) in "│┐┘"


@run_async
async def test_open_panel_live_countdown_and_bids():
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], hands, first=1, clocks=ClockSettings(open_countdown=6, decision=0)
    )
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        text = await screen.wait_for("OPEN auction")
        assert "L Lite Metal (O)  OPEN auction" in text and "Auctioneer: Bea" in text
        assert "No bid yet" in text and "resets on bid" in text
        assert "+:+1 f:+5 t:+10 Enter:bid p:pass" in text
        assert "OPEN AUCTION: bid any time" in screen.rows[0]
        first = re.search(r"Time left +(\d)s", text).group(1)
        later = await screen.wait_for(rf"Time left +(?!{first})\d+s", timeout=3)  # it ticks by itself
        assert int(re.search(r"Time left +(\d)s", later).group(1)) < int(first)
        await cem.send_move(Move.bid(2, 10))
        text = await screen.wait_for("High bid: 10 by Cem")
        assert re.search(r"Time left +[56]s", text)  # restarted by the bid
        await screen.type("12")
        await screen.wait_for("Your bid: 12_")
        await screen.keys("enter")
        text = await screen.wait_for(r"High bid: 12 by Ana \(you\)")
        assert "You hold the high bid (12)" in screen.rows[0]
        assert re.search(r"\*.Ana +100 .*high 12", text)
        ana.notice = "reconnecting..."  # out of touch: the countdown is not left to run down
        ana.changed()
        await screen.wait_for(r"Time left +\?s \(waiting for the host\)")


@run_async
async def test_once_around_panel_shows_the_order():
    hands = [ANA_HAND, [(1, ONE)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        text = await screen.wait_for("ONCE-AROUND auction")
        assert "[Cem] > Ana > Bea" in text and "Cem bids next (once around)" in text
        await cem.send_move(Move.bid(2, 8))
        text = await screen.wait_for(r"Cem 8 > \[Ana\] > Bea")
        assert "YOUR TURN: bid above 8 or p to pass" in text and "Your bid: _" in text


@run_async
async def test_sealed_panel_shows_who_committed_never_amounts():
    hands = [ANA_HAND, [(2, S)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await cem.send_move(Move.sealed_bid(2, 42))
        await screen.wait_for("SEALED auction")
        text = await screen.wait_for("Sealed: Cem ")  # protocol 2: told by the host's clocks, a tick later
        assert "Sealed: Cem " in text and "Waiting for: Ana, Bea " in text
        assert "42" not in text
        await screen.type("17")
        text = await screen.wait_for(r"Your sealed bid: \*\*_")
        assert "17" not in text
        await screen.keys("enter")
        text = await screen.wait_for("Sealed: Ana, Cem ")
        assert "Waiting for: Bea " in text
        assert "Your sealed bid is in; waiting for Bea" in text


@run_async
async def test_fixed_price_panels():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await choose(screen, card_of(ana, 3, F))
        await screen.keys("enter")
        text = await screen.wait_for("FIXED PRICE")
        assert "Set the price (1-100)" in text and "you must buy it yourself" in text
        assert "Enter set price" in screen.rows[-1]
        await screen.type("30")
        await screen.keys("enter")
        text = await screen.wait_for(r"Price: 30")
        assert "[Bea] > Cem" in text and "Bea decides whether to buy at 30" in text
        await bea.send_move(Move.decline(1))
        text = await screen.wait_for(r"Bea no > \[Cem\]")


@run_async
async def test_fixed_price_offer_to_you():
    hands = [ANA_HAND, [(3, F)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 3, F)))
        await bea.send_move(Move.set_price(1, 30))
        await cem.send_move(Move.decline(2))
        text = await screen.wait_for("Buy for 30\\? a: accept  p: decline")
        assert "YOUR TURN: buy for 30? a = accept, p = decline" in text
        assert " a accept " in screen.rows[-1] and " p decline " in screen.rows[-1]


@run_async
async def test_double_offer_panel():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await choose(screen, card_of(ana, 4, D))
        await screen.keys("enter")
        text = await screen.wait_for("DOUBLE")
        assert "K Krypto (D)  DOUBLE" in text and "Offered to YOU: add a second" in text
        assert "Krypto (not a Double) and" in text
        await choose(screen, card_of(ana, 0, O))
        text = await screen.wait_for(r" 1: Lite Metal \(Open\) cannot join")
        await screen.keys("p")
        text = await screen.wait_for("Offered to Bea: a second Krypto")


@run_async
async def test_bad_input_message_is_on_screen():
    hands = [ANA_HAND, [(0, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.wait_for("OPEN auction")
        await screen.type("150")
        await screen.keys("enter")
        await screen.wait_for("! 150 is above your money \\(100\\)")
        assert screen.rows[-2].startswith(" ! 150 is above your money")
        await screen.keys("q", "n", "k")
        await screen.wait_for("'k' is not a number: amounts are typed with digits 0-9")


@run_async
async def test_round_scoring_overlay():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    async with Screen(sessions[0]) as screen:
        await play_to_round_end(sessions)
        text = await screen.wait_for("Round 1 scoring")
        assert "Ended by the fifth Krypto, played by Bea." in text
        assert re.search(r"K Krypto +5 +1st +30 +30", text)
        assert re.search(r"\* Ana +K2 +\+60", text)  # Ana bought two Krypto: 2 x 30
        assert re.search(r"Bea +K1 +\+30", text) and re.search(r"Cem +K1 +\+30", text)
        assert screen.rows[-1].startswith(" Enter back to the table")
        await screen.keys("enter")
        text = await screen.wait_for("Artists")
        assert "Round 1 scoring" not in text
        assert re.search(r"K Krypto +30 +- +\. +\.", text)  # the tile on the board


@run_async
async def test_game_over_screen(tmp_path):
    from modernart.cli.local_table import play_here

    settings = quick_game(tmp_path)
    host, session = await play_here(settings, "Ana")
    try:
        async with Screen(session) as screen:
            await play_to_the_end(session, screen)
            text = await screen.wait_for("GAME OVER")
            obs = session.obs
            assert ("Winner: " if len(obs.winners) == 1 else "Co-winners: ") in text
            for seat in range(3):
                assert re.search(rf"{re.escape(session.names[seat])} .*{obs.final_money[seat]}", text)
            assert "WINNER" in text and "Place  Player          R1    R2    R3    R4   Final money" in text
            # the round columns say whose money they are (the bank's, for paintings held)
            head = next(i for i, r in enumerate(screen.rows) if "R1    R2    R3    R4" in r)
            assert "Bank paid for" in screen.rows[head - 1]
            assert "Final money also counts every sale between players" in text

            # the client saves its copy once the game's secrets are disclosed, a moment after the
            # end; the host's copy is named first if the host's word comes before it
            def own_copy_shown() -> bool:
                own = session.client.state.saved_record
                return own is not None and f"Recordsavedto{own}" in squeezed(screen.rows[1:16])

            await until(own_copy_shown, 15, what=lambda: "\n".join(screen.rows[1:16]))
            assert session.record_path == session.client.state.saved_record
            assert "MODERN ART - game over" in screen.rows[0]
    finally:
        await host.close()


@run_async
async def test_lobby_screen():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    code = table.join_code
    await bea.set_ready(True)
    async with Screen(ana) as screen:
        text = await screen.wait_for("Seats")
        assert f"join code {code}" in screen.rows[0]
        assert re.search(r">1 Ana \(you\) +person +not ready", text)
        assert re.search(r" 2 Bea +person +READY", text)
        # each label in a column of its own, a space before the value (never "Unsold discardedoff")
        assert "Open countdown   60s" in text and "Decision clock   none" in text and "Start money      100" in text
        for _ in range(30):  # the rules box scrolls with the cursor
            if "Unsold discarded" in screen.text:
                break
            await screen.keys("down")
        assert re.search(r"Unsold discarded +off", screen.text), screen.text
        while ">1 Ana" not in screen.text:
            await screen.keys("up")
        await screen.keys("r")
        await screen.wait_for(r">1 Ana \(you\) +person +READY")
        assert " s start " in screen.rows[-1]


@run_async
async def test_join_screen_lists_tables_and_checks_the_code():
    table, _ = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.announce(name="Cem's table")
    finder = HostFinder([table], name="Dai")
    async with Screen(finder=finder) as screen:
        text = await screen.wait_for("Tables on this network")
        assert re.search(r"> Cem's table +this machine +3/5", text)  # the host's lobby has five seats
        await screen.keys("enter")
        await screen.wait_for("Type the join code shown on the host's screen")
        await screen.type("XXXX")
        await screen.keys("enter")
        await screen.wait_for("! Wrong join code: check the code on the host's screen")
        await screen.keys("enter")
        await screen.type(table.join_code.lower())
        await screen.keys("enter")
        # the title comes with the first lobby, the seat with the next (the host seats us)
        text = await screen.wait_for(r"MODERN ART - Cem's table[\s\S]*Dai \(you\)")
        assert "Dai (you)" in text


@run_async
async def test_status_line_warns_when_out_of_touch():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN")
        ana.notice = "reconnecting..."  # what NetSession says while the host is silent
        ana.changed()
        await screen.wait_for("reconnecting")
        assert screen.rows[0].startswith(" reconnecting...  Round 1/4")


@run_async
async def test_clocks_show_a_question_mark_while_out_of_touch():
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], [ANA_HAND], clocks=ClockSettings(open_countdown=60, decision=30)
    )
    async with Screen(ana) as screen:
        await screen.wait_for(r"Time to decide: \d+s")
        ana.notice = "reconnecting..."  # the host's clock runs on unseen: no number that would sit at 0
        ana.changed()
        text = await screen.wait_for(r"Time to decide: \?s")
        assert "[?s] YOUR TURN" in screen.rows[0] and not re.search(r"Time to decide: \d", text)
        ana.notice = ""
        ana.changed()
        await screen.wait_for(r"\[\d+s\] YOUR TURN")


@run_async
async def test_help_overlay():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.keys("?")
        text = await screen.wait_for("Help")
        for word in ("Selling", "Double", "Open", "Once-around", "Sealed", "Fixed price", "Leave"):
            assert word in text
        assert "O Open, 1 Once-around, S Sealed, F Fixed price, D Double" in text
        assert "L Lite Metal  Y Yoko  C Christin P.  G Karl Gitter  K Krypto" in text
        assert screen.rows[-1].startswith(" Esc close help")


@run_async
async def test_too_small_and_live_resize():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("Your hand")
        screen.resize(60, 20)
        text = await screen.wait_for("Terminal too small")
        assert "need 80x24, have 60x20" in text and screen.rows[-1].startswith(" q quit")
        screen.resize(100, 34)
        text = await screen.wait_for("Your hand")
        assert all(cells(r) == 100 for r in screen.rows)
        assert cell(screen.rows[1], 50) == "┌"  # columns split in half
        log_rows = [r for r in screen.rows if r.startswith("│") and cell(r, 99) == "│"]
        assert len(log_rows) > 20
        screen.resize(140, 30)
        text = await screen.wait_for("Log and chat")
        assert cell(screen.rows[1], 92) == "┌" and "Log and chat" in screen.rows[1]  # the log on the right
        assert "Sales this round" in text and "No sales yet this round." in text
        screen.resize(80, 24)
        text = await screen.wait_for("YOUR TURN")
        assert "Terminal too small" not in text and cell(screen.rows[1], 40) == "┌"


@run_async
async def test_no_color_keeps_every_fact():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, env={"TERM": "xterm-256color", "NO_COLOR": "1"}) as screen:
        text = await screen.wait_for("YOUR TURN")
        assert colour_codes(screen.raw) == set()
        assert "[1:O]" in text and "*>Ana" in text and "K Krypto" in text
        assert SGR.search(screen.raw)  # reverse/bold still mark the chosen card and the bars


@run_async
async def test_16_and_256_colours():
    for choice, expect, absent in (("16", "35", "38;5;130"), ("256", "38;5;130", None)):
        table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
        async with Screen(ana, color=choice) as screen:
            await screen.wait_for("YOUR TURN")
            codes = colour_codes(screen.raw)
            assert {"33", "32", "31", "34"} <= codes, codes  # yellow, green, red, blue artists
            assert expect in codes, (choice, codes)
            if absent:
                assert not any(c.startswith("38;") for c in codes), codes


@run_async
async def test_ascii_borders():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, ascii=True) as screen:
        text = await screen.wait_for("YOUR TURN")
        assert not BOX & set(text)
        assert "+- Artists -" in text and screen.rows[2].startswith("|") and "--+" in screen.rows[1]
    async with Screen(ana, encoding="latin-1") as screen:  # cannot encode box drawing: ASCII by itself
        assert screen.cs.ascii


@run_async
async def test_wide_characters_keep_the_columns():
    names = ["王小明", "Беатрис", "Nguyễn"]
    table, sessions = await table_with(names, [ANA_HAND])
    async with Screen(sessions[0]) as screen:
        text = await screen.wait_for("YOUR TURN")
        assert "王小明" in text and "Беатрис" in text and "Nguyễn" in text
        rows = screen.rows
        assert all(cells(r) == 80 for r in rows)
        for y in range(9, 17):  # the players and hand panels
            assert cell(rows[y], 0) in "│┌└" and cell(rows[y], 39) in "│┐┘" and cell(rows[y], 40) in "│┌└"
        me = next(r for r in rows if "王小明" in r and "*" in r)
        assert re.search(r"\*>王小明 +100 +10", me)
        await sessions[0].chat("你好，我出价")
        await screen.wait_for("<王小明> 你好，我出价")
        assert all(cells(r) == 80 for r in screen.rows)


@pytest.mark.parametrize(
    "name, title",
    [("Modern Art", " MODERN ART | join code K7Q2"), ("Cem's table", " MODERN ART - Cem's table | join code K7Q2")],
)
def test_the_lobby_title_does_not_repeat_the_default_table_name(name, title):
    from types import SimpleNamespace

    from modernart.cli.tui.screens.lobby import lobby_header
    from modernart.cli.tui.session import LobbyView
    from modernart.cli.tui.state import ClientState

    session = SimpleNamespace(lobby=LobbyView(name, (), join_code="K7Q2"), notice="")
    assert "".join(text for _, text in lobby_header(ClientState(session), 80)) == title  # type: ignore[arg-type]


@run_async
async def test_page_up_and_down_scroll_the_log_a_page_at_a_time():
    import time

    from modernart.cli.tui.session import LogEntry

    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, cols=100, rows=40) as screen:
        screen.cs.notes.extend(LogEntry(f"note {i:02}", "system", at=time.time() + i) for i in range(60))
        screen.client.app.invalidate()
        await screen.wait_for("note 59")

        def shown() -> list[int]:
            return [int(n) for n in re.findall(r"note (\d\d)", screen.text)]

        first = shown()
        assert len(first) > 4  # the whole log panel (taller than the old three-line step)
        await screen.keys("pageup")
        await screen.wait_for(r"\(scrolled \d+\)")
        back = shown()
        assert max(back) == min(first)  # one line of the page before stays in view
        assert screen.cs.log_scroll == len(first) - 1
        await screen.keys("pagedown")
        await screen.wait_for("note 59")
        assert shown() == first and screen.cs.log_scroll == 0
