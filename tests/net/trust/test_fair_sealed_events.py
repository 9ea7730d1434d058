"""A Sealed auction in three events (protocol 2), from the attacker's side.

The commitments reach the table only in the complete set, and the settlement is one event
with every seat's proof: so a host that lies must lie in those two events, and every
client (and the audit) must catch it, naming the step.  Each attack below is a host that
rewrites its history and signs it again with its own key; each is refused at the first
wrong event.  Also here: the host's side of a commitment (one that comes late; a
duplicate, a forgery and one of another auction: tests/net/trust/test_fair_sealed.py), a commitment that a host lost being given back by its
client, and a finished game of protocol 1 that still audits.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from modernart.moves import Move
from modernart.phase import Phase
from modernart.net.protocol import decode_host_inner, pack
from modernart.net.protocol.signed import (
    COMMIT_TAG,
    HOSTEV_TAG,
    Commit,
    SetEntry,
    chain_genesis,
    chain_link,
    decode_commit,
    set_digest,
)
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import new_nonce
from modernart.net.trust.transcript import read_transcript, read_versioned_transcript, write_transcript

from tests.net_helpers import close_all, drive_to_sealed, in_process_host, keyed_table, run, seated_clients, until

DATA = Path(__file__).resolve().parents[2] / "data" / "protocol1"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished 4-player game played on a HostedGame (every Sealed auction by commit-reveal):
    (its record, its transcript's frames, the host's keys)."""
    tmp = tmp_path_factory.mktemp("sealed-events")
    table, driver = keyed_table(tmp)
    driver.seed_all()
    while not table.game.state.is_over():
        driver.step()
    record = table.save_record()
    return Path(record), read_transcript(record[: -len(".json")] + ".transcript"), table.host


def relink(frames: list[dict], start: int, host_keys) -> None:
    """Re-chain and re-sign frames[start:] with the host's key (a host rewriting history)."""
    prev = frames[start - 1]["h"] if start > 0 else chain_genesis(decode_host_inner(frames[0]["pub"])["g"])
    for frame in frames[start:]:
        frame["h"] = chain_link(prev, frame["seq"], frame["pub"], frame["ph"])
        frame["hs"] = host_keys.sign(HOSTEV_TAG, frame["h"])
        prev = frame["h"]


def tampered(finished, tmp: Path, name: str, change) -> list[str]:
    """The audit's problems with a copy of the game whose transcript `change(frames)` rewrote
    (re-chained and re-signed from the first frame it returns the index of)."""
    record, frames, host = finished
    frames = [dict(f) for f in frames]
    start = change(frames)
    relink(frames, start, host)
    rec, tr = tmp / f"{name}.json", tmp / f"{name}.transcript"
    shutil.copy(record, rec)
    write_transcript(str(tr), frames)
    return audit_files(str(rec), str(tr)).problems


def first(frames: list[dict], kind: str, skip: int = 0) -> int:
    return [i for i, f in enumerate(frames) if decode_host_inner(f["pub"])["k"] == kind][skip]


def edit(frames: list[dict], index: int, change) -> int:
    pub = decode_host_inner(frames[index]["pub"])
    change(pub)
    frames[index] = {**frames[index], "pub": pack(pub)}
    return index


def test_the_game_has_three_events_per_sealed_auction_and_audits(finished):
    record, frames, _host = finished
    kinds = [decode_host_inner(f["pub"])["k"] for f in frames]
    assert "commit" not in kinds and kinds.count("commits") == kinds.count("settle") > 0
    for frame in frames:
        pub = decode_host_inner(frame["pub"])
        if pub["k"] == "move":
            assert pub["by"] != "reveal" and pub["by"] != "offender"
    report = audit_files(str(record))
    assert report.ok, report.problems


def test_a_set_with_a_forged_commitment_is_refused_at_the_set(finished, tmp_path):
    def change(frames):
        i = first(frames, "commits")

        def forge(pub):
            item = next(x for x in pub["set"] if "c" in x)
            item["c"] = [item["c"][0], bytes(64)]  # not the seat's signature

        return edit(frames, i, forge)

    problems = tampered(finished, tmp_path, "forged", change)
    assert problems and "commitment refused: the signature does not verify" in problems[0], problems
    assert problems[0].startswith(f"event {first(finished[1], 'commits') + 1}: "), problems


def test_a_set_that_gives_one_seat_another_seats_commitment_is_refused(finished, tmp_path):
    def change(frames):
        def duplicate(pub):
            signed = [x for x in pub["set"] if "c" in x]
            signed[1]["c"] = signed[0]["c"]  # seat b's place holds seat a's signed commitment

        return edit(frames, first(frames, "commits"), duplicate)

    problems = tampered(finished, tmp_path, "duplicated", change)
    assert problems and "the commitment names another game, auction, seat or key" in problems[0], problems


