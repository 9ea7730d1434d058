"""The host's clocks on an injected ManualClock: default actions, the Open countdown,
the reconnect grace period and the stand-in bot that plays a dropped seat."""

from __future__ import annotations

import asyncio

import pytest

from modernart.events import Sale
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.net.trust.audit import audit_files
from modernart.net.client.bot import BotClient
from modernart.net.client.client import Client
from modernart.net.clocks import ManualClock
from modernart.net.trust.identity import Keys
from modernart.net.host.journal import read_journal
from modernart.net.protocol import decode_host_inner

from tests.net_helpers import in_process_host, run, seat_bots, until

DEFAULTS = {
    Phase.ONCE_AROUND: Action.PASS,
    Phase.FIXED_OFFER: Action.DECLINE,
    Phase.FIXED_SET: Action.SET_PRICE,
    Phase.SEALED: Action.SEALED_BID,
    Phase.DOUBLE_OFFER: Action.DECLINE_SECOND,
    Phase.OPEN: Action.HAMMER,
    Phase.PLAY_CARD: Action.PLAY,
}


async def seated_idle_clients(host, count):
    clients = []
    for i in range(count):
        c = Client(host.target(), keys=Keys.generate())
        await c.connect()
        assert (await c.take_seat(f"P{i}")).ok
        clients.append(c)
    for c in clients:
        assert (await c.ready()).ok
    await clients[0].wait_until(lambda s: s.observation is not None, 10)
    return clients


async def _idle_game(tmp):
    clock = ManualClock()
    host, table = await in_process_host(tmp, clock=clock, clocks={"open_countdown": 10, "decision": 60}, autostart=3)
    clients = await seated_idle_clients(host, 3)
    try:
        sess = table.game
        phases_before = []
        while not sess.state.is_over():
            seq = sess.seq
            phases_before.append((seq, sess.state.phase, sess.state.amount_range(sess.state.to_move()[0])))
            clock.advance(60.5)
            await until(lambda: sess.seq > seq, 5, 0.002)
        await clients[0].wait_until(lambda s: s.observation is not None and s.observation.is_over, 10)
        return table, phases_before
    finally:
        for c in clients:
            await c.close()
        await host.close()


@pytest.mark.timeout(120)
def test_idle_players_get_the_stated_default_actions(tmp_path):
    table, phases = run(_idle_game(tmp_path), 110)
    by_seq = {}
    for event in table.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == "move":
            assert pub["by"] == "clock"
            by_seq[event.seq] = event.move
        elif pub["k"] == "settle":  # protocol 2: a Sealed auction's bids, every seat's in one event
            assert all(bid["by"] == "clock" for bid in pub["bids"])
            by_seq[event.seq] = pub["bids"][0]["m"]
    checked = set()
    for seq_before, phase, amount in phases:  # the first move the clock played after that point
        seq = min((s for s in by_seq if s > seq_before), default=None)
        if seq is None:
            continue
        move = by_seq[seq]
        action = Action(move[1])
        assert action == DEFAULTS[phase], (phase, action)
        if action == Action.SET_PRICE:
            assert move[2] == amount[1]  # the lowest legal price
        if action == Action.SEALED_BID:
            assert move[2] == 0
        checked.add(phase)
    sealed = [m for m in by_seq.values() if m[1] == Action.SEALED_BID]
    assert sealed and all(m[2] == 0 for m in sealed)  # nobody committed: everyone bids 0
    assert {Phase.PLAY_CARD, Phase.OPEN, Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET} <= checked
    record = read_journal(table.journal_path)
    assert record.replay().money == table.game.state.money


