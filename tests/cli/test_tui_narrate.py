"""The log's words for the game: each happening one clear line, naming the right people.

Engine games with a chosen deal (cli/narrate.py on real `GameState.events`); the Open
countdown's end as told by an in-process table and by a real host over the protocol."""

from __future__ import annotations

import asyncio
import time

import pytest

from modernart.cli.narrate import describe_events
from modernart.cli.tui.net_session import NetSession
from modernart.net.clocks import ClockSettings
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.rules import RuleOptions
from tests.e2e.screen import D, F, O, ONE, S, deck_with_hands, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, card_of

pytestmark = pytest.mark.timeout(60)

NAMES = ["Ana", "Bea", "Cem"]


def game(hands, options: RuleOptions = RuleOptions()) -> GameState:
    per = options.deal_sizes(3)[0]
    return GameState(3, options, deck_order=deck_with_hands(hands, per), first_auctioneer=0, track_events=True)


def card(state: GameState, seat: int, artist: int, kind) -> int:
    return next(int(c) for c in state.hands[seat] if c.artist == artist and c.kind == kind)


def settle_cheaply(state: GameState) -> None:
    """Finish the running auction with nobody paying: hammer, pass, seal 0, lowest price and decline."""
    while state.phase not in (Phase.PLAY_CARD, Phase.GAME_OVER):
        if state.phase == Phase.OPEN:
            state.apply(Move.hammer(state.auctioneer))
            continue
        seat = state.to_move()[0]
        moves = state.legal_moves(seat, amounts=False)
        move = next((m for m in moves if m.action in (Action.PASS, Action.DECLINE)), None)
        if move is None:
            action, lo, _hi = state.amount_range(seat)
            move = Move.of(seat, action, lo)
        state.apply(move)


def lines(state: GameState) -> list[str]:
    return describe_events(state.events, NAMES, state.edition, state.deck)


def test_a_split_double_names_both_payees():
    state = game([[(0, D)], [(0, O)], []], RuleOptions(double_split=True))
    state.apply(Move.play(0, card(state, 0, 0, D)))
    state.apply(Move.decline_second(0))
    state.apply(Move.add_second(1, card(state, 1, 0, O)))
    state.apply(Move.bid(2, 28))
    state.apply(Move.hammer(1))
    sold = [t for t in lines(state) if t.startswith("SOLD")]
    assert sold == ["SOLD: Lite Metal + Lite Metal to Cem for 28 (paid 14 to Bea and 14 to Ana)"]


def test_a_plain_sale_and_a_sale_to_oneself():
    state = game([[(0, O)], [(0, O)], []])
    state.apply(Move.play(0, card(state, 0, 0, O)))
    state.apply(Move.bid(1, 9))
    state.apply(Move.hammer(0))
    state.apply(Move.play(1, card(state, 1, 0, O)))
    state.apply(Move.bid(1, 5))
    state.apply(Move.hammer(1))
    sold = [t for t in lines(state) if t.startswith("SOLD")]
    assert sold == ["SOLD: Lite Metal to Bea for 9 (paid to Ana)", "SOLD: Lite Metal to Bea for 5 (paid to the bank)"]


def test_putting_up_a_card_is_one_line_with_its_auction():
    state = game([[(0, O)], [(0, D)], [(0, ONE)]])
    state.apply(Move.play(0, card(state, 0, 0, O)))
    assert lines(state) == ["Ana puts up Lite Metal (Open): Open auction"]
    settle_cheaply(state)
    state.apply(Move.play(1, card(state, 1, 0, D)))
    state.apply(Move.decline_second(1))
    state.apply(Move.add_second(2, card(state, 2, 0, ONE)))
    told = lines(state)
    assert told[-1] == "Cem adds Lite Metal (Once-around) to the Double: Once-around auction"
    assert not any(" auctions " in t for t in told)


def test_the_fifth_painting_ends_the_round_unsold():
    state = game([[(1, O), (1, S)], [(1, ONE), (1, F)], [(1, O)]])
    for seat, kind in [(0, O), (1, ONE), (2, O), (0, S), (1, F)]:
        state.apply(Move.play(seat, card(state, seat, 1, kind)))
        settle_cheaply(state)
    told = lines(state)
    assert state.round == 1
    assert "Bea puts up Yoko (Fixed price): the fifth Yoko ends the round, unsold" in told
    assert not any("Fixed price auction" in t for t in told)
    assert told[told.index("Bea puts up Yoko (Fixed price): the fifth Yoko ends the round, unsold") + 1].startswith(
        "Round 1 ends (fifth painting)"
    )


@run_async
async def test_the_open_countdown_ends_with_one_line_offline():
    hands = [ANA_HAND, [(0, O)], [(0, O)]]
    table, (ana, bea, cem) = await table_with(
        ["Ana", "Bea", "Cem"], hands, first=1, clocks=ClockSettings(open_countdown=0.3, decision=0)
    )
    await bea.send_move(Move.play(1, card_of(bea, 0, O)))
    await cem.send_move(Move.bid(2, 22))
    end = time.monotonic() + 15  # a loaded machine: the 0.3 s countdown may take seconds to be seen
    while ana.obs.phase == Phase.OPEN and time.monotonic() < end:
        await asyncio.sleep(0.05)
    told = [e.text for e in ana.log]
    assert "Time is up: going, going, gone at 22 to Cem" in told
    assert not any("brings the hammer down" in t for t in told)
    assert (
        told[told.index("Time is up: going, going, gone at 22 to Cem") + 1]
        == "SOLD: Lite Metal to Cem for 22 (paid to Bea)"
    )


@run_async
async def test_the_open_countdown_ends_with_one_line_over_the_protocol(tmp_path):
    from modernart.net.clocks import ManualClock
    from modernart.net.client.client import Client
    from modernart.net.trust.identity import Keys
    from tests.net_helpers import in_process_host, until

    clock = ManualClock()
    host, table = await in_process_host(
        tmp_path, clock=clock, clocks={"open_countdown": 10, "decision": 60}, autostart=3
    )
    others: list[Client] = []
    session = NetSession(host.target(), name="Ana", keys=Keys.generate(), ready=True)
    try:
        await session.open()
        for name in ("Bea", "Cem"):
            c = Client(host.target(), keys=Keys.generate())
            await c.connect()
            assert (await c.take_seat(name)).ok and (await c.ready()).ok
            others.append(c)
        await until(lambda: session.obs is not None, 10)
        sess = table.game
        # nobody acts: every decision is the host's (a card, a pass...), every Open closes by itself
        while not any(e.text.startswith("Time is up: ") for e in session.log):
            seq = sess.seq
            assert not sess.state.is_over()
            clock.advance(60.5)
            await until(lambda: sess.seq > seq, 5, 0.002)
        await asyncio.sleep(0.2)
        told = [e.text for e in session.log]
        assert not any("brings the hammer down" in t for t in told), told
        i = next(i for i, t in enumerate(told) if t.startswith("Time is up: "))
        assert told[i] == "Time is up: nobody bid, the auctioneer keeps the lot"
        assert told[i + 1].endswith("for free") and not told[i - 1].startswith("Time is up for")
        assert any(t.startswith("Time is up for ") for t in told)  # real per-decision timeouts
    finally:
        await session.close()
        for c in others:
            await c.close()
        await host.close()
