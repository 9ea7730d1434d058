"""Attacks of a host running changed code on the audit's protocol version and on refused
card plays (docs/fair-play.md "What the host cannot do"), against honest clients over real
sockets on 127.0.0.1 (tests/hostile_hidden.py `HostileHost`).  Each was first a demonstration of
an open gap; here the honest client or the audit catches the host.

Each docstring says what the attack did before its fix: run on this branch's commit
before the fix (3edcf8f), where each demonstration passed and each test here failed; at
the base commit a2b2fc2 a table did not hide hands at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.moves import Move
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_evidence
from modernart.net.trust.transcript import read_transcript_and_header, write_transcript

from tests.hostile_hidden import HostileHost, close_clients, evidence_audited, honest_clients, untrusted
from tests.net.trust.test_hidden_attacks import auctioneer, dealt, is_card_play, replace_shuffles
from tests.net_helpers import run

pytestmark = pytest.mark.timeout(150)


def test_the_audit_of_a_replaced_shuffle_refuses_a_header_that_calls_it_version_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evidence of a host that put its own shuffle in seat 0's place, relabelled by the
    host as a version-2 transcript (whose deck steps carry no signature): the audit takes
    the protocol from event 1, which the host signed, and names the header that disagrees.
    Before the fix: the relabelled copy checked out (the header alone said the protocol)."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            replace_shuffles(hostile)
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await untrusted(clients)
            problems = await evidence_audited(clients)
            assert problems[1] and "seat 0's shuffle step" in problems[1][0]
            header, frames = read_transcript_and_header(clients[1].state.saved_evidence)
            assert decode_host_inner(frames[0]["pub"])["v"] == 3  # the host signs its protocol
            relabelled = str(tmp_path / "relabelled.transcript")
            write_transcript(relabelled, frames, {"version": 2, "host_vk": header["host_vk"]})
            report = audit_evidence(relabelled)
            assert not report.ok
            assert "version 2" in report.problems[0] and "event 1" in report.problems[0], report.problems
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_hidden_table_whose_start_signs_no_version_is_refused_by_every_client_and_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host leaves the version out of event 1 (as hosts of protocols 1 and 2 did) at a
    table that hides hands, so that a copy under a version-2 header would pass without deck
    step signatures.  Every client refuses event 1 (hidden hands need protocol 3's signed
    steps), and the audit of its evidence says "deck steps unsigned", whatever the header.
    Before the fix: the clients played on, and such a copy checked out as version 2."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        hostile.rewrite = lambda to, seq, pub: {k: v for k, v in pub.items() if k != "v"} if seq == 1 else None
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            said = await untrusted(clients)
            assert all("deck steps unsigned" in m for m in said), said
            problems = await evidence_audited(clients)
            assert all(p and "deck steps unsigned" in p[0] for p in problems), problems
            header, frames = read_transcript_and_header(clients[0].state.saved_evidence)
            relabelled = str(tmp_path / "relabelled.transcript")
            write_transcript(relabelled, frames, {"version": 2, "host_vk": header["host_vk"]})
            report = audit_evidence(relabelled)
            assert not report.ok and "deck steps unsigned" in report.problems[0], report.problems
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_refused_card_play_committed_later_is_refused_by_its_owner_who_opens_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host refuses ("stale") the player's play of card A, then of card B, and then
    commits A through its own real `submit` (its counter was never used).  The owner's
    client marked A withdrawn when the host refused it: it refuses the `play` event, says
    the host is untrusted, and sends no opening; the host reads no card.
    Before the fix: the owner opened A, which was played although its last choice was B."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        refusing = [True]
        hostile.on_frame = lambda seat, kind, msg: (
            "stale" if refusing[0] and kind == "act" and is_card_play(msg) else msg
        )
        try:
            clients += await honest_clients(hostile, 3)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            a, b = sorted(player.state.observation.hand)[:2]
            assert (await player.send_move(Move.play(seat, a))).code == "stale"
            assert (await player.send_move(Move.play(seat, b))).code == "stale"
            refusing[0] = False
            first = hostile.frames_of("act")[0].msg  # the withdrawn play of card A
            sess = hostile.game
            events, _ctr = sess.submit(player.keys.vk, seat, first["b"], first["s"], hostile.host.clock.now())
            hostile.host.fanout.publish_all(hostile.table, events)
            said = await untrusted([player])
            assert "withdrawn" in said[0], said
            assert hostile.frames_of("open") == []
            assert hostile.learned() == {}
            assert player.fair.shown == set()
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_refused_play_committed_in_a_fork_shown_to_its_owner_alone_gets_no_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host refuses the owner's play of card A ("stale"), then commits it in a fork shown
    to the owner alone (the others are sent a harmless `delegate` revocation in its place),
    hoping for A's opening while the others never learn it was offered.  The owner refuses
    the withdrawn play: no opening leaves it, and the host holds no card.
    Before the fix: the owner opened A, and the host read a card nobody else knew was offered."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        refusing = [True]
        hostile.on_frame = lambda seat, kind, msg: (
            "stale" if refusing[0] and kind == "act" and is_card_play(msg) else msg
        )
        try:
            clients += await honest_clients(hostile, 3)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat

            def fork(to: int | None, seq: int, pub: dict[str, Any]) -> dict[str, Any] | None:
                if to != seat and pub["k"] == "play":
                    out = {k: v for k, v in pub.items() if k not in ("m", "deck", "signer", "act")}
                    return {**out, "k": "delegate", "seat": seat, "vk": None}
                return None

            hostile.rewrite = fork
            a = sorted(player.state.observation.hand)[0]
            assert (await player.send_move(Move.play(seat, a))).code == "stale"
            refusing[0] = False
            first = hostile.frames_of("act")[0].msg
            sess = hostile.game
            events, _ = sess.submit(player.keys.vk, seat, first["b"], first["s"], hostile.host.clock.now())
            hostile.host.fanout.publish_all(hostile.table, events)
            said = await untrusted([player])
            assert "withdrawn" in said[0], said
            assert hostile.frames_of("open") == []
            assert hostile.learned() == {}
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)
