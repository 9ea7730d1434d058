"""The round's scoring overlay never keeps a player from the table when the table needs
them: it closes (saying so) as soon as their turn comes or an auction they may bid in opens."""

from __future__ import annotations

import pytest

from modernart.cards import AuctionType
from modernart.moves import Move
from modernart.phase import Phase
from tests.e2e.screen import Screen, run_async, table_with
from tests.cli.test_tui_keys import ROUND_END_HANDS, card_of, mine, play_to_round_end

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_scoring_overlay_gives_way_when_the_player_is_needed():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana, bea, cem = sessions
    async with Screen(ana) as screen:
        await play_to_round_end(sessions)
        await screen.wait_for("Round 1 scoring")
        assert screen.cs.overlay == "scoring"
        seller = next(s for s in sessions if s.obs.seat == ana.obs.auctioneer)
        assert seller is not ana  # the next seller is someone else: the overlay may stay meanwhile
        # a Sealed auction needs Ana's bid (an Open one needs nobody: see the test below)
        card = next(c for c in seller.obs.hand if c.kind == AuctionType.SEALED)
        await seller.send_move(Move.play(seller.obs.seat, card))
        text = await screen.wait_for("scoring closed: you are needed")
        assert screen.cs.overlay is None and ana.obs.phase == Phase.SEALED
        assert "SEALED auction" in text
        log = text.split("Log and chat")[1]
        assert "Round 1 scoring closed: you are needed" in log  # a note in the log too
        await screen.keys("7")  # the keys are the table's again
        assert screen.cs.amount == "7"
        await screen.keys("s")  # and it can still be seen again
        assert screen.cs.overlay == "scoring"


@run_async
async def test_scoring_overlay_stays_over_an_open_auction_of_others_until_closed():
    """An Open auction waits for nobody (anyone may bid, nobody must): the scoring stays up
    until the player closes it; then the auction is there to bid in."""
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana) as screen:
        await play_to_round_end(sessions)
        await screen.wait_for("Round 1 scoring")
        seller = next(s for s in sessions if s.obs.seat == ana.obs.auctioneer)
        card = next(c for c in seller.obs.hand if c.kind == AuctionType.OPEN)
        await seller.send_move(Move.play(seller.obs.seat, card))
        await screen.settle()
        assert ana.obs.phase == Phase.OPEN and screen.cs.overlay == "scoring"
        await screen.wait_for("Round 1 scoring")
        assert "OPEN AUCTION" in screen.rows[0]  # the status line still says what goes on
        await screen.keys("enter")
        assert screen.cs.overlay is None
        await screen.keys("+")
        assert mine(screen, table)[-1] == Move.bid(0, 1)


@run_async
async def test_scoring_overlay_stays_while_others_act():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana, dummy=True) as screen:
        await play_to_round_end(sessions)
        await screen.settle()
        assert screen.cs.overlay == "scoring"
        await sessions[0].chat("hello")  # a change that does not need Ana
        await screen.settle()
        assert screen.cs.overlay == "scoring"


@run_async
async def test_the_player_who_opens_the_next_round_is_told_not_blocked_and_keeps_the_chosen_card():
    hands = [*ROUND_END_HANDS[:2], [*ROUND_END_HANDS[2], (4, AuctionType.FIXED_PRICE)]]
    table, sessions = await table_with(["Ana", "Bea", "Cem"], hands)
    cem = sessions[2]
    async with Screen(cem, dummy=True) as screen:
        hand = screen.cs.sorted_hand()
        kept = card_of(cem, 4, AuctionType.FIXED_PRICE)  # a Krypto he keeps: new cards sort before it
        before = next(i for i, c in enumerate(hand) if c == kept)
        screen.cs.select(before)
        chosen = screen.cs.selected_card()
        await play_to_round_end(sessions)
        await screen.settle()
        assert cem.obs.seat in cem.obs.to_move and cem.obs.round == 1  # Cem opens round 2
        assert screen.cs.overlay is None  # nothing hides his hand or clock
        assert screen.cs.message is not None and "Round 1 scored" in screen.cs.message.text
        after = screen.cs.sorted_hand()
        assert after.index(chosen) != before  # the deal sorted cards in before it
        assert screen.cs.selected_card() == chosen  # and the choice followed the card
        await screen.keys("s")
        assert screen.cs.overlay == "scoring"  # still there when asked for
