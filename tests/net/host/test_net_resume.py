"""Resuming a table from files a crash left behind: a torn journal line, an event log that
lags the journal or runs ahead of it.  The resumed game equals the journal's replay, the
chain continues, and no move is lost or applied twice."""

from __future__ import annotations

import os

from modernart.net.trust.chain import ChainVerifier
from modernart.net.host.journal import read_events, read_journal
from modernart.net.protocol import decode_host_inner
from modernart.net.host.table import Table

from tests.net_helpers import keyed_table


def played_table(tmp, moves: int, last: str | None = None) -> Table:
    """A table played for `moves` engine moves (and on until its last event is of kind `last`)."""
    table, driver = keyed_table(tmp)
    driver.seed_all()  # signed seeds, then the deal
    driver.play(moves)  # moves as clients and the clock would make them, sealed bids by commit-reveal
    while last is not None and decode_host_inner(table.game.log[-1].public)["k"] != last:
        driver.step()
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
    # ending on an ordinary move (a Sealed settlement's moves share one event: the test below)
    table = played_table(tmp_path, 60, last="move")
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


def test_a_settlement_cut_short_is_made_again_in_one_event(tmp_path):
    """The crash tore the last move line of a Sealed settlement (its moves are journaled one
    by one, then its one `settle` event): the event, never written, is gone; the moves the
    journal kept are settled again in one event `by` "recovered" (their proofs were in the
    host's memory), the missing seat's bid comes again from its client, and every client
    and the audit accept the chain."""
    from modernart.net.trust.verified_game import VerifiedGame
    from modernart.phase import Phase

    table = played_table(tmp_path, 40, last="settle")
    last = decode_host_inner(table.game.log[-1].public)
    assert last["k"] == "settle" and len(last["bids"]) == 4
    auction = last["auction"]
    with open(table.journal_path, "r+b") as f:  # the crash cut the settlement's last move line short
        data = f.read()
        f.truncate(len(data) - 4)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    sess = resumed.game
    again = decode_host_inner(sess.log[-1].public)
    assert sess.seq == table.game.seq and again["k"] == "settle" and again["by"] == "recovered"
    assert [b["m"] for b in again["bids"]] == [b["m"] for b in last["bids"]][:3]
    assert sess.state.phase == Phase.SEALED and sess.state.auction_no == auction  # one seat to settle
    driver = table.driver
    driver.sess = sess
    driver.step()  # its reveal comes again: settled with its proof
    settled = decode_host_inner(sess.log[-1].public)
    assert (
        settled["k"] == "settle" and "by" not in settled and [b["m"] for b in settled["bids"]] == [last["bids"][3]["m"]]
    )
    assert sess.state.auction_no != auction or sess.state.phase != Phase.SEALED
    follower = VerifiedGame(sess.game_id, table.host.vk)
    warnings = []
    for event in sess.log:
        info, _ = follower.apply(event.frame_for(None), None)
        warnings += info.warnings
    assert len(warnings) == 3 and all("lost this sealed bid's proof" in w for w in warnings), warnings


def test_a_resume_revokes_the_stand_ins_of_the_stopped_host_once(tmp_path):
    """The stand-ins a host ran stopped with it: the resumed game revokes each delegation
    the log holds (one `delegate` event, `vk` nil), so those seats get a stand-in again;
    resumed again, it has none left to revoke.  On a2b2fc2 the delegations were restored
    as if their bots still ran, and the presence code never seated another for them."""
    from modernart.net.trust.identity import Keys

    table = played_table(tmp_path, 30)
    sess = Table.resume(table.journal_path, table.host, 0.0, fsync=False).game
    standin = Keys.generate().vk
    sess.set_delegate(2, standin, 0.0)
    sess.journal.close()
    seq = sess.seq
    resumed_table = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    resumed = resumed_table.game
    assert resumed.delegates == [None] * 4 and resumed.signer_role(2, standin) is None
    assert resumed.seq == seq + 1
    last = decode_host_inner(resumed.log[-1].public)
    assert (last["k"], last["seat"], last["vk"]) == ("delegate", 2, None)
    check_chain(resumed_table)
    resumed.journal.close()
    again = Table.resume(table.journal_path, table.host, 0.0, fsync=False).game
    assert again.seq == resumed.seq and again.delegates == [None] * 4
    again.journal.close()
