"""Client keys, tier 1: a real ClientApp on a pipe input with DummyOutput, playing a real
in-process table.  Each key either sends exactly the right move (seen by the table), or
leaves a clear message and sends nothing."""

from __future__ import annotations

import pytest

from modernart.cli.tui.session import Status
from modernart.net.clocks import ClockSettings, ManualClock
from modernart.moves import Move
from modernart.phase import Phase
from tests.e2e.screen import D, F, O, ONE, S, Screen, run_async, table_with
from tests.idle import idle

pytestmark = pytest.mark.timeout(60)

ANA_HAND = [(0, O), (1, ONE), (2, S), (3, F), (4, D), (4, O), (4, ONE), (4, F)]


def mine(screen: Screen, table) -> list[Move]:
    """The moves Ana's client sent, checked to be the last seat-0 moves the table got."""
    sent = screen.cs.sent
    got = [m for m in table.received if m.seat == 0]
    assert got[len(got) - len(sent) :] == sent
    return sent


def index_of(screen: Screen, card: int) -> int:
    return [int(c) for c in screen.cs.sorted_hand()].index(card)


async def choose(screen: Screen, card: int) -> None:
    """Move the selection to `card` with arrow keys."""
    target = index_of(screen, card)
    while screen.cs.selected != target:
        await screen.keys("right")


def card_of(session, artist: int, kind) -> int:
    return next(int(c) for c in session.obs.hand if c.artist == artist and c.kind == kind)


@run_async
async def test_enter_puts_up_the_chosen_card():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        card = card_of(ana, 2, S)
        await choose(screen, card)
        await screen.keys("enter")
        assert mine(screen, table) == [Move.play(0, card)]
        assert ana.obs.phase == Phase.SEALED


@run_async
async def test_digit_picks_a_card_by_its_number():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("3")
        assert screen.cs.selected == 2
        await screen.keys("enter")
        assert mine(screen, table) == [Move.play(0, screen.cs.sent[0].arg)]
        assert int(screen.cs.sent[0].arg) == int(
            sorted(table.state.deal_log[0][0], key=lambda c: (c.artist, c.kind, int(c)))[2]
        )


@run_async
async def test_keys_out_of_turn_send_nothing_and_say_why():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND], first=1)
    async with Screen(ana, dummy=True) as screen:
        for key in ("enter", "p", "a", "h", "+"):
            await screen.keys(key)
            assert screen.cs.message is not None and screen.cs.message.kind == "error", key
        assert "Not your turn" in screen.cs.message.text or "Open" in screen.cs.message.text
        await screen.keys("enter")
        assert screen.cs.message.text.startswith("Not your turn")
        assert "Bea" in screen.cs.message.text
        assert mine(screen, table) == [] and screen.cs.sent == []


@run_async
async def test_unknown_key_says_so():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("z")
        assert "'z' does nothing here" in screen.cs.message.text
        assert mine(screen, table) == []


async def open_auction(first_seller_is_ana: bool = True):
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, sessions = await table_with(["Ana", "Bea", "Cem"], hands, first=0 if first_seller_is_ana else 1)
    seller = sessions[0] if first_seller_is_ana else sessions[1]
    await seller.send_move(Move.play(seller.seat, card_of(seller, 0, O)))
    assert sessions[0].obs.phase == Phase.OPEN
    return table, sessions


@run_async
async def test_open_auction_typed_bid_and_quick_raises():
    table, (ana, bea, cem) = await open_auction(first_seller_is_ana=False)
    async with Screen(ana, dummy=True) as screen:
        await screen.type("12")
        assert screen.cs.amount == "12"
        await screen.keys("backspace")
        assert screen.cs.amount == "1"
        await screen.keys("enter")
        assert mine(screen, table)[-1] == Move.bid(0, 1)
        await cem.send_move(Move.bid(2, 10))
        await screen.keys("+")
        assert mine(screen, table)[-1] == Move.bid(0, 11)
        await cem.send_move(Move.bid(2, 20))
        await screen.keys("f")
        assert mine(screen, table)[-1] == Move.bid(0, 25)
        await bea.send_move(Move.bid(1, 30))
        await screen.keys("t")
        assert mine(screen, table)[-1] == Move.bid(0, 40)
        assert ana.obs.high == 40 and ana.obs.high_seat == 0


