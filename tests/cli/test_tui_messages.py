"""The message line never contradicts the table: words about a situation that has passed
are cleared when the auction, its step or the turn changes; a refusal that arrives after
the change is news and is shown."""

from __future__ import annotations

import pytest

from modernart.moves import Move
from modernart.phase import Phase
from tests.e2e.screen import F, O, ONE, Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_not_your_turn_goes_when_the_turn_comes():
    hands = [ANA_HAND, [(1, ONE)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        await screen.wait_for("ONCE-AROUND auction")
        await screen.keys("+")
        await screen.wait_for(r"! Not your turn: Cem bids next")
        await cem.send_move(Move.bid(2, 4))
        text = await screen.wait_for("YOUR TURN: bid above 4")
        assert "Not your turn" not in text and screen.cs.message is None


@run_async
async def test_no_price_to_accept_goes_when_the_price_is_offered():
    hands = [ANA_HAND, [(3, F)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 3, F)))
        await screen.wait_for("FIXED PRICE")
        await screen.keys("a")
        await screen.wait_for("! .*accept")
        await bea.send_move(Move.set_price(1, 15))
        await cem.send_move(Move.decline(2))
        text = await screen.wait_for(r"YOUR TURN: buy for 15\?")
        assert "!" not in screen.rows[-2] and screen.cs.message is None, text


@run_async
async def test_already_passed_goes_with_the_auction():
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.wait_for("OPEN auction")
        await screen.keys("p")
        await screen.keys("p")
        await screen.wait_for("! You have already passed")
        await cem.send_move(Move.bid(2, 3))
        await bea.send_move(Move.hammer(1))
        await cem.send_move(Move.play(2, card_of(cem, 0, O)))  # the next auction: Cem sells
        await screen.wait_for("Auctioneer: Cem")
        assert screen.cs.message is None and "already passed" not in screen.text


@run_async
async def test_a_refusal_after_the_change_is_still_shown():
    hands = [ANA_HAND, [(1, ONE)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        await cem.send_move(Move.bid(2, 8))
        await screen.wait_for("YOUR TURN: bid above 8")
        # a bid typed before Cem's arrived reaches the table after it (a race): refused, and said
        await ana.send_move(Move.bid(0, 6))
        await screen.wait_for("! ")
        assert screen.cs.message is not None and screen.cs.message.kind == "error"
        assert ana.obs.phase == Phase.ONCE_AROUND and ana.obs.high == 8
