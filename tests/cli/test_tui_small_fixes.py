"""The smaller things a player met (pyte 80x24, the real host in this process): value hints
in the artists and players panels; `q` on the "terminal too small" screen asks first; the
seller offered their own Double is not told it "makes them the auctioneer"; a table of this
machine only shows no join string; an old error does not stay under a dialog."""

from __future__ import annotations

import re

import pytest

from modernart.moves import Move
from tests.e2e.screen import D, O, Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_value_hints_if_the_round_ended_now():
    hands = [ANA_HAND, [(4, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 4, O)))
        await ana.send_move(Move.bid(0, 3))
        await bea.send_move(Move.hammer(1))
        text = await screen.wait_for("Last sale")
        assert re.search(r"Artist +R1 R2 R3 R4  Round +Now", text), text
        assert re.search(r"K Krypto +- +\. +\. +\. +#\.\.\.\. 1 +30", text), text  # first: 30 if it ended now
        assert re.search(r"L Lite Metal .* 0 +-", text)
        assert re.search(r"\* Ana .* K1 =30", text), text  # Ana's purchase would be paid 30


@run_async
async def test_q_on_the_too_small_screen_asks_first():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("Your hand")
        screen.resize(60, 20)
        await screen.wait_for("Terminal too small")
        await screen.keys("q")
        await screen.wait_for("Leave the table?")
        assert screen.cs.overlay == "quit"
        await screen.keys("n")
        await screen.wait_for("Terminal too small")
        screen.resize(80, 24)
        await screen.wait_for("Your hand")  # still at the table


@run_async
async def test_the_seller_offered_their_own_double_stays_the_auctioneer():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(bea) as screen:
        await ana.send_move(Move.play(0, card_of(ana, 4, D)))
        text = await screen.wait_for("Offered to Ana: a second Krypto")
        assert "to auction both themselves" in text and "makes them the auctioneer" not in text
        await ana.send_move(Move.decline_second(0))
        text = await screen.wait_for("Offered to YOU|Offered to Bea")


@run_async
async def test_an_old_error_does_not_stay_under_a_dialog():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND], first=1)
    async with Screen(ana) as screen:
        await screen.wait_for("Bea is choosing")
        await screen.keys("p")
        assert screen.cs.message is not None and screen.cs.message.kind == "error"
        await screen.keys("?")
        assert screen.cs.overlay == "help" and screen.cs.message is None


@run_async
async def test_a_table_of_this_machine_only_shows_no_join_string(tmp_path):
    from modernart.cli.local_table import play_here
    from modernart.cli.tui.local_game import TableSettings

    settings = TableSettings(players=3, levels=["random", "random"], bot_pace=0, autostart=False)
    host, session = await play_here(settings, "Ana")
    try:
        async with Screen(session) as screen:
            text = await screen.wait_for("this machine only")
            assert "ma://" not in text and "modernart host" in text
            assert "join code" not in screen.rows[0], screen.rows[0]  # nobody could use it (issue 27)
    finally:
        await host.close()


