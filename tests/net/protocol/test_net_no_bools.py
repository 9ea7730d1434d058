"""A bool is never an int anywhere in the protocol (`True == 1` in Python, not on this wire).

Every integer field of every signed body (action, sealed-bid commitment and reveal, shuffle
seed) and of every client frame is tried with True and False: each is refused with a
specific code.  Then from the attacker's side, over real CURVE sockets: a seated player
signs an action body whose version is `True` and sends it; the host refuses it as
`bad_action` and nothing changes at the table.
"""

from __future__ import annotations

import pytest

from modernart.moves import Action
from modernart.net.protocol.signed import (
    ACT_TAG,
    decode_action_body,
    decode_commit,
    decode_reveal,
    decode_seed,
    decode_vote,
)
from modernart.net.protocol.frames import CLIENT_SCHEMA, decode_client_frame
from modernart.net.protocol import BODY_VERSION, ProtocolError, VERSION, pack

from tests.net_helpers import close_all, in_process_host, run, seated_clients

G, K, B32 = b"g" * 16, b"k" * 32, b"x" * 32

#: (decoder, a valid body, the positions of its integer fields)
BODIES = {
    "action": (decode_action_body, [BODY_VERSION, G, 2, 7, [2, 3, 15], 40, None], [0, 2, 3, 5]),
    "commit": (decode_commit, [BODY_VERSION, G, 3, 1, K, B32], [0, 2, 3]),
    "reveal": (decode_reveal, [BODY_VERSION, G, 3, 1, K, 5, B32, B32], [0, 2, 3, 5]),
    "seed": (decode_seed, [BODY_VERSION, G, 1, K, B32], [0, 2]),
    "vote": (decode_vote, [BODY_VERSION, G, 1, 2, "end", 30, 31, B32], [0, 2, 3, 5, 6]),
}


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_every_integer_field_of_a_signed_body_refuses_a_bool(kind):
    decode, good, positions = BODIES[kind]
    decode(pack(good))  # the valid body passes
    for pos in positions:
        for value in (True, False):
            body = list(good)
            body[pos] = value
            with pytest.raises(ProtocolError) as info:
                decode(pack(body))
            assert info.value.code == "bad_action", (kind, pos, value)
    move = list(good)
    if kind == "action":
        for i in range(3):  # the move [seat, action, arg] too
            move[4] = [True if j == i else x for j, x in enumerate(good[4])]
            with pytest.raises(ProtocolError):
                decode(pack(move))


def _valid(kind: str) -> dict:
    sample = {
        "v": VERSION,
        "vk": K,
        "sig": b"s" * 64,
        "id": 1,
        "b": b"b",
        "s": b"s" * 64,
        "seed": B32,
        "op": "leave",
        "last_seq": 0,
        "evs": [b"e"],
        "signed": [b"b", b"s" * 64],
        "open": {"slot": 0},
        "vote": [b"b", b"s" * 64],
    }
    return {"t": kind, **{f: sample[f] for f, (_check, required) in CLIENT_SCHEMA[kind].items() if required}}


@pytest.mark.parametrize("kind", sorted(CLIENT_SCHEMA))
def test_every_integer_field_of_a_client_frame_refuses_a_bool(kind):
    decode_client_frame(pack(_valid(kind)))
    int_fields = [f for f, (check, _req) in CLIENT_SCHEMA[kind].items() if check(0) or check(1)]
    for field in int_fields:
        for value in (True, False):
            frame = {**_valid(kind), field: value}
            with pytest.raises(ProtocolError) as info:
                decode_client_frame(pack(frame))
            assert info.value.code == "bad_field", (kind, field, value)


async def _bool_version_over_the_wire(tmp):
    host, table = await in_process_host(tmp, autostart=3)
    clients = await seated_clients(host, 3)
    try:
        sess = table.game
        c = next(c for c in clients if c.state.observation.my_turn)
        seat = c.state.seat
        card = c.state.observation.hand[0]
        before = (sess.seq, sess.counters[seat])
        body = pack([True, c.state.game_id, seat, 1000, [seat, int(Action.PLAY), int(card)], c.state.head_seq, None])
        reply = await c.request({"t": "act", "b": body, "s": c.keys.sign(ACT_TAG, body)})
        return reply, before, (sess.seq, sess.counters[seat])
    finally:
        await close_all(clients, host)


@pytest.mark.timeout(40)
def test_a_signed_action_with_version_true_is_refused_by_a_real_host(tmp_path):
    reply, before, after = run(_bool_version_over_the_wire(tmp_path), 30)
    assert not reply.ok and reply.code == "bad_action", reply
    assert after == before  # nothing happened at the table


def test_a_record_or_transcript_whose_version_is_true_is_refused(tmp_path):
    import json
    import struct

    from modernart.game import GameState
    from modernart.record import GameRecord, RecordError, read_record
    from modernart.net.trust.transcript import FORMAT, TranscriptError, read_transcript, write_transcript

    record = GameRecord.start(GameState(3, seed=1), ["A", "B", "C"], {})
    path = tmp_path / "game.json"
    record.save(str(path))
    read_record(str(path))
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "version": True}))
    with pytest.raises(RecordError, match="unsupported record version True"):
        read_record(str(path))
    tpath = tmp_path / "game.transcript"
    write_transcript(str(tpath), [])
    read_transcript(str(tpath))
    header = pack({"format": FORMAT, "version": True})
    tpath.write_bytes(struct.pack(">I", len(header)) + header)
    with pytest.raises(TranscriptError, match="unsupported transcript version True"):
        read_transcript(str(tpath))
