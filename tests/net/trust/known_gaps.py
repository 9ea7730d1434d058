"""The open faults of docs/fair-play.md "Known gaps against a host that runs changed code",
each shown as the attack that still works: every test here passes while its attack
succeeds, its assertions stating what the host got away with.

Not part of the suite (the file's name is not test_*.py, so the suite's run leaves it out:
a suite that passes because an attack works would say nothing true).  Run it by path,
`pytest tests/net/trust/known_gaps.py`, to see which gaps are still open.  When a gap is
closed its demonstration fails here: turn it round into an attack test in
test_hidden_attacks.py that expects the honest client or the audit to catch the host, and
remove it from this file and from the docs' list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.moves import Move
from modernart.net.trust.group import read_scalar
from modernart.phase import Phase

from tests.hostile_hidden import HostileHost, close_clients, honest_clients
from tests.net_helpers import run, until
from tests.net.trust.test_hidden_attacks import dealt

pytestmark = pytest.mark.timeout(150)


def test_a_faked_game_over_gets_every_deck_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`VerifiedGame.game_over` is the host's own public view (`pv.phase`), which no client
    checks against the rules.  Right after the deal the host sends one event that moves
    nothing (a `dlate`) whose pv says GAME_OVER, then its true `disclose`.  Every client takes both and
    sends its secret deck key: the host reads every card of every hand (and the stock)."""
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
            seat = (sess.state.auctioneer + 1) % 3
            hostile.inject("dlate", {"seat": seat, "step": "card", "waited": 0.0})
            hostile.host.fanout.publish_all(hostile.table, [sess._disclose(hostile.host.clock.now())])
            monkeypatch.setattr(game_module, "public_view", real_pv)
            await until(
                lambda: (
                    len(hostile.frames_of("deck", "secret")) == 3 or any(c.state.status == "failed" for c in clients)
                ),
                30,
                what=lambda: [
                    (
                        c.state.status,
                        c.game.game_over,
                        c.game.shuffle is not None,
                        c.game.pending_play,
                        c.state.errors[-3:],
                        c.state.head_seq,
                        sess.seq,
                    )
                    for c in clients
                ],
            )
            assert all(c.state.status == "connected" for c in clients), [c.state.errors for c in clients]
            for r in hostile.frames_of("deck", "secret"):
                hostile.known_secrets[r.seat] = read_scalar(r.msg["secret"])
            assert sorted(hostile.known_secrets) == [0, 1, 2]
            learned = hostile.learned()
            ledger = sess.hidden.ledger
            assert len(learned) == ledger.dealt  # every card of every hand, none played
            for c in clients:  # and each matches what the owner itself reads
                own = set(c.state.observation.hand)
                assert {learned[k] for k in ledger.slots_of(c.state.seat)} == own
            # and the game goes on: one event with the true view, and the auctioneer plays
            sess.disclosed = False
            hostile.inject("dlate", {"seat": 0, "step": "card", "waited": 0.0})
            player = clients[sess.state.auctioneer]
            await player.wait_until(lambda s: s.head_seq >= sess.seq, 30)
            card = sorted(player.state.observation.hand)[0]
            assert (await player.send_move(Move.play(player.state.seat, card))).ok
            assert all(c.state.status == "connected" for c in clients)
            assert all(code != "untrusted_host" for c in clients for code, _m in c.state.errors)
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_host_that_drops_an_honest_seats_shuffle_has_every_client_blame_that_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host drops (never answers, never relays) seat 1's shuffle.  Every other client's
    own record names seat 1 as the one the table waits for, exactly as for a seat that
    withholds it; seat 1's own client, which sent it, says nothing of a host that sits on
    its step: the host stalls the table and an honest player takes the blame."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        hostile.on_frame = lambda seat, kind, msg: None if kind == "deck" and seat == 1 and "shuffle" in msg else msg
        try:
            clients += await honest_clients(hostile, 3)

            def named(c: Any) -> bool:
                deck = c.game.deck if c.game is not None else None
                return deck is not None and deck.waiting_for() == ("shuffle", (1,))

            await until(lambda: all(named(c) for c in clients) and hostile.frames_of("deck", "shuffle"), 60)
            assert any(r.seat == 1 for r in hostile.frames_of("deck", "shuffle"))  # it did send it
            assert clients[1].state.errors == [] and clients[1].state.status == "connected"
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)
