"""Real processes: a host process and bot-client processes on 127.0.0.1, killed with SIGKILL.

- complete games for 3, 4 and 5 bot processes; the record replays to the result every
  bot saw;
- a bot killed in the lobby and in each kind of auction, restarted with its key, takes
  its seat back and the game completes as the journal replays;
- the host killed at random points and resumed from its journal; every client comes
  back by itself; no move is lost or applied twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import time

import pytest

from modernart.record import parse_journal
from modernart.phase import Phase
from modernart.net.client.client import Client
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, PY, ROOT, Procs, env, final_money_of, run

MONEY = re.compile(r"game over: seat (\d) final money \[([\d, ]+)\]")


def bot_money(procs: Procs, name: str) -> list[int]:
    match = MONEY.search(procs.output(name))
    assert match, f"{name} did not finish: {procs.errors(name)[-2000:]}"
    return [int(x) for x in match.group(2).split(",")]


def check_replay(path: str) -> None:
    done = subprocess.run(
        [PY, "-m", "modernart.cli.main", "replay", "--check", path],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.timeout(120)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_bot_processes_play_complete_games(tmp_path, players):
    procs = Procs(tmp_path)
    try:
        host = procs.host(
            tmp_path, "--port", "0", "--players", str(players), "--clocks", json.dumps(FAST), "--exit-when-over"
        )
        join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
        bots = [procs.bot(join, i) for i in range(players)]
        for bot in bots:
            assert bot.wait(timeout=90) == 0, procs.errors(bot.name)
        assert host.wait(timeout=30) == 0, procs.errors("host")
        record = procs.wait_output("host", r"record: +(\S+)", 5).group(1)
        money = final_money_of(record)
        assert all(bot_money(procs, f"bot{i}") == money for i in range(players))
        check_replay(record)
    finally:
        procs.close()


def _seat_named(state, name):
    for i, p in enumerate(state.players):
        if p["name"] == name:
            return i
    return None


async def _kill_in_lobby_and_auctions(tmp_path, procs: Procs):
    clocks = dict(FAST, grace=120)
    procs.host(tmp_path, "--port", "0", "--players", "4", "--clocks", json.dumps(clocks), "--exit-when-over")
    join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
    watcher = Client(join, keys=Keys.generate(), spectate=True)
    await watcher.connect()
    bots = {0: procs.bot(join, 0, pace=0.05)}

    def seat_info(name):
        return next((s for s in watcher.state.table.get("seats") or [] if s and s["name"] == name), None)

    await watcher.wait_until(lambda s: bool((seat_info("bot0") or {}).get("connected")), 20)
    first_seat = seat_info("bot0")["seat"]
    bots[0].send_signal(signal.SIGKILL)  # killed in the lobby
    bots[0].wait(timeout=10)
    await watcher.wait_until(lambda s: not (seat_info("bot0") or {"connected": True})["connected"], 20)
    bots[0] = procs.bot(join, 0, pace=0.05, name="bot0-again")
    await watcher.wait_until(lambda s: bool((seat_info("bot0") or {}).get("connected")), 20)
    assert seat_info("bot0")["seat"] == first_seat  # same key, same seat, no second seat taken
    for i in (1, 2, 3):
        bots[i] = procs.bot(join, i, pace=0.05)
    await watcher.wait_until(lambda s: bool(s.players), 30)
    wanted = {Phase.OPEN, Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET, Phase.DOUBLE_OFFER}
    killed = []

    def someone_to_kill(pv) -> bool:
        """A wanted auction with a bot deciding in it (a Sealed one whose bids are all in
        waits for nobody's decision: its public view names nobody to move)."""
        by_auctioneer = pv["phase"] in (Phase.OPEN, Phase.FIXED_SET)
        return pv["phase"] in wanted and (by_auctioneer or bool(pv["to_move"]))

    while wanted:
        await watcher.wait_until(
            lambda s: s.public is not None and (someone_to_kill(s.public) or bool(s.public["winners"])), 120
        )
        pv = watcher.state.public
        if pv["winners"]:
            break
        phase = Phase(pv["phase"])
        seat = pv["auctioneer"] if phase in (Phase.OPEN, Phase.FIXED_SET) else pv["to_move"][0]
        name = watcher.state.players[seat]["name"]
        index = int(name[3:])
        bots[index].send_signal(signal.SIGKILL)
        bots[index].wait(timeout=10)
        bots[index] = procs.bot(join, index, pace=0.05, name=f"bot{index}-{phase.name}")
        killed.append((phase, name))
        wanted.discard(phase)
        auction = pv["auction_no"]
        await watcher.wait_until(lambda s: s.public["auction_no"] != auction or bool(s.public["winners"]), 120)
    await watcher.wait_until(lambda s: bool(s.public and s.public["winners"]), 180)
    await watcher.close()
    return killed, bots


@pytest.mark.timeout(300)
def test_bot_killed_in_lobby_and_in_each_auction_comes_back(tmp_path):
    procs = Procs(tmp_path)
    try:
        killed, bots = run(_kill_in_lobby_and_auctions(tmp_path, procs), 280)
        assert {phase for phase, _ in killed} == {
            Phase.OPEN,
            Phase.ONCE_AROUND,
            Phase.SEALED,
            Phase.FIXED_SET,
            Phase.DOUBLE_OFFER,
        }, killed
        for proc in bots.values():
            assert proc.wait(timeout=60) == 0, procs.errors(proc.name)
        record = procs.wait_output("host", r"record: +(\S+)", 30).group(1)
        money = final_money_of(record)
        for proc in bots.values():
            assert bot_money(procs, proc.name) == money
        check_replay(record)
    finally:
        procs.close()


async def _kill_host_repeatedly(tmp_path, procs: Procs, kills: int, rng: random.Random):
    # the host sees the hands: the test replays the raw journal, which at a table that hides
    # hands holds the host's stand-ins (tests/net/trust/test_hidden_*.py resume those tables)
    host = procs.host(
        tmp_path,
        "--port",
        "0",
        "--players",
        "4",
        "--clocks",
        json.dumps(FAST),
        "--exit-when-over",
        "--no-hidden-hands",
    )
    join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
    watcher = Client(join, keys=Keys.generate(), spectate=True)
    await watcher.connect()
    bots = [procs.bot(join, i, pace=0.02) for i in range(4)]
    await watcher.wait_until(lambda s: s.head_seq > 5, 60)
    games = tmp_path / "games"
    for k in range(kills):
        await asyncio.sleep(rng.uniform(0.1, 1.5))
        if host.poll() is not None:
            break  # the game ended first
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        journal = next(str(p) for p in games.glob("*.jsonl"))
        before = watcher.state.head_seq
        host = procs.host(tmp_path, "--resume", journal, "--exit-when-over", name=f"host{k + 1}")  # its port
        await watcher.wait_until(lambda s: s.head_seq > before or bool(s.public and s.public["winners"]), 60)
    await watcher.wait_until(lambda s: bool(s.public and s.public["winners"]), 180)
    await asyncio.sleep(0.2)
    await watcher.close()
    return bots, watcher, host


@pytest.mark.timeout(300)
@pytest.mark.parametrize("seed", [1, 2])
def test_host_killed_and_resumed_from_its_journal(tmp_path, seed):
    procs = Procs(tmp_path)
    try:
        bots, watcher, host = run(_kill_host_repeatedly(tmp_path, procs, 3, random.Random(seed)), 280)
        for proc in bots:
            assert proc.wait(timeout=60) == 0, procs.errors(proc.name)
        journal_path = next(str(p) for p in (tmp_path / "games").glob("*.jsonl"))
        with open(journal_path) as f:
            record = parse_journal(f.read())
        state = record.replay()
        assert state.is_over() and not record.check_result(state)
        # the watcher saw every journaled move exactly once, in order (sealed bids once revealed)
        seen = [item for _seq, item in watcher.state.log if hasattr(item, "action")]
        assert seen == list(record.moves)
        assert not [e for e in watcher.state.errors if e[0] == "untrusted_host"], watcher.state.errors
        money = list(state.money)
        for i in range(4):
            assert bot_money(procs, f"bot{i}") == money
        assert list(watcher.state.public["final_money"]) == money
        record_path = journal_path[: -len(".jsonl")] + ".json"
        assert os.path.exists(record_path)
        check_replay(record_path)
        audit = subprocess.run(
            [PY, "-m", "modernart.cli.main", "audit", record_path],
            cwd=ROOT,
            env=env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert audit.returncode == 0, audit.stdout  # three crashes later, the whole game still checks out
    finally:
        procs.close()


@pytest.mark.timeout(120)
def test_host_seated_bots_are_replaced_by_standins_after_a_resume(tmp_path):
    """A table whose host sees the hands: its bots' seats are played by stand-ins."""
    _kill_a_host_of_bots(tmp_path, "--no-hidden-hands")


@pytest.mark.timeout(120)
def test_host_seated_bots_at_a_hidden_hands_table_come_back_after_a_resume(tmp_path):
    """A table that hides hands (the default): no stand-in can read a bot's cards, so the
    resumed host starts each bot again from the keys it kept on disk (net/host/bot_clients.py);
    the game ends, the record is of the real deck, and the bots' keys are gone."""
    record = _kill_a_host_of_bots(tmp_path)
    with open(record) as f:
        assert json.load(f)["meta"]["hidden_hands"] is True
    assert not any((tmp_path / "games" / "bots").iterdir())


def _kill_a_host_of_bots(tmp_path, *flags: str) -> str:
    procs = Procs(tmp_path)
    try:
        host = procs.host(
            tmp_path,
            "--port",
            "0",
            "--players",
            "3",
            "--bots",
            "3",
            "--bot-pace",
            "0.05",
            "--clocks",
            json.dumps(FAST),
            "--exit-when-over",
            *flags,
        )
        join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
        port = re.search(r":(\d+)/", join).group(1)
        games = tmp_path / "games"
        deadline = 60

        def moves_in_journal() -> int:
            files = list(games.glob("*.jsonl"))
            return sum(1 for line in files[0].read_text().splitlines() if line.startswith('{"m"')) if files else 0

        start = time.monotonic()
        while moves_in_journal() < 20 and time.monotonic() - start < deadline:
            time.sleep(0.05)
        assert moves_in_journal() >= 20 and host.poll() is None
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        journal = str(next(games.glob("*.jsonl")))
        resumed = procs.host(
            tmp_path, "--port", port, "--resume", journal, "--bot-pace", "0", "--exit-when-over", name="host-resumed"
        )
        assert resumed.wait(timeout=90) == 0, procs.errors("host-resumed")
        record = procs.wait_output("host-resumed", r"record: +(\S+)", 5).group(1)
        final_money_of(record)
        check_replay(record)
        return record
    finally:
        procs.close()