def test_a_commitment_replayed_from_another_auction_is_refused(finished, tmp_path):
    def change(frames):
        earlier = decode_host_inner(frames[first(frames, "commits")]["pub"])

        def replay(pub):
            for item in pub["set"]:
                old = next((x for x in earlier["set"] if x["seat"] == item["seat"] and "c" in x), None)
                if "c" in item and old is not None:
                    item["c"] = old["c"]  # the same seat's own signed commitment, of the first auction
                    return
            raise AssertionError("no seat committed in both auctions")

        return edit(frames, first(frames, "commits", skip=1), replay)

    problems = tampered(finished, tmp_path, "replayed", change)
    assert problems and "the commitment names another game, auction, seat or key" in problems[0], problems


def test_a_set_that_drops_a_commitment_for_a_default_is_caught_by_the_digest(finished, tmp_path):
    """The host leaves a committed seat out (its default 0 instead): the set's own D then
    differs from the D the seats' reveals name, and the settlement cannot hide it."""

    def change(frames):
        def drop(pub):
            item = next(x for x in pub["set"] if "c" in x)
            item.pop("c")
            item["default"] = 0

        return edit(frames, first(frames, "commits"), drop)

    problems = tampered(finished, tmp_path, "dropped", change)
    assert problems and "the host's set digest differs from the set's" in problems[0], problems

    def change_and_digest(frames):  # a host that also signs the digest of the set it shows
        i = change(frames)
        dropped = next(x["seat"] for x in decode_host_inner(frames[i]["pub"])["set"] if "default" in x)

        def settle_as_default(pub):  # and settles the seat it left out as a default bid of 0
            for bid in pub["bids"]:
                if bid["m"][0] == dropped:
                    bid.clear()
                    bid.update(m=[dropped, 6, 0], by="clock")

        edit(
            frames,
            next(j for j in range(i, len(frames)) if decode_host_inner(frames[j]["pub"])["k"] == "settle"),
            settle_as_default,
        )

        def digest(pub):
            entries = []
            for item in pub["set"]:
                if "default" in item:
                    entries.append(SetEntry(item["seat"]))
                else:
                    value = decode_commit(item["c"][0])
                    entries.append(SetEntry(item["seat"], value.key, value.c, item["c"]))
            pub["d"] = set_digest(pub["g"], pub["auction"], entries)

        return edit(frames, i, digest)

    problems = tampered(finished, tmp_path, "dropped-and-digested", change_and_digest)
    # the seats' signed reveals name the set they were shown: the settlement cannot call them valid
    assert problems and "the host accepted a reveal that fails" in problems[0], problems
    assert problems[0].startswith(f"event {first(finished[1], 'settle') + 1}: "), problems


def test_a_settlement_with_a_changed_reveal_is_refused(finished, tmp_path):
    def change(frames):
        def wrong(pub):
            bid = next(b for b in pub["bids"] if b["by"] == "reveal")
            bid["m"] = [bid["m"][0], bid["m"][1], bid["m"][2] + 1]  # not the revealed amount

        return edit(frames, first(frames, "settle"), wrong)

    problems = tampered(finished, tmp_path, "amount", change)
    assert problems and "the settled bid is not the revealed amount" in problems[0], problems


def test_a_settlement_that_names_an_honest_reveal_an_offence_is_refused(finished, tmp_path):
    def change(frames):
        def frame_it(pub):
            bid = next(b for b in pub["bids"] if b["by"] == "reveal")
            bid.update(by="offender", why="mismatch", m=[bid["m"][0], 7, 0])  # SEALED_FORFEIT

        return edit(frames, first(frames, "settle"), frame_it)

    problems = tampered(finished, tmp_path, "framed", change)
    assert problems and "the host named the seat an offender, but its reveal is valid" in problems[0], problems


def test_a_settlement_out_of_seat_order_or_twice_is_refused(finished, tmp_path):
    def change(frames):
        def twice(pub):
            pub["bids"] = [pub["bids"][0], pub["bids"][0], *pub["bids"][2:]]

        return edit(frames, first(frames, "settle"), twice)

    problems = tampered(finished, tmp_path, "twice", change)
    assert problems and "out of seat order or twice" in problems[0], problems


def test_the_old_shape_in_a_version_2_transcript_is_refused(finished, tmp_path):
    """A sealed bid settled in a `move` event of its own (protocol 1's shape) is no step of
    protocol 2: a version-2 transcript that has one fails the audit."""

    def change(frames):
        i = first(frames, "settle")

        def as_move(pub):
            bid = pub.pop("bids")[0]
            pub.pop("auction")
            pub.update(k="move", **bid)

        return edit(frames, i, as_move)

    problems = tampered(finished, tmp_path, "old-shape", change)
    assert problems and "settled in a move of its own (protocol 1)" in problems[0], problems


# ---------------------------------------------------------------------- protocol 1


