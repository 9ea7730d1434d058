"""A club on one machine (net/host/club.py): tables over worker processes behind one table
port.  Real processes (the front in this test's process, each worker its own), real
sockets on 127.0.0.1 (the table port) and ipc (front <-> workers); every club is closed
(its workers stopped, then killed if they outstay CLOSE_SECONDS, and reaped)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import subprocess
import time
from pathlib import Path

from modernart.bots import make_bot

from modernart.net.client.client import Client
from modernart.net.host.club import Club
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, PY, Procs, run, until
from tests.slowdown import scaled


def _records(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if not p.name.endswith(".key"))


async def _play_until(client: Client, seq: int, timeout: float) -> None:
    """Play the client's seat (random legal moves) until it holds event `seq`."""
    bot = make_bot("random", 1)
    deadline = time.monotonic() + scaled(timeout)
    while client.state.head_seq < seq:
        assert time.monotonic() < deadline, f"stuck at {client.state.head_seq}: {client.state.errors[-3:]}"
        obs = client.state.observation
        if obs is not None and not obs.is_over and obs.seat in obs.to_move:
            move = bot.choose(obs)
            if move is not None:
                await client.send_move(move)
        client.changed.clear()
        try:
            await asyncio.wait_for(client.changed.wait(), 0.5)
        except asyncio.TimeoutError:
            pass


def test_tables_of_bots_are_spread_over_the_workers_and_each_game_audits(tmp_path: Path) -> None:
    """Four tables of five bots on two workers: each worker hosts two, every game ends,
    and each record is signed by the club's one host key and audits clean (chain,
    signatures, commit-reveal, shuffle, rules)."""
    keys = Keys.generate()

    async def main() -> tuple[list[int], list[Path]]:
        club = Club(keys, workers=2, bot_pace=0)
        await club.start()
        try:
            ids = [
                club.open_table(
                    f"x{i}", journal_dir=str(tmp_path), clocks=FAST, autostart=5, fsync=False, bots=["random"] * 5
                )
                for i in range(4)
            ]
            spread = sorted(len(w.tables) for w in club.workers.values())
            assert {club.owner[t].name for t in ids} == {b"w0", b"w1"}
            await until(lambda: len(_records(tmp_path)) == 4, 120, 0.1, lambda: club.tables)
            await until(lambda: not club.tables, 30, 0.1, lambda: club.tables)  # freed once over
            return spread, _records(tmp_path)
        finally:
            await club.close()

    spread, records = run(main(), 180)
    assert spread == [2, 2]
    for record in records:
        report = audit_files(str(record), host_vk=keys.vk)
        assert report.ok, report.problems


def test_admission_lobby_and_table_list_behind_the_front(tmp_path: Path) -> None:
    """Two tables on two workers: the table list names both (the front answers it), a
    client seated at one sees only its own table's lobby, and a hello naming a table the
    club has not (or none, the club having several) is refused as a host refuses it."""

    async def main() -> None:
        club = Club(Keys.generate(), workers=2, bot_pace=0)
        await club.start()
        clients: list[Client] = []
        try:
            t1 = club.open_table("one", journal_dir=str(tmp_path), clocks=FAST)
            t2 = club.open_table("two", journal_dir=str(tmp_path), clocks=FAST)
            assert club.owner[t1] is not club.owner[t2]
            # the relay is trusted with every client's CURVE key: no other user may connect to it
            assert club.directory is not None and stat.S_IMODE(os.stat(club.directory).st_mode) == 0o700
            a = Client(club.target(t1), keys=Keys.generate(), updates=False)
            clients.append(a)
            await a.connect()
            assert (await a.take_seat("Ann")).ok
            b = Client(club.target(t2), keys=Keys.generate(), updates=False)
            clients.append(b)
            await b.connect()
            assert (await b.take_seat("Bob")).ok
            await until(lambda: {t1, t2} <= set(club.tables), 20, what=lambda: club.tables)
            listed = {t["id"]: t for t in await a.list_tables()}
            assert set(listed) == {t1, t2} and listed[t2]["name"] == "two"
            await a.wait_until(lambda s: any(x and x["name"] == "Ann" for x in s.table.get("seats", [])), 10)
            assert not any(x and x["name"] == "Bob" for x in a.state.table["seats"])
            for wrong in ("t9", None):
                stranger = Client(club.target(t1), keys=Keys.generate(), updates=False, table=wrong)
                stranger.table_id = wrong  # the hello names `wrong`
                try:
                    await stranger.connect(5)
                except Exception as exc:
                    assert "no_table" in str(exc), exc
                else:
                    raise AssertionError(f"a hello naming {wrong!r} was admitted")
                finally:
                    await stranger.close()
        finally:
            for c in clients:
                await c.close()
            await club.close()

    run(main(), 90)


