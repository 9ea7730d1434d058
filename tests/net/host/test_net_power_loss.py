"""A host resumed after its machine restarted, when a power loss may have cut the tail of its
journal: it takes the lost events back from its players' clients, checked against its own
signature and chain; it refuses a forged, altered, reordered or foreign tail; it signs
nothing new until every player has said what it holds, and never a second, different event
at a recovered sequence number.  The session is driven directly (no sockets), as clients
would; tests/net/host/test_net_procs.py has the same with a killed host process and real clients."""

from __future__ import annotations

import os

import pytest

from modernart.net.clocks import ClockSettings
from modernart.record import read_record
from modernart.net.trust.audit import transcript_path_for
from modernart.net.trust.transcript import read_transcript
from modernart.net.host.journal import read_events, same_boot, truncate_events
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError, decode_host_inner, pack
from modernart.net.protocol.signed import ACT_TAG, HOSTEV_TAG, chain_link, encode_action_body
from modernart.net.trust.chain import ChainVerifier
from modernart.net.trust.identity import Keys

from tests.net_helpers import SessionDriver


def people_table(tmp, players: int = 4, moves: int = 40) -> tuple[Table, SessionDriver]:
    """A started table whose seats are people (not lobby bots: a host waits for people's clients)."""
    host = Keys.generate()
    keys = [Keys.generate() for _ in range(players)]
    lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0))
    for i, k in enumerate(keys):
        lobby.sit(k.vk, f"P{i}")
        lobby.ready(k.vk, True)
    table = Table("t1", "test", host, journal_dir=str(tmp), lobby=lobby, fsync=False)
    table.start(0.0)
    driver = SessionDriver(table.game, keys)
    driver.seed_all()
    driver.play(moves)
    return table, driver


def frames_of(table: Table, first: int) -> list[dict]:
    """The events from `first` on, as a watcher's client holds them (no private part)."""
    return [e.frame_for(None) for e in table.game.log[first - 1 :]]


def power_loss(path: str, events_kept: int, *, journal_keeps_moves: bool = False) -> None:
    """What a power loss leaves behind: the event log cut after `events_kept` entries, the
    journal after their moves (or, with `journal_keeps_moves`, all its lines: the pages of
    one file reached the disk, the other's not), and the machine booted again since."""
    entries = list(read_events(path))
    truncate_events(path, events_kept)
    if not journal_keeps_moves:
        # an event's move (e[6]), or a `settle` event's moves (e[9]: every seat's sealed bid)
        moves = sum(1 if e[6] is not None else len(e[9] or []) for e in entries[:events_kept])
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        kept, seen = [lines[0]], 0
        for line in lines[1:]:
            if not line.startswith('{"m"') or seen == moves:
                break
            kept.append(line)
            seen += 1
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(kept))
    with open(path + ".boot", "w", encoding="ascii") as f:
        f.write("a boot before the power loss\n")


def crashed(tmp, cut: int, **kw) -> tuple[Table, Table, SessionDriver]:
    """A played table, its host gone and `cut` events lost to a power loss, and the resumed table."""
    table, driver = people_table(tmp)
    table.game.journal.close()
    power_loss(table.journal_path, table.game.seq - cut, **kw)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    driver.sess = resumed.game
    return table, resumed, driver


def check_chain(sess) -> None:
    verifier = ChainVerifier(sess.game_id, sess.host.vk)
    for event in sess.log:
        verifier.accept(event.seq, event.public, event.hashes, event.h, event.sig)


def test_a_process_crash_is_no_power_loss(tmp_path):
    table, driver = people_table(tmp_path)
    table.game.journal.close()
    assert same_boot(table.journal_path)  # written during this boot: everything written is there
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    assert resumed.game.recovering is None
    assert [e.h for e in resumed.game.log] == [e.h for e in table.game.log]


@pytest.mark.parametrize("journal_keeps_moves", [False, True])
def test_the_lost_tail_is_taken_back_from_the_clients(tmp_path, journal_keeps_moves):
    table, resumed, driver = crashed(tmp_path, 6, journal_keeps_moves=journal_keeps_moves)
    sess, before = resumed.game, table.game
    lost = before.seq
    assert sess.seq == lost - 6 and sess.recovering == {0, 1, 2, 3}
    assert sess.adopt(frames_of(table, sess.seq - 2)) == 6  # overlapping what it holds: fine
    assert sess.seq == lost
    for old, new in zip(before.log, sess.log):  # the very events it had signed, nothing else
        assert (new.seq, new.public, new.hashes, new.h, new.sig) == (old.seq, old.public, old.hashes, old.h, old.sig)
        assert new.privates == old.privates  # made again from the game: every seat's own part
    assert sess.state.money == before.state.money and sess.counters == before.counters
    for seat in range(3):
        assert sess.heard(seat, 0.0) == []
        assert sess.recovering is not None
    sess.heard(3, 0.0)
    assert sess.recovering is None
    driver.play(sess.state.move_count + 5)  # plays on: new events after the recovered ones
    assert sess.seq > lost and sess.log[lost].seq == lost + 1
    check_chain(sess)
    # on disk as well: resumed again (same boot now), the recovered events are there
    sess.journal.close()
    again = Table.resume(table.journal_path, table.host, 0.0, fsync=False).game
    assert [e.h for e in again.log] == [e.h for e in sess.log] and again.recovering is None
    assert again.state.money == sess.state.money


