"""At a hidden-hands table a dealt card becomes readable only once every other seat has sent
its share of it (docs/fair-play.md).  A seat whose shares are slow (here: held back until
the test lets them go, as a peer on a slow link or one that stalls would) leaves the others'
new cards unreadable meanwhile; the screen must say so, not show an empty hand, refuse Enter
with that reason (and send nothing), and tell the deal in the log once, with its true count,
when the cards can be read.  A real host on 127.0.0.1, real clients, the client's screen."""

from __future__ import annotations

import asyncio

import pytest

from modernart.cli.tui.net_session import NetSession
from modernart.net.client.bot import BotClient
from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.trust.identity import Keys
from modernart.phase import Phase
from tests.e2e.screen import Screen

from tests.net_helpers import run, seat_bots, until


async def _a_deal_waiting_for_shares(tmp_path) -> None:
    host = Host(Keys.generate(), bot_pace=0.0)
    await host.start()
    # the host's clocks play Ana's bids in others' auctions (her card play waits for her
    # client, which keeps its clock: net/client/card_clock.py)
    clocks = ClockSettings.from_dict({"open_countdown": 0.3, "decision": 0.3, "grace": 30, "reveal": 2})
    table = host.open_table(
        "slow shares", journal_dir=str(tmp_path / "games"), lobby=Lobby(clocks=clocks), hidden_hands=True, fsync=False
    )
    released = asyncio.Event()
    lan = BotClient(
        str(host.target(table.id)), level="random", name="Lan", pace_scale=0.0, config_dir=str(tmp_path / "lan")
    )
    send_shares = lan.client.fair._send_shares

    async def slow_shares(own, follower, slots):  # its shares of Ana's cards go once the test lets them
        anas = set(follower.deck.slots_of(0))
        if any(s not in anas for s in slots):
            await send_shares(own, follower, [s for s in slots if s not in anas])
        if any(s in anas for s in slots):
            await released.wait()
            await send_shares(own, follower, [s for s in slots if s in anas])

    lan.client.fair._send_shares = slow_shares
    session = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"), seat=0, ready=True)
    playing = None
    try:
        async with Screen(session, cols=80) as screen:
            await until(lambda: session.seat == 0, 10)
            playing = asyncio.ensure_future(lan.run())
            seat_bots(host, table, 1)
            table.autostart = 3
            await until(lambda: table.game is not None and table.game.hidden.ledger.shuffled, 60)
            await until(
                lambda: session.obs is not None and session.obs.my_turn and session.obs.phase == Phase.PLAY_CARD,
                20,
                what=lambda: (session.seat, session.obs and session.obs.to_move, session.obs and session.obs.phase),
            )
            assert session.cards_coming
            await screen.wait_for("Your paintings are being dealt:")
            anas = sum(e.move is not None and e.move[0] == 0 for e in table.game.log)
            await screen.keys("enter")
            await screen.wait_for("still being dealt: wait for the other players' shares")
            # nothing sent, nothing played: once the host has answered a request sent now, it
            # has read anything her client sent before; it is still Ana's card to put up
            await session.client.list_tables()
            assert sum(e.move is not None and e.move[0] == 0 for e in table.game.log) == anas
            assert session.obs.my_turn and session.obs.phase == Phase.PLAY_CARD
            told = [e.text for e in session.log]
            assert not any("you receive" in t for t in told), told  # not before the cards are read

            released.set()
            await until(lambda: not session.cards_coming, 30)
            count = len(table.game.hidden.blind.state.deal_log[0][0])  # Ana's deal, as the host counts it
            assert count > 0
            await screen.wait_for(rf"Round 1: you receive {count} paintings")
            told = [e.text for e in session.log]
            assert sum(t.startswith("Round 1: you receive") for t in told) == 1, told
            await until(lambda: "being dealt" not in screen.text, 5, what=lambda: screen.text)
            assert "Your hand is empty" not in screen.text
            # the host's clock ran out while her cards could not be read: her own client gives
            # her a whole decision time from now, then puts up a painting for her and says so
            await until(lambda: sum(e.move is not None and e.move[0] == 0 for e in table.game.log) > anas, 20)
            await until(lambda: any(e.text == "Time is up for Ana" for e in session.log), 5)
    finally:
        if playing is not None:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
        await host.close()


@pytest.mark.timeout(150)
def test_a_hand_waiting_for_another_seats_shares_is_shown_as_being_dealt(tmp_path):
    run(_a_deal_waiting_for_shares(tmp_path), 120)


@pytest.mark.parametrize("held", [False, True])
def test_the_hand_panel_while_new_cards_are_being_dealt(held):
    """Round 1 holds nothing readable yet: the panel says the paintings are being dealt.  A
    later round holds the cards kept from before (readable): they are shown, with a line
    saying that more are coming; without the wait neither line is there."""
    from dataclasses import replace

    from modernart.cli.tui.panels import hand_panel
    from modernart.cli.tui.session import SessionBase
    from modernart.cli.tui.state import ClientState
    from modernart.rules import RuleOptions
    from tests.engine.test_determinize import random_positions

    state = next(s for s in random_positions(3, RuleOptions(), seed=2) if s.phase == Phase.PLAY_CARD)
    obs = state.observation(state.to_move()[0])
    session = SessionBase("Ana")
    session.obs = obs if held else replace(obs, hand=())
    cs = ClientState(session)

    def shown() -> str:
        return "\n".join("".join(text for _style, text in line) for line in hand_panel(cs, 38, 8))

    session.cards_coming = True
    coming = shown()
    session.cards_coming = False
    ready = shown()
    if held:
        assert "More of your paintings are being dealt" in coming and "being dealt" not in ready
        assert coming.splitlines()[0] == ready.splitlines()[0]  # the cards held, as ever
    else:
        assert coming.startswith(" Your paintings are being dealt:") and "Your hand is empty" not in coming
        assert ready.startswith(" Your hand is empty.")
