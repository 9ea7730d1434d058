"""The host's hash chain over events, signed with the host's Ed25519 key.

h_0 = SHA-256("MA1-CHAIN\\0" || game_id);
h_n = SHA-256(h_{n-1} || seq as 8 bytes || SHA-256(public part) || SHA-256(ph_0 || ... || ph_k))
where ph_s = SHA-256("MA1-PRIV\\0" || private part of seat s) and each private part holds a
salt derived from a secret key per seat (`salt`), so a hash tells nothing about a hand.  The host signs h_n; every client checks
the link, its own private hash and the signature as events arrive, so a host that shows two
players different histories, or edits one afterwards, is caught.  The fair-play audit
builds on this module.  The domain strings (MA1-CHAIN, MA1-PRIV, MA1-SALT) and the tag the
host signs under live in net/protocol/signed.py.
"""

from __future__ import annotations

import hashlib

from modernart.net.protocol.signed import CHAIN_DOMAIN, HOSTEV_TAG, PRIV_DOMAIN, SALT_DOMAIN
from modernart.net.trust.identity import verify

EMPTY_PRIVATE = hashlib.sha256(PRIV_DOMAIN).digest()


class ChainError(ValueError):
    """An event that does not continue the chain, or carries a bad signature."""


def genesis(game_id: bytes) -> bytes:
    return hashlib.sha256(CHAIN_DOMAIN + game_id).digest()


def salt(salt_key: bytes, seq: int) -> bytes:
    """The 16-byte salt of a seat's private part in event `seq`, from that seat's 32-byte
    salt key.  The host keeps the keys secret until it discloses them at the end of the
    game; then anyone can rebuild every private part and check its hash."""
    return hashlib.sha256(SALT_DOMAIN + salt_key + seq.to_bytes(8, "big")).digest()[:16]


def private_hash(private: bytes | None) -> bytes:
    return EMPTY_PRIVATE if private is None else hashlib.sha256(PRIV_DOMAIN + private).digest()


def link(prev: bytes, seq: int, public: bytes, private_hashes: list[bytes]) -> bytes:
    return hashlib.sha256(
        prev
        + seq.to_bytes(8, "big")
        + hashlib.sha256(public).digest()
        + hashlib.sha256(b"".join(private_hashes)).digest()
    ).digest()


class ChainVerifier:
    """Follows one game's chain from a client's side.

    `accept` checks an event's link (and the seat's own private hash) at once.  Its host
    signature is checked at once too, unless the caller defers it to `check_head` at the
    end of a burst of events: the signature covers the chain head and the head links every
    earlier event, so one valid signature on the newest head proves the host sent all of
    them.  A deferred event's own signature stays in its frame, for the audit, which
    checks every one.
    """

    def __init__(self, game_id: bytes, host_vk: bytes) -> None:
        self.host_vk = host_vk
        self.head = genesis(game_id)
        self.seq = 0
        self.unsigned: tuple[int, bytes, bytes] | None = None  # (seq, h, hs): newest event, signature unchecked

    def accept(
        self,
        seq: int,
        public: bytes,
        private_hashes: list[bytes],
        h: bytes,
        sig: bytes,
        own_seat: int | None = None,
        own_private: bytes | None = None,
        *,
        defer_signature: bool = False,
    ) -> None:
        if type(seq) is not int or seq != self.seq + 1:  # a bool is never a sequence number
            raise ChainError(f"event {seq} does not follow event {self.seq}")
        if own_seat is not None:
            if not 0 <= own_seat < len(private_hashes) or private_hash(own_private) != private_hashes[own_seat]:
                raise ChainError(f"event {seq}: my private part does not match its hash")
        expected = link(self.head, seq, public, private_hashes)
        if expected != h:
            raise ChainError(f"event {seq} does not continue the hash chain")
        if defer_signature:
            self.unsigned = (seq, h, sig)
        else:
            self._check(seq, h, sig)
            self.unsigned = None
        self.head, self.seq = h, seq

    def check_head(self) -> None:
        """Verify the host signature on the newest head accepted with `defer_signature`."""
        if self.unsigned is not None:
            seq, h, sig = self.unsigned
            self.unsigned = None
            self._check(seq, h, sig)

    def _check(self, seq: int, h: bytes, sig: bytes) -> None:
        if not verify(self.host_vk, HOSTEV_TAG, h, sig):
            raise ChainError(f"event {seq} carries a bad host signature")