def test_a_finished_game_of_protocol_1_still_audits(tmp_path):
    """tests/data/protocol1: a 3-player game played by the protocol-1 host (commit ee8057b,
    one `commit` event per commitment, one `move` per settled bid), its record and transcript."""
    record = tmp_path / "game.json"
    shutil.copy(DATA / "game.json", record)
    transcript = tmp_path / "game.transcript"
    transcript.write_bytes(gzip.decompress((DATA / "game.transcript.gz").read_bytes()))
    version, frames = read_versioned_transcript(str(transcript))
    assert version == 1 and any(decode_host_inner(f["pub"])["k"] == "commit" for f in frames)
    report = audit_files(str(record), str(transcript))
    assert report.ok, report.problems
    # the same events relabelled as version 2: its first commitment event is the first wrong step
    write_transcript(str(transcript), frames)
    report = audit_files(str(record), str(transcript))
    index = next(i for i, f in enumerate(frames) if decode_host_inner(f["pub"])["k"] == "commit")
    assert report.problems and report.problems[0].startswith(f"event {index + 1}: "), report.problems
    assert "published as an event of its own (protocol 1)" in report.problems[0]


# ---------------------------------------------------------------------- the host's side, over sockets


async def _late_and_lost(tmp):
    from modernart.net.clocks import ManualClock

    clock = ManualClock()
    host, table = await in_process_host(tmp, clock=clock, autostart=3)
    clients = await seated_clients(host, 3)
    out = {}
    try:
        a, b, c = clients
        auction = await drive_to_sealed(clients, table)
        sess = table.game
        game = a.state.game_id
        seq = sess.seq
        assert (await a.send_move(Move.sealed_bid(0, 2))).ok
        out["no event for a commitment"] = sess.seq == seq
        await a.wait_until(lambda s: 0 in s.observation.sealed_done, 5)
        await b.wait_until(lambda s: 0 in s.observation.sealed_done and 0 not in s.observation.to_move, 5)
        out["others see who sealed"] = True
        # the host loses seat 0's commitment (as a power loss would take it from its held file)
        sess.sealed.entries[0] = None
        a.hello()  # a's client says hello again: after the welcome it sends its stored commitment
        await until(lambda: sess.sealed.entries[0] is not None, 10)
        out["given back"] = sess.sealed.entries[0].c == a.fair.vault.find("bid", game, auction, a.keys.vk).c
        assert (await b.send_move(Move.sealed_bid(1, 1))).ok
        assert (await c.send_move(Move.sealed_bid(2, 0))).ok
        await until(lambda: sess.state.auction_no != auction or sess.state.phase != Phase.SEALED, 10)
        late = Commit(game, auction, 2, c.keys.vk, new_nonce()).body()
        out["late"] = (await c.request({"t": "commit", "b": late, "s": c.keys.sign(COMMIT_TAG, late)})).code
        sale = [s for s in sess.state.sales if s.auction == auction][-1]
        out["a's bid counted"] = dict(sale.bids)[0] == 2
        for client in clients:
            assert not [e for e in client.state.errors if e[0] in ("untrusted_host", "commitment_left_out")]
        return out
    finally:
        await close_all(clients, host)


@pytest.mark.timeout(90)
def test_a_commitment_is_acknowledged_without_an_event_and_given_back_if_the_host_lost_it(tmp_path):
    out = run(_late_and_lost(tmp_path), 80)
    assert out == {
        "no event for a commitment": True,
        "others see who sealed": True,
        "given back": True,
        "late": "wrong_phase",  # the auction is settled: no commitment is taken any more
        "a's bid counted": True,
    }


def test_a_set_with_a_forged_commitment_is_refused_before_the_client_can_reveal(finished):
    """A malicious host publishes a complete set in which another seat's commitment carries a
    signature that seat never made (a commitment the host made up, so that the honest
    client reveals while that seat's bid is not fixed).  The client refuses the set itself,
    naming the seat, so its reveal never leaves: the set is what a reveal answers.

    On a2b2fc2 the client took such a set, revealed on it, and checked the other
    signatures only afterwards (`check_signatures`, called soon after the reveal): the
    host had the bid before the client noticed."""
    from modernart.net.trust.chain import ChainError
    from modernart.net.trust.verified_game import VerifiedGame

    _record, frames, host = finished
    frames = [dict(f) for f in frames]
    at = first(frames, "commits")
    forged_seat = []

    def forge(pub):
        item = next(x for x in pub["set"] if "c" in x)
        forged_seat.append(item["seat"])
        item["c"] = [item["c"][0], bytes(64)]  # not the seat's signature

    relink(frames, edit(frames, at, forge), host)
    client = VerifiedGame(decode_host_inner(frames[0]["pub"])["g"], host.vk, check_deck=False, every_signature=False)
    for frame in frames[:at]:
        client.apply(frame, None)
    with pytest.raises(ChainError, match=f"seat {forged_seat[0]}: commitment refused: the signature does not verify"):
        client.apply(frames[at], None)  # the set: refused as it arrives, before any reveal could go
    assert client.sealed is None or client.sealed.round is None or client.sealed.round.digest is None