def test_a_killed_worker_is_started_again_and_its_table_resumed_from_its_journal(tmp_path: Path) -> None:
    """A game of one person and two bots, playing; its worker is killed (SIGKILL): the
    front starts the worker again, which resumes the table from its journal, and the
    person's client (the same connection: it says hello again when told to) catches up on
    the same signed chain and plays on."""

    async def main() -> None:
        club = Club(Keys.generate(), workers=2, bot_pace=0)
        await club.start()
        person: Client | None = None
        try:
            table = club.open_table(
                "crash",
                journal_dir=str(tmp_path),
                clocks={**FAST, "grace": 1},
                autostart=3,
                fsync=False,
                bots=["random", "random"],
            )
            person = Client(club.target(table), keys=Keys.generate(), updates=False)
            await person.connect()
            assert (await person.take_seat("Ann")).ok
            assert (await person.ready()).ok
            await person.wait_until(lambda s: s.observation is not None, 30)
            await until(lambda: bool(club.tables.get(table, {}).get("journal")), 20, what=lambda: club.tables)
            journal = club.tables[table]["journal"]
            head = person.state.head_seq
            old = club.owner[table]
            os.kill(old.proc.pid, signal.SIGKILL)
            await until(lambda: club.restarts == 1, 20)
            await until(
                lambda: table in club.tables and club.owner[table] is not old and table not in club.orders,
                60,
                what=lambda: (club.tables, club.orders),
            )
            assert club.tables[table]["journal"] == journal and club.tables[table]["info"]["state"] == "playing"
            await _play_until(person, head + 6, 90)  # the bots' seats by stand-ins, after the grace
            assert not [
                e for e in person.state.errors if e[0] in ("untrusted_host", "bad_host_frame", "forked_history")
            ]
        finally:
            if person is not None:
                await person.close()
            await club.close()

    run(main(), 120)


def test_the_club_command_serves_its_tables_and_stops_with_its_workers(tmp_path: Path) -> None:
    """`modernart club` (hands hidden, the default): two tables of five bots on two
    workers finish and audit clean under the host key it prints; SIGTERM stops the front,
    which stops its workers (none is left running) and exits 0."""
    games = tmp_path / "games"
    procs = Procs(tmp_path)
    try:
        club = procs.start(
            [
                PY,
                "-m",
                "modernart.cli.main",
                "club",
                "--bind",
                "127.0.0.1",
                "--port",
                "0",
                "--no-beacon",
                "--tables",
                "2",
                "--workers",
                "2",
                "--bots",
                "5",
                "--bot-level",
                "random",
                "--bot-pace",
                "0",
                "--players",
                "5",
                "--clocks",
                json.dumps(FAST),
                "--config-dir",
                str(tmp_path / "cfg"),
                "--journal-dir",
                str(games),
            ],
            "club",
        )
        procs.wait_output("club", r"table t2: join string", scaled(60))
        workers = [
            int(p)
            for p in subprocess.run(["pgrep", "-P", str(club.pid)], capture_output=True, text=True).stdout.split()
        ]
        assert len(workers) == 2, workers
        deadline = time.monotonic() + scaled(180)
        while len(_records(games)) < 2:
            assert time.monotonic() < deadline and club.poll() is None, procs.errors("club")[-3000:]
            time.sleep(0.2)
        host_vk = Keys.load_or_create(str(tmp_path / "cfg"), "host").vk
        for record in _records(games):
            report = audit_files(str(record), host_vk=host_vk)
            assert report.ok, report.problems
        club.send_signal(signal.SIGTERM)
        assert club.wait(scaled(30)) == 0, procs.errors("club")[-3000:]
        for pid in workers:
            assert not os.path.exists(f"/proc/{pid}") or "zombie" in open(f"/proc/{pid}/status").read(), pid
    finally:
        procs.close()


def test_a_journal_is_resumed_by_another_club_under_its_own_table_id(tmp_path: Path) -> None:
    """A game begun at one club, closed (its journal kept), is resumed by the next club
    under the same table id, which no new table then takes; a second resume of a table
    the club serves already is refused; the player's client comes back to it on the same
    chain and plays on."""
    keys, me = Keys.generate(), Keys.generate()

    async def main() -> None:
        first = Club(keys, workers=1, bot_pace=0)
        await first.start()
        person: Client | None = None
        try:
            table = first.open_table(
                "again",
                journal_dir=str(tmp_path),
                clocks={**FAST, "grace": 1},
                autostart=3,
                fsync=False,
                bots=["random"] * 2,
            )
            person = Client(first.target(table), keys=me, updates=False)
            await person.connect()
            assert (await person.take_seat("Ann")).ok and (await person.ready()).ok
            await _play_until(person, 8, 60)
            await until(lambda: bool(first.tables.get(table, {}).get("journal")), 20, what=lambda: first.tables)
            journal, head = first.tables[table]["journal"], person.state.head_seq
        finally:
            if person is not None:
                await person.close()
            await first.close()
        second = Club(keys, workers=2, bot_pace=0)
        await second.start()
        again: Client | None = None
        try:
            assert await second.resume_table(journal, fsync=False) == table
            try:
                await second.resume_table(journal, fsync=False)
            except ValueError as exc:
                assert "already" in str(exc)
            else:
                raise AssertionError("the same table was resumed twice")
            assert second.open_table("new", journal_dir=str(tmp_path), clocks=FAST) != table
            again = Client(second.target(table), keys=me, updates=False)
            await again.connect()
            await again.wait_until(lambda s: s.observation is not None and s.head_seq >= head, 30)
            await _play_until(again, again.state.head_seq + 4, 90)
            assert not [e for e in again.state.errors if e[0] in ("untrusted_host", "bad_host_frame", "forked_history")]
        finally:
            if again is not None:
                await again.close()
            await second.close()

    run(main(), 180)
