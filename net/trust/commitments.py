"""The fair-play constructions: sealed-bid commitments, the commit-set digest, seed
commitments, and the signed bodies that carry them (docs/fair-play.md).

Every hash covers a domain tag and fixed-width fields, so no two different inputs can
encode to the same bytes:

  c = SHA-256("modern-art/v1/sealed-bid-commit\\0" || game_id (16) || auction (4) || seat (1)
              || player key (32) || amount (4) || nonce (32))
  D = SHA-256("modern-art/v1/sealed-commit-set\\0" || game_id (16) || auction (4) || n (1)
              || for each seat: seat (1) || kind (1) || key (32) || c (32))
      kind 1 = a signed commitment, 0 = the host's default bid of 0 (key and c zero)
  s = SHA-256("modern-art/v1/seed-commit\\0" || game_id (16) || seat (1; 255 = the host)
              || key (32) || seed (32))

Signed bodies are msgpack arrays, signed as tag || body (tags below):
  commit  [v, game_id, auction, seat, key, c]
  reveal  [v, game_id, auction, seat, key, amount, nonce, D]
  seed    [v, game_id, seat, key, s]
`key` names the Ed25519 key that signs (the seat's own key or its stand-in's); the
nonce and seed are 256-bit values from `secrets`.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from dataclasses import dataclass
from typing import Any

from modernart.net.trust.identity import verify
from modernart.net.protocol import VERSION, ProtocolError, is_bytes, is_int, is_version, pack, unpack_inner

COMMIT_TAG = b"MA1-COMMIT\x00"
REVEAL_TAG = b"MA1-REVEAL\x00"
SEED_TAG = b"MA1-SEED\x00"
BID_DOMAIN = b"modern-art/v1/sealed-bid-commit\x00"
SET_DOMAIN = b"modern-art/v1/sealed-commit-set\x00"
SEED_DOMAIN = b"modern-art/v1/seed-commit\x00"
HOST_SEAT = 255
MAX_AMOUNT = 1_000_000  # bids are bounded by money (start money <= 10000); 4 bytes hold it
MAX_AUCTION = 1_000
ZERO32 = bytes(32)


def new_nonce() -> bytes:
    """A fresh 256-bit nonce (or seed)."""
    return secrets.token_bytes(32)


def bid_commitment(game: bytes, auction: int, seat: int, key: bytes, amount: int, nonce: bytes) -> bytes:
    if len(game) != 16 or len(key) != 32 or len(nonce) != 32:
        raise ValueError("game id, key and nonce have fixed widths (16, 32, 32 bytes)")
    if not 0 <= amount <= MAX_AMOUNT or not 0 <= seat <= 4 or not 0 < auction <= MAX_AUCTION:
        raise ValueError("amount, seat or auction out of range")
    return hashlib.sha256(
        BID_DOMAIN + game + struct.pack(">IB", auction, seat) + key + struct.pack(">I", amount) + nonce
    ).digest()


def seed_commitment(game: bytes, seat: int, key: bytes, seed: bytes) -> bytes:
    if len(game) != 16 or len(key) != 32 or len(seed) != 32 or not (0 <= seat <= 4 or seat == HOST_SEAT):
        raise ValueError("game id, seat, key or seed malformed")
    return hashlib.sha256(SEED_DOMAIN + game + bytes([seat]) + key + seed).digest()


@dataclass(frozen=True)
class SetEntry:
    """One seat's place in a commit set: a signed commitment, or the host's default 0."""

    seat: int
    key: bytes = ZERO32  # the signing key (zero for a default)
    c: bytes = ZERO32
    signed: list[bytes] | None = None  # [body, signature] of the commitment; None for a default

    @property
    def default(self) -> bool:
        return self.signed is None

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "default": 0} if self.signed is None else {"seat": self.seat, "c": self.signed}


def set_digest(game: bytes, auction: int, entries: list[SetEntry]) -> bytes:
    """D: the digest of a complete commit set (entries in seat order)."""
    data = [SET_DOMAIN, game, struct.pack(">IB", auction, len(entries))]
    for e in entries:
        data.append(
            bytes([e.seat, 0 if e.default else 1]) + (ZERO32 if e.default else e.key) + (ZERO32 if e.default else e.c)
        )
    return hashlib.sha256(b"".join(data)).digest()


# ---------------------------------------------------------------------- signed bodies


@dataclass(frozen=True)
class Commit:
    game: bytes
    auction: int
    seat: int
    key: bytes
    c: bytes

    def body(self) -> bytes:
        return pack([VERSION, self.game, self.auction, self.seat, self.key, self.c])


@dataclass(frozen=True)
class Reveal:
    game: bytes
    auction: int
    seat: int
    key: bytes
    amount: int
    nonce: bytes
    digest: bytes

    def body(self) -> bytes:
        return pack([VERSION, self.game, self.auction, self.seat, self.key, self.amount, self.nonce, self.digest])

    def opens(self, c: bytes) -> bool:
        """Whether amount and nonce open commitment `c` (of this game, auction, seat, key)."""
        try:
            mine = bid_commitment(self.game, self.auction, self.seat, self.key, self.amount, self.nonce)
        except ValueError:
            return False
        return secrets.compare_digest(mine, c)


@dataclass(frozen=True)
class SeedCommit:
    game: bytes
    seat: int
    key: bytes
    s: bytes

    def body(self) -> bytes:
        return pack([VERSION, self.game, self.seat, self.key, self.s])


_SEAT = is_int(0, 4)
_B16, _B32 = is_bytes(16), is_bytes(32)


def _fields(data: bytes, count: int, what: str) -> list[Any]:
    body = unpack_inner(data)
    if type(body) is not list or len(body) != count or not is_version(body[0]):
        raise ProtocolError("bad_action", f"a {what} body is a list of {count} fields, version {VERSION}")
    return body


def decode_commit(data: bytes) -> Commit:
    _v, game, auction, seat, key, c = _fields(data, 6, "commit")
    if not (_B16(game) and is_int(1, MAX_AUCTION)(auction) and _SEAT(seat) and _B32(key) and _B32(c)):
        raise ProtocolError("bad_action", "commit fields have wrong types or sizes")
    return Commit(game, auction, seat, key, c)


def decode_reveal(data: bytes) -> Reveal:
    _v, game, auction, seat, key, amount, nonce, digest = _fields(data, 8, "reveal")
    if not (
        _B16(game)
        and is_int(1, MAX_AUCTION)(auction)
        and _SEAT(seat)
        and _B32(key)
        and is_int(0, MAX_AMOUNT)(amount)
        and _B32(nonce)
        and _B32(digest)
    ):
        raise ProtocolError("bad_action", "reveal fields have wrong types or sizes")
    return Reveal(game, auction, seat, key, amount, nonce, digest)


def decode_seed(data: bytes) -> SeedCommit:
    _v, game, seat, key, s = _fields(data, 5, "seed")
    if not (_B16(game) and _SEAT(seat) and _B32(key) and _B32(s)):
        raise ProtocolError("bad_action", "seed fields have wrong types or sizes")
    return SeedCommit(game, seat, key, s)


def signed(tag: bytes, body: bytes, sig: bytes, decode: Any) -> Any:
    """Decode a signed body after checking the signature of the key it names.

    The key is taken from the decoded body, but the signature is checked on the exact
    received bytes; the caller still checks that the key may speak for the seat.
    """
    value = decode(body)
    if not verify(value.key, tag, body, sig):
        raise ProtocolError("bad_signature", "the signature does not verify with the key the body names")
    return value