@run_async
async def test_open_auction_bad_amounts_are_refused_with_reasons():
    table, (ana, bea, cem) = await open_auction(first_seller_is_ana=False)
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("enter")
        assert "Type a bid first" in screen.cs.message.text
        await screen.type("150")
        await screen.keys("enter")
        assert "150 is above your money (100)" in screen.cs.message.text
        await screen.type("x")
        assert "'x' is not a number" in screen.cs.message.text
        await cem.send_move(Move.bid(2, 95))
        await screen.type("90")
        await screen.keys("enter")
        assert "Bid more than 95: at least 96" in screen.cs.message.text
        await screen.keys("t")
        assert "You cannot bid 105: you have 100" in screen.cs.message.text
        await screen.keys("h")
        assert "Only the auctioneer (Bea) can sell now" in screen.cs.message.text
        assert mine(screen, table) == []
        await screen.keys("p")
        assert mine(screen, table) == [Move.pass_(0)]
        await screen.keys("p")
        assert "already passed" in screen.cs.message.text
        assert mine(screen, table) == [Move.pass_(0)]


@run_async
async def test_open_auction_high_bidder_cannot_pass_and_auctioneer_hammers():
    table, (ana, bea, cem) = await open_auction(first_seller_is_ana=True)
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("+")
        assert mine(screen, table) == [Move.bid(0, 1)]
        await screen.keys("p")
        assert "You hold the high bid (1): you cannot pass" in screen.cs.message.text
        await screen.keys("+")
        assert "You already hold the high bid (1)" in screen.cs.message.text
        await bea.send_move(Move.bid(1, 7))
        await screen.keys("h")
        assert mine(screen, table)[-1] == Move.hammer(0)
        assert ana.obs.phase == Phase.PLAY_CARD and ana.obs.bought[1]


@run_async
async def test_open_countdown_closes_the_auction():
    """On the host's clock: the auction stays open until the countdown after the last bid has
    run out (checked once the host and clients are idle), then closes at the high bid."""
    clock = ManualClock()
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], hands, first=1, clocks=ClockSettings(open_countdown=3.0, decision=0), clock=clock
    )
    async with Screen(ana, dummy=True) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 0, O)))
        await screen.keys("+")
        assert ana.open_deadline is not None
        clock.advance(2.9)  # not yet
        await idle(table.host, [s.client for s in table.sessions])
        assert ana.obs.phase == Phase.OPEN and not any("Time is up" in e.text for e in ana.log)
        clock.advance(0.2)  # past the 3 s after Ana's bid
        await idle(table.host, [s.client for s in table.sessions])
        assert ana.obs.phase == Phase.PLAY_CARD and ana.obs.sales[-1].buyer == 0
        assert any("Time is up" in e.text for e in ana.log)


@run_async
async def test_once_around_turns():
    hands = [ANA_HAND, [(1, ONE)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana, dummy=True) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 1, ONE)))
        assert ana.obs.phase == Phase.ONCE_AROUND and ana.obs.turn == 2  # Cem first
        await screen.keys("p")
        assert screen.cs.message.text.startswith("Not your turn") and "Cem bids next" in screen.cs.message.text
        await cem.send_move(Move.bid(2, 8))
        assert ana.obs.turn == 0
        await screen.type("8")
        await screen.keys("enter")
        assert "Bid more than 8: at least 9" in screen.cs.message.text
        assert mine(screen, table) == []
        await screen.keys("up")
        assert screen.cs.amount == "9"
        await screen.keys("up", "up", "down")
        assert screen.cs.amount == "10"
        await screen.keys("enter")
        assert mine(screen, table) == [Move.bid(0, 10)]
        assert ana.obs.turn == 1


