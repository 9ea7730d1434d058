"""Stand-ins and clock moves from a host that runs changed code (docs/fair-play.md "What the
host cannot do", "The hidden deck"): a `delegate` naming a key of the host's own for a seat,
and a move `by` "clock" that is not the rules' default, each in a present player's name.
The honest clients refuse the event (`untrusted_host`, naming the event and the seat), the
audit of their evidence names it, and the host's move in the player's name is never taken.

Each attack succeeded on the code before this fix (run there once, on the branch's base
3edcf8f: every client took the stand-in and the clock's bid as the seat's own, as its
demonstration showed until this commit).  The base commit a2b2fc2 has the
same `_delegate` and checks a move `by` "clock" for its kind only (read there, not run).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.cards import AuctionType
from modernart.moves import Move
from modernart.net.protocol.signed import ACT_TAG, encode_action_body
from modernart.net.trust.identity import Keys

from tests.hostile_hidden import HostileHost, close_clients, evidence_audited, honest_clients, untrusted
from tests.net_helpers import in_process_host, run
from tests.net.trust.test_hidden_attacks import auctioneer, dealt

pytestmark = pytest.mark.timeout(150)


def _auction_cards(player: Any) -> list[Any]:
    cards = [c for c in player.state.observation.hand if c.kind in (AuctionType.OPEN, AuctionType.ONCE_AROUND)]
    if not cards:
        pytest.skip("the auctioneer holds no Open or Once-around card in this deal")
    return cards


def test_a_stand_in_named_at_a_hidden_table_is_refused_by_every_client_and_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table that hides hands starts no stand-in (a stand-in holds no deck key): the host
    names a key of its own for a connected seat, then bids with it in that seat's name.  Before
    the fix every client took the bid as the seat's.  Now every client refuses the
    `delegate` itself, the audit of each one's evidence names it, and the bid is never taken."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            sess = hostile.game
            victim = (player.state.seat + 1) % 3
            stand_in = Keys.generate()
            delegate = sess.set_delegate(victim, stand_in.vk, hostile.host.clock.now())
            hostile.host.fanout.publish_all(hostile.table, [delegate])
            said = await untrusted(clients)
            for message in said:
                assert f"event {delegate.seq}" in message and f"seat {victim}" in message, message
                assert "stand-in" in message and "hides hands" in message, message
            # nothing from the delegate on is taken: no key of the host's speaks for the seat
            assert all(c.state.head_seq == delegate.seq - 1 for c in clients)
            assert all(victim not in c.game.delegates for c in clients)
            for problems in await evidence_audited(clients):
                assert any(f"event {delegate.seq}" in p and "stand-in" in p for p in problems), problems
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_stand_in_for_a_connected_player_at_an_open_table_is_refused_by_that_players_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a table whose host sees the hands a stand-in is started only for a seat whose player
    has gone, and handed back the moment that player says hello again.  The host names a
    key of its own for a seat whose player is connected and bids with it.  Before the fix the
    player's own client took the bid as its seat's, with no word of it.  Now that client
    refuses the `delegate` (the others cannot know who is connected) and keeps the evidence."""

    async def main() -> None:
        host, table = await in_process_host(tmp_path)
        hostile = HostileHost(host, table, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            card = _auction_cards(player)[0]
            sess = hostile.game
            victim = (seat + 1) % 3
            stand_in = Keys.generate()
            delegate = sess.set_delegate(victim, stand_in.vk, host.clock.now())
            host.fanout.publish_all(table, [delegate])
            said = (await untrusted([clients[victim]]))[0]
            assert f"event {delegate.seq}" in said and f"seat {victim}" in said and "connected" in said, said
            assert (await player.send_move(Move.play(seat, card))).ok
            body = encode_action_body(sess.game_id, victim, 10**6, Move.bid(victim, 7).to_list(), sess.seq, None)
            events, _ = sess.submit(stand_in.vk, victim, body, stand_in.sign(ACT_TAG, body), host.clock.now())
            host.fanout.publish_all(table, events)
            others = [c for c in clients if c is not clients[victim]]
            for c in others:  # they take it: the host's word that the seat's player is away
                await c.wait_until(lambda s: s.head_seq >= events[0].seq or s.status == "failed", 30)
            assert clients[victim].game.counters.get(victim, 0) < 10**6  # its own record holds no such bid
            # the evidence is written in an executor thread a moment after the refusal
            await clients[victim].wait_until(lambda s: s.saved_evidence is not None, 10)
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_clock_move_at_a_hidden_table_that_is_not_the_rules_default_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move `by` "clock" carries no signature: at a table that hides hands it may only be
    the default the rules fix for that step (a pass, a decline, the lowest price...).  The
    host bids 7 "by clock" in a connected player's name the moment the auction opens.  Before
    the fix every client took it as that player's bid.  Now every client refuses it, naming
    the event and the seat, and so does the audit of their evidence."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            card = _auction_cards(player)[0]
            assert (await player.send_move(Move.play(seat, card))).ok
            sess = hostile.game
            victim = (seat + 1) % 3
            move = Move.bid(victim, 7)
            sess.state.apply(move)
            events = sess.move_events(move, hostile.host.clock.now(), {"m": move.to_list(), "by": "clock"})
            hostile.host.fanout.publish_all(hostile.table, events)
            said = await untrusted(clients)
            for message in said:
                assert f"event {events[0].seq}" in message and f"seat {victim}" in message, message
                assert "clock" in message and "default" in message, message
            assert all(c.state.head_seq == events[0].seq - 1 for c in clients)  # the bid is never taken
            for problems in await evidence_audited(clients):
                assert any(f"event {events[0].seq}" in p and "clock" in p for p in problems), problems
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)
