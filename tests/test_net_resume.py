"""Resuming a table from files a crash left behind: a torn journal line, an event log that
lags the journal or runs ahead of it.  The resumed game equals the journal's replay, the
chain continues, and no move is lost or applied twice."""

from __future__ import annotations

import os

from modernart.net.trust.chain import ChainVerifier
from modernart.net.host.journal import read_events, read_journal
from modernart.net.protocol import decode_host_inner
from modernart.net.host.table import Table

from .net_helpers import keyed_table


def played_table(tmp, moves: int) -> Table:
    table, driver = keyed_table(tmp)
    driver.seed_all()  # signed seeds, then the deal
    driver.play(moves)  # moves as clients and the clock would make them, sealed bids by commit-reveal
    table.driver = driver  # type: ignore[attr-defined]
    table.game.journal.close()
    return table


def check_chain(table: Table) -> None:
    sess = table.game
    verifier = ChainVerifier(sess.game_id, table.host.vk)
    for event in sess.log:
        verifier.accept(event.seq, event.public, event.hashes, event.h, event.sig)


def test_resume_restores_the_exact_game(tmp_path):
    table = played_table(tmp_path, 60)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    assert resumed.game.state.money == table.game.state.money
    assert [e.h for e in resumed.game.log] == [e.h for e in table.game.log]
    check_chain(resumed)


def test_event_log_lagging_the_journal_is_regenerated(tmp_path):
    table = played_table(tmp_path, 60)
    events = list(read_events(table.journal_path))
    with open(table.journal_path + ".events", "r+b") as f:  # the crash lost the last event record
        data = f.read()
        f.seek(0)
        f.truncate(len(data) - 10)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    sess = resumed.game
    assert sess.seq == len(events)
    assert decode_host_inner(sess.log[-1].public)["by"] == "recovered"
    assert [e.h for e in sess.log[:-1]] == [e.h for e in table.game.log[:-1]]
    assert sess.state.money == read_journal(table.journal_path).replay().money
    check_chain(resumed)


def test_torn_journal_line_drops_the_move_and_its_event(tmp_path):
    table = played_table(tmp_path, 60)
    with open(table.journal_path, "r+b") as f:  # the crash cut the last move line short
        data = f.read()
        f.truncate(len(data) - 4)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    sess = resumed.game
    record = read_journal(table.journal_path)
    moves = table.game.state.move_count
    assert len(record.moves) == moves - 1 and sess.state.move_count == moves - 1
    assert sess.seq == table.game.seq - 1  # the event of the lost move is gone too
    assert len(list(read_events(table.journal_path))) == sess.seq
    assert sess.state.money == record.replay().money
    with open(table.journal_path, "rb") as f:
        assert f.read().endswith(b"\n")
    check_chain(resumed)
    # the resumed table keeps writing where it stopped: one more step, both files agree
    state = sess.state
    driver = table.driver
    driver.sess = sess
    driver.step()
    sess.journal.close()
    again = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    assert again.game.seq == sess.seq and again.game.state.money == state.money
    assert os.path.getsize(table.journal_path) > 0