def test_nothing_new_is_signed_before_every_player_is_heard(tmp_path):
    table, resumed, driver = crashed(tmp_path, 4)
    sess = resumed.game
    seq = sess.seq
    assert sess.apply_defaults(1e9) == [] and sess.next_deadline() is None
    state = sess.state
    seat = state.to_move()[0]
    move = next(m for m in state.legal_moves(seat))
    body = encode_action_body(sess.game_id, seat, sess.counters[seat] + 1, move.to_list(), sess.seq)
    with pytest.raises(ProtocolError) as refused:  # a player's move (commitments, seeds, reveals alike)
        sess.submit(driver.keys[seat].vk, seat, body, driver.keys[seat].sign(ACT_TAG, body), 0.0)
    assert refused.value.code == "recovering"
    for seat in (0, 1, 2):
        sess.heard(seat, 0.0)
    assert sess.seq == seq and sess.recovering == {3}


def _altered(frame: dict, **changes) -> dict:
    return {**frame, **changes}


def test_a_forged_or_altered_tail_is_refused_and_changes_nothing(tmp_path):
    table, resumed, driver = crashed(tmp_path, 5)
    sess = resumed.game
    seq, head = sess.seq, sess.head
    tail = frames_of(table, seq + 1)
    first = tail[0]
    public = decode_host_inner(first["pub"])
    other_host = Keys.generate()
    # a different event the client made up: it links, but this host never signed it
    forged_pub = pack({**public, "by": "player"})
    forged_h = chain_link(head, first["seq"], forged_pub, first["ph"])
    forgeries = {
        "unsigned": [_altered(first, pub=forged_pub, h=forged_h, hs=other_host.sign(HOSTEV_TAG, forged_h)), *tail[1:]],
        "altered public part": [_altered(first, pub=forged_pub), *tail[1:]],
        "altered private hashes": [_altered(first, ph=[bytes(32)] * len(first["ph"])), *tail[1:]],
        "signature of another event": [_altered(first, hs=tail[1]["hs"]), *tail[1:]],
        "a gap": tail[1:],
        "reordered": [tail[1], tail[0], *tail[2:]],
        "renumbered": [_altered(first, seq=first["seq"] + 1)],
        "an altered later event": [*tail[:3], _altered(tail[3], pub=tail[2]["pub"])],
    }
    for name, frames in forgeries.items():
        with pytest.raises(ProtocolError) as refused:
            sess.adopt(frames)
        assert refused.value.code == "bad_tail", name
        assert (sess.seq, sess.head, sess.recovering) == (seq, head, {0, 1, 2, 3}), name
    # the tail of another game of the same host links to nothing here
    other, _driver = people_table(tmp_path / "other", moves=80)
    assert other.game.seq > seq + 1
    with pytest.raises(ProtocolError) as refused:
        sess.adopt(frames_of(other, seq + 1))
    assert refused.value.code == "bad_tail" and sess.seq == seq
    assert sess.adopt(tail) == 5 and sess.seq == seq + 5  # the real one still goes in
    check_chain(sess)


def test_a_recovered_number_is_never_signed_again(tmp_path):
    table, resumed, driver = crashed(tmp_path, 3)
    sess, before = resumed.game, table.game
    # a client holding less than the host said so: it is heard, but the seat that holds the
    # tail has not been: nothing is signed yet
    for seat in (0, 1, 2):
        sess.heard(seat, 0.0)
    assert sess.seq == before.seq - 3
    sess.adopt(frames_of(table, sess.seq + 1))
    sess.heard(3, 0.0)
    driver.play(sess.state.move_count + 3)
    signed: dict[int, bytes] = {}
    for event in [*before.log, *sess.log]:
        assert signed.setdefault(event.seq, event.h) == event.h  # one event per number, ever
    with pytest.raises(ProtocolError) as refused:  # a tail offered after the recovery
        sess.adopt(frames_of(table, before.seq))
    assert refused.value.code == "not_recovering"


