"""Deck proofs checked once per process: a cache of the proofs that held, keyed by the
exact bytes of what was checked.

At a table whose seats share one process (the host and its own bots, or `modernart play`
with its host in-process), every party checks every seat's shuffle proof (~70 ms each at 70
cards) and every decryption share: five seats and the host made the same check six times.
`check_shuffle` and `check_share` here stand in front of net/trust/deck.py's: a proof is
checked by libsodium the first time, and a later check of the very same statement in the
same process reads the verdict.

Why a hit cannot be had for other content: the key is not a hash but the statement itself,
every value the check reads (the game, the shuffler's seat, the joint key, the deck before,
the deck after and every value of the proof; for a share the game, the seat's deck key, the
card, the share and its proof), each field with its length in front and each integer in an
exact signed encoding (not reduced modulo the group order, so a proof whose challenge is
e + L is not the proof whose challenge is e).  Two statements with one byte between them
are two keys; a dict finds a key only by comparing it byte for byte.  Only proofs that
held are kept: a failed one is checked again each time (it costs its sender nothing it
could not already make the host spend), and never stands for anything else.  The cache
is bounded (least recently used out first); eviction only costs a check again.

The audit does not read it (`afresh`): it checks every proof of a finished game itself, so a
fault in this cache could not hide a false proof from the audit too.

Who shares it: every ledger in one process, so a client trusts what another party of its
own process checked; that party runs the same code on the same machine (a host that
changed its code can change its in-process bots too: docs/fair-play.md says what a
host-seated bot trusts).  A seat's vouch for its own shuffle (net/trust/shuffle_checks.py)
stays in its own ledger and never enters this cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from contextlib import contextmanager
from concurrent.futures import Future
from typing import Callable, Iterable, Iterator, Sequence

from modernart.net.trust import deck as _deck
from modernart.net.trust.deck import Ciphertext, DeckError, Share, Shuffle
from modernart.net.trust.group import Point

#: How many proofs that held each cache keeps (a 70-card shuffle's key is ~18 kB, a share's ~300 bytes)
SHUFFLES_KEPT = 64
SHARES_KEPT = 8192


def _field(data: bytes) -> bytes:
    if type(data) is not bytes:  # a subclass could compare or hash otherwise than its bytes
        data = bytes(data)
    return len(data).to_bytes(4, "big") + data


def _integer(value: int) -> bytes:
    """An exact, self-delimiting encoding of any int (no reduction: e and e + L differ)."""
    value = int(value)
    raw = value.to_bytes(value.bit_length() // 8 + 1, "big", signed=True)
    return _field(raw)


def _many(items: Iterable[bytes]) -> bytes:
    """A list of byte strings: all 32 bytes long (points) in one run, else each with its length."""
    values = list(items)
    if all(type(v) is bytes and len(v) == 32 for v in values):
        return b"P" + len(values).to_bytes(4, "big") + b"".join(values)
    return b"F" + len(values).to_bytes(4, "big") + b"".join(_field(v) for v in values)


def _integers(values: Iterable[int]) -> bytes:
    """A list of ints: all in 0..2**256-1 (scalars) in one run of 32 bytes each, else each exactly."""
    ints = [int(v) for v in values]
    if all(0 <= v < 1 << 256 for v in ints):
        return b"S" + len(ints).to_bytes(4, "big") + b"".join(v.to_bytes(32, "big") for v in ints)
    return b"I" + len(ints).to_bytes(4, "big") + b"".join(_integer(v) for v in ints)


def _cards(deck: Sequence[Ciphertext]) -> bytes:
    return _many(point for card in deck for point in (card.c1, card.c2))


def shuffle_statement(game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> bytes:
    """Every value a shuffle proof's check reads, as one injective byte string.

    >>> from modernart.net.trust.shuffle_proof import ShuffleProof
    >>> a = Shuffle(0, (), ShuffleProof((), (), 5, (1, 2, 3, 4), (), ()))
    >>> b = Shuffle(0, (), ShuffleProof((), (), 5 + 2**252 + 27742317777372353535851937790883648493, (1, 2, 3, 4), (), ()))
    >>> shuffle_statement(b"g", b"j", (), a) == shuffle_statement(b"g", b"j", (), b)
    False
    """
    p = shuffle.proof
    return b"".join(
        (
            b"modern-art/v1/checked-shuffle\x00",
            _field(game),
            _integer(shuffle.seat),
            _field(joint),
            _cards(before),
            _cards(shuffle.deck),
            _many(p.commitments),
            _many(p.chain),
            _integer(p.e),
            _integers(p.s),
            _integers(p.s_hat),
            _integers(p.s_prime),
        )
    )


def share_statement(game: bytes, h: Point, card: Ciphertext, share: Share) -> bytes:
    """Every value a decryption share's check reads (and the whole card), as one injective byte string."""
    return b"".join(
        (
            b"modern-art/v1/checked-share\x00",
            _field(game),
            _field(h),
            _field(card.c1),
            _field(card.c2),
            _integer(share.seat),
            _integer(share.slot),
            _field(share.d),
            _integer(share.e),
            _integer(share.z),
        )
    )


