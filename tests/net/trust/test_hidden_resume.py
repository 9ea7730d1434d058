"""`modernart resume` and a table that hides hands (the default of `modernart host`): the
journal holds stand-ins for the cards in hands (net/trust/blind_game.py), so it is listed by
replaying it on them; `modernart resume N` hosts the game again.  With real processes: a
host killed with SIGKILL, and a host whose machine lost power (the tail of its journal and
event log gone, deck events included), each listed and resumed by `modernart resume`, the
game played to its end by the same clients and its record audited."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from pathlib import Path

import pytest

from modernart.net.client.client import Client
from modernart.net.host.journal import read_events, read_journal
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import Keys
from modernart.record import RecordError

from tests.net_helpers import FAST, PY, ROOT, Procs, env, run
from tests.net.trust.test_hidden_power_loss import people_hidden_table
from tests.net.host.test_net_power_loss import _play, power_loss


def resume_command(tmp: Path, *extra: str) -> list[str]:
    return [
        PY,
        "-m",
        "modernart.cli.main",
        "-v",
        "resume",
        "--record-dir",
        str(tmp / "games"),
        "--config-dir",
        str(tmp / "hostcfg"),
        *extra,
    ]


def test_a_hidden_hands_journal_is_summarised_on_its_stand_ins(tmp_path: Path) -> None:
    """The open engine refuses the journal's first card play (a2b2fc2's `modernart resume`
    listed no such game); replayed on the stand-ins it gives the table's round, moves,
    money and hand sizes."""
    from modernart.cli.saved_games import summarise
    from modernart.net.trust.blind_game import replay_stand_ins

    table, _keys, _decks, play = people_hidden_table(tmp_path, 3)
    sess = table.game
    while sess.state.round < 1 or sess.state.phase.name != "PLAY_CARD":
        play.step()
    sess.journal.sync()
    record = read_journal(table.journal_path)
    with pytest.raises(RecordError):
        record.replay()  # what a2b2fc2 did: the first card played is not in the stand-in hand
    state = replay_stand_ins(record)
    assert (state.round, state.phase, state.money) == (sess.state.round, sess.state.phase, sess.state.money)
    assert [len(h) for h in state.hands] == [len(h) for h in sess.state.hands]
    assert (state.bought, state.counts, state.cumulative_values) == (
        sess.state.bought,
        sess.state.counts,
        sess.state.cumulative_values,
    )
    summary = summarise(table.journal_path)
    assert summary is not None and not summary.finished
    assert (summary.round, summary.moves) == (1, len(record.moves))


async def _killed_and_resumed(tmp: Path, procs: Procs, lost_power: bool) -> tuple[list[Client], str, str]:
    """A hidden-hands host process with 3 clients (one of them this machine's player, whose
    key is in the host's config dir), killed mid-game; `modernart resume --list` and
    `modernart resume 1` after it (after a power loss: with the tail of its files cut)."""
    host = procs.host(tmp, "--port", "0", "--players", "3", "--clocks", json.dumps(FAST))
    join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
    me = Keys.load_or_create(str(tmp / "hostcfg"), "player")
    clients = [Client(join, keys=k, transcript=True) for k in (me, Keys.generate(), Keys.generate())]
    try:
        for i, c in enumerate(clients):
            await c.connect()
            assert (await c.take_seat(f"P{i}")).ok
        for c in clients:
            assert (await c.ready()).ok
        for c in clients:
            await c.wait_until(lambda s: s.observation is not None, 60)
        await _play(clients, 25, 150)
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        await asyncio.sleep(0.3)
        journal = next(str(p) for p in (tmp / "games").glob("*.jsonl"))
        if lost_power:
            held = min(c.state.head_seq for c in clients)
            assert len(list(read_events(journal))) >= held
            power_loss(journal, held - 5)  # five events every client holds, gone from the disk
        listed = subprocess.run(
            resume_command(tmp, "--list"), cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60
        )
        assert listed.returncode == 0, listed.stderr
        moves = len(read_journal(journal).moves)
        assert journal in listed.stdout and f"{moves} moves" in listed.stdout, listed.stdout
        procs.start(
            resume_command(tmp, "1", "--host-flags", "--bind 127.0.0.1 --no-beacon --exit-when-over"), "resumed"
        )
        await _play(clients, 10_000, 300)  # they come back by themselves and play on
        for c in clients:
            await c.wait_until(
                lambda s, c=c: (
                    s.observation is not None and s.observation.is_over and c.receiving.game.deck_disclosed()
                ),
                60,
            )
        return clients, journal, listed.stdout
    finally:
        for c in clients:
            await c.close()


@pytest.mark.timeout(420)
@pytest.mark.parametrize("lost_power", [False, True], ids=["kill -9", "power loss"])
def test_modernart_resume_lists_and_resumes_a_killed_hidden_hands_host(tmp_path: Path, lost_power: bool) -> None:
    procs = Procs(tmp_path)
    try:
        clients, journal, listed = run(_killed_and_resumed(tmp_path, procs, lost_power), 400)
        resumed = procs.procs[-1]
        assert resumed.wait(timeout=60) == 0, procs.errors("resumed")
        assert "hosting it again" in procs.output("resumed")
        assert ("resumed after a restart of the machine" in procs.errors("resumed")) == lost_power
        for c in clients:
            assert not [e for e in c.state.errors if e[0] in ("untrusted_host", "forked_history", "tail_lost")]
        record = journal[: -len(".jsonl")] + ".json"
        report = audit_files(record)
        assert report.ok, report.problems
        assert report.facts.get("hidden_hands") is True
        # the finished game is listed no more
        after = subprocess.run(
            resume_command(tmp_path, "--list"), cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60
        )
        assert journal not in after.stdout
    finally:
        procs.close()
