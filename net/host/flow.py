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

A link also measures how fast its peer reads (`Link.rate`: the bytes of each catch-up batch
over the time its acknowledgement took), because a link can be slow (a player's bad Wi-Fi
at 8 kB/s) without being stuck.  Catch-up is paced by it: the bytes in flight are what the
peer reads in WINDOW_SECONDS (`window`, never below MIN_WINDOW nor above the budget), in
batches of half that (`batch_bytes`), and the lag deadline of a frame is LAG_TIMEOUT plus
twice the time its size takes at that rate (`patience`).  So a peer that reads, however
slowly, is never dropped as lagging, and one that never reads is dropped once its first
frames have waited their deadline (it holds at most MIN_WINDOW of catch-up meanwhile).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

#: Event bytes queued on one connection and not acknowledged, at most (four catch-up batches).
PEER_BUDGET = 1024 * 1024
#: Seconds a connection may leave every event frame unacknowledged beyond the time the
#: oldest one takes to arrive at its measured rate (`Link.patience`): then its peer is dropped
#: as lagging (an honest client acknowledges each batch at once and live events every second).
LAG_TIMEOUT = 6.0
#: Catch-up bytes in flight on a link whose rate is not measured yet (and at least, later)
MIN_WINDOW = 16 * 1024
#: Seconds of reading at its measured rate a link's catch-up in flight amounts to
WINDOW_SECONDS = 2.0
#: Bytes a second taken for a link before anything it read was measured: a slow link (the
#: first batch is MIN_WINDOW / 2, so this gives it 8 s more than LAG_TIMEOUT)
ASSUMED_RATE = 2048.0
#: The largest catch-up batch (well below the client's MAXMSGSIZE)
BATCH_BYTES = 256 * 1024


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
    rate: float | None = None  # bytes a second its peer reads (catch-up batches), once measured

    def room_for(self, size: int) -> bool:
        """Whether a frame of `size` bytes may be queued now (one frame always may, on an empty link)."""
        return self.unacked == 0 or self.unacked + size <= self.budget

    def window(self) -> int:
        """Catch-up bytes that may be in flight now: what the peer reads in WINDOW_SECONDS.

        >>> Link(budget=1 << 20).window(), Link(budget=1 << 20, rate=100_000.0).window()
        (16384, 200000)
        """
        rate = self.rate if self.rate is not None else 0.0
        return max(MIN_WINDOW, min(self.budget, int(rate * WINDOW_SECONDS)))

    def batch_bytes(self) -> int:
        """The size of the next catch-up batch: half the window (two in flight, no wait for
        each acknowledgement), at most BATCH_BYTES."""
        return min(BATCH_BYTES, self.window() // 2)

    def room_for_batch(self, size: int) -> bool:
        """Whether a catch-up batch of `size` bytes may go now (one always may on an empty link)."""
        return self.unacked == 0 or self.unacked + size <= min(self.window(), self.budget)

    def queued(self, seq: int, size: int, nonce: bytes | None = None, now: float | None = None) -> None:
        if not self.pending:
            self.progress = time.monotonic() if now is None else now  # the wait for an acknowledgement starts now
        self.pending.append(Sent(seq, size, nonce))
        self.unacked += size

    def ack(self, seq: int, nonce: bytes | None, now: float | None = None) -> None:
        """The peer holds every event up to `seq` and the batch of `nonce`: release what
        it has read.  Frames leave in order, so what was queued before a frame it read
        was read too; a batch's own bytes are released only by its nonce, and only a batch
        (acknowledged as soon as it is read) measures the rate."""
        pending = self.pending
        upto = -1
        for i, sent in enumerate(pending):
            if sent.nonce is not None and sent.nonce == nonce:
                upto = i
                break
        batch = upto >= 0
        freed = 0
        while pending and (upto >= 0 or (pending[0].nonce is None and pending[0].seq <= seq)):
            freed += pending.popleft().size
            upto -= 1
        if freed:
            now = time.monotonic() if now is None else now
            if batch:
                sample = freed / max(now - self.progress, 0.05)
                self.rate = sample if self.rate is None else (self.rate + sample) / 2
            self.unacked -= freed
            self.progress = now

    def patience(self) -> float:
        """Seconds the oldest frame waiting may go unacknowledged: LAG_TIMEOUT beyond twice
        the time its size takes at the rate this peer reads.

        >>> round(Link(rate=8000.0, pending=deque([Sent(9, 80_000, b"n")])).patience(), 1)
        26.0
        """
        if not self.pending:
            return LAG_TIMEOUT
        rate = self.rate if self.rate is not None else ASSUMED_RATE
        return LAG_TIMEOUT + 2 * self.pending[0].size / max(rate, 1.0)

    def stalled(self, now: float) -> bool:
        """Whether the oldest frame has waited longer than its `patience` with none acknowledged."""
        return bool(self.pending) and now - self.progress > self.patience()
