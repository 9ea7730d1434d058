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
    from modernart.cli.tui.in_process_host import HostGameSettings, play_here

    settings = HostGameSettings(players=3, levels=["random", "random"], bot_pace=0, autostart=False)
    host, session = await play_here(settings, "Ana")
    try:
        async with Screen(session) as screen:
            text = await screen.wait_for("this machine only")
            assert "ma://" not in text and "modernart host" in text
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
