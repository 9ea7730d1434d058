"""A link's pacing by the rate its peer reads (net/host/flow.py), on explicit times: a peer
that reads slowly is never taken for one that does not read.

On the code before this (and on a2b2fc2) a link's lag deadline was LAG_TIMEOUT whatever the
link: a catch-up batch of up to 256 KiB that an 8 kB/s link carries in half a minute made
its reader lag after 6 s, every time.
"""

from __future__ import annotations

import os

from modernart.net.host.flow import BATCH_BYTES, LAG_TIMEOUT, MIN_WINDOW, Link


def _read_for(link: Link, rate: float, seconds: float, start: float = 100.0) -> tuple[int, float]:
    """Pace catch-up on `link` for `seconds` as the host does (batches while the window has
    room), the peer reading at `rate` bytes a second and acknowledging each batch once read;
    (bytes read, the longest the oldest frame waited beyond its patience, <= 0 if never)."""
    now, arrived, read, worst = start, start, 0, float("-inf")
    in_flight: list[tuple[int, bytes, float]] = []  # (size, nonce, when read)
    while now < start + seconds:
        size = link.batch_bytes()
        while link.room_for_batch(size):
            nonce = os.urandom(8)
            link.queued(0, size, nonce, now=now)
            arrived = max(arrived, now) + size / rate  # the link carries one frame after the other
            in_flight.append((size, nonce, arrived))
        size, nonce, when = in_flight.pop(0)
        worst = max(worst, (when - link.progress) - link.patience())
        now = when
        link.ack(0, nonce, now=now)
        read += size
    return read, worst


def test_a_slow_reader_is_never_stalled_and_its_batches_follow_its_rate():
    for rate in (1_000.0, 8_000.0, 20_000.0, 5_000_000.0):
        link = Link()
        read, worst = _read_for(link, rate, 120.0)
        assert worst <= 0, (rate, worst)  # never past its lag deadline
        assert link.rate is not None and 0.5 * rate <= link.rate <= 2 * rate, (rate, link.rate)
        assert read >= 0.5 * rate * 120  # and it reads at about the rate of its link
        assert link.batch_bytes() <= max(MIN_WINDOW // 2, int(rate))  # a batch is about a second of reading
    assert Link(rate=1e9).batch_bytes() == BATCH_BYTES


def test_a_peer_that_never_reads_holds_one_small_window_and_stalls():
    link = Link()
    size = link.batch_bytes()
    sent = 0
    while link.room_for_batch(size):
        link.queued(1, size, os.urandom(8), now=0.0)
        sent += size
    assert sent <= MIN_WINDOW  # not the whole budget: nothing it read was measured
    assert not link.stalled(LAG_TIMEOUT)  # the first batch is given time to arrive on a slow link...
    assert link.stalled(link.patience() + 0.1)  # ...and no more
    link.ack(10**9, b"made-up!", now=1.0)  # a lie releases no batch and measures nothing
    assert link.unacked == sent and link.rate is None
