"""Attacks on a hidden-hands table through the game's public record (docs/fair-play.md "What
the host cannot do"): a host running changed code (tests/hostile_hidden.py `HostileHost`)
that lies about the public view (`pv`: the phase, whose turn, the money) or about what the
rules dealt, to get a deck key or shares it may not have.  Every client runs the rules on
its own checked ledger (net/trust/blind_game.py `BlindGame`, in net/trust/verified_game.py)
and refuses the first event that differs from its own run, before anything leaves it.

Each docstring says what the same attack did before the fix, run once with this file and
tests/hostile_hidden.py copied into a checkout of the commit before it (6a789b7) and of the
base commit a2b2fc2 (with this commit's tests/net_helpers.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from modernart.game import deals_of_order, deck_orders_needed
from modernart.moves import Move
from modernart.phase import Phase

from tests.hostile_hidden import HostileHost, close_clients, evidence_audited, honest_clients, untrusted
from tests.net_helpers import run, until

pytestmark = pytest.mark.timeout(150)


async def dealt(clients: list[Any], timeout: float = 60.0) -> None:
    """Wait until every client reads its whole first hand."""
    for c in clients:
        await c.wait_until(
            lambda s, c=c: s.observation is not None and c.hand_ready and len(s.observation.hand) > 0, timeout
        )


def put_up_a_card(hostile: HostileHost, clients: list[Any]) -> asyncio.Task[Any]:
    """The auctioneer's client puts up its lowest card (in a task: its answer may never come)."""
    player = clients[hostile.game.state.auctioneer]
    card = sorted(player.state.observation.hand)[0]
    return asyncio.ensure_future(player.send_move(Move.play(player.state.seat, card)))


def test_a_host_whose_view_says_the_game_is_over_gets_no_deck_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after the deal the host's public view says GAME_OVER (its events for the first
    card put up), then it sends its true `disclose`: a client that took the phase from the
    host's view would send its secret deck key, and the host would read every hand and the
    stock.  Every client refuses the first event whose view is not its own run of the rules
    (`untrusted_host`, naming the event and the field), no deck key leaves any client, and
    `modernart audit` on each client's evidence names the same event.

    Before the fix (6a789b7): every client took the view, accepted the disclosure and sent
    its deck key (3 of 3); the host read 29 of the 30 cards dealt, every card still in a
    hand (its demonstration did the same with an event that moves nothing).  On a2b2fc2:
    the same, 3 keys and 29 of 30 cards (a client there sent its deck key on any
    `disclose` whose seeds checked out, view or not)."""
    from modernart.net.host import game as game_module

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            sess = hostile.game
            real_pv = game_module.public_view
            monkeypatch.setattr(
                game_module, "public_view", lambda state: {**real_pv(state), "phase": int(Phase.GAME_OVER)}
            )
            lied = sess.seq + 1
            play = put_up_a_card(hostile, clients)
            # the play made (its events say the game is over), or refused by every client
            await until(
                lambda: (
                    sess.seq >= lied
                    and getattr(sess.hidden, "pending", None) is None
                    or all(c.state.status == "failed" for c in clients)
                ),
                30,
            )
            hostile.host.fanout.publish_all(hostile.table, [sess._disclose(hostile.host.clock.now())])
            said = await untrusted(clients)
            assert all(f"event {lied}: the host's public view differs from the rules' (phase" in m for m in said), said
            assert hostile.frames_of("deck", "secret") == []  # no deck key left any client
            assert hostile.learned() == {}  # and the host reads no card of any hand
            problems = await evidence_audited(clients)
            assert all(any(p.startswith(f"event {lied}: ") and "public view" in p for p in ps) for ps in problems)
            play.cancel()
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_host_that_deals_the_next_round_early_gets_no_share_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host announces, with the first card put up, the deal of round 2 (the very counts
    the rules deal then): a client that dealt from the host's word would take the next slots
    as dealt and send its shares of the cards in the others' new hands, before the rules
    deal them.  Every client refuses that event (its own run of the rules deals nothing
    then: `untrusted_host`, saying so), no share of a slot past round 1 leaves any client,
    and the audit of each client's evidence names the event.

    Before the fix (6a789b7) and on a2b2fc2: every client dealt round 2 in its ledger on the
    host's word (its counts are the rules') and sent its shares of the new slots: 36 shares
    of slots past round 1 left the three clients, all still trusting the host."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            sess = hostile.game
            ledger = sess.hidden.ledger
            round_one = ledger.dealt
            options = sess.options
            size = options.deck_table.size
            deals = deals_of_order(options, 3, list(range(size)) * deck_orders_needed(options))
            early = [{"k": "dealt", "round": 1, "seat": s, "count": len(cards)} for s, cards in enumerate(deals[1])]
            lied = sess.seq + 1

            def deal_early(seat: int | None, seq: int, pub: dict[str, Any]) -> dict[str, Any] | None:
                return {**pub, "ev": list(pub.get("ev", [])) + early} if seq == lied else None

            hostile.rewrite = deal_early
            play = put_up_a_card(hostile, clients)
            said = await untrusted(clients)
            assert all(f"event {lied}: the host deals " in m and "the rules deal nothing now" in m for m in said), said
            slots = _slots(hostile)
            assert slots and all(slot < round_one for slot in slots), slots  # round 1's shares only
            problems = await evidence_audited(clients)
            assert all(any(p.startswith(f"event {lied}: the host deals") for p in ps) for ps in problems), problems
            play.cancel()
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def _slots(hostile: HostileHost) -> list[int]:
    """The slot of every share any seat sent the host."""
    from modernart.net.trust.deck import Share

    return [Share.from_wire(wire).slot for r in hostile.frames_of("deck", "shares") for wire in r.msg["shares"]]


def test_at_an_open_table_a_host_whose_view_says_the_game_is_over_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same lie at a table whose host sees the hands: its events for the first card put
    up say GAME_OVER, then it discloses the seeds.  There the host frees no player's secret
    by it, but a client that took the view would end its game there: it would take the
    disclosure and save a record of a game not played to its end.  Every client runs the
    rules on stand-ins (net/trust/blind_game.py `StandInGame`) and refuses the event
    (`untrusted_host`, naming the event and the field); none saves a record.

    Before the fix (6a789b7) and on a2b2fc2: every client took the view and the
    disclosure as the end of the game and saved a record of it (whose audit then failed)."""
    from modernart.net.host import game as game_module

    from tests.net_helpers import in_process_host

    async def main() -> None:
        host, table = await in_process_host(tmp_path)
        hostile = HostileHost(host, table, monkeypatch)
        hostile._intercept_requests()
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            for c in clients:
                await c.wait_until(lambda s: s.observation is not None and len(s.observation.hand) > 0, 60)
            sess = hostile.game
            real_pv = game_module.public_view
            monkeypatch.setattr(
                game_module, "public_view", lambda state: {**real_pv(state), "phase": int(Phase.GAME_OVER)}
            )
            lied = sess.seq + 1
            play = put_up_a_card(hostile, clients)
            await until(lambda: sess.seq >= lied, 30)
            host.fanout.publish_all(table, [sess._disclose(host.clock.now())])
            said = await untrusted(clients)
            assert all(f"event {lied}: the host's public view differs from the rules' (phase" in m for m in said), said
            assert all(c.state.saved_record is None for c in clients)
            problems = await evidence_audited(clients)
            assert all(any(p.startswith(f"event {lied}: ") and "public view" in p for p in ps) for ps in problems)
            play.cancel()
        finally:
            await close_clients(clients)
            await host.close()

    run(main(), 120)
