"""One seat, one key at a time: a stand-in bot the host started for a seat whose player was
away, and whose hello comes at any point around that player's return (before it, in the
same moment, just after it, after the player has played on, after the player has left
again), never plays the seat beside its player.  A stand-in that says hello after its
player is back is refused and stopped; one that came before hands the seat back at the
player's hello.  The finished game passes the audit, which names, move by move, who
signed each move.

The host's clock is a ManualClock: the grace period ends when the test says, and the
stand-in's hello is held (`HeldStandIns`) until the point the test chooses.  The attack
("just after", "after a move", "left again") succeeds on a2b2fc2: `Presence.player_returns`
returned while the stand-in had not said hello, and `Admission.hello` then delegated the
seat to it without looking whether its player was back, so two keys played one seat."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from modernart.net.client.bot import BotClient
from modernart.net.client.client import Client
from modernart.net.client.state import ConnectError
from modernart.net.clocks import ManualClock
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run, seat_bots, until

POINTS = ["before", "together", "just after", "after a move", "left again"]


class HeldStandIns:
    """The host's bot factory: lobby bots are real bot clients; once `hold` is set, a
    stand-in is only recorded (its token and key), and says nothing until the test makes
    its hello with them; `stopped` lists the held ones the host cancelled."""

    def __init__(self) -> None:
        self.hold = False
        self.held: list[tuple[bytes, Keys]] = []
        self.stopped: list[bytes] = []

    def __call__(self, target: Any, *, keys: Keys, token: bytes | None = None, **kw: Any) -> Any:
        if not self.hold:
            return BotClient(target, keys=keys, token=token, **kw)
        assert token is not None
        self.held.append((token, keys))
        return _Held(self, token, keys)


class _Held:
    client = None  # plays at no table until its hello (net/host/bot_clients.py `bot_table`)

    def __init__(self, factory: HeldStandIns, token: bytes, keys: Keys) -> None:
        self.factory, self.token, self.keys = factory, token, keys

    async def run(self) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.factory.stopped.append(self.token)
            raise


async def _standin_around_return(tmp, point: str) -> tuple[Any, int, bytes, bytes, dict[str, Any]]:
    clock = ManualClock()
    factory = HeldStandIns()
    host, table = await in_process_host(
        tmp,
        clock=clock,
        clocks={"grace": 5, "decision": 0, "open_countdown": 0},
        autostart=3,
        bot_factory=factory,
    )
    keys = Keys.generate()
    person = Client(host.target(), keys=keys)
    await person.connect()
    await person.take_seat("Ana")
    await person.ready()
    seat_bots(host, table, 2)
    await person.wait_until(lambda s: s.observation is not None, 10)
    sess = table.game
    seat = person.state.seat
    factory.hold = True
    await person.close()  # Ana's link drops
    await until(lambda: (table.id, seat) in host.absent, 10)
    clock.advance(5.5)  # her grace period ends: the host starts a stand-in, whose hello is held
    await until(lambda: len(factory.held) == 1, 10)
    token, standin_keys = factory.held[0]
    standin = Client(host.target(), keys=standin_keys, token=token)
    outcome: dict[str, Any] = {"refused": None}

    def player_back() -> bool:
        return any(p.role == "player" and p.seat == seat for p in host.presence.connections.at(table))

    async def standin_hello() -> None:
        try:
            await standin.connect()
        except ConnectError as exc:
            outcome["refused"] = exc.code

    back = BotClient(host.target(), keys=keys, pace_scale=0)  # Ana back (her moves made by a bot here)
    returning: asyncio.Task[Any] | None = None
    try:
        if point == "before":
            await standin_hello()
            assert sess.delegates[seat] == standin_keys.vk
        if point == "together":  # both hellos sent at once: the host reads them in either order
            returning = asyncio.get_running_loop().create_task(back.run())
            await standin_hello()
        else:
            returning = asyncio.get_running_loop().create_task(back.run())
        await until(player_back, 10)
        returned_at = sess.seq
        if point == "just after":
            await standin_hello()
        elif point == "after a move":
            await until(lambda: sess.seq > returned_at + 5 or sess.state.is_over(), 30)
            await standin_hello()
        elif point == "left again":
            returning.cancel()  # she leaves again: a new grace period begins
            await asyncio.gather(returning, return_exceptions=True)
            await until(lambda: (table.id, seat) in host.absent, 10)
            await standin_hello()
            assert sess.delegates[seat] is None and factory.held[1:] == []  # nobody plays her seat yet
            back = BotClient(host.target(), keys=keys, pace_scale=0)
            returning = asyncio.get_running_loop().create_task(back.run())
            await until(player_back, 10)
        async with asyncio.timeout(60):
            final = await returning
        assert final.is_over and final.seat == seat
        await until(lambda: table.record_path is not None, 10)
        return table, seat, keys.vk, standin_keys.vk, {**outcome, "stopped": factory.stopped, "at": returned_at}
    finally:
        if returning is not None:
            returning.cancel()
            await asyncio.gather(returning, return_exceptions=True)
        await standin.close()
        await host.close()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("point", POINTS)
def test_a_stand_in_never_plays_beside_its_returned_player(tmp_path, point):
    table, seat, player_vk, standin_vk, seen = run(_standin_around_return(tmp_path, point), 110)
    sess = table.game
    delegations = [(e.seq, pub["vk"]) for e in sess.log if (pub := decode_host_inner(e.public))["k"] == "delegate"]
    if point in ("before", "together") and seen["refused"] is None:
        # it came first: the seat was its own until her hello, which took it back
        assert delegations == [(delegations[0][0], standin_vk), (delegations[1][0], None)]
        assert delegations[1][0] <= seen["at"]
    else:  # it came after her: refused and stopped, never named
        assert seen["refused"] in ("bad_token", "player_back"), seen
        assert delegations == [] and seen["stopped"] == [seen["stopped"][0]]
    assert sess.delegates[seat] is None
    # every move of her seat after her return is signed by her own key
    for event in sess.log[seen["at"] :]:
        pub = decode_host_inner(event.public)
        if pub["k"] == "move" and pub["m"][0] == seat and pub.get("by") == "player":
            assert pub["signer"] == 0, (event.seq, pub)
    report = audit_files(table.record_path)
    assert report.ok, report.problems
    signers = report.facts["signed_by"]  # move by move: her key, the bots' own, the clock; never a stand-in
    assert len(signers) == report.facts["moves"] and "player" in signers and "stand-in" not in signers
    assert not any("to the end of the game" in note for note in report.notes), report.notes