@run_async
async def test_sealed_bid_hidden_entry():
    hands = [ANA_HAND, [(2, S)], []]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana, dummy=True) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 2, S)))
        await cem.send_move(Move.sealed_bid(2, 5))
        await screen.type("101")
        await screen.keys("enter")
        assert "101 is above your money (100)" in screen.cs.message.text
        await screen.keys("backspace", "backspace", "backspace")
        await screen.keys("p")
        assert "type 0, Enter" in screen.cs.message.text
        await screen.type("7")
        await screen.keys("enter")
        # the host holds Ana's commitment; it learns the amount from her reveal, once every
        # bid is in (net/trust/sealed.py): Bea's bid comes after Ana's second try
        assert table.committed(0) and screen.cs.sent == [Move.sealed_bid(0, 7)]
        await screen.type("3")
        await screen.keys("enter")
        assert "already sealed" in screen.cs.message.text
        await bea.send_move(Move.sealed_bid(1, 4))
        assert mine(screen, table) == [Move.sealed_bid(0, 7)]


@run_async
async def test_fixed_price_set_and_decline():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await choose(screen, card_of(ana, 3, F))
        await screen.keys("enter")
        assert ana.obs.phase == Phase.FIXED_SET
        await screen.type("0")
        await screen.keys("enter")
        assert "0 is too low: at least 1" in screen.cs.message.text
        await screen.type("500")
        await screen.keys("enter")
        assert "above your money" in screen.cs.message.text
        await screen.keys("backspace", "backspace", "backspace")
        await screen.type("30")
        await screen.keys("enter")
        assert mine(screen, table)[-1] == Move.set_price(0, 30)
        await screen.keys("a")
        assert "Not your turn" in screen.cs.message.text


@run_async
async def test_fixed_price_accept_and_cannot_afford():
    hands = [ANA_HAND, [(3, F)], [(3, F)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=1)
    async with Screen(ana, dummy=True) as screen:
        await bea.send_move(Move.play(1, card_of(bea, 3, F)))
        await bea.send_move(Move.set_price(1, 100))
        await cem.send_move(Move.decline(2))
        assert ana.obs.turn == 0
        await screen.keys("a")
        assert mine(screen, table)[-1] == Move.accept(0)
        assert ana.obs.money == 0
        await cem.send_move(Move.play(2, card_of(cem, 3, F)))  # Cem sells next, Ana is asked first
        await cem.send_move(Move.set_price(2, 50))
        assert ana.obs.turn == 0
        await screen.keys("enter")
        assert "a = accept the price of 50" in screen.cs.message.text
        await screen.keys("a")
        assert "You cannot pay 50: you have 0" in screen.cs.message.text
        await screen.keys("p")
        assert mine(screen, table)[-1] == Move.decline(0)


@run_async
async def test_double_offer_add_or_pass():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await choose(screen, card_of(ana, 4, D))
        await screen.keys("enter")
        assert ana.obs.phase == Phase.DOUBLE_OFFER and ana.obs.turn == 0
        await choose(screen, card_of(ana, 0, O))
        await screen.keys("enter")
        assert "Choose a Krypto that is not a Double" in screen.cs.message.text
        assert len(mine(screen, table)) == 1
        second = card_of(ana, 4, ONE)
        await choose(screen, second)
        await screen.keys("enter")
        assert mine(screen, table)[-1] == Move.add_second(0, second)
        assert ana.obs.phase == Phase.ONCE_AROUND


@run_async
async def test_chat_line_takes_letters():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("c")
        assert screen.cs.chat_open
        await screen.type("pass the paint")
        await screen.keys("enter")
        assert not screen.cs.chat_open
        assert mine(screen, table) == []
        said = [e for e in bea.log if e.kind == "chat"]
        assert said and said[-1].who == "Ana" and said[-1].text == "pass the paint"
        await screen.keys("c")
        await screen.type("never mind")
        await screen.keys("esc")
        assert not screen.cs.chat_open and [e.text for e in bea.log if e.kind == "chat"] == ["pass the paint"]


@run_async
async def test_help_and_leave_overlays():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana, dummy=True) as screen:
        await screen.keys("?")
        assert screen.cs.overlay == "help"
        await screen.keys("enter")
        assert screen.cs.overlay is None and mine(screen, table) == []
        await screen.keys("q")
        assert screen.cs.overlay == "quit"
        await screen.keys("n")
        assert screen.cs.overlay is None and not screen.task.done()
        await screen.keys("c-c", "y")
        await screen.settle(0.2)
        assert screen.task.done() and screen.task.result() == 0
    assert ana.status == Status.DISCONNECTED


