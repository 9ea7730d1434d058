"""The client's panels for the variants' own steps (docs/rules.md §10), at the real host by
key presses: the posted price, the seller's choice of buyer, the mystery hand, Sealed
without the seller, and the lobby's variant row with its one-line explanations."""

from __future__ import annotations

import re

from modernart.moves import Move
from modernart.rules import RuleOptions
from tests.e2e.screen import O, ONE, S, Screen, run_async, table_with
from tests.cli.test_tui_keys import card_of, choose

POSTED = RuleOptions(once_around_posted=True)


@run_async
async def test_posted_price_then_the_seller_chooses_the_buyer_by_seat_number():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [[(1, ONE), (0, O)]], options=POSTED)
    async with Screen(ana) as screen:
        await choose(screen, card_of(ana, 1, ONE))
        await screen.keys("enter")
        text = await screen.wait_for("POSTED PRICE")
        assert "Post a price (1-100). Anyone may" in text
        await screen.type("20")
        await screen.keys("enter")
        text = await screen.wait_for(r"Price: 20")
        assert "Bea, Cem decide whether to take 20" in text
        await bea.send_move(Move.accept(1))
        await cem.send_move(Move.accept(2))
        text = await screen.wait_for("To choose from:")
        assert "2 Bea" in text and "3 Cem" in text and "YOUR TURN: choose the buyer (press 2 3)" in text
        await screen.keys("1")
        await screen.wait_for("Ana is not among the buyers to choose from")
        await screen.keys("3")
        await screen.wait_for("to Cem for 20")
    assert ana.obs.sales[-1].buyer == 2


@run_async
async def test_a_posted_price_offered_to_you():
    hands = [[(0, O)], [(1, ONE)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1, options=POSTED)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        await bea.send_move(Move.set_price(1, 15))
        text = await screen.wait_for(r"Take it for 15\? a: take  p: leave")
        assert "YOUR TURN: take it for 15? a = take, p = leave" in text and " p leave " in screen.rows[-1]
        await screen.keys("a")
        await screen.wait_for("Ana takes")


@run_async
async def test_sealed_without_the_seller():
    options = RuleOptions(sealed_excludes_seller=True)
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [[(2, S), (0, O)]], options=options)
    async with Screen(ana) as screen:
        await choose(screen, card_of(ana, 2, S))
        await screen.keys("enter")
        text = await screen.wait_for("SEALED auction")
        assert "The seller makes no bid" in text and "You are the seller: the others bid" in text
        assert "Your sealed bid" not in text


@run_async
async def test_the_buyer_turns_up_the_mystery_hand():
    options = RuleOptions(mystery_hand="hig")
    hands = [[(0, O)], [(1, O)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1, options=options)
    async with Screen(ana) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, O)))
        await screen.wait_for("OPEN auction")
        await screen.type("5")
        await screen.keys("enter")
        await bea.send_move(Move.pass_(1))
        await cem.send_move(Move.pass_(2))
        text = await screen.wait_for("Mystery hand: 9 cards face down")
        assert "m: turn up its top card (it counts)" in text and " m turn up " in screen.rows[-1]
        await screen.keys("m")
        await screen.wait_for("Ana turns up the mystery hand")
    assert ana.obs.mystery_size == 8 and len(ana.obs.flipped) == 1


@run_async
async def test_the_lobby_sets_a_variant_and_explains_each_rule_in_one_line():
    from modernart.cli.tui.screens.lobby import lobby_rows

    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana) as screen:
        await screen.wait_for("Seats")
        rows = lobby_rows(ana.lobby)
        for _ in range(rows.index(("variant", "variant"))):
            await screen.keys("down")
        text = await screen.wait_for(">Variant")
        assert "standard" in text and "A rule sheet's set of options" in text
        await screen.keys("right")
        text = await screen.wait_for(">Variant +zh_seed")
        assert ana.lobby.options.open_autoclose is False and ana.lobby.options.three_player_first_deal == 11
        for _ in range(rows.index(("option", "double_split")) - rows.index(("variant", "variant"))):
            await screen.keys("down")
        text = await screen.wait_for("A Double taken over: its price is split between its two players")
        for _ in range(rows.index(("option", "mystery_hand")) - rows.index(("option", "double_split"))):
            await screen.keys("down")
        text = await screen.wait_for(">Mystery hand +off")
        assert "a face-down 4th hand" in text


@run_async
async def test_fa_seeds_lobby_offers_the_seller_announcing_the_auction_with_the_sheets_sentence():
    from modernart.cli.i18n import translations
    from modernart.cli.tui.screens.lobby import OPTION_HELP, lobby_rows

    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana) as screen:
        await screen.wait_for("Seats")
        rows = lobby_rows(ana.lobby)
        for _ in range(rows.index(("variant", "variant"))):
            await screen.keys("down")
        await screen.wait_for(">Variant")
        await screen.keys("right", "right")
        await screen.wait_for(">Variant +fa_seed")
        assert ana.lobby.options.price_up_to_richest is True and ana.lobby.options.seller_chooses_auction is False
        for _ in range(rows.index(("option", "seller_chooses_auction")) - rows.index(("variant", "variant"))):
            await screen.keys("down")
        text = await screen.wait_for("The active player reveals a card and announces the auction type")
        assert re.search(r">Seller's auction *off", text) and re.search(r"Price to richest *on", text)
        await screen.keys("right")
        await screen.wait_for(r">Seller's auction *on")
        assert ana.lobby.options.seller_chooses_auction is True and ana.lobby.options.double_as_open is True
    # in Persian the line is the sheet's own sentence
    fa = translations("fa").gettext(OPTION_HELP["seller_chooses_auction"])
    assert fa == "بازیکن فعال یک کارت از دست خود را رو میکند و نوع حراج را اعلام میکند"


@run_async
async def test_the_seller_announces_the_auction_by_its_number():
    """seller_chooses_auction (FA-15): an Open card, announced as Sealed with key 3; a key
    that names no auction is refused and says which do."""
    options = RuleOptions(seller_chooses_auction=True)
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [[(0, O), (1, O)]], options=options)
    async with Screen(ana) as screen:
        await choose(screen, card_of(ana, 0, O))
        await screen.keys("enter")
        text = await screen.wait_for("TO ANNOUNCE")
        assert "1 Open" in text and "2 Once-around" in text and "3 Sealed" in text and "4 Fixed price" in text
        assert "YOUR TURN: announce the auction (press 1-4)" in text
        await screen.keys("5")
        await screen.wait_for("Announce one of: 1 Open")
        await screen.keys("3")
        await screen.wait_for("SEALED auction")
    assert ana.obs.kind == 2 and bea.obs.phase.name == "SEALED"
