"""A hostile host, from the client's side: a fake host (a real CURVE ROUTER on 127.0.0.1)
welcomes a real `Client`, then sends it malformed, unknown and oversized frames of every
kind.  The client refuses each with the stable code of net/protocol/frames.py, keeps
running, and changes nothing of its state."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import zmq
import zmq.asyncio

from modernart.net.client.client import Client
from modernart.net.lan.address import JoinTarget
from modernart.net.protocol import MAX_CHAT, pack
from modernart.net.protocol import frames as f
from modernart.net.trust.identity import Keys

from tests.net_helpers import run

GAME = bytes(range(16))
#: values tried, in order, as a wrong value for a field: the first its check refuses
WRONG = (True, "xyz", -5, b"\x01", [[1.5]], {"a": [1]}, 1.5, None)


class FakeHost:
    """A CURVE ROUTER that speaks whatever the test tells it to."""

    def __init__(self) -> None:
        self.keys = Keys.generate()
        self.ctx = zmq.asyncio.Context()
        self.sock = self.ctx.socket(zmq.ROUTER)
        self.sock.curve_server = True
        self.sock.curve_secretkey = self.keys.curve_secret
        self.sock.curve_publickey = self.keys.curve_public
        self.sock.linger = 0
        self.port = self.sock.bind_to_random_port("tcp://127.0.0.1")
        self.rid: bytes | None = None

    def target(self) -> JoinTarget:
        return JoinTarget("127.0.0.1", self.port, self.keys.curve_public_raw, None)

    async def answer_hello(self) -> None:
        while True:
            rid, data = await self.sock.recv_multipart()
            if f.decode_client_frame(data)["t"] == "hello":
                break
        self.rid = rid
        welcome = f.welcome_frame("t1", None, "spectator", None, 0, 0, False, self.keys.vk, os.urandom(8))
        await self.send(pack(welcome))
        await self.send(pack(f.lobby_frame(lobby_description())))

    async def send(self, data: bytes) -> None:
        assert self.rid is not None
        await self.sock.send_multipart([self.rid, data])

    def close(self) -> None:
        self.sock.close(linger=0)
        self.ctx.destroy(linger=0)


def lobby_description() -> dict[str, Any]:
    seat = f.seat_description(0, "Ana", None, False, "ABCD-EFGH", True, True)
    return {
        "table": "t1",
        "name": "the table",
        "state": "lobby",
        "join": "ma://127.0.0.1:1/KEY",
        "code": "ABCD-EFGH-IJKL",
        "clocks": {"decision": 60.0},
        "seats": [seat, None, None],
        "options": {},
        "admin": "ABCD-EFGH",
    }


def valid_frames() -> dict[str, dict[str, Any]]:
    """One well-formed frame of every host -> client kind (never sent as it is)."""
    pub = pack(f.event_public("start", GAME, {"players": [], "options": {}, "hseed": bytes(32)}))
    event = f.event_frame(1, pub, [bytes(32)], bytes(32), bytes(64), None)
    frames = {
        "welcome": f.welcome_frame("t1", 0, "player", GAME, 3, 1, False, bytes(32), bytes(8)),
        "seat": f.seat_frame(0, "player"),
        "lobby": f.lobby_frame(lobby_description()),
        "ev": event,
        "evs": f.batch_frame([pack(event)], bytes(8)),
        "ack": f.ack_frame(1, 5, 1),
        "reply": f.reply_frame(1),
        "err": f.err_frame("seat_taken", "that seat is taken", 1),
        "tick": f.tick_frame(0, f.clock_view(1.0, None, None, [0])),
        "dnext": f.dnext_frame(GAME, 1, None),  # a hidden deck's next shuffle, relayed (withdrawn: None)
        "chat": f.chat_frame(0, "Ana", "hello"),
        "tables": f.tables_frame(1, [f.table_info("t1", "the table", "lobby", 1, 4, {})]),
        "closed": f.closed_frame("t1", None, None),
    }
    assert list(frames) == list(f.HOST_SCHEMA)  # every kind, in the schema's order
    for frame in frames.values():
        f.decode_host_frame(pack(frame))  # each is valid: only its mutations are refused
    return frames


def hostile_frames() -> list[tuple[str, bytes, str]]:
    """(what, frame bytes, the code the client must refuse it with)."""
    out: list[tuple[str, bytes, str]] = [
        ("random bytes", b"\xc1" + os.urandom(100), "bad_frame"),
        ("not a map", pack([1, 2, 3]), "bad_frame"),
        ("no kind", pack({"seq": 1}), "unknown_kind"),
        ("a kind that is no string", pack({"t": 7}), "unknown_kind"),
        ("an unknown kind", pack({"t": "hijack", "seat": 0}), "unknown_kind"),
        ("a client's kind", pack({"t": "hello"}), "unknown_kind"),
        ("a string past the decoder's limit", pack(f.chat_frame(0, "Ana", "x" * 5000)), "bad_frame"),
        ("a chat line past MAX_CHAT", pack(f.chat_frame(0, "Ana", "x" * (MAX_CHAT + 1))), "bad_field"),
        ("a seat past the table", pack(f.seat_frame(5, "player")), "bad_field"),
        ("an unknown role", pack(f.seat_frame(0, "admin")), "bad_field"),
    ]
    for kind, frame in valid_frames().items():
        schema = f.HOST_SCHEMA[kind]
        out.append((f"{kind} with an unknown field", pack({**frame, "zz": 1}), "bad_field"))
        for name, (check, required) in schema.items():
            if required:
                out.append((f"{kind} without {name}", pack({k: v for k, v in frame.items() if k != name}), "bad_field"))
            wrong = next(v for v in WRONG if not check(v))
            out.append((f"{kind} with {name}={wrong!r}", pack({**frame, name: wrong}), "bad_field"))
    lobby = lobby_description()
    bad_seat = {**lobby["seats"][0], "secret": b"x"}
    out += [
        ("a lobby seat with an unknown field", pack(f.lobby_frame({**lobby, "seats": [bad_seat]})), "bad_field"),
        ("six lobby seats", pack(f.lobby_frame({**lobby, "seats": [None] * 6})), "bad_field"),
        ("a tick whose clocks have an unknown field", pack({"t": "tick", "head": 0, "clk": {"x": 1}}), "bad_field"),
        ("a table entry without its id", pack(f.tables_frame(1, [{"name": "x"}])), "bad_field"),
        ("a batch holding a tick", pack(f.batch_frame([pack(f.tick_frame(0, None))], bytes(8))), "bad_field"),
        ("a batch holding garbage", pack(f.batch_frame([b"\xc1\xc1"], bytes(8))), "bad_frame"),
        ("a batch of over 4096 events", pack(f.batch_frame([b"\x80"] * 4097, bytes(8))), "bad_frame"),
    ]
    for what, pub, code in (
        ("of an unknown kind", {"k": "steal", "g": GAME}, "unknown_kind"),
        ("with an unknown field", {"k": "deal", "g": GAME, "first": 0, "missing": [], "x": 1}, "bad_field"),
        ("without its game", {"k": "deal", "first": 0, "missing": []}, "bad_field"),
        ("with a malformed public view", {"k": "deal", "g": GAME, "first": 0, "missing": [], "pv": {}}, "bad_field"),
        ("that is no map", [1], "bad_frame"),
    ):
        event = f.event_frame(1, pack(pub), [bytes(32)], bytes(32), bytes(64), None)
        out.append((f"an event {what}", pack(event), code))
        out.append((f"a batch with an event {what}", pack(f.batch_frame([pack(event)], bytes(8))), code))
    return out


def snapshot(client: Client) -> tuple[Any, ...]:
    st = client.state
    return (
        st.status,
        st.seat,
        st.role,
        dict(st.table),
        st.game_id,
        st.head_seq,
        list(st.log),
        list(st.chat),
        st.goodbye,
        st.public,
        dict(st.deadlines),
        st.reveals_owed,
        list(st.players),
        client.game is None,
    )


async def _against_a_hostile_host() -> list[str]:
    host = FakeHost()
    client = Client(host.target(), keys=Keys.generate(), updates=False)
    problems: list[str] = []
    try:
        hello = asyncio.ensure_future(host.answer_hello())
        await client.connect(timeout=10)
        await hello
        await client.wait_until(lambda s: s.table.get("name") == "the table", 5)
        for what, data, code in hostile_frames():
            before = snapshot(client)
            count = len(client.state.errors)
            await host.send(data)
            try:
                await client.wait_until(lambda s: len(s.errors) > count, 5)
            except TimeoutError:
                problems.append(f"{what}: no refusal")
                continue
            got = client.state.errors[-1][0]
            if got != code:
                problems.append(f"{what}: refused with {got!r}, not {code!r}")
            if snapshot(client) != before:
                problems.append(f"{what}: the client's state changed")
        # still running, and still reading: a good frame after all that is taken
        await host.send(pack(f.chat_frame(0, "Ana", "still there?")))
        await client.wait_until(lambda s: bool(s.chat) and s.chat[-1][2] == "still there?", 5)
        assert client.state.status == "connected"
    finally:
        await client.close()
        host.close()
    return problems


def test_the_client_refuses_every_malformed_host_frame_and_keeps_its_state():
    assert len(hostile_frames()) > 100
    problems = run(_against_a_hostile_host(), 90)
    assert problems == []
