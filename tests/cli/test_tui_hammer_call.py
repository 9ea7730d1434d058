"""The hammer call on screen (pyte, 80x24, the real host in this process): every player sees
the call and its countdown in the auction panel, the status line and the log; a bid
stops it; when it completes the painting is sold."""

from __future__ import annotations

import pytest

from modernart.moves import Move
from modernart.phase import Phase
from modernart.net.clocks import ClockSettings
from tests.e2e.screen import O, Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)

CLOCKS = ClockSettings(open_countdown=60, decision=0, hammer_call=4)


@run_async
async def test_every_screen_shows_the_call_and_a_bid_stops_it():
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1, clocks=CLOCKS)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.wait_for("OPEN auction")
        await bea.send_move(Move.hammer(1))  # at once: the call starts, nothing is sold
        text = await screen.wait_for(r"Going once, going twice: [34]s")
        assert "Bea's hammer; a bid stops it" in text
        assert "[sold in " in screen.rows[0]
        assert "Bea calls: going once, going twice... (4 s; a bid stops it)" in text
        assert ana.obs.phase == Phase.OPEN
        await screen.keys("+")  # Ana outbids within the call
        text = await screen.wait_for("Bea's bid stops the hammer|Ana's bid stops the hammer")
        assert "Ana's bid stops the hammer" in text
        assert "Going once" not in text and "[sold in" not in screen.rows[0]
        assert ana.obs.phase == Phase.OPEN and ana.obs.high_seat == 0


@run_async
async def test_the_call_completes_and_sells():
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], hands, first=1, clocks=ClockSettings(open_countdown=60, decision=0, hammer_call=2.5)
    )  # a call long enough to be seen on a loaded machine (1 s was over before one frame)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.wait_for("OPEN auction")
        await cem.send_move(Move.bid(2, 4))
        await bea.send_move(Move.hammer(1))
        await screen.wait_for("Going once, going twice")
        text = await screen.wait_for("SOLD: Lite Metal to Cem for 4", timeout=10)
        assert "Going once" not in text.split("Log and chat")[0]
        assert ana.obs.phase == Phase.PLAY_CARD
