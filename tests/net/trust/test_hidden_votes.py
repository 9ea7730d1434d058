"""The table's vote on an absent seat (docs/fair-play.md "No table waits for ever"): once a
seat is named late (`dlate`), the seated people who are here vote, signed, to keep waiting or
to end the game now, scored as it stands (docs/rules.md §12.9).  The host decides only when
the votes the rule asks for are in (net/trust/votes.py), and every client checks them.  Bad
input (a bot's vote, a stranger's, a replayed or unsigned one) gets its code and changes
nothing.  The host's clock is driven by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.phase import Phase

from modernart.net.protocol import ProtocolError
from modernart.net.trust.audit import audit_evidence
from modernart.net.trust.identity import Keys
from modernart.net.trust.votes import sign_vote

from tests.net.trust.vote_helpers import stalled


def refused(code: str, t: Any, voter: int, signed: Any, vk: bytes | None = None) -> None:
    """`signed` from seat `voter` is refused with `code`, and nothing changes."""
    before = (t.sess.seq, {a: dict(v) for a, v in t.sess.votes.items()}, dict(t.sess.late_since))
    with pytest.raises(ProtocolError) as err:
        t.sess.submit_vote(vk or t.keys[voter].vk, voter, signed, t.now)
    assert err.value.code == code, err.value
    assert (t.sess.seq, {a: dict(v) for a, v in t.sess.votes.items()}, dict(t.sess.late_since)) == before


def test_the_people_here_end_the_game_scored_as_it_stands_and_the_audit_checks_their_votes(tmp_path: Path) -> None:
    """Four seats, one a bot: the absent person's two fellow players must both vote to end
    (a strict majority of two); one vote alone decides nothing.  The game ends at once, the
    round in progress scored, the disclosure follows; the present seats disclose their deck
    keys, the transcript is the record, and the audit checks the decision's votes."""
    t, absent = stalled(tmp_path, bots=(3,), players=4)
    voters = [s for s in range(3) if s != absent]
    state = t.sess.state
    rnd, money_before = state.round, list(state.money)
    assert t.vote(voters[0], absent, "end") == []  # one of the two votes it needs
    assert not state.is_over()
    out = t.vote(voters[1], absent, "end")
    assert [p["k"] for p in out] == ["decide", "disclose"]
    decide = out[0]
    assert (decide["seat"], decide["choice"], len(decide["votes"])) == (absent, "end", 2)
    assert state.is_over() and state.results[-1].ended_by == "early" and len(state.results) == rnd + 1
    assert state.money == [m + p for m, p in zip(money_before, state.results[-1].payouts)]
    assert decide["pv"]["phase"] == Phase.GAME_OVER
    for seat in (None, *range(4)):  # every client takes the decision, and sees the game over
        game = t.follower(seat)
        assert game.ended_without == absent and game.game_over
    t.disclose([s for s in range(4) if s != absent])
    assert t.sess.deck_disclosed  # the absent seat's key never comes: the others' are enough
    path = t.table.save_record()
    assert path is not None and path.endswith(".transcript")
    report = audit_evidence(path)
    assert report.ok, report.problems
    assert any("ended early by the players' vote, without " + t.sess.players[absent].name in n for n in report.notes)
    # `modernart audit TRANSCRIPT` takes it as the game's record and checks it so
    import argparse
    import contextlib
    import io

    from modernart.cli import cmd_audit

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cmd_audit.run(argparse.Namespace(record=path, host_key=None, json=False))
    assert code == 0 and "ended early by the players' vote" in out.getvalue(), out.getvalue()


def test_a_tie_keeps_waiting_and_the_seat_is_named_again_after_one_more_deadline(tmp_path: Path) -> None:
    """Three people: with the absent one, two voters.  One for waiting is half of them: the
    table keeps waiting (a tie never ends a game); the seat is late no more, and is named
    again when one more deadline passes; the votes of the first wait count for nothing then."""
    t, absent = stalled(tmp_path)
    voters = [s for s in range(3) if s != absent]
    old_end = t.ballot(voters[0], absent, "end")
    out = t.vote(voters[1], absent, "wait")
    assert [(p["k"], p["seat"], p["choice"], len(p["votes"])) for p in out] == [("decide", absent, "wait", 1)]
    assert absent not in t.sess.late_since and t.follower(voters[0]).late == {}
    refused("vote_not_late", t, voters[0], old_end)  # nothing to decide meanwhile
    assert t.tick(29) == []
    again = t.tick(1)
    assert [(p["k"], p["seat"]) for p in again] == [("dlate", absent)]
    refused("vote_stale", t, voters[0], old_end)  # a vote answers one wait: this is another
    assert t.vote(voters[0], absent, "end") == []
    out = t.vote(voters[1], absent, "end")
    assert [p["k"] for p in out] == ["decide", "disclose"] and t.sess.state.is_over()


