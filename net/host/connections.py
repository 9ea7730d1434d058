"""Who is connected to the host: a `Peer` per proven hello, a `Link` per connection.

A peer is a routing id that said hello with a key (net/host/admission.py): the table it is
at, the seat it plays or None, and where its catch-up stands.  Its `Link` (net/host/flow.py)
counts the event bytes its connection holds unacknowledged, and outlives it: a new hello on
the same connection replaces the peer, never the link.  The peers are also kept by table
(`PeerMap`): every event goes to the peers of one table, and a host of 100 tables must not
look through all its 500 peers for each one.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from modernart.net.host.flow import PEER_BUDGET, Link
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.protocol.frames import seat_frame


@dataclass
class Peer:
    rid: bytes
    curve: bytes  # raw CURVE key proven by the handshake
    table: Table
    vk: bytes
    seat: int | None  # seat it plays (own or as a stand-in), None for watchers
    role: str  # "player", "standin" or "spectator"
    link: Link  # its connection's unacknowledged bytes (outlives the peer)
    next_seq: int = 1  # the next event it needs: it is live when that is the next event made
    last_seen: float = field(default_factory=time.monotonic)
    last_event: float = 0.0  # when it was last sent an event (time.monotonic)
    conn: bytes = field(default_factory=lambda: secrets.token_bytes(8))  # this hello's mark on its moves
    # recovering after a power loss: the last event its client said it holds, past the host's
    # log (the host asked for them: net/host/admission.py `Admission.tail`); 0 once given
    ahead: int = 0
    asked: float = 0.0  # its hello or its last lobby request (the host's clock: idle watchers)
    # its player came back behind the table: its stand-in keeps the seat until it has caught up
    returning: bool = False


_MISSING: Any = object()  # `PeerMap.pop` without a default


class PeerMap(dict[bytes, Peer]):
    """The peers by routing id (a dict), and by table (`at`), kept in step on every change.

    Every way of changing it goes through `__setitem__` / `__delitem__` (the others are
    written in their terms); reads are the dict's own.
    """

    def __init__(self) -> None:
        super().__init__()
        self.by_table: dict[Table, dict[bytes, Peer]] = {}  # a table -> its peers, in the dict's order

    def at(self, table: Table) -> list[Peer]:
        """The peers of `table`, in the order of the dict."""
        peers = self.by_table.get(table)
        return list(peers.values()) if peers else []

    def __setitem__(self, rid: bytes, peer: Peer) -> None:
        old = self.get(rid)
        if old is not None and old.table is not peer.table:
            self._unindex(rid, old)
        super().__setitem__(rid, peer)  # a routing id seen before keeps its place
        self.by_table.setdefault(peer.table, {})[rid] = peer

    def __delitem__(self, rid: bytes) -> None:
        peer = self[rid]
        super().__delitem__(rid)
        self._unindex(rid, peer)

    def _unindex(self, rid: bytes, peer: Peer) -> None:
        peers = self.by_table[peer.table]
        del peers[rid]
        if not peers:
            del self.by_table[peer.table]

    def pop(self, rid: bytes, default: Any = _MISSING) -> Any:
        if rid not in self:
            if default is _MISSING:
                raise KeyError(rid)
            return default
        peer = self[rid]
        self.__delitem__(rid)
        return peer

    def popitem(self) -> tuple[bytes, Peer]:
        rid = next(reversed(self))
        return rid, self.pop(rid)

    def setdefault(self, rid: bytes, default: Any = None) -> Any:
        if rid not in self:
            self[rid] = default
        return self[rid]

    def update(self, *args: Any, **kwargs: Any) -> None:
        items: Iterable[tuple[bytes, Peer]] = dict(*args, **kwargs).items()
        for rid, peer in items:
            self[rid] = peer

    def clear(self) -> None:
        super().clear()
        self.by_table.clear()


class Connections:
    """The host's peers (by routing id) and links, and what is sent to one peer."""

    def __init__(self, router: Router, peer_budget: int = PEER_BUDGET) -> None:
        self.router = router
        self.peers = PeerMap()
        self.links: dict[bytes, Link] = {}  # routing id -> its unacknowledged event bytes (net/host/flow.py)
        self.peer_budget = peer_budget  # event bytes one connection may hold unacknowledged

    def at(self, table: Table) -> list[Peer]:
        """The peers of `table` (from the index: not a look through every peer)."""
        return self.peers.at(table)

    def link(self, rid: bytes) -> Link:
        """The link of connection `rid`, made on its first hello."""
        link = self.links.get(rid)
        if link is None:
            link = self.links[rid] = Link(self.peer_budget)
        return link

    def send_event(self, peer: Peer, data: bytes, seq: int, nonce: bytes | None = None) -> bool:
        """Queue an event frame (up to event `seq`) for `peer` if its link has room for it
        (net/host/flow.py); False if it has none (it falls behind, and catches up as it acknowledges)."""
        if not peer.link.room_for(len(data)) or not self.router.send(peer.rid, data):
            return False
        peer.link.queued(seq, len(data), nonce)
        return True

    def tell_seat(self, peer: Peer) -> None:
        """Tell `peer` the seat and role it has now."""
        self.router.send_frame(peer.rid, seat_frame(peer.seat, peer.role))

    def forget_silent_links(self, now: float, timeout: float) -> bool:
        """Forget the links of connections without a peer silent for `timeout` seconds (ZeroMQ's
        heartbeat has closed them by then); whether any was forgotten."""
        silent = [r for r, link in self.links.items() if now - link.last_seen > timeout and r not in self.peers]
        for rid in silent:
            del self.links[rid]
        return bool(silent)
