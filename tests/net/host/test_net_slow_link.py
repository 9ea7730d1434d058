"""A player on a slow link (8 kB/s and 20 kB/s, a real TCP relay on 127.0.0.1) whose client
process is killed mid-game and restarted: it catches up and plays its own moves to the end.

What this takes (docs/protocol.md "Catching up on a slow link"): the restarted client asks
from the last event it checked (its own copy on disk), not from event 1; the host sizes
catch-up batches and the lag deadline by the throughput it measures for that peer, so a
peer that reads, however slowly, is never dropped as lagging; the stand-in keeps the seat
until the player has caught up, then hands it over in one event.

On the code before this change (and on a2b2fc2) the restarted client asked from event 0,
was sent the whole log in one batch, was dropped as lagging before it could acknowledge
it, and asked from 0 again; the stand-in and the clock played its seat to the end.
"""

from __future__ import annotations

import re
import signal

import pytest

from modernart.net.lan.address import JoinTarget
from modernart.net.protocol import decode_host_inner

from tests.net.slow_link import SlowLink
from tests.net_helpers import Procs, captured_logs, in_process_host, run, seat_bots, until

SEAT_NAME = "bot0"


def _kinds(sess, seat: int, after: int) -> list[tuple[int, str, object]]:
    """(seq, kind, who) of the seat's moves and stand-in changes after event `after`."""
    out = []
    for event in sess.log[after:]:
        pub = decode_host_inner(event.public)
        if pub["k"] == "delegate" and pub["seat"] == seat:
            out.append((event.seq, "delegate", pub["vk"]))
        elif pub["k"] == "move" and pub["m"][0] == seat:
            out.append((event.seq, "move", pub.get("signer")))
    return out


async def _restart_on_slow_link(tmp_path, procs: Procs, rate: float) -> None:
    # grace 1 s: a stand-in takes the seat soon after the kill; no decision clock: only the
    # player or its stand-in ever moves for the seat
    host, table = await in_process_host(tmp_path, clocks={"grace": 1, "decision": 0}, autostart=4, bot_pace=0.3)
    link = await SlowLink(host.port, rate).start()
    join = str(JoinTarget("127.0.0.1", link.port, host.keys.curve_public_raw, table.id))
    try:
        with captured_logs() as logs:
            seat_bots(host, table, 3)
            proc = procs.bot(join, 0, pace=0.0)
            await until(lambda: table.game is not None, 60, what=lambda: procs.errors(SEAT_NAME)[-2000:])
            sess = table.game
            seat = next(i for i, p in enumerate(sess.players) if p.name == SEAT_NAME)
            await until(lambda: sess.seq >= 60, 120, what=lambda: sess.seq)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            killed_at = sess.seq
            # its stand-in takes the seat and the table plays on without the player
            await until(lambda: sess.delegates[seat] is not None, 60, what=lambda: sess.delegates)
            await until(
                lambda: (
                    sum(1 for s, k, who in _kinds(sess, seat, killed_at) if k == "move" and who == 1) >= 2
                    or sess.is_over
                ),
                120,
            )
            assert not sess.is_over, "the game ended before the player came back: nothing left to test"
            lines_before = len(logs.lines)
            back_at = sess.seq
            procs.bot(join, 0, pace=0.0, name="bot0-again")
            await until(lambda: table.record_path is not None, 300, what=lambda: (sess.seq, sess.delegates))
            await until(
                lambda: "game over" in procs.output("bot0-again"), 60, what=lambda: procs.errors("bot0-again")[-3000:]
            )
            after = logs.lines[lines_before:]
    finally:
        await link.close()
        await host.close()
    hellos = [
        int(m.group(1))
        for m in (re.search(rf"hello table=\S+ seat={seat} role=player from=(\d+)", x) for x in after)
        if m
    ]
    assert hellos, "the restarted client never said hello"
    assert hellos[0] >= killed_at - 5, f"the restarted client asked from event {hellos[0]}, not from its own copy"
    lagging = [x for x in after if re.search(rf"peer gone table=\S+ seat={seat} why=lagging", x)]
    assert not lagging, f"a player that reads was dropped as lagging {len(lagging)} times"
    changes = _kinds(sess, seat, back_at)
    handed_back = [s for s, k, who in changes if k == "delegate" and who is None]
    assert len(handed_back) == 1, changes  # the hand-over is one event
    own = [s for s, k, who in changes if k == "move" and who == 0]
    assert own and min(own) > handed_back[0], changes  # it plays its own moves, after the hand-over
    assert not [s for s, k, who in changes if k == "move" and who == 1 and s > handed_back[0]], changes


@pytest.mark.timeout(600)
@pytest.mark.parametrize("rate", [8_000, 20_000])
def test_restarted_player_on_slow_link_catches_up_and_plays_to_the_end(tmp_path, rate):
    procs = Procs(tmp_path)
    try:
        run(_restart_on_slow_link(tmp_path, procs, float(rate)), 480)
    finally:
        procs.close()
