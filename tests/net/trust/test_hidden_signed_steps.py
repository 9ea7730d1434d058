"""Every step of the hidden deck is signed by its seat (net/trust/deck_steps.py): a step that
is malformed, unsigned, signed by another key or for another game, seat, kind, deck, value
or history, or replayed, is refused with a stable code that names the seat, and changes
nothing: at the host as it arrives, and at every client when a host relays it anyway."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Callable

import pytest

from modernart.net.protocol import ProtocolError
from modernart.net.protocol.signed import DECK_TAG
from modernart.net.trust.chain import ChainError
from modernart.net.trust.deck import prove_key
from modernart.net.trust.deck_steps import STEP_CODES, sign_step
from modernart.net.trust.group import L
from modernart.net.trust.verified_game import VerifiedGame

from tests.net_helpers import signed_deck_step
from tests.net.trust.test_hidden_host import deck, hidden_session, keyed

OTHER_GAME = bytes(range(16))


def _variants(sess: Any, keys: list[Any], decks: list[Any]) -> list[tuple[str, str, Callable[[], dict[str, Any]]]]:
    """(what, the code it is refused with, the `deck {key}` frame of seat 0) of each bad step."""
    game, key = sess.game_id, decks[0].key
    wire = key.to_wire()
    seq, head = sess.seq, sess.head

    def signed(**change: Any) -> dict[str, Any]:
        args = {"keys": keys[0], "game": game, "seat": 0, "kind": "key", "epoch": 0, "ref_seq": seq, "ref_head": head}
        args.update(change)
        value = args.pop("value", key)
        return {"key": wire, "signed": sign_step(args.pop("keys"), *args.values(), value)}

    other_key = prove_key(game, 0, secrets.randbelow(L - 1) + 1)
    return [
        ("unsigned", "deck_unsigned", lambda: {"key": wire}),
        ("a signature of nothing", "deck_unsigned", lambda: {"key": wire, "signed": [b"", bytes(64)]}),
        (
            "a signed body that is no step",
            "deck_unsigned",
            lambda: {"key": wire, "signed": [b"\x93\x01\x02\x03", keys[0].sign(DECK_TAG, b"\x93\x01\x02\x03")]},
        ),
        (
            "a forged signature",
            "deck_bad_signature",
            lambda: {"key": wire, "signed": [signed()["signed"][0], bytes(64)]},
        ),
        ("signed by another seat's key", "deck_bad_signature", lambda: signed(keys=keys[1])),
        ("signed for another game", "deck_wrong_game", lambda: signed(game=OTHER_GAME)),
        ("signed for another seat", "deck_wrong_seat", lambda: signed(seat=1)),
        ("signed as another kind of step", "deck_wrong_kind", lambda: signed(kind="secret")),
        ("signed for another deck", "deck_wrong_epoch", lambda: signed(epoch=1)),
        ("signed for another value", "deck_wrong_value", lambda: signed(value=other_key)),
        ("answering an event not yet made", "deck_wrong_ref", lambda: signed(ref_seq=seq + 3)),
        ("answering another history", "deck_wrong_ref", lambda: signed(ref_head=bytes(32))),
    ]


def test_every_misbound_deck_step_is_refused_by_the_host_with_its_code_naming_the_seat(tmp_path: Path) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path)
    driver.seed_all()
    ledger = sess.hidden.ledger

    def state() -> Any:
        return (sess.seq, sess.head, list(ledger.steps), list(ledger.keys))

    for what, code, frame in _variants(sess, keys, decks):
        before = state()
        with pytest.raises(ProtocolError) as exc:
            sess.submit_deck(keys[0].vk, 0, frame(), 0.0)
        assert exc.value.code == code, (what, exc.value)
        assert code in STEP_CODES and "seat 0" in exc.value.message, (what, exc.value.message)
        assert state() == before, what
    for malformed in (
        {"key": {"seat": 0}},
        {"shares": [{"slot": 1}]},
        {"key": decks[0].key.to_wire(), "secret": bytes(32)},
    ):
        before = state()
        with pytest.raises(ProtocolError) as exc:
            sess.submit_deck(keys[0].vk, 0, signed_deck_step(sess, keys[0], 0, **malformed), 0.0)
        assert exc.value.code == "bad_deck" and "seat 0" in exc.value.message, (malformed, exc.value)
        assert state() == before
    accepted = signed_deck_step(sess, keys[0], 0, key=decks[0].key.to_wire())
    sess.submit_deck(keys[0].vk, 0, accepted, 0.0)
    before = state()
    with pytest.raises(ProtocolError) as exc:  # the very same step again: a replay
        sess.submit_deck(keys[0].vk, 0, accepted, 0.0)
    assert exc.value.code == "bad_deck_key" and "seat 0" in exc.value.message
    assert state() == before


def test_a_shuffle_relayed_ahead_is_refused_unsigned_before_it_is_relayed(tmp_path: Path) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed(sess, keys, decks, driver)
    ledger = sess.hidden.ledger
    shuffle = decks[0].shuffle(ledger)[0]
    good = signed_deck_step(sess, keys[0], 0, shuffle=shuffle.to_wire())
    for what, frame, code in (
        ("unsigned", {"shuffle": shuffle.to_wire()}, "deck_unsigned"),
        ("signed by seat 1", signed_deck_step(sess, keys[1], 0, shuffle=shuffle.to_wire()), "deck_bad_signature"),
    ):
        with pytest.raises(ProtocolError) as exc:
            sess.propose_shuffle(keys[0].vk, 0, frame)
        assert exc.value.code == code and "seat 0" in exc.value.message, what
        assert ledger.proposed == [] and ledger.shuffles == []
    assert sess.propose_shuffle(keys[0].vk, 0, good) is not None
    deck(sess, keys, 0, shuffle=shuffle.to_wire())
    assert ledger.shuffles == [shuffle]
    # shares replayed: the same signed frame twice
    for seat in (1, 2):
        deck(sess, keys, seat, shuffle=decks[seat].shuffle(ledger)[0].to_wire())
    shares = signed_deck_step(sess, keys[1], 1, shares=[s.to_wire() for s in decks[1].shares(ledger)])
    sess.submit_deck(keys[1].vk, 1, shares, 0.0)
    steps = list(ledger.steps)
    with pytest.raises(ProtocolError) as exc:
        sess.submit_deck(keys[1].vk, 1, shares, 0.0)
    assert exc.value.code == "bad_share" and "seat 1" in exc.value.message
    assert ledger.steps == steps


def test_every_client_refuses_a_misbound_deck_step_that_a_host_relays(tmp_path: Path) -> None:
    """A host that relays a bad step anyway (it skips its own checks): its event is refused by
    a client following the game, which names the seat and the code, and its copy of the
    game is as it was before the event."""
    for index in range(len(_variants(*hidden_session(tmp_path / "probe")[:3]))):
        sess, keys, decks, driver = hidden_session(tmp_path / f"v{index}")
        driver.seed_all()
        what, code, frame = _variants(sess, keys, decks)[index]
        msg = frame()
        fields = {"seat": 0, "key": msg["key"], **({"signed": msg["signed"]} if "signed" in msg else {})}
        sess._emit("dkey", 0.0, fields)  # the host's own event, signed and chained
        follower = VerifiedGame(sess.game_id, sess.host.vk)
        for event in sess.log[:-1]:
            follower.apply(event.frame_for(None), None)
        keys_before = list(follower.deck.keys)
        with pytest.raises((ChainError, ProtocolError)) as exc:
            follower.apply(sess.log[-1].frame_for(None), None)
        if isinstance(exc.value, ProtocolError):  # refused by the event's schema before anything
            assert exc.value.code == "bad_field" and "signed" in exc.value.message, (what, exc.value)
        else:
            assert "seat 0's key step" in str(exc.value) and f"({code})" in str(exc.value), (what, exc.value)
            assert f"event {sess.seq}" in str(exc.value)
        assert list(follower.deck.keys) == keys_before, what


def test_the_audit_names_a_deck_step_that_its_seat_did_not_sign(tmp_path: Path) -> None:
    """A finished hidden game whose transcript a host rewrote after the fact: one seat's
    shares replaced by other (proven) shares, every event from there re-chained and signed
    again with the host's key, so that the chain and the host's signatures all check.  The
    audit names the event and the seat: the seat's signature is over other shares."""
    from modernart.net.host.table import Table
    from modernart.net.protocol import decode_host_inner, pack
    from modernart.net.protocol.signed import HOSTEV_TAG, chain_link
    from modernart.net.trust.audit import audit_files
    from modernart.net.trust.deck import make_share
    from modernart.net.trust.transcript import read_transcript, write_transcript

    from tests.net.trust.test_hidden_host import HiddenDriver, keyed_and_shuffled

    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    play.finish()
    sess.journal.close()
    record = Table.resume(sess.journal.path, sess.host, 0.0, fsync=False).save_record()
    assert record is not None and audit_files(record).ok
    transcript = record[: -len(".json")] + ".transcript"
    frames = read_transcript(transcript)
    at = next(i for i, f in enumerate(frames) if decode_host_inner(f["pub"])["k"] == "dshares")
    pub = decode_host_inner(frames[at]["pub"])
    ledger = sess.hidden.ledger
    seat = pub["seat"]
    first = pub["shares"][0]
    other = make_share(sess.game_id, seat, decks[seat].secret, first["slot"], ledger.deck[first["slot"]])
    pub["shares"][0] = other.to_wire()  # as true as the first, but not the one the seat signed
    head = frames[at - 1]["h"]
    for i in range(at, len(frames)):
        body = pack(pub) if i == at else frames[i]["pub"]
        h = chain_link(head, frames[i]["seq"], body, list(frames[i]["ph"]))
        frames[i] = {**frames[i], "pub": body, "h": h, "hs": sess.host.sign(HOSTEV_TAG, h)}
        head = h
    write_transcript(transcript, frames)
    report = audit_files(record)
    assert report.problems == [
        f"event {frames[at]['seq']}: seat {seat}'s shares step was signed for another value than the one "
        "it carries (deck_wrong_value)"
    ], report.problems


def test_a_client_takes_a_shuffle_relayed_for_its_own_seat_only_if_it_made_it(tmp_path: Path) -> None:
    """A host that relays (`dnext`) a shuffle of its own for a client's seat would have that
    client skip its own shuffle; the client leaves it, and takes back only the one it made."""
    from modernart.net.trust.deck import shuffle_deck

    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed(sess, keys, decks, driver)
    follower = VerifiedGame(sess.game_id, sess.host.vk)
    for event in sess.log:
        follower.apply(event.frame_for(0), 0)
    follower.own_deck = decks[0]
    ledger = follower.deck
    hosts = shuffle_deck(sess.game_id, 0, ledger.joint, ledger.deck)[0]
    follower.relayed_shuffle(0, hosts.to_wire())
    assert ledger.proposed == [] and ledger.next_proposer == 0
    mine = decks[0].shuffle(ledger)[0]
    follower.own_shuffles.append(mine)
    follower.relayed_shuffle(0, mine.to_wire())
    assert ledger.proposed == [mine] and ledger.next_proposer == 1
