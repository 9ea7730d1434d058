"""Every byte string a signature or a fair-play hash covers, with all the domain-separation
tags (docs/protocol.md "Identity and signed actions", docs/fair-play.md).

A signature covers a tag followed by exact bytes (net/trust/identity.py signs and
verifies), and every hash starts with its own domain string, so nothing made for one
purpose can be taken for another.

Signed bodies are msgpack arrays, signed as tag || body:
  hello   [host CURVE key, client CURVE key, table or ""]            HELLO_TAG
  act     [v, game_id, seat, ctr, [seat, action, arg], ref_seq, extra]   ACT_TAG
  commit  [v, game_id, auction, seat, key, c]                         COMMIT_TAG
  reveal  [v, game_id, auction, seat, key, amount, nonce, D]          REVEAL_TAG
  seed    [v, game_id, seat, key, s]                                  SEED_TAG
  deck    [v, game_id, seat, kind, epoch, ref_seq, ref_head, digest]  DECK_TAG
          a step of the hidden deck (kind "key", "shuffle", "shares" or "secret"), signed
          with the seat's own key: bound to the game, the seat, the deck (epoch), the event
          the seat had verified when it made the step (ref_seq, and that event's chain head),
          and the step's value: digest = SHA-256(DECK_STEP_DOMAIN || kind || msgpack of the
          value's canonical wire form), net/trust/deck_steps.py
  vote    [v, game_id, voter, absent, choice, late_seq, ref_seq, ref_head]  VOTE_TAG
          a seated person's vote on what the table does about an absent seat late with its
          deck step (choice "wait" or "end"), signed with the voter's own key: bound to the
          game, the voter, the absent seat, the `dlate` event that named it late (late_seq)
          and the event the voter had verified when it voted (ref_seq and its chain head),
          net/trust/votes.py
  the host's chain head h_n (below)                                   HOSTEV_TAG
`key` names the Ed25519 key that signs (the seat's own key or its stand-in's); the
nonce and seed are 256-bit values from `secrets`.

Hashed commitments cover fixed-width fields, so no two inputs encode to the same bytes:

  c = SHA-256(BID_DOMAIN || game_id (16) || auction (4) || seat (1)
              || player key (32) || amount (4) || nonce (32))
  D = SHA-256(SET_DOMAIN || game_id (16) || auction (4) || n (1)
              || for each seat: seat (1) || kind (1) || key (32) || c (32))
      kind 1 = a signed commitment, 0 = the host's default bid of 0 (key and c zero)
  s = SHA-256(SEED_DOMAIN || game_id (16) || seat (1; 255 = the host) || key (32) || seed (32))

The host's chain over events (followed by net/trust/chain.py):

  h_0 = SHA-256(CHAIN_DOMAIN || game_id)
  h_n = SHA-256(h_{n-1} || seq (8) || SHA-256(public part) || SHA-256(ph_0 || ... || ph_k))
  ph_s = SHA-256(PRIV_DOMAIN || private part of seat s), each private part holding a salt
  = SHA-256(SALT_DOMAIN || salt key of the seat (32) || seq (8))[:16], so a hash tells
  nothing about a hand; the host signs h_n.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from dataclasses import dataclass
from typing import Any, Mapping

from modernart.net.protocol import (
    MAX_AMOUNT,
    MAX_AUCTION,
    ProtocolError,
    SEAT,
    SEQ,
    BODY_VERSION,
    is_bytes,
    is_int,
    is_map,
    is_body_version,
    optional,
    pack,
    unpack_inner,
)

# signature tags
HELLO_TAG = b"MA1-HELLO\x00"
ACT_TAG = b"MA1-ACT\x00"
COMMIT_TAG = b"MA1-COMMIT\x00"
REVEAL_TAG = b"MA1-REVEAL\x00"
SEED_TAG = b"MA1-SEED\x00"
DECK_TAG = b"MA1-DECK\x00"
VOTE_TAG = b"MA1-VOTE\x00"
HOSTEV_TAG = b"MA1-HOSTEV\x00"
# hash domains
BID_DOMAIN = b"modern-art/v1/sealed-bid-commit\x00"
SET_DOMAIN = b"modern-art/v1/sealed-commit-set\x00"
SEED_DOMAIN = b"modern-art/v1/seed-commit\x00"
DECK_DOMAIN = b"modern-art/v1/deck\x00"  # the shuffle's stream (net/trust/shuffle.py)
DECK_STEP_DOMAIN = b"modern-art/v1/deck-step\x00"  # the value a signed deck step names
CHAIN_DOMAIN = b"MA1-CHAIN\x00"  # h_0 of the host's chain (net/trust/chain.py)
PRIV_DOMAIN = b"MA1-PRIV\x00"  # the hash of a private part
SALT_DOMAIN = b"MA1-SALT\x00"  # a private part's salt, from its seat's salt key
KEY_FPR_DOMAIN = b"modern-art/v1/key-fpr\x00"  # a key's readable fingerprint (net/trust/identity.py)
HOST_KEY_DOMAIN = b"modern-art/v1/host-key\x00"  # the join code of a host key

HOST_SEAT = 255  # the seat byte of the host's own seed commitment
ZERO32 = bytes(32)

_B16, _B32 = is_bytes(16), is_bytes(32)


# ---------------------------------------------------------------------- hello and actions


def hello_bytes(host_curve: bytes, client_curve: bytes, table: str | None) -> bytes:
    """What a hello signature covers: both CURVE keys of this connection and the table."""
    return pack([host_curve, client_curve, table or ""])


def encode_action_body(
    game: bytes, seat: int, ctr: int, move: list[int], ref: int, extra: Mapping[str, Any] | None = None
) -> bytes:
    return pack([BODY_VERSION, game, seat, ctr, list(move), ref, dict(extra) if extra else None])


def decode_action_body(data: bytes) -> dict[str, Any]:
    """Decode the (already signature-checked) body of a signed action.

    Body = msgpack array [v, game_id(16B), seat, ctr, [seat, action, arg], ref_seq, extra]
    where extra is a small map (sealed-bid fields) or None.
    """
    body = unpack_inner(data)
    if type(body) is not list or len(body) != 7:
        raise ProtocolError("bad_action", "an action body is a list of 7 fields")
    v, game, seat, ctr, move, ref, extra = body
    if not is_body_version(v) or not _B16(game) or not SEAT(seat) or not is_int(1, (1 << 62))(ctr):
        raise ProtocolError("bad_action", "action header fields have wrong types or values")
    if type(move) is not list or len(move) != 3 or not all(type(x) is int for x in move):
        raise ProtocolError("bad_action", "an action's move is [seat, action, arg]")
    if not SEQ(ref) or not optional(is_map(4))(extra):
        raise ProtocolError("bad_action", "action ref_seq or extra fields are malformed")
    return {"game": game, "seat": seat, "ctr": ctr, "move": move, "ref": ref, "extra": extra or {}}


# ---------------------------------------------------------------------- hashed commitments


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
        """The entry as the `commits` event lists it (net/protocol/frames.py `SET_ENTRY`)."""
        return {"seat": self.seat, "default": 0} if self.signed is None else {"seat": self.seat, "c": self.signed}


def set_digest(game: bytes, auction: int, entries: list[SetEntry]) -> bytes:
    """D: the digest of a complete commit set (entries in seat order)."""
    data = [SET_DOMAIN, game, struct.pack(">IB", auction, len(entries))]
    for e in entries:
        data.append(
            bytes([e.seat, 0 if e.default else 1]) + (ZERO32 if e.default else e.key) + (ZERO32 if e.default else e.c)
        )
    return hashlib.sha256(b"".join(data)).digest()


# ---------------------------------------------------------------------- fair-play bodies


@dataclass(frozen=True)
class Commit:
    game: bytes
    auction: int
    seat: int
    key: bytes
    c: bytes

    def body(self) -> bytes:
        return pack([BODY_VERSION, self.game, self.auction, self.seat, self.key, self.c])


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
        return pack([BODY_VERSION, self.game, self.auction, self.seat, self.key, self.amount, self.nonce, self.digest])

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
        return pack([BODY_VERSION, self.game, self.seat, self.key, self.s])


#: the kinds of a signed deck step, as its body names them
DECK_STEP_KINDS = ("key", "shuffle", "shares", "secret")


@dataclass(frozen=True)
class DeckStepBody:
    """What a seat signs for one step of the hidden deck (see the module docstring)."""

    game: bytes
    seat: int
    kind: str
    epoch: int
    ref_seq: int
    ref_head: bytes
    digest: bytes

    def body(self) -> bytes:
        return pack(
            [BODY_VERSION, self.game, self.seat, self.kind, self.epoch, self.ref_seq, self.ref_head, self.digest]
        )


def _fields(data: bytes, count: int, what: str) -> list[Any]:
    body = unpack_inner(data)
    if type(body) is not list or len(body) != count or not is_body_version(body[0]):
        raise ProtocolError("bad_action", f"a {what} body is a list of {count} fields, version {BODY_VERSION}")
    return body


def decode_commit(data: bytes) -> Commit:
    _v, game, auction, seat, key, c = _fields(data, 6, "commit")
    if not (_B16(game) and is_int(1, MAX_AUCTION)(auction) and SEAT(seat) and _B32(key) and _B32(c)):
        raise ProtocolError("bad_action", "commit fields have wrong types or sizes")
    return Commit(game, auction, seat, key, c)


def decode_reveal(data: bytes) -> Reveal:
    _v, game, auction, seat, key, amount, nonce, digest = _fields(data, 8, "reveal")
    if not (
        _B16(game)
        and is_int(1, MAX_AUCTION)(auction)
        and SEAT(seat)
        and _B32(key)
        and is_int(0, MAX_AMOUNT)(amount)
        and _B32(nonce)
        and _B32(digest)
    ):
        raise ProtocolError("bad_action", "reveal fields have wrong types or sizes")
    return Reveal(game, auction, seat, key, amount, nonce, digest)


def decode_seed(data: bytes) -> SeedCommit:
    _v, game, seat, key, s = _fields(data, 5, "seed")
    if not (_B16(game) and SEAT(seat) and _B32(key) and _B32(s)):
        raise ProtocolError("bad_action", "seed fields have wrong types or sizes")
    return SeedCommit(game, seat, key, s)


def decode_deck_step(data: bytes) -> DeckStepBody:
    _v, game, seat, kind, epoch, ref_seq, ref_head, digest = _fields(data, 8, "deck step")
    if not (
        _B16(game)
        and SEAT(seat)
        and kind in DECK_STEP_KINDS
        and is_int(0, 255)(epoch)
        and is_int(1, 1 << 40)(ref_seq)
        and _B32(ref_head)
        and _B32(digest)
    ):
        raise ProtocolError("bad_action", "deck step fields have wrong types or sizes")
    return DeckStepBody(game, seat, kind, epoch, ref_seq, ref_head, digest)


#: what a seated person may vote about an absent seat (net/trust/votes.py)
VOTE_CHOICES = ("wait", "end")


@dataclass(frozen=True, slots=True)
class VoteBody:
    """What a seated person signs for its vote on an absent seat (see the module docstring)."""

    game: bytes
    voter: int
    absent: int
    choice: str
    late_seq: int
    ref_seq: int
    ref_head: bytes

    def body(self) -> bytes:
        return pack(
            [BODY_VERSION, self.game, self.voter, self.absent, self.choice, self.late_seq, self.ref_seq, self.ref_head]
        )


def decode_vote(data: bytes) -> VoteBody:
    _v, game, voter, absent, choice, late_seq, ref_seq, ref_head = _fields(data, 8, "vote")
    if not (
        _B16(game)
        and SEAT(voter)
        and SEAT(absent)
        and choice in VOTE_CHOICES
        and is_int(1, 1 << 40)(late_seq)
        and is_int(1, 1 << 40)(ref_seq)
        and _B32(ref_head)
    ):
        raise ProtocolError("bad_action", "vote fields have wrong types or sizes")
    return VoteBody(game, voter, absent, choice, late_seq, ref_seq, ref_head)


# ---------------------------------------------------------------------- the host's chain

EMPTY_PRIVATE = hashlib.sha256(PRIV_DOMAIN).digest()  # ph of an event without a private part


def chain_genesis(game_id: bytes) -> bytes:
    """h_0 of a game's chain."""
    return hashlib.sha256(CHAIN_DOMAIN + game_id).digest()


def private_salt(salt_key: bytes, seq: int) -> bytes:
    """The 16-byte salt of a seat's private part in event `seq`, from that seat's 32-byte
    salt key.  The host keeps the keys secret until it discloses them at the end of the
    game; then anyone can rebuild every private part and check its hash."""
    return hashlib.sha256(SALT_DOMAIN + salt_key + seq.to_bytes(8, "big")).digest()[:16]


def private_hash(private: bytes | None) -> bytes:
    return EMPTY_PRIVATE if private is None else hashlib.sha256(PRIV_DOMAIN + private).digest()


def chain_link(prev: bytes, seq: int, public: bytes, private_hashes: list[bytes]) -> bytes:
    """h_n: the chain head after event `seq` (what the host signs under HOSTEV_TAG)."""
    return hashlib.sha256(
        prev
        + seq.to_bytes(8, "big")
        + hashlib.sha256(public).digest()
        + hashlib.sha256(b"".join(private_hashes)).digest()
    ).digest()
