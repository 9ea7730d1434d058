"""Shuffle proofs checked ahead of their events, in worker threads.

A hidden-hands table relays each seat's shuffle at once (docs/fair-play.md "The hidden
deck", the pipelined start): the next seat shuffles the relayed deck while the host and
every client check its proof.  `ShuffleChecks.start` begins such a check; the ledger
(net/trust/hidden_deck.py `DeckLedger.add_shuffle`) then asks `verdict` when the shuffle
comes as an event, and waits for a check still running instead of making it again.  A
verdict is keyed by everything the check reads (the game, the joint key, the deck before
and the whole shuffle, `check_key`), so a verdict is never applied to another shuffle.

libsodium runs without the GIL (PyNaCl's bindings release it), so a check in a worker
thread runs beside the loop, and beside a shuffle being made, on another core.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Sequence

from modernart.net.trust.deck import Ciphertext, DeckError, Shuffle, check_shuffle
from modernart.net.trust.group import Point, scalar_bytes

#: The threads that check shuffle proofs, shared by every ledger of the process (a proof
#: check is ~0.1 s of libsodium; the threads start on first use)
CHECKERS = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="shuffle-check")


def deck_digest(deck: Sequence[Ciphertext]) -> bytes:
    """SHA-256 of a deck's points, in order: how a shuffle names the deck it shuffled."""
    h = hashlib.sha256(b"modern-art/v1/deck-digest\x00")
    for card in deck:
        h.update(card.c1)
        h.update(card.c2)
    return h.digest()


def check_key(game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> bytes:
    """What one proof check reads, hashed: the game, the joint key, the deck before, the
    shuffler's seat, its deck and every value of its proof."""
    p = shuffle.proof
    h = hashlib.sha256(b"modern-art/v1/shuffle-check\x00")
    for part in (game, joint, deck_digest(before), bytes([shuffle.seat]), deck_digest(shuffle.deck)):
        h.update(part)
    for point in (*p.commitments, *p.chain):
        h.update(point)
    for value in (p.e, *p.s, *p.s_hat, *p.s_prime):
        h.update(scalar_bytes(value))
    return h.digest()


def _proof_holds(game: bytes, joint: Point, before: tuple[Ciphertext, ...], shuffle: Shuffle) -> bool:
    try:
        check_shuffle(game, joint, before, shuffle)
    except DeckError:
        return False
    return True


class ShuffleChecks:
    """The proof checks one party started ahead of their events (see the module docstring)."""

    def __init__(self) -> None:
        self._checks: dict[bytes, Future[bool]] = {}

    def start(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> Future[bool]:
        """Begin checking `shuffle` of `before` in a worker thread (once per distinct check)."""
        key = check_key(game, joint, before, shuffle)
        future = self._checks.get(key)
        if future is None:
            future = self._checks[key] = CHECKERS.submit(_proof_holds, game, joint, tuple(before), shuffle)
        return future

    def vouch(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> None:
        """Take `shuffle` of `before` as checked: this party made it itself."""
        future: Future[bool] = Future()
        future.set_result(True)
        self._checks[check_key(game, joint, before, shuffle)] = future

    def verdict(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> bool | None:
        """Whether the proof of `shuffle` of `before` holds, if a check of exactly it was
        started (waiting for it to finish); None if none was.  The verdict is used once."""
        future = self._checks.pop(check_key(game, joint, before, shuffle), None)
        return None if future is None else future.result()

    def clear(self) -> None:
        """Forget every check (their threads finish, their verdicts are dropped)."""
        self._checks.clear()

    def __len__(self) -> int:
        return len(self._checks)