class ProofCache:
    """The statements whose proofs held in this process (see the module docstring), and
    the shuffle checks running in worker threads, so that two parties asking for the same
    one at once wait for one check."""

    def __init__(self, shuffles: int = SHUFFLES_KEPT, shares: int = SHARES_KEPT) -> None:
        self._lock = threading.RLock()  # parties may check from several threads (worker pools, loops)
        self._held: dict[str, OrderedDict[bytes, None]] = {"shuffle": OrderedDict(), "share": OrderedDict()}
        self._limits = {"shuffle": shuffles, "share": shares}
        self._running: dict[bytes, Future[bool]] = {}
        self.checks = 0  # proofs checked by libsodium here (the benchmark and tests read it)
        self.hits = 0
        self._local = threading.local()  # `afresh` in this thread

    @contextmanager
    def afresh(self) -> Iterator[None]:
        """Within it, this thread's checks read no verdict (the audit's): each proof is checked."""
        before = getattr(self._local, "afresh", False)
        self._local.afresh = True
        try:
            yield
        finally:
            self._local.afresh = before

    def _reads(self) -> bool:
        return not getattr(self._local, "afresh", False)

    def _hit(self, kind: str, statement: bytes) -> bool:
        if not self._reads():
            return False
        with self._lock:
            held = self._held[kind]
            if statement in held:
                held.move_to_end(statement)
                self.hits += 1
                return True
            return False

    def _keep(self, kind: str, statement: bytes) -> None:
        with self._lock:
            held = self._held[kind]
            held[statement] = None
            held.move_to_end(statement)
            while len(held) > self._limits[kind]:
                held.popitem(last=False)

    def _check(self, kind: str, statement: bytes, check: Callable[[], None]) -> None:
        """Run `check` (DeckError if the proof fails) and keep `statement` if it held."""
        with self._lock:
            self.checks += 1
        check()
        self._keep(kind, statement)

    def _checked(self, kind: str, statement: bytes, check: Callable[[], None]) -> bool:
        try:
            self._check(kind, statement, check)
        except DeckError:
            return False
        return True

    def shuffle_holds(self, game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> bool:
        """Whether `shuffle` of `before` carries a proof that holds (checked here unless this
        exact statement held before, or waiting for a check of it that is running)."""
        statement = shuffle_statement(game, joint, before, shuffle)
        if self._hit("shuffle", statement):
            return True
        with self._lock:
            running = self._running.get(statement) if self._reads() else None
        if running is not None:
            return running.result()
        return self._checked("shuffle", statement, lambda: _deck.check_shuffle(game, joint, before, shuffle))

    def start_shuffle(
        self,
        game: bytes,
        joint: Point,
        before: Sequence[Ciphertext],
        shuffle: Shuffle,
        submit: Callable[..., Future[bool]],
        statement: bytes | None = None,
    ) -> Future[bool]:
        """The check of `shuffle` of `before`, begun with `submit` (a worker pool's) unless
        this exact statement held before or its check runs already.  `statement`: its
        `shuffle_statement`, if the caller has made it already."""
        if statement is None:
            statement = shuffle_statement(game, joint, before, shuffle)
        if self._hit("shuffle", statement):
            done: Future[bool] = Future()
            done.set_result(True)
            return done
        frozen = tuple(before)
        with self._lock:
            running = self._running.get(statement)
            started = running is None
            if running is None:
                running = self._running[statement] = submit(
                    self._checked, "shuffle", statement, lambda: _deck.check_shuffle(game, joint, frozen, shuffle)
                )
        if started:  # outside the lock: a check over already calls it here and now
            running.add_done_callback(lambda _f: self._finished(statement))
        return running

    def _finished(self, statement: bytes) -> None:
        with self._lock:
            self._running.pop(statement, None)

    def check_share(self, game: bytes, h: Point, card: Ciphertext, share: Share) -> None:
        """DeckError unless `share` of `card` by the seat whose deck key is `h` carries a
        proof that holds (checked here unless this exact statement held before)."""
        statement = share_statement(game, h, card, share)
        if not self._hit("share", statement):
            self._check("share", statement, lambda: _deck.check_share(game, h, card, share))

    def clear(self) -> None:
        """Forget every verdict (tests; running checks finish and keep theirs)."""
        with self._lock:
            for held in self._held.values():
                held.clear()

    def __repr__(self) -> str:
        return (
            f"ProofCache(shuffles={len(self._held['shuffle'])}, shares={len(self._held['share'])}, "
            f"checks={self.checks}, hits={self.hits})"
        )


#: The cache of this process: every ledger's checks go through it
PROOFS = ProofCache()


def check_shuffle(game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> None:
    """net/trust/deck.py's `check_shuffle`, through this process's cache."""
    if not PROOFS.shuffle_holds(game, joint, before, shuffle):
        raise DeckError(f"seat {shuffle.seat}'s shuffle carries a proof that does not verify")


def check_share(game: bytes, h: Point, card: Ciphertext, share: Share) -> None:
    """net/trust/deck.py's `check_share`, through this process's cache."""
    PROOFS.check_share(game, h, card, share)
