"""Shuffle proofs checked ahead of their events, in worker threads.

A hidden-hands table relays each seat's shuffle at once (docs/fair-play.md "The hidden
deck", the pipelined start): the next seat shuffles the relayed deck while the host and
every client check its proof.  `ShuffleChecks.start` begins such a check; the ledger
(net/trust/hidden_deck.py `DeckLedger.add_shuffle`) then asks `verdict` when the shuffle
comes as an event, and waits for a check still running instead of making it again.  A
verdict is keyed by everything the check reads, byte for byte (the game, the joint key, the
deck before and the whole shuffle: net/trust/proof_cache.py `shuffle_statement`), so a
verdict is never applied to another shuffle.  The check itself goes through the process's
proof cache (net/trust/proof_cache.py): parties of one process that check the same
shuffle wait for one check.

libsodium runs without the GIL (PyNaCl's bindings release it), so a check in a worker
thread runs beside the loop, and beside a shuffle being made, on another core.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Sequence

from modernart.net.trust.deck import Ciphertext, Shuffle
from modernart.net.trust.group import Point
from modernart.net.trust.proof_cache import PROOFS, shuffle_statement

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


class ShuffleChecks:
    """The proof checks one party started ahead of their events (see the module docstring)."""

    def __init__(self) -> None:
        self._checks: dict[bytes, Future[bool]] = {}

    def start(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> Future[bool]:
        """Begin checking `shuffle` of `before` in a worker thread (once per distinct check)."""
        key = shuffle_statement(game, joint, before, shuffle)
        future = self._checks.get(key)
        if future is None:
            future = self._checks[key] = PROOFS.start_shuffle(game, joint, before, shuffle, CHECKERS.submit, key)
        return future

    def vouch(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> None:
        """Take `shuffle` of `before` as checked: this party made it itself."""
        future: Future[bool] = Future()
        future.set_result(True)
        self._checks[shuffle_statement(game, joint, before, shuffle)] = future

    def verdict(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> bool | None:
        """Whether the proof of `shuffle` of `before` holds, if a check of exactly it was
        started (waiting for it to finish); None if none was.  The verdict is used once."""
        future = self._checks.pop(shuffle_statement(game, joint, before, shuffle), None)
        return None if future is None else future.result()

    def clear(self) -> None:
        """Forget every check (their threads finish, their verdicts are dropped)."""
        self._checks.clear()

    def __len__(self) -> int:
        return len(self._checks)
