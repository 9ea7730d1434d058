"""The process's cache of deck proofs that held (net/trust/proof_cache.py): a proof is
checked once per process, and no other content, not even one byte or one integer apart,
can be passed off as checked.

The attacker here is a host that shows one seat of a process the honest shuffle (or
share) and another seat of the same process one that differs by a byte, hoping the second
reads the first one's verdict."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from modernart.net.trust.deck import Ciphertext, DeckError, Share, Shuffle, make_share
from modernart.net.trust.group import L
from modernart.net.trust.hidden_deck import DeckLedger, DeckStepError, SeatDeck
from modernart.net.trust.proof_cache import PROOFS, ProofCache, share_statement, shuffle_statement
from modernart.net.trust.shuffle_checks import ShuffleChecks

GAME = bytes(range(16))
SIZE = 12  # small decks: the proofs are the same, and quicker


def keyed(n: int = 3) -> tuple[DeckLedger, list[SeatDeck]]:
    ledger = DeckLedger(GAME, n, SIZE)
    seats = [SeatDeck(GAME, s, SIZE) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    return ledger, seats


def flip(data: bytes, at: int = 5) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


def one_byte_apart(shuffle: Shuffle) -> list[tuple[str, Shuffle]]:
    """The shuffle with one byte (or one integer) changed, in each of its parts."""
    p = shuffle.proof
    card = shuffle.deck[3]
    out = [
        (
            "a card of the deck",
            replace(shuffle, deck=(*shuffle.deck[:3], Ciphertext(card.c1, flip(card.c2)), *shuffle.deck[4:])),
        ),
        ("a commitment", replace(shuffle, proof=replace(p, commitments=(flip(p.commitments[0]), *p.commitments[1:])))),
        ("a chain link", replace(shuffle, proof=replace(p, chain=(*p.chain[:-1], flip(p.chain[-1]))))),
        ("the challenge", replace(shuffle, proof=replace(p, e=p.e ^ 1))),
        ("a response", replace(shuffle, proof=replace(p, s_prime=(p.s_prime[0] ^ 256, *p.s_prime[1:])))),
        ("the seat", replace(shuffle, seat=shuffle.seat + 1)),
        # the same 32 bytes on the wire (modulo L), another integer: a different statement
        ("the challenge plus L", replace(shuffle, proof=replace(p, e=p.e + L))),
    ]
    wire = shuffle.to_wire()
    wire["deck"] = flip(wire["deck"], 64 * 7 + 40)
    out.append(("one byte of its wire form", Shuffle.from_wire(wire, SIZE)))
    return out


def test_a_shuffle_proof_is_checked_once_and_every_statement_one_byte_apart_is_checked_afresh_and_fails() -> None:
    ledger, seats = keyed()
    before = ledger.deck
    shuffle = seats[0].shuffle(ledger)[0]
    cache = ProofCache()
    assert cache.shuffle_holds(GAME, ledger.joint, before, shuffle) and cache.checks == 1
    assert cache.shuffle_holds(GAME, ledger.joint, before, shuffle) and (cache.checks, cache.hits) == (1, 1)
    for what, other in one_byte_apart(shuffle):
        checks = cache.checks
        assert not cache.shuffle_holds(GAME, ledger.joint, before, other), what
        assert cache.checks == checks + 1, f"{what}: read from the cache instead of checked"
        assert not cache.shuffle_holds(GAME, ledger.joint, before, other), what  # a failure is never kept
        assert cache.checks == checks + 2, what
    # the statement around the shuffle: the game, the joint key, the deck before
    card = before[0]
    for what, args in (
        ("another game", (flip(GAME), ledger.joint, before)),
        ("another joint key", (GAME, flip(ledger.joint, 3), before)),
        ("another deck before", (GAME, ledger.joint, (Ciphertext(card.c1, flip(card.c2)), *before[1:]))),
        ("a deck before with a card fewer", (GAME, ledger.joint, before[:-1])),
    ):
        checks = cache.checks
        assert not cache.shuffle_holds(*args, shuffle), what
        assert cache.checks == checks + 1, what
    assert cache.shuffle_holds(GAME, ledger.joint, before, shuffle) and cache.checks == checks + 1
    # a response plus L is the same scalar to libsodium, so that proof holds too; it is
    # another statement all the same, checked for itself
    same = replace(shuffle, proof=replace(shuffle.proof, s=(shuffle.proof.s[0] + L, *shuffle.proof.s[1:])))
    assert cache.shuffle_holds(GAME, ledger.joint, before, same) and cache.checks == checks + 2


def test_every_statement_is_its_own_key() -> None:
    """Injective: no two of the variants (nor the honest one) make the same bytes."""
    ledger, seats = keyed()
    shuffle = seats[0].shuffle(ledger)[0]
    statements = [shuffle_statement(GAME, ledger.joint, ledger.deck, s) for _w, s in one_byte_apart(shuffle)]
    statements.append(shuffle_statement(GAME, ledger.joint, ledger.deck, shuffle))
    assert len(set(statements)) == len(statements)
    # fields cannot slide into each other: a game one byte longer and a joint key one shorter
    assert shuffle_statement(GAME + b"x", ledger.joint[1:], (), shuffle) != shuffle_statement(
        GAME, b"x" + ledger.joint[1:], (), shuffle
    )


def test_a_share_proof_is_checked_once_and_a_share_one_byte_apart_is_checked_afresh_and_fails() -> None:
    ledger, seats = keyed()
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    card = ledger.deck[0]
    share = make_share(GAME, 1, seats[1].secret, 0, card)
    h = seats[1].key.h
    cache = ProofCache()
    cache.check_share(GAME, h, card, share)
    cache.check_share(GAME, h, card, share)
    assert (cache.checks, cache.hits) == (1, 1)
    variants: list[tuple[str, tuple[Any, ...]]] = [
        ("its point", (h, card, replace(share, d=flip(share.d)))),
        ("its challenge", (h, card, replace(share, e=share.e ^ 1))),
        ("its challenge plus L", (h, card, replace(share, e=share.e + L))),
        ("its slot", (h, card, replace(share, slot=1))),
        ("its seat", (h, card, replace(share, seat=2))),
        ("the card", (h, ledger.deck[1], share)),
        ("the seat's key", (seats[2].key.h, card, share)),
    ]
    for what, (key, ct, other) in variants:
        checks = cache.checks
        with pytest.raises(DeckError):
            cache.check_share(GAME, key, ct, other)
        assert cache.checks == checks + 1, what
    cache.check_share(GAME, h, card, replace(share, z=share.z + L))  # the same scalar: holds, checked for itself
    assert cache.checks == checks + 2
    assert (
        len({share_statement(GAME, k, c, s) for _w, (k, c, s) in variants} | {share_statement(GAME, h, card, share)})
        == 8
    )


def test_two_parties_of_one_process_check_one_shuffle_once_and_a_tampered_copy_is_refused() -> None:
    """The attack: the host records the honest shuffle at one in-process seat, and shows
    another seat of the same process a copy one byte apart (here the challenge plus L,
    which is the same 32 bytes modulo L).  The second seat checks it afresh and refuses
    it with `bad_shuffle`.  Run against a2b2fc2 (whose `ShuffleChecks` keyed a verdict by
    a hash of the scalars modulo L), the ledger that checked the honest one relayed ahead
    records the forged one: the attack succeeds there."""
    ledger, seats = keyed()
    shuffle = seats[0].shuffle(ledger)[0]
    first = DeckLedger(GAME, 3, SIZE, checks=ShuffleChecks())
    second = DeckLedger(GAME, 3, SIZE, checks=ShuffleChecks())
    for party in (first, second):
        for seat in seats:
            party.add_key(seat.key)
    checks = PROOFS.checks
    assert first.propose(shuffle) is not None
    first.add_shuffle(shuffle)
    second.add_shuffle(shuffle)  # read from the process's cache
    assert PROOFS.checks == checks + 1
    again = DeckLedger(GAME, 3, SIZE, checks=ShuffleChecks())
    for seat in seats:
        again.add_key(seat.key)
    forged = replace(shuffle, proof=replace(shuffle.proof, e=shuffle.proof.e + L))
    future = again.propose(shuffle)  # the honest one relayed ahead...
    assert future is not None and future.result(30)
    with pytest.raises(DeckStepError) as refused:
        again.add_shuffle(forged)  # ... and the forged one recorded
    assert refused.value.code == "bad_shuffle" and again.shuffles == []
    assert PROOFS.checks == checks + 2


def test_checks_of_one_statement_at_once_share_one_check_and_another_statement_gets_its_own() -> None:
    ledger, seats = keyed()
    before = ledger.deck
    shuffle = seats[0].shuffle(ledger)[0]
    forged = replace(shuffle, proof=replace(shuffle.proof, e=shuffle.proof.e + L))
    cache = ProofCache()
    with ThreadPoolExecutor(2) as pool:
        a = cache.start_shuffle(GAME, ledger.joint, before, shuffle, pool.submit)
        b = cache.start_shuffle(GAME, ledger.joint, before, shuffle, pool.submit)
        c = cache.start_shuffle(GAME, ledger.joint, before, forged, pool.submit)
        assert a.result(30) and b.result(30) and c.result(30) is False
    assert cache.checks == 2
    assert cache.start_shuffle(GAME, ledger.joint, before, shuffle, pool.submit).result(0)  # held: no check
    assert cache.checks == 2


def test_the_audit_reads_no_verdict() -> None:
    ledger, seats = keyed()
    before = ledger.deck
    shuffle = seats[0].shuffle(ledger)[0]
    cache = ProofCache()
    assert cache.shuffle_holds(GAME, ledger.joint, before, shuffle)
    with cache.afresh():
        assert cache.shuffle_holds(GAME, ledger.joint, before, shuffle)
    assert cache.checks == 2


def test_the_cache_is_bounded() -> None:
    ledger, seats = keyed()
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    cache = ProofCache(shares=4)
    h = seats[1].key.h
    shares: list[Share] = [make_share(GAME, 1, seats[1].secret, k, ledger.deck[k]) for k in range(6)]
    for k, share in enumerate(shares):
        cache.check_share(GAME, h, ledger.deck[k], share)
    assert "shares=4" in repr(cache)
    cache.check_share(GAME, h, ledger.deck[0], shares[0])  # evicted: checked again
    assert cache.checks == 7


def test_a_check_over_before_it_is_registered_does_not_hang_its_caller() -> None:
    """A proof of the wrong size fails at once, before the cache has registered its check
    (here the pool runs it on the spot): the caller gets the verdict and nothing waits on
    itself (a malformed shuffle must never stall the host's loop)."""
    ledger, seats = keyed()
    shuffle = seats[0].shuffle(ledger)[0]
    short = replace(shuffle, proof=replace(shuffle.proof, chain=shuffle.proof.chain[:-1]))

    def at_once(fn: Any, *args: Any) -> Future[bool]:
        done: Future[bool] = Future()
        done.set_result(fn(*args))
        return done

    cache = ProofCache()
    assert cache.start_shuffle(GAME, ledger.joint, ledger.deck, short, at_once).result(5) is False
    assert cache.start_shuffle(GAME, ledger.joint, ledger.deck, shuffle, at_once).result(5) is True
    assert cache.shuffle_holds(GAME, ledger.joint, ledger.deck, shuffle) and cache.checks == 2
