"""The pipelined start of a hidden-hands table: each shuffle relayed at once, its proof
checked while the next seat shuffles (docs/fair-play.md "The hidden deck").

A seat's `deck {shuffle}` is checked for its shape, seat and turn (`HostedGame.propose_shuffle`)
and relayed at once to the table's players as a `dnext` frame, not an event: the next seat
shuffles that deck while the host (and every client) checks the proof in a worker thread
(net/trust/shuffle_checks.py).  Once a proof is checked, and every shuffle before it is
recorded, the host records it as the `dshuffle` event (`HostedGame.submit_deck`, which takes
the verdict instead of checking again) and answers its sender.  A proof that fails is
refused (`bad_shuffle`) and withdrawn with every shuffle relayed after it (`dnext` with no
shuffle; their senders get `stale_shuffle`), so the event log only ever holds checked
shuffles, and no share is sent before every shuffle is recorded: a card is never read off a
deck whose proof was not checked.
"""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from modernart.net.host.connections import Connections
from modernart.net.host.fanout import Fanout
from modernart.net.host.game import HostedGame
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError
from modernart.net.protocol.frames import ack_frame, err_frame, dnext_frame


@dataclass(slots=True)
class Relayed:
    """A shuffle relayed and being checked: who sent it, and its request."""

    rid: bytes
    vk: bytes
    seat: int
    msg: dict[str, Any]
    game: HostedGame
    check: Future[bool] | None = field(default=None)

    def done(self) -> bool:
        return self.check is None or self.check.done()


class ShuffleRelay:
    """The shuffles every table has relayed and not recorded yet, in order."""

    def __init__(self, connections: Connections, fanout: Fanout, clock: Any) -> None:
        self.connections = connections
        self.fanout = fanout
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.queues: dict[str, deque[Relayed]] = {}  # table id -> relayed, oldest first

    def relay(self, table: Table, rid: bytes, vk: bytes, seat: int, msg: dict[str, Any]) -> None:
        """Relay seat `seat`'s shuffle and start checking it (ProtocolError if refused)."""
        sess = table.game
        assert sess is not None
        item = Relayed(rid, vk, seat, msg, sess, sess.propose_shuffle(vk, seat, msg))
        self.queues.setdefault(table.id, deque()).append(item)
        self._send(table, dnext_frame(sess.game_id, seat, msg["shuffle"]))
        if item.check is None:
            self.settle(table)
            return
        loop = asyncio.get_running_loop()
        item.check.add_done_callback(lambda _f: loop.call_soon_threadsafe(self.settle, table))

    def _send(self, table: Table, frame: dict[str, Any]) -> None:
        for peer in self.connections.at(table):
            if peer.role != "spectator":
                self.fanout.router.send_frame(peer.rid, frame)

    def settle(self, table: Table) -> None:
        """Record, in order, every relayed shuffle whose check is done."""
        queue = self.queues.get(table.id)
        while queue and queue[0].done():
            item = queue.popleft()
            if table.game is not item.game:  # the table's game ended or was resumed meanwhile
                continue
            try:
                events = item.game.submit_deck(item.vk, item.seat, item.msg, self.clock.now())
            except ProtocolError as exc:
                self.fanout.router.send_frame(item.rid, err_frame(exc.code, exc.message, item.msg["id"]))
                self._withdraw(table, item, queue)
                continue
            self.fanout.publish_all(table, events, (item.rid, ack_frame(item.msg["id"], events[0].seq)))
        if not queue:
            self.queues.pop(table.id, None)

    def _withdraw(self, table: Table, item: Relayed, queue: deque[Relayed]) -> None:
        """`item`'s shuffle was refused: it and every shuffle relayed after it (which shuffled
        its deck) are withdrawn; the table is told, their senders too."""
        if item.game.hidden is not None:
            item.game.hidden.ledger.withdraw(item.seat)
        for later in queue:
            self.fanout.router.send_frame(
                later.rid,
                err_frame("stale_shuffle", f"seat {item.seat}'s shuffle before yours was refused", later.msg["id"]),
            )
        queue.clear()
        self._send(table, dnext_frame(item.game.game_id, item.seat, None))
