"""The round's scoring overlay never gives the table a key meant for it: when the player's
decision comes while it is up, it stays, the status line says that their turn has come, and
the next key, whichever it is, only closes it."""

from __future__ import annotations

import pytest

from modernart.cards import AuctionType
from modernart.moves import Move
from modernart.phase import Phase
from tests.e2e.screen import Screen, run_async, table_with
from tests.cli.test_tui_keys import ROUND_END_HANDS, card_of, mine, play_to_round_end

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("key", ["enter", "7", "p"])
@run_async
async def test_scoring_overlay_stays_when_the_turn_comes_and_the_closing_key_does_nothing_else(key):
    """Issue 27 item 2: on a2b2fc2 the overlay closed by itself when Ana's Sealed bid was
    asked, and the Enter meant to close it acted at the table."""
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
        text = await screen.wait_for("YOUR TURN has come: any key takes you back to the table")
        assert screen.cs.overlay == "scoring" and ana.obs.phase == Phase.SEALED
        assert "Round 1 scoring" in text and "Enter back to the table" in screen.rows[-1]
        await screen.keys(key)  # closes the overlay, and nothing else
        assert screen.cs.overlay is None and screen.cs.amount == "" and mine(screen, table) == []
        assert "YOUR TURN has come" not in (await screen.wait_for("SEALED auction"))
        await screen.keys("7")  # the keys are the table's again
        assert screen.cs.amount == "7"
        await screen.keys("backspace", "s")  # and it can still be seen again
        assert screen.cs.overlay == "scoring"
        await screen.keys("up")  # asked for during the turn: its own keys (Up does nothing)
        assert screen.cs.overlay == "scoring"
        await screen.keys("enter")
        assert screen.cs.overlay is None and mine(screen, table) == []


@run_async
async def test_the_rules_overlay_also_stays_and_its_own_keys_wait_for_the_turn_to_be_seen():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana, dummy=True) as screen:
        await play_to_round_end(sessions)
        await screen.settle()
        await screen.keys("enter")
        await screen.keys("r")
        assert screen.cs.overlay == "rules"
        seller = next(s for s in sessions if s.obs.seat == ana.obs.auctioneer)
        card = next(c for c in seller.obs.hand if c.kind == AuctionType.SEALED)
        await seller.send_move(Move.play(seller.obs.seat, card))
        await screen.settle()
        assert screen.cs.overlay == "rules" and screen.cs.turn_came()
        await screen.keys("down")  # would scroll the rules: now it only closes them
        assert screen.cs.overlay is None and screen.cs.rules_scroll == 0 and mine(screen, table) == []


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
async def test_the_player_who_opens_the_next_round_sees_the_scoring_and_keeps_the_chosen_card():
    hands = [*ROUND_END_HANDS[:2], [*ROUND_END_HANDS[2], (4, AuctionType.FIXED_PRICE)]]
    table, sessions = await table_with(["Ana", "Bea", "Cem"], hands)
    cem = sessions[2]
    async with Screen(cem) as screen:
        hand = screen.cs.sorted_hand()
        kept = card_of(cem, 4, AuctionType.FIXED_PRICE)  # a Krypto he keeps: new cards sort before it
        before = next(i for i, c in enumerate(hand) if c == kept)
        screen.cs.select(before)
        chosen = screen.cs.selected_card()
        await play_to_round_end(sessions)
        await screen.settle()
        assert cem.obs.seat in cem.obs.to_move and cem.obs.round == 1  # Cem opens round 2
        assert screen.cs.overlay == "scoring" and screen.cs.turn_came()
        await screen.wait_for("YOUR TURN has come")
        await screen.keys("enter")  # closes it: no painting is put up
        assert screen.cs.overlay is None and screen.cs.sent == [] and cem.obs.phase == Phase.PLAY_CARD
        after = screen.cs.sorted_hand()
        assert after.index(chosen) != before  # the deal sorted cards in before it
        assert screen.cs.selected_card() == chosen  # and the choice followed the card
        await screen.keys("s")
        assert screen.cs.overlay == "scoring"  # still there when asked for
