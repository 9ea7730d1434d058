"""Flow control of one connection: the event bytes the host sent that the peer has not
acknowledged, so what the host holds for any one peer is bounded in bytes.

ZeroMQ's SNDHWM counts messages, and a catch-up batch is up to 256 KiB: a peer that never
reads (its kernel still ACKs, its libzmq stops reading at its own RCVHWM) would otherwise
let the host queue the whole event log again at every hello.  So the host counts, per
routing id (one TCP connection), the bytes of every event frame it queued there, and a
frame is sent only while that count stays under `PEER_BUDGET`.  The peer acknowledges in
its pings (`seq`: the last event it applied; `n`: the nonce of the last catch-up batch it
applied).  A batch is acknowledged only by its nonce, which only a peer that read the
batch knows, so a peer that lies about its `seq` still holds at most one budget of
batches; the live events a lying `seq` releases are small frames, bounded by SNDHWM.

A `Link` outlives the `Peer` on it: a peer that says hello again on the same connection
(or is dropped as lagging and comes back) keeps the unacknowledged bytes its old frames
still hold, so a new hello never buys a new budget.  The host forgets a link once its
routing id has been silent for a peer timeout (ZeroMQ's heartbeat has closed the
connection by then, unless the peer keeps sending, and then it keeps its link).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

#: Event bytes queued on one connection and not acknowledged, at most (four catch-up batches).
PEER_BUDGET = 1024 * 1024
#: Seconds a connection may leave every event frame unacknowledged: then its peer is dropped
#: as lagging (an honest client acknowledges each batch at once and live events every second).
LAG_TIMEOUT = 6.0


@dataclass(frozen=True, slots=True)
class Sent:
    """One event frame queued on a link: the last event seq it carries, its size, and the
    nonce that acknowledges it (catch-up batches) or None (a live event, acknowledged by seq)."""

    seq: int
    size: int
    nonce: bytes | None


@dataclass(slots=True)
class Link:
    """The event frames of one connection not yet acknowledged (see the module docstring)."""

    budget: int = PEER_BUDGET  # bytes it may hold unacknowledged
    pending: deque[Sent] = field(default_factory=deque)
    unacked: int = 0  # bytes of `pending`
    last_seen: float = field(default_factory=time.monotonic)  # its last frame (time.monotonic)
    progress: float = field(default_factory=time.monotonic)  # when `pending` last shrank or was empty

    def room_for(self, size: int) -> bool:
        """Whether a frame of `size` bytes may be queued now (one frame always may, on an empty link)."""
        return self.unacked == 0 or self.unacked + size <= self.budget

    def queued(self, seq: int, size: int, nonce: bytes | None = None) -> None:
        if not self.pending:
            self.progress = time.monotonic()  # the wait for an acknowledgement starts now
        self.pending.append(Sent(seq, size, nonce))
        self.unacked += size

    def ack(self, seq: int, nonce: bytes | None) -> None:
        """The peer holds every event up to `seq` and the batch of `nonce`: release what
        it has read.  Frames leave in order, so what was queued before a frame it read
        was read too; a batch's own bytes are released only by its nonce."""
        pending = self.pending
        upto = -1
        for i, sent in enumerate(pending):
            if sent.nonce is not None and sent.nonce == nonce:
                upto = i
                break
        freed = 0
        while pending and (upto >= 0 or (pending[0].nonce is None and pending[0].seq <= seq)):
            freed += pending.popleft().size
            upto -= 1
        if freed:
            self.unacked -= freed
            self.progress = time.monotonic()

    def stalled(self, now: float, patience: float) -> bool:
        """Whether frames have waited `patience` seconds with none of them acknowledged."""
        return bool(self.pending) and now - self.progress > patience
