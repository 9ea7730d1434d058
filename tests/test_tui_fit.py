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
