"""Events checked in bursts: the host signature on the newest head of a burst, every link and
every player signature on every event; an action a client sent itself is not checked twice.

- A burst whose head carries a valid host signature is accepted even when an earlier
  event's own signature is forged (the head's signature covers it through the chain), and
  that forged signature is still caught by the full check the audit runs on the transcript.
- A burst whose head carries a forged signature is refused before anything acts on it.
- Over real sockets: a late spectator receives the history as one catch-up burst; a forged
  signature in its middle is kept in its transcript and caught by the audit's check; a
  forged head makes the client fail with `untrusted_host` and show none of the burst.
- A relayed action whose bytes differ from what the client signed (a forged signature on
  its own move) is checked, and caught.
"""

from __future__ import annotations

import os

import pytest

from modernart.bots import make_bot
from modernart.net.trust import chain
from modernart.net.protocol.signed import (
    ACT_TAG,
    HOSTEV_TAG,
    chain_genesis,
    chain_link,
    encode_action_body,
    private_hash,
)
from modernart.net.client.client import Client
from modernart.net.clocks import ManualClock
from modernart.net.trust.verified_game import VerifiedGame
from modernart.net.trust.identity import Keys
from modernart.net.protocol.frames import decode_host_frame
from modernart.net.protocol import decode_host_inner, pack

from tests.net_helpers import close_all, drive_to_sealed, in_process_host, run, seated_clients


def _history(host: Keys, game: bytes, count: int) -> list[tuple]:
    head = chain_genesis(game)
    events = []
    for seq in range(1, count + 1):
        pub = pack({"k": "move", "n": seq})
        privs = [pack({"salt": os.urandom(16), "hand": [seq, s]}) for s in range(3)]
        hashes = [private_hash(p) for p in privs]
        head = chain_link(head, seq, pub, hashes)
        events.append((seq, pub, privs, hashes, head, host.sign(HOSTEV_TAG, head)))
    return events


def test_a_burst_is_proven_by_its_head_and_a_forged_middle_is_left_to_the_full_check():
    host, game = Keys.generate(), b"G" * 16
    events = _history(host, game, 5)
    forged = Keys.generate().sign(HOSTEV_TAG, events[2][4])
    events[2] = events[2][:5] + (forged,)
    burst = chain.ChainVerifier(game, host.vk)
    for seq, pub, privs, hashes, h, sig in events:
        burst.accept(seq, pub, hashes, h, sig, 1, privs[1], defer_signature=True)
    burst.check_head()  # the head's signature holds: the burst is the host's
    assert (burst.seq, burst.head, burst.unsigned) == (5, events[-1][4], None)
    full = chain.ChainVerifier(game, host.vk)  # what the audit does: every signature
    with pytest.raises(chain.ChainError, match="event 3 carries a bad host signature"):
        for seq, pub, privs, hashes, h, sig in events:
            full.accept(seq, pub, hashes, h, sig)


def test_a_burst_with_a_forged_head_is_refused():
    host, game = Keys.generate(), b"G" * 16
    events = _history(host, game, 4)
    events[-1] = events[-1][:5] + (Keys.generate().sign(HOSTEV_TAG, events[-1][4]),)
    burst = chain.ChainVerifier(game, host.vk)
    for seq, pub, privs, hashes, h, sig in events:
        burst.accept(seq, pub, hashes, h, sig, defer_signature=True)
    with pytest.raises(chain.ChainError, match="event 4 carries a bad host signature"):
        burst.check_head()
    broken = chain.ChainVerifier(game, host.vk)  # a broken link is caught at once, deferred or not
    with pytest.raises(chain.ChainError, match="does not continue"):
        broken.accept(1, pack({"k": "other"}), events[0][3], events[0][4], events[0][5], defer_signature=True)


