"""A host resumed from its files keeps every fair-play promise: the seeds (its own included),
the deal they give, the commitments of a running Sealed auction; the finished game then
passes the audit.  The session is driven directly (no sockets), as clients would."""

from __future__ import annotations

import pytest

from modernart.phase import Phase
from modernart.net.trust.audit import audit_files
from modernart.net.trust.chain import ChainVerifier
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.shuffle import derive_deal
from modernart.net.host.table import Table

from tests.net_helpers import keyed_table


def crash_and_resume(table, driver):
    table.game.journal.close()
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    driver.sess = resumed.game
    verifier = ChainVerifier(resumed.game.game_id, table.host.vk)
    for event in resumed.game.log:
        verifier.accept(event.seq, event.public, event.hashes, event.h, event.sig)
    return resumed


def finish(table, driver):
    while not driver.sess.state.is_over():
        driver.step()
    table.game = driver.sess
    return table.save_record()


def test_resume_before_the_deal_keeps_the_host_seed_and_the_seeds_in(tmp_path):
    table, driver = keyed_table(tmp_path)
    sess = table.game
    host_seed = sess.seeding.host_seed
    sent = []  # seats 0 and 1 send their seeds, then the host crashes
    for seat in (0, 1):
        sent.append(driver.seed(seat)[1])
    assert sess.state is None
    resumed = crash_and_resume(table, driver)
    rs = resumed.game
    assert rs.state is None and rs.seeding.host_seed == host_seed and rs.seeding.seeds[:2] == sent
    for seat in (2, 3):
        sent.append(driver.seed(seat)[1])  # the driver plays the resumed session now
    order, first = derive_deal(rs.game_id, host_seed, sent, 70)
    state = rs.state
    assert state is not None and state.first_auctioneer == first
    assert [int(c) for c in state.hands[0]] == order[:9]  # 4 players: 9 cards each in round 1
    record = finish(resumed, driver)
    report = audit_files(record)
    assert report.ok, report.problems


@pytest.mark.parametrize("stage", ["commits", "set"])
def test_resume_in_a_sealed_auction_keeps_its_commitments(tmp_path, stage):
    table, driver = keyed_table(tmp_path)
    driver.seed_all()
    sess = table.game
    while sess.state.phase != Phase.SEALED:
        driver.step()
        assert not sess.state.is_over()
    auction = sess.state.auction_no
    a0, a1 = min(3, sess.state.money[0]), min(5, sess.state.money[1])  # within the money: valid bids
    driver.commit(0, a0)
    driver.commit(1, a1)
    if stage == "set":
        driver.commit(2, 0)
        driver.commit(3, 4)
        driver.reveal(0)  # held in memory only: lost in the crash, sent again by its client
    resumed = crash_and_resume(table, driver)
    rnd = resumed.game.sealed
    assert (
        rnd is not None
        and rnd.auction == auction
        and rnd.committed() == ([0, 1] if stage == "commits" else [0, 1, 2, 3])
    )
    assert rnd.complete == (stage == "set") and not rnd.reveals
    driver.step()  # the rest commits (if need be), everyone reveals (again), settled
    state = resumed.game.state
    assert state.auction_no != auction or state.phase != Phase.SEALED
    sale = [s for s in state.sales if s.auction == auction][-1]
    bids = dict(sale.bids)
    assert (bids[0], bids[1]) == (a0, a1)  # the commitments made before the crash were revealed and counted
    kinds = [decode_host_inner(e.public)["k"] for e in resumed.game.log]
    assert kinds.count("commits") >= 1
    record = finish(resumed, driver)
    report = audit_files(record)
    assert report.ok, report.problems
