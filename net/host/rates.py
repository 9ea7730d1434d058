"""Frames per key the host takes: a token bucket per CURVE key, so no one connection (or
key) can make the host spend its time on it alone.  Keys are free to make, so the buckets
of idle keys are forgotten once they would be full again (forgetting one changes nothing)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

RATE = 100.0  # frames per second per key, sustained
BURST = 300.0
BUCKET_REFILL = BURST / RATE  # seconds after which an idle bucket is full: forgetting it changes nothing
MAX_BUCKETS = 4096  # more than this and the idle ones are forgotten at once (not only every tick)


@dataclass
class Bucket:
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    warned: float = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimits:
    """The buckets of the keys heard lately."""

    def __init__(self) -> None:
        self.buckets: dict[bytes, Bucket] = {}

    def take(self, curve: bytes) -> Bucket | None:
        """None if a frame from `curve` may be handled now, else its (empty) bucket."""
        if len(self.buckets) > MAX_BUCKETS:
            self.forget_idle()
        bucket = self.buckets.setdefault(curve, Bucket())
        return None if bucket.take() else bucket

    def should_warn(self, bucket: Bucket) -> bool:
        """Whether to tell the sender of a refused frame to slow down (at most once a second)."""
        if time.monotonic() - bucket.warned > 1.0:
            bucket.warned = time.monotonic()
            return True
        return False

    def forget_idle(self) -> None:
        """Drop the buckets of keys idle long enough to be full again."""
        idle = time.monotonic() - BUCKET_REFILL
        self.buckets = {k: b for k, b in self.buckets.items() if b.stamp > idle}