async def _late_spectator(tmp, forge_at: str):
    host, table = await in_process_host(tmp, clock=ManualClock())
    clients = await seated_clients(host, 3)
    spectator = None
    try:
        await drive_to_sealed(clients, table)  # a few moves, then a Sealed auction's card
        log = table.game.log
        victim = log[len(log) // 2] if forge_at == "middle" else log[-1]
        victim.sig = Keys.generate().sign(HOSTEV_TAG, victim.h)  # a host that signs one event wrongly
        spectator = Client(host.target(), keys=Keys.generate(), spectate=True, transcript=True)
        updates: list[str] = []
        spectator.on_update = lambda u: updates.append(u.kind)
        await spectator.connect()
        await spectator.wait_until(lambda s: s.head_seq >= len(log) or s.status == "failed", 10)
        frames = list(spectator.game.frames) if spectator.game and spectator.game.frames is not None else []
        st = spectator.state
        return (
            (st.status, list(st.errors), st.head_seq),
            updates,
            frames,
            victim.seq,
            table.game.game_id,
            host.keys.vk,
        )
    finally:
        await close_all(clients + ([spectator] if spectator else []), host)


@pytest.mark.timeout(60)
def test_a_forged_signature_in_the_middle_of_a_catch_up_burst_is_kept_and_caught_by_the_audit(tmp_path):
    (status, errors, head), updates, frames, forged_seq, game_id, host_vk = run(_late_spectator(tmp_path, "middle"), 50)
    assert status == "connected" and not errors, errors  # the head proves the burst
    assert updates.count("event") == len(frames) == head
    assert frames[forged_seq - 1]["hs"] != b"" and frames[forged_seq - 1]["seq"] == forged_seq
    audit = VerifiedGame(game_id, host_vk)  # the audit's check: every event's own signature
    with pytest.raises(chain.ChainError, match=f"event {forged_seq} carries a bad host signature"):
        for frame in frames:
            audit.apply(frame, None)


@pytest.mark.timeout(60)
def test_a_forged_head_of_a_catch_up_burst_fails_the_client_before_it_shows_anything(tmp_path):
    (status, errors, _head), updates, _frames, forged_seq, _game, _vk = run(_late_spectator(tmp_path, "head"), 50)
    assert status == "failed"
    assert ("untrusted_host", f"event {forged_seq} carries a bad host signature") in errors
    assert "event" not in updates and "observation" not in updates  # nothing of the burst was shown


async def _own_action(tmp):
    host, table = await in_process_host(tmp, clock=ManualClock())
    clients = await seated_clients(host, 3)
    try:
        sess = table.game
        mover = clients[sess.state.to_move()[0]]
        frames = [decode_host_frame(pack(e.frame_for(mover.state.seat))) for e in sess.log]
        return mover, sess, frames, host.keys
    finally:
        await close_all(clients, host)


@pytest.mark.timeout(60)
def test_an_own_action_is_trusted_only_byte_for_byte(tmp_path):
    mover, sess, frames, host_keys = run(_own_action(tmp_path), 50)
    seat, keys = mover.state.seat, mover.keys
    move = make_bot("random", 1).choose(mover.state.observation)
    body = encode_action_body(sess.game_id, seat, 1, move.to_list(), sess.seq)
    sig = keys.sign(ACT_TAG, body)
    sess.journal = None  # the host is closed: go on with its session in memory
    events, _ctr = sess.submit(keys.vk, seat, body, sig, 0.0)
    relayed = decode_host_frame(pack(events[0].frame_for(seat)))

    def follower(sent: bool) -> VerifiedGame:
        f = VerifiedGame(sess.game_id, host_keys.vk)
        for frame in frames:
            f.apply(frame, seat)
        if sent:
            f.sent(body, sig, keys.vk)
        return f

    for sent in (True, False):  # the honest relay: accepted whether or not it was noted as sent
        f = follower(sent)
        info, _obs = f.apply(relayed, seat)
        assert info.move == move and not f.own_actions  # a noted action is used once
    # a host that relays this client's body under another signature, re-signing the chain itself
    pub = decode_host_inner(relayed["pub"])
    pub["act"]["s"] = Keys.generate().sign(ACT_TAG, body)
    public = pack(pub)
    h = chain_link(frames[-1]["h"], relayed["seq"], public, relayed["ph"])
    forged = {**relayed, "pub": public, "h": h, "hs": host_keys.sign(HOSTEV_TAG, h)}
    with pytest.raises(chain.ChainError, match=f"seat {seat} carries a bad signature"):
        follower(True).apply(forged, seat)