def test_a_seat_that_comes_back_voids_the_votes_on_it(tmp_path: Path) -> None:
    """The absent player comes back and plays its card: the votes cast on it are void, and
    the game goes on."""
    t, absent = stalled(tmp_path)
    voters = [s for s in range(3) if s != absent]
    assert t.vote(voters[0], absent, "end") == []
    ballot = t.ballot(voters[1], absent, "end")
    t.play.step()  # its card, opened by its own client
    assert t.sess.votes == {} and t.sess.late_since == {}
    refused("vote_not_late", t, voters[1], ballot)
    assert not t.sess.state.is_over()


def test_bad_votes_get_their_codes_and_change_nothing(tmp_path: Path) -> None:
    t, absent = stalled(tmp_path, bots=(3,), players=4)
    voters = [s for s in range(3) if s != absent]
    good = t.ballot(voters[0], absent, "end")
    refused("vote_unsigned", t, voters[0], [good[0]])
    refused("vote_unsigned", t, voters[0], [b"\x93junk", good[1]])
    refused("vote_bad_signature", t, voters[0], [good[0], bytes(64)])
    refused("vote_bad_signature", t, voters[0], t.ballot(voters[0], absent, "end", keys=Keys.generate()))
    # a vote for another seat, on this connection, is refused too
    refused("vote_bad_signature", t, voters[1], good, vk=t.keys[voters[1]].vk)
    refused("vote_not_a_person", t, 3, t.ballot(3, absent, "end"))  # a bot's seat never decides
    refused("vote_absent_voter", t, absent, t.ballot(absent, absent, "wait"))
    other = next(s for s in voters if s != voters[0])
    late_seq, head = t.sess.late_since[absent], t.sess.log[-1].h
    about_other = sign_vote(t.keys[voters[0]], t.sess.game_id, voters[0], other, "end", late_seq, t.sess.seq, head)
    refused("vote_not_late", t, voters[0], about_other)  # a seat that is not late: nothing to decide
    forked = sign_vote(t.keys[voters[0]], t.sess.game_id, voters[0], absent, "end", late_seq, t.sess.seq, bytes(32))
    refused("vote_wrong_ref", t, voters[0], forked)  # a history the host does not hold
    elsewhere = sign_vote(t.keys[voters[0]], bytes(16), voters[0], absent, "end", late_seq, t.sess.seq, head)
    refused("vote_wrong_game", t, voters[0], elsewhere)
    with pytest.raises(ProtocolError) as err:  # a key of no seat (a watcher's) may not vote
        t.sess.submit_vote(Keys.generate().vk, voters[0], good, t.now)
    assert err.value.code == "not_your_seat"
    assert t.sess.votes == {} and not t.sess.state.is_over()
    assert t.vote(other, absent, "end") == []  # the good ones still count
    assert [p["k"] for p in t.vote(voters[0], absent, "end")] == ["decide", "disclose"]


def test_a_host_resumed_from_its_files_holds_the_decision(tmp_path: Path) -> None:
    """A decided end is in the event log: a host resumed from its files has the game over,
    scored as it was, the absent seat named."""
    from modernart.net.host.table import Table
    from modernart.net.protocol.game_data import public_view

    t, absent = stalled(tmp_path)
    voters = [s for s in range(3) if s != absent]
    t.vote(voters[0], absent, "end")
    t.vote(voters[1], absent, "end")
    before = public_view(t.sess.state)
    path = str(next(tmp_path.glob("*.jsonl")))
    t.sess.journal.close()
    resumed = Table.resume(path, t.sess.host, 0.0, fsync=False).game
    assert resumed.state.is_over() and resumed.ended_without == absent and resumed.disclosed
    assert public_view(resumed.state) == before


def test_over_the_wire_a_watchers_vote_and_one_at_a_table_that_shows_hands_change_nothing(tmp_path: Path) -> None:
    """Real clients on 127.0.0.1: a watcher's `vote` frame is refused (`vote_no_seat`), and a
    seated player's at a table whose host sees the hands (a stand-in plays for a seat away
    there: nobody waits) is refused too (`not_hidden`); no event comes of either."""
    from modernart.net.client.client import Client
    from modernart.net.protocol import decode_host_inner
    from modernart.net.protocol.frames import vote_frame

    from tests.net_helpers import close_all, in_process_host, run, seated_clients

    async def main() -> None:
        host, table = await in_process_host(tmp_path, autostart=3)
        clients = await seated_clients(host, 3)
        watcher = Client(host.target(), keys=Keys.generate(), spectate=True)
        await watcher.connect()
        try:
            sess = table.game
            before = sess.seq
            ballot = [b"\x98" + bytes(7), bytes(64)]
            reply = await watcher.request(vote_frame(ballot))
            assert (reply.ok, reply.code) == (False, "vote_no_seat")
            reply = await clients[0].request(vote_frame(ballot))
            assert (reply.ok, reply.code) == (False, "not_hidden")
            kinds = [decode_host_inner(e.public)["k"] for e in sess.log[before:]]
            assert "decide" not in kinds and sess.votes == {}
        finally:
            await close_all([*clients, watcher], host)

    run(main(), 60)
