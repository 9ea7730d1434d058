"""The prime-order group of the hidden deck: Ed25519's main subgroup, through libsodium.

Every point and every scalar operation is libsodium's (PyNaCl's `crypto_core_ed25519_*`
and `crypto_scalarmult_ed25519_*noclamp` bindings); nothing here does curve arithmetic by
hand.  libsodium's ristretto255 functions would hide the cofactor by construction, but
PyNaCl does not expose them; the Ed25519 functions used here give the same prime-order
group because every point that enters a scalar multiplication is checked by libsodium to be
canonical, on the main subgroup (order `L`) and not of small order, and `check_point` does
the same check for a point read off the wire.  So two encodings of one point never compare
unequal, and no small-order component can ride along.

Points are their 32-byte encodings (`Point`); scalars are Python ints modulo `L`, written
as 32 little-endian bytes only when libsodium needs them.

>>> add(base(2), base(3)) == base(5)
True
>>> mul(7, base(1)) == base(7)
True
"""

from __future__ import annotations

import hashlib
import secrets
from functools import lru_cache
from typing import Iterable, TypeAlias

import nacl.bindings as sodium
import nacl.exceptions

#: The order of the group (Ed25519's main subgroup): every scalar is taken modulo it.
L = 2**252 + 27742317777372353535851937790883648493

#: A point of the group, as its canonical 32-byte encoding.
Point: TypeAlias = bytes


class GroupError(ValueError):
    """Bytes that are not a point of the group, or an operation libsodium refused."""


def scalar_bytes(scalar: int) -> bytes:
    """The 32 little-endian bytes of `scalar` modulo L."""
    return (scalar % L).to_bytes(32, "little")


def read_scalar(data: bytes) -> int:
    """A scalar from its 32 wire bytes (GroupError unless they are canonical: below L)."""
    if type(data) is not bytes or len(data) != 32:
        raise GroupError("a scalar is 32 bytes")
    value = int.from_bytes(data, "little")
    if value >= L:
        raise GroupError("a scalar is below the group order")
    return value


def random_scalar() -> int:
    """A uniformly random non-zero scalar (64 random bytes reduced: no visible bias)."""
    while True:
        value = int.from_bytes(secrets.token_bytes(64), "little") % L
        if value:
            return value


def _digest(domain: bytes, parts: Iterable[bytes]) -> bytes:
    """SHA-512 over the domain and every part, each part preceded by its length (no
    two different lists of parts hash the same input)."""
    h = hashlib.sha512(domain)
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def hash_scalar(domain: bytes, *parts: bytes) -> int:
    """A scalar derived from `parts` (Fiat-Shamir challenges)."""
    return int.from_bytes(_digest(domain, parts), "little") % L


def hash_point(domain: bytes, *parts: bytes) -> Point:
    """A point derived from `parts` whose discrete logarithm nobody knows (libsodium's
    Elligator 2 map, which lands on the main subgroup)."""
    return Point(sodium.crypto_core_ed25519_from_uniform(_digest(domain, parts)[:32]))


def check_point(data: object) -> Point:
    """`data` if it is the canonical encoding of a point of the group other than the
    identity, else GroupError."""
    if type(data) is not bytes or len(data) != 32 or not sodium.crypto_core_ed25519_is_valid_point(data):
        raise GroupError("not a point of the group")
    return data


def base(scalar: int) -> Point:
    """scalar * G, G the group's standard generator."""
    try:
        return Point(sodium.crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(scalar)))
    except (nacl.exceptions.CryptoError, TypeError):
        raise GroupError("a scalar multiple of the generator failed (scalar 0)") from None


def mul(scalar: int, point: Point) -> Point:
    """scalar * point (GroupError if the point is not in the group, or the product is the identity)."""
    try:
        return Point(sodium.crypto_scalarmult_ed25519_noclamp(scalar_bytes(scalar), point))
    except (nacl.exceptions.CryptoError, TypeError):
        raise GroupError("not a point of the group (or a zero product)") from None


def add(p: Point, q: Point) -> Point:
    try:
        return Point(sodium.crypto_core_ed25519_add(p, q))
    except (nacl.exceptions.CryptoError, TypeError):
        raise GroupError("not a point of the group") from None


def sub(p: Point, q: Point) -> Point:
    try:
        return Point(sodium.crypto_core_ed25519_sub(p, q))
    except (nacl.exceptions.CryptoError, TypeError):
        raise GroupError("not a point of the group") from None


def total(points: Iterable[Point]) -> Point:
    """The sum of one or more points."""
    it = iter(points)
    acc = next(it)
    for p in it:
        acc = add(acc, p)
    return acc


def combination(scalars: Iterable[int], points: Iterable[Point]) -> Point:
    """sum of scalar_i * point_i over one or more pairs."""
    return total(mul(s, p) for s, p in zip(scalars, points, strict=True))


@lru_cache(maxsize=None)
def generator() -> Point:
    """G, the standard generator."""
    return base(1)
