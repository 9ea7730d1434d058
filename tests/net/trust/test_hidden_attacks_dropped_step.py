"""A host that drops a seat's deck step and names the seat late (docs/fair-play.md "What the
host can still do"): the seat's own client, which sent the step signed, sends it once more, then
says on its own screen that the host has not recorded it and keeps the evidence (its
checked events and the signed step), which `modernart audit` reads: the seat signed that
step in answer to that history, and no event records it.  The other players' screens name
the seat late "by the host's record", no more.

The host's deadline runs on its injected clock (`ManualClock`); the seat's client concludes
once the host has not answered its second sending within the request's time.

Before the fix (6a789b7): the host's `dlate` named seat 1 on every screen, and seat 1's
client, which had sent its shuffle, said nothing of a host that sits on it (its
demonstration passed there).  On a2b2fc2, which has no deck deadlines: the table waited,
every client's ledger naming seat 1 as the next to shuffle, and seat 1's client said
nothing (the same demonstration, run there, passed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.net.clocks import ManualClock
from modernart.net.trust.audit import audit_evidence

from tests.hostile_hidden import HostileHost, close_clients, honest_clients
from tests.net_helpers import run, until

pytestmark = pytest.mark.timeout(150)


def test_a_seat_whose_shuffle_the_host_drops_says_so_and_keeps_the_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def main() -> None:
        clock = ManualClock()
        hostile = await HostileHost.open(tmp_path, monkeypatch, clock=clock, clocks={"deck_step": 30})
        clients: list[Any] = []
        hostile.on_frame = lambda seat, kind, msg: None if kind == "deck" and seat == 1 and "shuffle" in msg else msg
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            sent = lambda: [r for r in hostile.frames_of("deck", "shuffle") if r.seat == 1]  # noqa: E731

            def waiting(c: Any) -> bool:
                deck = c.game.deck if c.game is not None else None
                return deck is not None and deck.waiting_for() == ("shuffle", (1,))

            await until(lambda: all(waiting(c) for c in clients) and len(sent()) == 1, 60)
            clock.advance(31)  # the host's deadline for seat 1's shuffle passes: it names seat 1 late
            seat1 = clients[1]
            await seat1.wait_until(lambda s: any(code == "step_unrecorded" for code, _m in s.errors), 60)
            said = next(m for code, m in seat1.state.errors if code == "step_unrecorded")
            assert "its shuffle" in said and "the host has not recorded it" in said, said
            assert len(sent()) >= 2  # sent again (and again by its duty while the shuffle is owed)
            assert seat1.state.status == "connected"  # not a proof against the host: it keeps playing
            for c in (clients[0], clients[2]):  # the others: named late by the host's record
                await c.wait_until(lambda s, c=c: c.game is not None and c.game.late == {1: "shuffle"}, 30)
            await seat1.wait_until(lambda s: s.saved_evidence is not None, 30)
            path = seat1.state.saved_evidence
            assert path.endswith(".unrecorded.transcript")
            report = audit_evidence(path)
            assert report.problems == [], report.problems
            assert any(
                n.startswith("seat 1 (P") and "signed its shuffle step of deck 0" in n and "records it" in n
                for n in report.notes
            ), report.notes
            assert any("did not record its step" in n for n in report.notes)
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 140)
