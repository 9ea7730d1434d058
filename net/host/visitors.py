"""Connections that have not said hello yet ("visitors"): their own small budget and count.

Anyone on the LAN can open a CURVE connection (keys are free) and ask for the list of
tables, or send anything at all, and never read the answers.  Before its hello proves a
key, a connection is not a peer (net/host/connections.py) and has no link to bound it, so
the host would queue answers for it without end.  Here each one is a `Visitor`:

- its answers (the table list, the errors of a refused frame or hello) are at most
  VISITOR_BYTES in all until its hello (at least one answer always goes), then nothing more;
- at most MAX_VISITORS_PER_ADDRESS of them from one source address and MAX_VISITORS in
  all get any answer; a connection beyond that count gets none until one goes;
- one silent for VISITOR_IDLE seconds, or over its budget, is dropped: forgotten, and
  its routing id is remembered (the last TURNED_AWAY_KEPT of them) so it never buys a new
  budget; its hello is still heard (a person's client that asked twice is then seated).

What the host spends on a visitor's frame before this (reading it, its key's rate bucket)
is what it spends on any frame; seated players are peers and never counted here.  On a
machine whose other connections come from one address (127.0.0.1, a NAT) the per-address
count is what a newcomer waits behind: one that is refused tries again.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

VISITOR_BYTES = 16 * 1024  # answer bytes a connection may be sent before its hello
MAX_VISITORS_PER_ADDRESS = 32  # connections before hello served at once from one address
MAX_VISITORS = 256  # and from all addresses
VISITOR_IDLE = 5.0  # seconds a connection may stay silent before its hello (then it is dropped)
TURNED_AWAY_KEPT = 8192  # routing ids of dropped visitors remembered (5 bytes each)


@dataclass(slots=True)
class Visitor:
    """A connection that has not said hello: where it comes from, its answers so far."""

    address: str
    seen: float  # its last frame (host time)
    sent: int = 0  # answer bytes sent to it

    def __repr__(self) -> str:
        return f"Visitor({self.address!r}, sent={self.sent})"


class Visitors:
    """The connections before hello (see the module docstring).

    >>> v = Visitors(budget=100, per_address=1, total=2)
    >>> v.may_answer(b"a", "10.0.0.1", 0.0, 60), v.may_answer(b"a", "10.0.0.1", 0.0, 60)  # over its budget
    (True, False)
    >>> v.may_answer(b"a", "10.0.0.1", 1.0, 10)  # dropped, for good
    False
    >>> v.may_answer(b"b", "10.0.0.1", 1.0, 10), v.may_answer(b"c", "10.0.0.2", 1.0, 10)
    (True, True)
    >>> v.may_answer(b"d", "10.0.0.3", 1.0, 10)  # two served at once in all
    False
    """

    def __init__(
        self,
        budget: int = VISITOR_BYTES,
        per_address: int = MAX_VISITORS_PER_ADDRESS,
        total: int = MAX_VISITORS,
        idle: float = VISITOR_IDLE,
    ) -> None:
        self.budget = budget
        self.per_address = per_address
        self.total = total
        self.idle = idle
        self.visitors: dict[bytes, Visitor] = {}
        self.by_address: dict[str, int] = {}
        self.turned_away: OrderedDict[bytes, None] = OrderedDict()
        self.dropped = 0  # visitors dropped since the host started (over budget or idle)

    def __len__(self) -> int:
        return len(self.visitors)

    def may_answer(self, rid: bytes, address: str, now: float, size: int) -> bool:
        """Whether an answer of `size` bytes may go to connection `rid` (not a peer), from
        `address`; counted against its budget if so."""
        visitor = self.visitors.get(rid)
        if visitor is None:
            if rid in self.turned_away:
                return False
            self.drop_idle(now)  # a newcomer: make room by those gone quiet (at most MAX_VISITORS to look at)
            if not self._room(address):
                return False  # no room: a frame once one has gone is answered
            visitor = self.visitors[rid] = Visitor(address, now)
            self.by_address[address] = self.by_address.get(address, 0) + 1
        visitor.seen = now
        if visitor.sent and visitor.sent + size > self.budget:
            self.turn_away(rid)
            return False
        visitor.sent += size
        return True

    def heard(self, rid: bytes, now: float) -> None:
        """A frame from `rid` that is answered by nothing (it still is not idle)."""
        visitor = self.visitors.get(rid)
        if visitor is not None:
            visitor.seen = now

    def admitted(self, rid: bytes) -> None:
        """`rid` said hello and is a peer now: it is no visitor any more."""
        self._forget(rid)
        self.turned_away.pop(rid, None)

    def turn_away(self, rid: bytes) -> None:
        """Drop visitor `rid`: forgotten, and never answered again before its hello."""
        if self._forget(rid):
            self.dropped += 1
        self.turned_away[rid] = None
        self.turned_away.move_to_end(rid)
        while len(self.turned_away) > TURNED_AWAY_KEPT:
            self.turned_away.popitem(last=False)

    def drop_idle(self, now: float) -> int:
        """Drop the visitors silent for `idle` seconds; how many."""
        idle = [rid for rid, v in self.visitors.items() if now - v.seen > self.idle]
        for rid in idle:
            self.turn_away(rid)
        return len(idle)

    def _room(self, address: str) -> bool:
        return len(self.visitors) < self.total and self.by_address.get(address, 0) < self.per_address

    def _forget(self, rid: bytes) -> bool:
        visitor = self.visitors.pop(rid, None)
        if visitor is None:
            return False
        left = self.by_address[visitor.address] - 1
        if left:
            self.by_address[visitor.address] = left
        else:
            del self.by_address[visitor.address]
        return True
