"""The fair-play constructions on their own: commitments bind every field, the set digest
covers every entry, the shuffle is a deterministic permutation that every seed changes,
secrets and known hosts are private files, transcripts refuse damage."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modernart.net.protocol.signed import (
    Commit,
    Reveal,
    SetEntry,
    bid_commitment,
    decode_commit,
    decode_reveal,
    seed_commitment,
    set_digest,
)
from modernart.net.trust.identity import Keys, new_nonce
from modernart.net.lan.known_hosts import HostKeyChanged, KnownHosts
from modernart.net.protocol import ProtocolError
from modernart.auctions import sealed_winner as resolve
from modernart.net.trust.sealed import MISMATCH, OVER_BUDGET, WRONG_DIGEST, judge
from modernart.net.trust.shuffle import derive_deal
from modernart.net.trust.transcript import TranscriptError, read_transcript, write_transcript
from modernart.net.trust.vault import Secret, Vault

GAME = bytes(range(16))
KEY_A, KEY_B = Keys.generate().vk, Keys.generate().vk


def test_a_commitment_binds_game_auction_seat_key_amount_and_nonce():
    nonce = new_nonce()
    base = bid_commitment(GAME, 3, 1, KEY_A, 40, nonce)
    variants = [
        bid_commitment(bytes(16), 3, 1, KEY_A, 40, nonce),
        bid_commitment(GAME, 4, 1, KEY_A, 40, nonce),
        bid_commitment(GAME, 3, 2, KEY_A, 40, nonce),
        bid_commitment(GAME, 3, 1, KEY_B, 40, nonce),
        bid_commitment(GAME, 3, 1, KEY_A, 41, nonce),
        bid_commitment(GAME, 3, 1, KEY_A, 40, new_nonce()),
    ]
    assert len({base, *variants}) == 7
    with pytest.raises(ValueError):
        bid_commitment(GAME, 3, 1, KEY_A, 40, nonce[:31])  # fixed widths only


def test_a_copied_commitment_cannot_be_opened_by_the_copier():
    nonce = new_nonce()
    c = bid_commitment(GAME, 1, 0, KEY_A, 25, nonce)
    entry = SetEntry(1, KEY_B, c, [b"", b""])  # B claims A's commitment as its own
    stolen = Reveal(GAME, 1, 1, KEY_B, 25, nonce, b"d" * 32)  # and later A's amount and nonce
    assert judge(entry, stolen, b"d" * 32, 100) == MISMATCH


def test_judge_and_the_tie_break():
    nonce = new_nonce()
    c = bid_commitment(GAME, 2, 0, KEY_A, 30, nonce)
    entry = SetEntry(0, KEY_A, c, [b"", b""])
    good = Reveal(GAME, 2, 0, KEY_A, 30, nonce, b"d" * 32)
    assert judge(entry, good, b"d" * 32, 30) is None
    assert judge(entry, good, b"e" * 32, 30) == WRONG_DIGEST
    assert judge(entry, good, b"d" * 32, 29) == OVER_BUDGET
    assert resolve([0, 0, 0], 1) == (1, 0)
    assert resolve([5, 7, 7], 0) == (1, 7)  # nearest clockwise from the auctioneer's left
    assert resolve([7, 7, 3], 1) == (1, 7)  # the auctioneer wins a tie it is part of
    assert resolve([7, 2, 7, 1], 1) == (2, 7)


def test_the_set_digest_covers_every_entry():
    e = [SetEntry(0, KEY_A, b"a" * 32, [b"", b""]), SetEntry(1), SetEntry(2, KEY_B, b"b" * 32, [b"", b""])]
    d = set_digest(GAME, 5, e)
    assert d != set_digest(GAME, 6, e) and d != set_digest(bytes(16), 5, e)
    assert d != set_digest(GAME, 5, [e[0], SetEntry(1, KEY_A, b"c" * 32, [b"", b""]), e[2]])
    assert d != set_digest(GAME, 5, [e[0], e[1], SetEntry(2, KEY_A, b"b" * 32, [b"", b""])])


def test_signed_bodies_decode_strictly():
    body = Commit(GAME, 1, 0, KEY_A, b"c" * 32).body()
    assert decode_commit(body).c == b"c" * 32
    for bad in (body[:-1], Commit(GAME, 0, 0, KEY_A, b"c" * 32).body(), Commit(GAME, 1, 7, KEY_A, b"c" * 32).body()):
        with pytest.raises(ProtocolError):
            decode_commit(bad)
    with pytest.raises(ProtocolError):
        decode_reveal(Reveal(GAME, 1, 0, KEY_A, -1, new_nonce(), b"d" * 32).body())


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.one_of(st.none(), st.binary(min_size=32, max_size=32)), min_size=3, max_size=5),
)
def test_the_shuffle_is_a_deterministic_permutation(host_seed, seeds):
    order, first = derive_deal(GAME, host_seed, seeds, 70)
    assert sorted(order) == list(range(70)) and 0 <= first < len(seeds)
    assert derive_deal(GAME, host_seed, seeds, 70) == (order, first)


def test_every_seed_changes_the_deck():
    seeds = [new_nonce() for _ in range(4)]
    host = new_nonce()
    base = derive_deal(GAME, host, seeds, 70)[0]
    assert derive_deal(GAME, new_nonce(), seeds, 70)[0] != base
    for i in range(4):
        changed = list(seeds)
        changed[i] = new_nonce()
        assert derive_deal(GAME, host, changed, 70)[0] != base
    missing = list(seeds)
    missing[2] = None
    assert derive_deal(GAME, host, missing, 70)[0] != base
    assert seed_commitment(GAME, 0, KEY_A, seeds[0]) != seed_commitment(GAME, 1, KEY_A, seeds[0])


def test_the_shuffle_puts_each_card_first_about_equally_often():
    firsts = Counter(derive_deal(GAME, os.urandom(32), [None] * 3, 5)[0][0] for _ in range(5000))
    assert set(firsts) == set(range(5)) and min(firsts.values()) > 850  # 1000 expected each


def test_secrets_and_known_hosts_are_private_files(tmp_path):
    vault = Vault(tmp_path)
    secret = Secret("bid", GAME, 3, 1, KEY_A, 42, new_nonce(), b"c" * 32)
    vault.put(secret)
    files = list((tmp_path / "secrets").iterdir())
    assert len(files) == 1 and files[0].stat().st_mode & 0o777 == 0o600
    assert Vault(tmp_path).find("bid", GAME, 3, KEY_A) == secret  # read back after a restart
    vault.drop(secret)
    assert not list((tmp_path / "secrets").iterdir())
    hosts = KnownHosts(tmp_path)
    hosts.check("10.0.0.1:47000", KEY_A)  # unknown: fine
    hosts.remember("10.0.0.1:47000", KEY_A, "Ana's table")
    assert (tmp_path / "known_hosts").stat().st_mode & 0o777 == 0o600
    hosts.check("10.0.0.1:47000", KEY_A)
    with pytest.raises(HostKeyChanged):
        KnownHosts(tmp_path).check("10.0.0.1:47000", KEY_B)
    # every lobby message remembers the table again: the file is written only when it changes
    inode = (tmp_path / "known_hosts").stat().st_ino
    hosts.remember("10.0.0.1:47000", KEY_A, "Ana's  table")  # the same name, spaced differently
    assert (tmp_path / "known_hosts").stat().st_ino == inode
    hosts.remember("10.0.0.1:47000", KEY_A, "Ana's new table")
    assert (tmp_path / "known_hosts").stat().st_ino != inode
    assert "Ana's new table" in (tmp_path / "known_hosts").read_text()


def test_a_damaged_transcript_is_refused(tmp_path):
    path = str(tmp_path / "t.transcript")
    write_transcript(path, [{"t": "ev", "seq": 1}])
    assert read_transcript(path) == [{"t": "ev", "seq": 1}]
    data = open(path, "rb").read()
    open(path, "wb").write(data[:-2])
    with pytest.raises(TranscriptError):
        read_transcript(path)
    open(path, "wb").write(b"\x00\x00\x00\x02\x91\x01")
    with pytest.raises(TranscriptError):
        read_transcript(path)


def test_a_signature_is_checked_once_per_process_and_only_for_the_bytes_it_signs(monkeypatch):
    """The verified-signature memory (net/trust/identity.py `verify`) answers only for the
    exact key, signature and bytes that verified: a forgery, the same signature over other
    bytes or under another key, and input that is not bytes are each refused, every time."""
    from modernart.net.trust import identity

    monkeypatch.setattr(identity, "_verified", type(identity._verified)())
    checked: list[bytes] = []
    real = identity._public_key

    def counting(vk: bytes):
        checked.append(vk)
        return real(vk)

    monkeypatch.setattr(identity, "_public_key", counting)
    keys, other = Keys.generate(), Keys.generate()
    sig = keys.sign(b"T", b"body")
    assert identity.verify(keys.vk, b"T", b"body", sig) and identity.verify(keys.vk, b"T", b"body", sig)
    assert len(checked) == 1  # the second answer was remembered
    forged = bytes([sig[0] ^ 1]) + sig[1:]
    for _ in range(2):  # a failure is not remembered: checked in full each time
        assert not identity.verify(keys.vk, b"T", b"body", forged)
        assert not identity.verify(keys.vk, b"T", b"bodz", sig)
        assert not identity.verify(keys.vk, b"U", b"body", sig)
        assert not identity.verify(other.vk, b"T", b"body", sig)
    assert len(checked) == 9
    assert not identity.verify([1], b"T", b"body", sig)  # type: ignore[arg-type]
    assert not identity.verify(keys.vk, b"T", "body", sig)  # type: ignore[arg-type]
    monkeypatch.setattr(identity, "VERIFIED_MAX", 3)
    for i in range(5):
        body = b"b%d" % i
        assert identity.verify(keys.vk, b"T", body, keys.sign(b"T", body))
    assert len(identity._verified) == 3  # bounded: the oldest went first
