"""Hostile input against a running game, over real CURVE sockets: every bad frame gets a
clear error (an oversized one loses its connection), and the game is left untouched."""

from __future__ import annotations

import asyncio
import os

import msgpack
import pytest
import zmq

from modernart.moves import Move
from modernart.net.client.client import Client
from modernart.net.protocol.signed import ACT_TAG, HELLO_TAG, encode_action_body, hello_bytes
from modernart.net.trust.identity import Keys
from modernart.net.protocol import MAX_HOST_FRAME, VERSION, pack

from tests.net_helpers import in_process_host, run


def snapshot(table):
    st = table.game.state
    return (table.game.seq, list(st.money), [list(h) for h in st.hands], st.phase, st.move_count)


async def send_raw(client, data):
    client.state.errors.clear()
    client.sock.send(data)  # the client's socket is a plain one (net/client/client.py)


async def error_code(client, timeout=5.0):
    await client.wait_until(lambda s: bool(s.errors), timeout)
    return client.state.errors[-1][0]


def act_frame(client, keys, seat, move, ctr, game=None, request=1):
    body = encode_action_body(game or client.state.game_id, seat, ctr, move.to_list(), client.state.head_seq)
    return {"t": "act", "id": request, "b": body, "s": keys.sign(ACT_TAG, body)}


async def _hostile(tmp):
    host, table = await in_process_host(tmp, autostart=3)
    players = []
    for i in range(3):
        c = Client(host.target(), keys=Keys.generate())
        await c.connect()
        await c.take_seat(f"P{i}")
        players.append(c)
    for c in players:
        await c.ready()
    for c in players:
        await c.wait_until(lambda s: s.observation is not None, 10)
    attacker = Client(host.target(), keys=Keys.generate())
    await attacker.connect()
    results = {}
    try:
        before = snapshot(table)
        garbage = {
            "random bytes": b"\xc1" + os.urandom(200),
            "truncated": pack({"t": "hello", "v": 1, "vk": b"k" * 32})[:-5],
            "deeply nested": b"\x91" * 60000 + b"\x90",
            "huge header": b"\xdf\xff\xff\xff\xff",
            "wrong types": pack({"t": "ping", "seq": "seven"}),
            "unknown kind": pack({"t": "become_host"}),
            "ext type": msgpack.packb({"t": "ping", "seq": msgpack.ExtType(1, b"x")}),
        }
        for name, data in garbage.items():
            await send_raw(attacker, data)
            results[name] = await error_code(attacker)
        assert snapshot(table) == before

        # a frame over MAXMSGSIZE: libzmq drops the connection before the host sees it
        attacker.state.errors.clear()
        statuses = []
        attacker.on_update = lambda u: statuses.append(u.data) if u.kind == "status" else None
        attacker.sock.send(pack({"t": "ping", "seq": 0, "pad": b"x" * (MAX_HOST_FRAME + 10)}))
        await attacker.wait_until(lambda s: "reconnecting" in statuses, 10)
        await attacker.wait_until(lambda s: s.status == "connected", 10)
        results["oversized"] = attacker.state.errors[-1][0] if attacker.state.errors else "dropped"
        assert snapshot(table) == before

        mover_seat = table.game.state.to_move()[0]
        mover = next(c for c in players if c.state.seat == mover_seat)
        idle = next(c for c in players if c.state.seat != mover_seat)
        legal = table.game.state.legal_moves(mover_seat, amounts=False)[0]

        reply = await idle.request(
            act_frame(idle, idle.keys, idle.state.seat, Move(idle.state.seat, legal.action, legal.arg), 100)
        )
        results["out of turn"] = reply.code
        reply = await idle.request(act_frame(idle, idle.keys, mover_seat, legal, 101))
        results["another seat"] = reply.code
        reply = await mover.request(act_frame(mover, Keys.generate(), mover_seat, legal, 102))
        results["bad signature"] = reply.code
        reply = await mover.request(act_frame(mover, mover.keys, mover_seat, legal, 103, game=b"x" * 16))
        results["other game"] = reply.code
        reply = await attacker.request(act_frame(mover, mover.keys, mover_seat, legal, 104))
        results["spectator acts"] = reply.code
        forged = {
            "t": "hello",
            "v": VERSION,
            "vk": mover.keys.vk,
            "last_seq": 0,
            "sig": attacker.keys.sign(
                HELLO_TAG, hello_bytes(host.keys.curve_public_raw, attacker.keys.curve_public_raw, None)
            ),
        }
        await send_raw(attacker, pack(forged))
        results["forged hello"] = await error_code(attacker)
        await send_raw(attacker, pack({**forged, "v": 99}))
        results["wrong version"] = await error_code(attacker)
        assert snapshot(table) == before

        frame = act_frame(mover, mover.keys, mover_seat, legal, 200, request=7)
        assert (await mover.request(dict(frame))).ok
        after_move = snapshot(table)
        assert after_move[0] == before[0] + 1
        results["replayed"] = (await mover.request(dict(frame))).code
        assert snapshot(table) == after_move

        # a flood from one key: it is throttled, the others still play
        attacker.state.errors.clear()
        for _ in range(3000):
            try:  # never blocking: the host reading them runs on this very loop
                attacker.sock.send(pack({"t": "ping", "seq": 0}), zmq.DONTWAIT)
            except zmq.Again:
                await asyncio.sleep(0)
        await attacker.wait_until(lambda s: any(code == "rate_limited" for code, _ in s.errors), 10)
        results["flood"] = "rate_limited"
        quiet_reply = await idle.chat("still here")
        assert quiet_reply.ok
        assert snapshot(table) == after_move
        return results
    finally:
        for c in players + [attacker]:
            await c.close()
        await host.close()


@pytest.mark.timeout(90)
def test_hostile_input_gets_clear_errors_and_leaves_the_game_untouched(tmp_path):
    results = run(_hostile(tmp_path), 80)
    assert results == {
        "random bytes": "bad_frame",
        "truncated": "bad_frame",
        "deeply nested": "bad_frame",
        "huge header": "bad_frame",
        "wrong types": "bad_field",
        "unknown kind": "unknown_kind",
        "ext type": "bad_frame",
        "oversized": "dropped",
        "out of turn": "not_your_turn",
        "another seat": "not_your_seat",
        "bad signature": "bad_signature",
        "other game": "wrong_game",
        "spectator acts": "not_seated",
        "forged hello": "bad_signature",
        "wrong version": "version",
        "replayed": "replayed",
        "flood": "rate_limited",
    }
