"""Nothing readable on the wire: the bytes of a whole game on a loopback connection.

Method: a TCP relay on 127.0.0.1 sits between one player's client and the host (the
client is given the relay's port and the host's real key, so CURVE runs end to end
through it) and records every byte in both directions for a whole game.  The players
have distinctive names, start with 10000 and the relayed player seals 7919 in every
Sealed auction.  The capture must not contain: any player's name (UTF-8), the msgpack
key strings of private parts and game events ("hand", "money", "salt", "players",
"sealed"), the msgpack encoding of any hand the relayed player held (3+ cards), or the
relayed bid in any form it travels in (the move [seat, 6, 7919], the reveal's amount
followed by its nonce header, the decimal text "7919").  Positive control: the same
patterns are found in the plaintext frames the client decoded from that connection.
"""

from __future__ import annotations

import asyncio

import pytest

from modernart.moves import Action
from modernart.rules import RuleOptions
from modernart.net.lan.address import JoinTarget
from modernart.net.client.bot import BotClient
from modernart.net.trust.identity import Keys
from modernart.net.protocol import pack

from tests.net_helpers import CheapBidder, in_process_host, run

NAMES = ("Zebulon Quartzwhistle", "Yolanda Brightwater", "Xavier Moonstone")
BID = 7919


class Relay:
    """A recording TCP relay: 127.0.0.1:port -> the host."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.to_host = bytearray()
        self.to_client = bytearray()
        self.server: asyncio.Server | None = None
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, record: bytearray) -> None:
            try:
                while data := await src.read(65536):
                    record += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        self.tasks += [
            asyncio.ensure_future(pump(reader, up_writer, self.to_host)),
            asyncio.ensure_future(pump(up_reader, writer, self.to_client)),
        ]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def _game(tmp):
    host, table = await in_process_host(tmp, autostart=3)
    table.lobby.options = RuleOptions(start_money=10000)
    relay = Relay(host.port)
    relay_port = await relay.start()
    relayed = BotClient(
        JoinTarget("127.0.0.1", relay_port, host.keys.curve_public_raw),
        keys=Keys.generate(),
        name=NAMES[0],
        pace_scale=0,
        transcript=True,
    )
    relayed.bot = CheapBidder(BID)  # type: ignore[assignment]
    hands: list[list[int]] = []
    relayed.client.on_update = lambda u: (
        hands.append([int(c) for c in u.data.hand]) if u.kind == "observation" else None
    )
    others = [
        BotClient(host.target(), keys=Keys.generate(), name=n, pace_scale=0, seed=i) for i, n in enumerate(NAMES[1:])
    ]
    try:
        tasks = [asyncio.ensure_future(b.run()) for b in [relayed, *others]]
        async with asyncio.timeout(80):
            await asyncio.gather(*tasks)
        frames = list(relayed.client.game.frames)
        seat = relayed.client.state.seat
        log = relayed.client.state.log
        return relay, hands, frames, seat, log
    finally:
        await relay.close()
        await host.close()


@pytest.mark.timeout(120)
def test_a_whole_game_on_the_wire_shows_no_name_card_or_bid(tmp_path):
    relay, hands, frames, seat, log = run(_game(tmp_path), 100)
    wire = bytes(relay.to_host) + bytes(relay.to_client)
    assert len(relay.to_host) > 5_000 and len(relay.to_client) > 50_000  # a whole game went through
    sealed = [m for _seq, m in log if hasattr(m, "action") and m.action == Action.SEALED_BID and m.seat == seat]
    assert any(m.arg == BID for m in sealed), "the relayed player never sealed its bid"
    patterns = {f"name {n!r}": n.encode() for n in NAMES}
    patterns.update({f"key {k!r}": pack(k) for k in ("hand", "money", "salt", "players", "sealed")})
    patterns[f"move {BID}"] = pack([seat, int(Action.SEALED_BID), BID])
    patterns["reveal amount"] = pack(BID) + b"\xc4\x20"  # amount, then the 32-byte nonce's header
    patterns["decimal bid"] = str(BID).encode()
    held = {tuple(h) for h in hands if len(h) >= 3}
    assert held
    for hand in held:
        patterns[f"hand {list(hand)}"] = pack(list(hand))
    found = [name for name, p in patterns.items() if p in wire]
    assert not found, f"readable on the wire: {found}"
    # positive control: the plaintext the client decoded holds these very patterns
    plain = b"".join(pack(f) for f in frames)
    for name in (f"name {NAMES[0]!r}", "key 'hand'", "key 'salt'", f"move {BID}"):
        assert patterns[name] in plain, name
    assert any(patterns[f"hand {list(h)}"] in plain for h in held)
