"""Everything fits at 80x24: clocks where they are never cut off, columns that keep their
place, sentences that wrap instead of running off the edge."""

from __future__ import annotations

import re

import pytest

from cli.tui.session import Clocks
from modernart.moves import Move
from tests.e2e.screen import D, F, O, ONE, S, Screen, run_async, table_with
from tests.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_the_sellers_decision_clock_is_always_in_view_at_80x24():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND],
                                              clocks=Clocks(open_seconds=60, decision_seconds=30))
    async with Screen(ana) as screen, Screen(bea) as other:
        text = await screen.wait_for("YOUR TURN: put up a painting")
        assert re.search(r"\| \[(30|29|28)s\] YOUR TURN", screen.rows[0]), screen.rows[0]
        assert re.search(r"Time to decide: (30|29|28)s", text)
        text = await other.wait_for("Ana is choosing a painting to sell")
        assert re.search(r"Time to decide: (30|29|28)s", text)


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
        assert "LYCKR" in ana_row and ana_row[now:now + 3].strip() == "", text