def test_a_game_of_bots_only_plays_on_at_once(tmp_path):
    from tests.net_helpers import keyed_table

    table, driver = keyed_table(tmp_path)  # lobby bots: in-process, their memory went with the host
    driver.seed_all()
    driver.play(30)
    table.game.journal.close()
    power_loss(table.journal_path, table.game.seq - 2)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    assert resumed.game.recovering is None and resumed.game.seq == table.game.seq - 2


# ---------------------------------------------------------------------- a killed host process


async def _play(clients: list, moves: int, timeout: float) -> None:
    """Random moves by the clients, one at a time, each waited for on every client, until
    `moves` more are accepted or the game is over (refusals while the host is away or
    recovering are tried again)."""
    import asyncio
    import time

    from modernart.bots import make_bot

    bot = make_bot("random", 7)
    deadline = time.monotonic() + timeout
    played = 0
    while played < moves:
        assert time.monotonic() < deadline, [c.state.status for c in clients]
        obs = clients[0].state.observation
        if obs is not None and obs.is_over:
            return
        if obs is None or not obs.to_move:
            await asyncio.sleep(0.02)
            continue
        mover = next(c for c in clients if c.state.seat == obs.to_move[0])
        view = mover.state.observation
        # at a table that hides hands (the default) a hand is read once its shares are in
        move = bot.choose(view) if view is not None and view.my_turn and mover.hand_ready else None
        if move is None:
            await asyncio.sleep(0.02)
            continue
        reply = await mover.send_move(move)
        if not reply.ok:
            await asyncio.sleep(0.1)
            continue
        played += 1
        for c in clients:
            await c.wait_until(lambda s: s.head_seq >= (reply.seq or 0), 20)


async def _killed_in_a_power_loss(tmp_path, procs) -> tuple[list, str, int]:
    import asyncio
    import json
    import signal

    from modernart.net.client.client import Client

    from tests.net_helpers import FAST

    host = procs.host(tmp_path, "--port", "0", "--players", "4", "--clocks", json.dumps(FAST), "--exit-when-over")
    join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
    clients = []
    for i in range(4):
        c = Client(join, keys=Keys.generate(), transcript=True)
        await c.connect()
        assert (await c.take_seat(f"P{i}")).ok
        clients.append(c)
    for c in clients:
        assert (await c.ready()).ok
    for c in clients:
        await c.wait_until(lambda s: s.observation is not None, 30)
    try:
        await _play(clients, 30, 120)
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        await asyncio.sleep(0.3)
        journal = next(str(p) for p in (tmp_path / "games").glob("*.jsonl"))
        held = min(c.state.head_seq for c in clients)
        power_loss(journal, held - 5)  # five events every client holds, gone from the disk
        procs.host(tmp_path, "--resume", journal, "--exit-when-over", name="host2")  # the game's own port
        await _play(clients, 10_000, 240)  # they come back by themselves, give the tail back, play on
        for c in clients:  # over, and (hands hidden, the default) every deck key disclosed after it
            await c.wait_until(
                lambda s, c=c: (
                    s.observation is not None and s.observation.is_over and c.receiving.game.deck_disclosed()
                ),
                30,
            )
        return clients, journal, held - 5
    finally:
        for c in clients:
            await c.close()


@pytest.mark.timeout(300)
def test_a_killed_host_whose_journal_lost_its_tail_recovers_it_from_the_clients(tmp_path):
    from modernart.net.trust.audit import audit_files

    from tests.net_helpers import Procs, run

    procs = Procs(tmp_path)
    try:
        clients, journal, cut = run(_killed_in_a_power_loss(tmp_path, procs), 290)
        assert procs.procs[-1].wait(timeout=60) == 0, procs.errors("host2")
        assert "resumed after a restart of the machine" in procs.errors("host2")
        assert "recovered:" in procs.errors("host2")
        record = journal[: -len(".jsonl")] + ".json"
        # seq -> the head the host signed: its transcript (the event log is gone with the game)
        chain = {f["seq"]: f["h"] for f in read_transcript(transcript_path_for(record, read_record(record)))}
        for c in clients:
            assert not [e for e in c.state.errors if e[0] in ("untrusted_host", "forked_history", "tail_lost")]
            frames = c.receiving.game.frames
            assert [f["seq"] for f in frames] == list(range(1, len(chain) + 1))
            assert all(chain[f["seq"]] == f["h"] for f in frames)  # one event per number, the same for all
        assert not any(os.path.exists(journal + suffix) for suffix in (".events", ".held", ".boot"))
        report = audit_files(record)
        assert report.ok, report.problems
    finally:
        procs.close()
