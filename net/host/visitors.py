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
  budget; its hello is still heard (a person's client that asked twice is then seated);
- the hellos of connections before hello are heard at most HELLOS_PER_ADDRESS a second
  from one address and HELLOS_TOTAL in all (each costs a signature check), but for those
  with a seat token the table holds (the host's own bots and stand-ins); a frame other
  than a hello (or a ping on a connection the host still counts bytes for) from one that
  gets no answer is dropped before anything is done with it.

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
#: Hellos heard a second from connections before hello, per source address and in all
#: (token buckets of twice that): a hello costs a signature check, and throwaway keys are
#: free to make; a hello beyond it is not heard (its client says hello again a second later)
HELLOS_PER_ADDRESS = 100.0
HELLOS_TOTAL = 200.0
IDLE_LOOK_EVERY = 1.0  # seconds between two looks for idle visitors (each looks at all of them)


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
        self.hellos: dict[str, tuple[float, float]] = {}  # address -> (tokens, when) of its hellos
        self.all_hellos = (2 * HELLOS_TOTAL, 0.0)
        self.looked = float("-inf")  # when idle visitors were last looked for

    def __len__(self) -> int:
        return len(self.visitors)

    def served(self, rid: bytes, address: str, now: float) -> bool:
        """Whether connection `rid` is (or may now become) a visitor that gets answers: a
        frame of one that is not is dropped unread (but a hello: `may_hear_hello`)."""
        if rid in self.visitors:
            return True
        if rid in self.turned_away:
            return False
        self.drop_idle(now)
        return self._room(address)

    def may_hear_hello(self, address: str, now: float) -> bool:
        """Whether a hello from a connection before hello, from `address`, is heard now
        (HELLOS_PER_ADDRESS and HELLOS_TOTAL a second); taken from both buckets if so.

        >>> v = Visitors()
        >>> sum(v.may_hear_hello("10.0.0.1", 0.0) for _ in range(500))  # a burst of twice the rate
        200
        >>> v.may_hear_hello("10.0.0.1", 1.0), v.may_hear_hello("10.0.0.2", 1.0)
        (True, True)
        """
        tokens, when = self.hellos.get(address, (2 * HELLOS_PER_ADDRESS, now))
        tokens = min(2 * HELLOS_PER_ADDRESS, tokens + (now - when) * HELLOS_PER_ADDRESS)
        total, total_when = self.all_hellos
        total = min(2 * HELLOS_TOTAL, total + (now - total_when) * HELLOS_TOTAL)
        heard = tokens >= 1 and total >= 1
        if heard:
            tokens, total = tokens - 1, total - 1
        self.all_hellos = (total, now)
        if tokens >= 2 * HELLOS_PER_ADDRESS:
            self.hellos.pop(address, None)  # full again: forgetting it changes nothing
        else:
            self.hellos[address] = (tokens, now)
            if len(self.hellos) > 4 * MAX_VISITORS:
                self._forget_full_buckets(now)
        return heard

    def _forget_full_buckets(self, now: float) -> None:
        refill = 2.0  # seconds in which an empty bucket is full again
        self.hellos = {a: (t, w) for a, (t, w) in self.hellos.items() if now - w < refill}

    def may_answer(self, rid: bytes, address: str, now: float, size: int) -> bool:
        """Whether an answer of `size` bytes may go to connection `rid` (not a peer), from
        `address`; counted against its budget if so."""
        visitor = self.visitors.get(rid)
        if visitor is None:
            if rid in self.turned_away:
                return False
            self.drop_idle(now)  # a newcomer: make room by those gone quiet
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
        """Drop the visitors silent for `idle` seconds (looked for at most once every
        IDLE_LOOK_EVERY seconds); how many."""
        if now - self.looked < IDLE_LOOK_EVERY:
            return 0
        self.looked = now
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
