"""A dishonest or unknown host, over real CURVE sockets on 127.0.0.1.

- A modified host shows one player a different commitment set (a colluding player signed
  two commitments; the host forks that player's chain consistently from the set on,
  re-signing every event with its own key).  The digest D in the reveals exposes it: the player shown the
  real set sees that player reveal against another set, and the forked player sees the
  others reveal against a set it was never shown.
- A host that offers a different history of the same game on reconnect is refused.
- A changed host key at a known address is a clear error (trust on first use), unless
  the player accepts the new key; a wrong key in the join string fails the handshake.
"""

from __future__ import annotations

import asyncio

import pytest

from modernart.moves import Move
from modernart.net.protocol.signed import COMMIT_TAG, Commit, HOSTEV_TAG, bid_commitment, chain_link
from modernart.net.lan.address import JoinTarget
from modernart.net.client.client import Client, ConnectError
from modernart.net.clocks import ClockSettings, ManualClock
from modernart.net.trust.identity import Keys, join_code, new_nonce
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.protocol import decode_host_inner, pack

from tests.net_helpers import FAST, close_all, drive_to_sealed, run, seated_clients

VICTIM, COLLUDER = 1, 2


class EquivocatingHost(Host):
    """Shows seat VICTIM another commitment of seat COLLUDER, on a chain forked for it alone."""

    fake_commit: list[bytes] | None = None
    fork_head: bytes | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.honest_broadcast = self.fanout.broadcast_event
        self.fanout.broadcast_event = self.broadcast_event  # every event on disk goes out through it

    def broadcast_event(self, table, event):
        pub = decode_host_inner(event.public)
        # protocol 2: the commitments are first published in the complete set, so the fork starts there
        if self.fork_head is None and pub["k"] == "commits" and self.fake_commit:
            self.fork_head = table.game.log[event.seq - 2].h if event.seq > 1 else None
        if self.fork_head is None:
            return self.honest_broadcast(table, event)
        if pub["k"] == "commits":
            pub["set"][COLLUDER] = {"seat": COLLUDER, "c": self.fake_commit}
            # the host's own digest for the forked set (the victim checks it against the set)
            from modernart.net.protocol.signed import SetEntry, decode_commit, set_digest

            entries = []
            for item in pub["set"]:
                if "default" in item:
                    entries.append(SetEntry(item["seat"]))
                else:
                    value = decode_commit(item["c"][0])
                    entries.append(SetEntry(item["seat"], value.key, value.c, item["c"]))
            pub["d"] = set_digest(table.game.game_id, pub["auction"], entries)
        public = pack(pub)
        h = chain_link(self.fork_head, event.seq, public, event.hashes)
        self.fork_head = h
        forked = {
            "t": "ev",
            "seq": event.seq,
            "pub": public,
            "ph": event.hashes,
            "h": h,
            "hs": self.keys.sign(HOSTEV_TAG, h),
        }
        for peer in self.connections.at(table):
            frame = forked if peer.seat == VICTIM else event.frame_for(peer.seat)
            self.router.send_frame(
                peer.rid, {**frame, "priv": event.privates[peer.seat]} if peer.seat is not None else frame
            )
        self.fanout.wake.set()


async def _equivocation(tmp):
    host = EquivocatingHost(Keys.generate(), clock=ManualClock(), bot_pace=0)
    await host.start()
    table = host.open_table(
        "test",
        journal_dir=str(tmp / "games"),
        fsync=False,
        autostart=3,
        lobby=Lobby(clocks=ClockSettings.from_dict(FAST)),
    )
    clients = await seated_clients(host, 3)
    try:
        auction = await drive_to_sealed(clients, table)
        honest, victim, colluder = clients
        game, key = colluder.state.game_id, colluder.keys.vk
        other = bid_commitment(game, auction, COLLUDER, key, 1, new_nonce())  # the colluder's second commitment
        body = Commit(game, auction, COLLUDER, key, other).body()
        host.fake_commit = [body, colluder.keys.sign(COMMIT_TAG, body)]
        assert (await honest.send_move(Move.sealed_bid(0, 3))).ok
        assert (await victim.send_move(Move.sealed_bid(1, 2))).ok
        assert (await colluder.send_move(Move.sealed_bid(2, 1))).ok
        await honest.wait_until(lambda s: any(code == "fair_play" for code, _ in s.errors), 10)
        await victim.wait_until(lambda s: s.status == "failed", 10)
        return honest.state.errors, victim.state.errors
    finally:
        await close_all(clients, host)


