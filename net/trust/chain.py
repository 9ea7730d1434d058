"""Following the host's hash chain over events, signed with the host's Ed25519 key.

The chain's bytes (h_0, the link h_n the host signs, the private parts' salts and hashes)
are built in net/protocol/signed.py, with their domain tags.  Every client checks the
link, its own private hash and the signature as events arrive, so a host that shows two
players different histories, or edits one afterwards, is caught.  The fair-play audit
builds on this module.
"""

from __future__ import annotations

from modernart.net.protocol.signed import HOSTEV_TAG, chain_genesis, chain_link, private_hash
from modernart.net.trust.identity import verify


class ChainError(ValueError):
    """An event that does not continue the chain, or carries a bad signature."""


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
        self.head = chain_genesis(game_id)
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
        expected = chain_link(self.head, seq, public, private_hashes)
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
