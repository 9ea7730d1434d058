"""At the table (pyte 80x24, the real host in this process): sealed bids you can follow (your
amount hidden, `b` shows it; at the reveal every bid, who won and why), staying out of an
Open auction (`o`), the bell and the window title when a decision becomes yours, the rules
screen (`r`: the auction in progress first), and the first-game hint line."""

from __future__ import annotations

import re

import pytest

from modernart.moves import Move
from modernart.phase import Phase
from modernart.cli.user_settings import UserSettings, load, save
from tests.e2e.screen import ONE, O, S, Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of, mine

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_your_sealed_amount_and_the_reveal():
    hands = [ANA_HAND, [(2, S)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await screen.wait_for("SEALED auction")
        await screen.type("12")
        await screen.keys("enter")
        text = await screen.wait_for(r"Your bid: \*\*")
        assert "(b shows it)" in text and "12" not in re.findall(r"Your bid: \S+", text)[0]
        await screen.keys("b")
        text = await screen.wait_for("Your bid: 12")
        assert "(b hides it)" in text
        await bea.send_move(Move.sealed_bid(1, 12))  # the seller ties Ana: the seller wins it
        await cem.send_move(Move.sealed_bid(2, 3))
        text = await screen.wait_for("Sealed bids: Ana 12, Bea 12, Cem 3", timeout=10)
        assert "a tie: the seller Bea wins it" in text


@run_async
async def test_the_highest_sealed_bid_and_why():
    hands = [ANA_HAND, [(2, S)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await screen.wait_for("SEALED auction")
        await screen.type("9")
        await screen.keys("enter")
        await bea.send_move(Move.sealed_bid(1, 4))
        await cem.send_move(Move.sealed_bid(2, 0))
        text = await screen.wait_for("Sealed bids: Ana 9, Bea 4, Cem 0", timeout=10)
        assert "Ana wins with the highest bid" in text


@run_async
async def test_staying_out_of_an_open_auction():
    hands = [ANA_HAND, [(0, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.wait_for("OPEN auction")
        await screen.keys("o")
        assert mine(screen, table)[-1] == Move.pass_(0)  # out at once
        assert "You stay out of this auction" in screen.cs.message.text
        await cem.send_move(Move.bid(2, 5))  # a new bid: passes are not binding, so pass again
        await screen.settle(0.3)
        await screen.table_settled()
        assert mine(screen, table)[-1] == Move.pass_(0) and len(mine(screen, table)) == 2
        await screen.keys("o")  # back in: no more passes by themselves
        assert "back in this auction" in screen.cs.message.text
        await bea.send_move(Move.bid(1, 7))
        await screen.settle(0.3)
        assert len(mine(screen, table)) == 2
        await screen.keys("+")  # a bid of one's own
        assert mine(screen, table)[-1] == Move.bid(0, 8)
        assert ana.obs.phase == Phase.OPEN


@run_async
async def test_the_bell_and_the_window_title_when_a_decision_is_yours():
    for alerts in (True, False):  # on, and turned off
        hands = [ANA_HAND, [(1, ONE)], []]
        table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
        async with Screen(ana, alerts=alerts) as screen:
            await screen.wait_for("Bea is choosing")
            before = screen.raw
            assert "\x1b]2;modernart: your turn\x07" not in before
            await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))  # Once-around: Cem first, then Ana
            await cem.send_move(Move.pass_(2))
            await screen.wait_for("YOUR TURN")
            raw = screen.raw[len(before) :]
            assert ("\a" in raw and "\x1b]2;modernart: your turn\x07" in raw) == alerts, repr(raw[-200:])


@run_async
async def test_the_rules_screen_explains_the_auction_in_progress_first(tmp_path):
    hands = [ANA_HAND, [(0, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana, settings_dir=str(tmp_path)) as screen:
        text = await screen.wait_for("Bea is choosing")
        assert "New here? r explains the rules" in text  # a first game: where there is room
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        text = await screen.wait_for("OPEN auction")
        await screen.keys("r")
        text = await screen.wait_for("Rules")
        now = text.index(" Now")
        assert "Bea is selling. Open: anyone, the seller" in text, text
        assert text.index("The whole game") > now
        await screen.keys("down", "down")
        assert screen.cs.rules_scroll == 2
        await screen.keys("esc")
        assert screen.cs.overlay is None


def test_the_first_game_hint_goes_once_a_game_is_finished(tmp_path):
    assert load(tmp_path).first_game
    save(UserSettings(games_finished=1), tmp_path)
    assert not load(tmp_path).first_game
    (tmp_path / "settings.json").write_text('{"games_finished": "lots", "alerts": 3}')  # hand-edited badly
    assert load(tmp_path) == UserSettings()
    (tmp_path / "settings.json").write_text("not json")
    assert load(tmp_path) == UserSettings()


@run_async
async def test_no_hint_after_the_first_game(tmp_path):
    save(UserSettings(games_finished=2), tmp_path)
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, settings_dir=str(tmp_path)) as screen:
        text = await screen.wait_for("Your hand")
        assert "New here?" not in text