@run_async
async def test_lobby_ready_options_and_start():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana, dummy=True) as screen:
        assert screen.client.current() == "lobby"
        await screen.keys("s")
        assert "Waiting for Ana, Bea, Cem to be ready" in screen.cs.message.text
        await screen.keys("r")
        assert table.seats[0].ready
        # move to the "Start money" row and raise it
        rows = [r for r in __import__("modernart.cli.tui.screens.lobby", fromlist=["x"]).lobby_rows(ana.lobby)]
        target = rows.index(("option", "start_money"))
        for _ in range(target):
            await screen.keys("down")
        await screen.keys("right")
        assert table.options.start_money == 120  # the next value up
        await screen.keys("r")  # the host asks everyone to say ready again after a change of rules
        await bea.set_options(table.options)  # not the host: refused
        assert any(e.kind == "error" and "Only the host" in e.text for e in bea.log)
        await bea.set_ready(True)
        await cem.set_ready(True)
        await screen.keys("s")
        assert table.status == Status.PLAYING
        assert screen.client.current() == "table"
        assert ana.obs.money == 120


async def play_to_round_end(sessions) -> None:
    """Five Krypto in a row (four Open ones, each hammered by its seller at once)."""
    ana, bea, cem = sessions
    for seller in (ana, bea, cem, ana):
        await seller.send_move(Move.play(seller.seat, card_of(seller, 4, O)))
        await seller.send_move(Move.hammer(seller.seat))
    await bea.send_move(Move.play(1, card_of(bea, 4, S)))


ROUND_END_HANDS = [[(4, O), (4, O)], [(4, O), (4, S)], [(4, O)]]


@run_async
async def test_round_scoring_overlay_opens_and_closes():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana, dummy=True) as screen:
        await play_to_round_end(sessions)
        assert len(ana.obs.results) == 1 and ana.obs.round == 1
        await screen.settle()
        assert screen.cs.overlay == "scoring" and screen.cs.scoring_round == 0
        await screen.keys("p")
        assert screen.cs.overlay == "scoring" and mine(screen, table) == []  # the overlay has the keys
        await screen.keys("enter")
        assert screen.cs.overlay is None
        await screen.keys("s")
        assert screen.cs.overlay == "scoring"
        await screen.keys("esc")
        assert screen.cs.overlay is None


@run_async
async def test_a_double_offered_moves_the_choice_to_a_card_that_can_join():
    hands = [ANA_HAND, [], [(1, D)]]
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], hands, first=2)
    async with Screen(ana, dummy=True) as screen:
        assert screen.cs.selected_card().artist == 0  # Lite Metal: cannot join a Yoko Double
        await cem.send_move(Move.play(2, card_of(cem, 1, D)))
        await cem.send_move(Move.decline_second(2))
        await bea.send_move(Move.decline_second(1))
        await screen.settle()
        assert ana.obs.phase == Phase.DOUBLE_OFFER and ana.obs.turn == 0
        yoko = card_of(ana, 1, ONE)
        assert int(screen.cs.selected_card()) == yoko
        await screen.keys("enter")
        assert mine(screen, table) == [Move.add_second(0, yoko)]