async def _open_countdown(tmp):
    clock = ManualClock()
    host, table = await in_process_host(tmp, clock=clock, clocks={"open_countdown": 10, "decision": 60}, autostart=3)
    clients = await seated_idle_clients(host, 3)
    try:
        sess = table.game
        while sess.state.phase != Phase.OPEN:
            seq = sess.seq
            clock.advance(60.5 if sess.state.phase != Phase.OPEN else 0)
            await until(lambda: sess.seq > seq, 5, 0.002)
            if sess.state.is_over():
                pytest.skip("no Open auction in this game")
        auction = sess.state.auction_no
        bidder = next(s for s in range(3) if s != sess.state.auctioneer)
        client = next(c for c in clients if c.state.seat == bidder)
        await client.wait_until(lambda s: s.observation.phase == Phase.OPEN, 5)
        assert client.state.remaining("open") is not None
        clock.advance(6)
        await asyncio.sleep(0.05)
        assert sess.state.phase == Phase.OPEN
        reply = await client.send_move(Move.bid(bidder, 1))
        assert reply.ok, reply
        assert 9.0 < sess.clock_view(clock.now())["open"] <= 10.0  # restarted by the bid
        clock.advance(6)
        await asyncio.sleep(0.05)
        assert sess.state.phase == Phase.OPEN and sess.state.auction_no == auction  # 12 s after start: still open
        clock.advance(4.5)
        await until(lambda: sess.state.auction_no != auction or sess.state.phase != Phase.OPEN, 5)
        sale = [e for e in sess.state.events if isinstance(e, Sale) and e.auction == auction][-1]
        assert (sale.buyer, sale.price) == (bidder, 1)
    finally:
        for c in clients:
            await c.close()
        await host.close()


@pytest.mark.timeout(120)
def test_open_countdown_restarts_on_each_bid_and_closes_the_auction(tmp_path):
    run(_open_countdown(tmp_path), 110)


async def _grace_and_standin(tmp):
    clock = ManualClock()
    host, table = await in_process_host(
        tmp, clock=clock, clocks={"grace": 5, "decision": 0, "open_countdown": 0}, autostart=3
    )
    keys = Keys.generate()
    person = Client(host.target(), keys=keys)
    await person.connect()
    await person.take_seat("Ana")
    await person.ready()
    seat_bots(host, table, 2)
    await person.wait_until(lambda s: s.observation is not None, 10)
    sess = table.game
    seat = person.state.seat
    await person.close()  # the person drops out
    await until(lambda: (table.id, seat) in host.absent, 5)
    clock.advance(4)
    await asyncio.sleep(0.1)
    assert sess.delegates[seat] is None  # still inside the grace period
    clock.advance(1.5)
    await until(lambda: sess.delegates[seat] is not None, 10)
    before = sess.seq
    await until(lambda: sess.seq > before + 30 or sess.state.is_over(), 30)
    standin_moves = 0
    for event in sess.log[before:]:
        pub = decode_host_inner(event.public)
        if pub["k"] == "move" and pub["m"][0] == seat and pub["by"] == "player":
            assert pub["signer"] == 1  # signed by the stand-in's own key
            standin_moves += 1
    back = BotClient(host.target(), keys=keys, pace_scale=0)  # the person returns (played by a bot here)
    task = asyncio.get_running_loop().create_task(back.run())
    await until(lambda: sess.delegates[seat] is None, 10)
    # the host hands the seat back on the hello; the client learns it a moment later
    await back.client.wait_until(lambda s: s.seat == seat and s.role == "player", 10)
    async with asyncio.timeout(60):
        final = await task
    await host.close()
    return table, standin_moves, final, seat


@pytest.mark.timeout(120)
def test_dropped_player_gets_a_standin_after_the_grace_period_and_takes_the_seat_back(tmp_path):
    table, standin_moves, final, seat = run(_grace_and_standin(tmp_path), 110)
    assert standin_moves > 0
    assert final.is_over and final.seat == seat
    record = read_journal(table.journal_path)
    assert list(final.final_money) == record.replay().money
    kinds = [decode_host_inner(e.public)["k"] for e in table.game.log]
    assert kinds.count("delegate") == 2  # handed to the stand-in, then given back
    report = audit_files(table.record_path)  # the stand-in's signatures and commitments check out
    assert report.ok, report.problems
    # the audit names who signed each move: the stand-in's moves (its sealed bids too) are its own
    signers = report.facts["signed_by"]
    assert len(signers) == report.facts["moves"] and signers.count("stand-in") >= standin_moves
    assert any(f"seat {seat} " in n and "signed by a stand-in bot's key" in n for n in report.notes), report.notes