@run_async
async def test_the_80_column_status_line_keeps_its_sentence_whole():
    """A key hint inside the sentence ("(Enter)") goes before the sentence is cut."""
    table, (ana, bea, cem) = await table_with(["Maximiliane", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await ana.send_move(Move.play(0, card_of(ana, 4, D)))
        await screen.wait_for("Offered to YOU")
        top = screen.rows[0].rstrip()
        assert "…" not in top and top.endswith("YOUR TURN: add a second Krypto or p to pass"), top


# ---------------------------------------------------------------------- issue 27, point 5


@run_async
async def test_friends_are_told_two_ways_to_join_each_a_whole_command():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana) as screen:
        text = await screen.wait_for("Seats")
        joined = " ".join(row.strip() for row in screen.rows[1:4])
        assert f"Friends join with: modernart join {table.join_code}." in joined, joined
        assert "Or, where that finds no table: modernart join followed by this join string:" in joined
        assert table.join_string in text  # on a line of its own


@run_async
async def test_two_players_of_the_same_login_name_are_told_apart():
    table, (ana, bea, cem) = await table_with(["Player", "Bea", "Player"], [ANA_HAND])
    async with Screen(ana) as screen:
        text = await screen.wait_for("Player #3")
        assert "Player #1" in text and "Player #3" in text and "Bea" in text
        players = "".join(screen.rows[9:14])
        assert re.search(r"Play?e?r? ?#1", players) and re.search(r"Play?e?r? ?#3", players), players


@run_async
async def test_help_lists_o_b_and_r_and_leaves_no_border_of_the_table_showing():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.keys("?")
        text = await screen.wait_for("Help")
        flat = " ".join(re.sub("[│┌┐└┘─]", " ", text).split())  # the help's sentences, unwrapped
        assert "o stays out" in flat and "b shows or hides it" in flat and "r rules" in flat
        box = [r for r in screen.rows if r[1:2] in ("┌", "│", "└")]
        assert len(box) >= 10 and all(r[0] == " " and r[79] == " " for r in box), box  # a blank margin
        await screen.keys("esc", "r")
        await screen.wait_for("Rules")
        box = [r for r in screen.rows if r[1:2] in ("┌", "│", "└")]
        assert len(box) >= 10 and all(r[0] == " " and r[79] == " " for r in box), box


@run_async
async def test_after_p_or_o_the_status_line_no_longer_invites_a_bid():
    hands = [ANA_HAND, [(4, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 4, O)))
        await screen.wait_for("OPEN AUCTION: bid any time, or p to pass")
        await screen.keys("p")
        await screen.wait_for("OPEN AUCTION: you passed \\(a bid brings you back in\\)")
        await screen.keys("o")
        await screen.wait_for("OPEN AUCTION: you stay out \\(o: back in\\)")
        await screen.keys("o")
        await cem.send_move(Move.bid(2, 3))  # a new bid: passes are not binding, Ana may bid again
        await screen.wait_for("OPEN AUCTION: bid any time, or p to pass")


@run_async
async def test_the_hammer_call_status_line_is_whole_at_80_columns():
    from modernart.net.clocks import ClockSettings

    hands = [ANA_HAND, [(4, O)], []]
    clocks = ClockSettings(open_countdown=60, decision=0, hammer_call=8)
    table, (ana, bea, cem) = await table_with(["Annabel Lee", "Bea", "Cem"], hands, first=1, clocks=clocks)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 4, O)))
        await cem.send_move(Move.bid(2, 2))
        await bea.send_move(Move.hammer(1))
        await screen.wait_for("sold in")
        status = screen.rows[0].rstrip()
        assert re.search(r"\[sold in \ds\] a bid stops the hammer, p passes$", status), status
        assert "…" not in status and "..." not in status


@run_async
async def test_the_too_small_screen_says_it_is_your_turn():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("YOUR TURN")
        screen.resize(60, 20)
        text = await screen.wait_for("Terminal too small")
        assert "YOUR TURN: the table is waiting for you" in text
        await ana.send_move(Move.play(0, card_of(ana, 0, O)))
        await bea.send_move(Move.bid(1, 3))
        await ana.send_move(Move.hammer(0))
        await screen.drawn()
        assert "waiting for you" not in screen.text  # Bea's turn now


@pytest.mark.parametrize("overlay", ["?", "r", "v"])
@run_async
async def test_in_chinese_an_overlay_keeps_both_borders_beside_wide_characters(overlay):
    """Issue 27 saw an overlay's border lost in tmux where a Chinese character straddled it;
    the overlay now keeps a blank cell on either side.  (In this pyte screen the old overlay
    kept its border too: this checks the borders, it does not reproduce the tmux case.)"""
    from tests.cli.test_tui_fit import cells_of

    # names whose wide characters start where an overlay's edge is (the players panel,
    # columns 7 and 8: prompt_toolkit skips the cell after a wide character)
    table, (ana, bea, cem) = await table_with(["a安娜娜", "ab安娜", "Cem"], [ANA_HAND])
    async with Screen(ana, lang="zh") as screen:
        await screen.drawn()
        await screen.keys(overlay)
        await screen.drawn()
        rows = [cells_of(r) for r in screen.rows]
        tops = [i for i, row in enumerate(rows) if "┌" in row[:12]]
        top = tops[0]
        col = rows[top].index("┌")
        right = rows[top].index("┐", col)
        bottom = next(i for i in range(top, len(rows)) if rows[i][col] == "└")
        for i in range(top + 1, bottom):
            assert rows[i][col] == "│" and rows[i][right] == "│", (overlay, i, screen.rows[i])