@pytest.mark.timeout(60)
def test_a_host_showing_two_players_different_commitment_sets_is_caught(tmp_path):
    honest_errors, victim_errors = run(_equivocation(tmp_path), 50)
    assert any(
        code == "fair_play" and f"seat {VICTIM}: the reveal names a different commitment set" in msg
        for code, msg in honest_errors
    ), honest_errors
    # the victim: the others' reveals name a set it was not shown, and the host refuses its own
    assert any(
        code == "untrusted_host"
        and "seat 0: the host accepted a reveal that fails: the reveal names a different commitment set" in msg
        for code, msg in victim_errors
    ), victim_errors
    assert (
        "wrong_digest",
        "the host refused your reveal: the reveal names a different commitment set",
    ) in victim_errors


class ForkingHost(Host):
    """Offers every returning client a history that differs from the one it holds."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.honest_catch_up_from = self.admission.catch_up_from
        self.admission.catch_up_from = self.catch_up_from  # every hello's catch-up is decided by it

    def catch_up_from(self, sess, msg, head):
        if sess is not None and msg.get("game") == sess.game_id and msg.get("last_seq"):
            return 0, True
        return self.honest_catch_up_from(sess, msg, head)


async def _fork(tmp):
    host = ForkingHost(Keys.generate(), bot_pace=0)
    await host.start()
    host.open_table(
        "test",
        journal_dir=str(tmp / "games"),
        fsync=False,
        autostart=3,
        lobby=Lobby(clocks=ClockSettings.from_dict(FAST)),
    )
    clients = await seated_clients(host, 3)
    try:
        c = clients[0]
        held = c.state.head_seq
        c.hello()  # as after a reconnect
        await c.wait_until(lambda s: s.status == "failed", 10)
        return held, c.state.head_seq, c.state.errors
    finally:
        await close_all(clients, host)


@pytest.mark.timeout(60)
def test_a_forked_history_on_reconnect_is_refused(tmp_path):
    held, after, errors = run(_fork(tmp_path), 50)
    assert after == held  # nothing of the other history was taken in
    assert errors[-1][0] == "forked_history"


async def _tofu(tmp):
    first = Host(Keys.generate())
    await first.start()
    port = first.port
    first.open_table("Ana's table")
    config = str(tmp / "me")
    me = Client(first.target(), config_dir=config)
    await me.connect()
    await me.wait_until(lambda s: bool(s.table), 5)
    await me.close()
    await first.close()
    known = tmp / "me" / "state" / "known_hosts"
    mode = known.stat().st_mode & 0o777
    line = known.read_text()
    impostor = Host(Keys.generate(), port=port)  # another key at the same address
    await impostor.start()
    impostor.open_table("Ana's table")
    try:
        with pytest.raises(ConnectError) as changed:
            await Client(impostor.target(), config_dir=config).connect(timeout=5)
        accepted = Client(impostor.target(), config_dir=config, accept_new_host_key=True)
        await accepted.connect(timeout=5)
        await accepted.close()
        wrong = Client(JoinTarget("127.0.0.1", port, Keys.generate().curve_public_raw), keys=Keys.generate())
        with pytest.raises(ConnectError) as mismatch:
            await wrong.connect(timeout=8)
        return mode, line, changed.value, known.read_text(), mismatch.value.code, first.target(), impostor.target()
    finally:
        await impostor.close()


@pytest.mark.timeout(60)
def test_a_changed_or_wrong_host_key_is_a_clear_error(tmp_path):
    mode, line, changed, after, mismatch, old, new = run(_tofu(tmp_path), 50)
    assert mode == 0o600 and line.startswith(f"127.0.0.1:{old.port} ") and "Ana's table" in line
    assert changed.code == "host_key_changed"
    # the codes of the two keys (a table's join code also hashes its port and id: net/lan/address.py)
    old_code, new_code = join_code(old.host_key), join_code(new.host_key)
    assert old_code in changed.message and new_code in changed.message and "accept the new key" in changed.message
    assert after != line and after.startswith(f"127.0.0.1:{new.port} ")  # accepted: remembered
    assert mismatch == "host_key_mismatch"
    assert asyncio  # (used by the async helpers above)
