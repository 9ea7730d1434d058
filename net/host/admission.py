"""The host's hello and catch-up: a peer proves its key, takes its seat (own, a reserved
bot seat, a stand-in's) or watches, and receives the events it lacks in batches; a client
whose history differs is started over.

A peer has one catch-up at a time: `Peer.next_seq` is the next event it needs, and `pump`
sends it batches from there while its connection's `Link` has room (net/host/flow.py);
its acknowledgements pump the next ones.  A new hello replaces the peer and its catch-up,
never the link, so saying hello again never queues the event log twice.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any, Callable

from modernart.net.host.connections import Connections, Peer
from modernart.net.host.fanout import Fanout
from modernart.net.host.game import HostedGame
from modernart.net.host.presence import Presence
from modernart.net.host.registry import TableRegistry
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.protocol import NONCE_BYTES, VERSION, ProtocolError, pack
from modernart.net.protocol.frames import ack_frame, batch_frame, decode_batch_event, welcome_frame
from modernart.net.protocol.signed import HELLO_TAG, hello_bytes
from modernart.net.trust.identity import Keys, verify

log = logging.getLogger("modernart.net.host.host")

ENVELOPE = 64  # what the `evs` map adds around its events (kind, nonce, array header)
#: Connections without a seat a table serves at once (lobby visitors and watchers)
MAX_WATCHERS = 16


class Admission:
    """Hello and catch-up (see the module docstring)."""

    def __init__(
        self,
        keys: Keys,
        router: Router,
        registry: TableRegistry,
        connections: Connections,
        fanout: Fanout,
        presence: Presence,
        clock: Any,
        autostart: Callable[[Table], None],
        *,
        max_watchers: int = MAX_WATCHERS,
        seating: Any = None,
    ) -> None:
        self.keys = keys
        self.router = router
        self.registry = registry
        self.connections = connections
        self.fanout = fanout
        self.presence = presence
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.autostart = autostart  # starts a table's game if its autostart says so (lobby requests)
        # connections without a seat, per table (lobby visitors and watchers): with the seats,
        # they bound the peers and so the memory a table's connections hold (each its budget)
        self.max_watchers = max_watchers
        # the lobby's say on who comes in (net/host/lobby_requests.py): removed keys, room
        # made by the weakest watcher, a newcomer's first moment
        self.seating = seating

    def table_of(self, msg: dict[str, Any]) -> Table:
        """The table a hello asks for, in a protocol this host speaks (else a ProtocolError)."""
        if msg["v"] != VERSION:
            raise ProtocolError("version", f"this host speaks protocol {VERSION}, not {msg['v']}")
        table_id = msg.get("table")
        table = self.registry.find(table_id)
        if table is None:
            raise ProtocolError("no_table", f"no table {table_id!r}; tables: {', '.join(self.registry.tables)}")
        return table

    def hello(self, rid: bytes, curve: bytes, msg: dict[str, Any]) -> None:
        table = self.table_of(msg)
        vk = msg["vk"]
        if not verify(vk, HELLO_TAG, hello_bytes(self.keys.curve_public_raw, curve, msg.get("table")), msg["sig"]):
            raise ProtocolError("bad_signature", "the hello signature does not prove the key")
        if vk in table.lobby.removed:
            raise ProtocolError("removed", "the host removed you from this table")
        peers = self.connections.peers
        link = self.connections.links.get(rid)
        if link is not None:  # the same connection again: what it says it holds releases live events
            link.ack(msg.get("last_seq", 0), None)
            if link.stalled(time.monotonic()):
                raise ProtocolError("lagging", "read what this host sent you before saying hello again")
        now = self.clock.now()
        sess = table.game
        seat, role, returning = self._seat_of_hello(table, vk, msg, now)
        if role == "spectator":
            self._room_to_watch(table, vk, rid)
        for other in [p for p in self.connections.at(table) if p.vk == vk]:
            del peers[other.rid]  # the same key again: the newer connection wins
        link = self.connections.link(rid)
        head = (table.watched_seq if role == "spectator" else table.durable_seq) if sess else 0
        ahead = self.holds_lost_tail(sess, msg)
        start, reset = (head, False) if ahead else self.catch_up_from(sess, msg, head)
        if returning and seat is not None and start >= head:  # nothing to catch up: handed back now
            self.presence.player_returns(table, seat)
            returning = False
            head = table.durable_seq if sess else 0
        peer = peers[rid] = Peer(
            rid, curve, table, vk, seat, role, link, next_seq=start + 1, ahead=ahead, returning=returning
        )
        if self.seating is not None:
            self.seating.welcomed(peer)
        if seat is not None and role != "spectator":
            self.presence.arrived(table, seat)
        ctr = sess.counters[seat] if sess is not None and seat is not None else 0
        self.router.send_frame(
            rid,
            welcome_frame(
                table.id,
                seat,
                role,
                sess.game_id if sess else None,
                head,
                ctr,
                reset,
                self.keys.vk,
                peer.conn,
                tail=sess.seq if sess is not None and ahead else None,
            ),
        )
        log.info("hello table=%s seat=%s role=%s from=%d reset=%s ahead=%d", table.id, seat, role, start, reset, ahead)
        if sess is not None and not ahead and role == "player" and seat is not None:
            self.heard(table, seat)
        self.pump(peer)  # later ones follow as they are made, or when it acknowledges these
        self.fanout.lobby_soon(table)  # once for all the hellos read in this turn
        if table.autostart and table.phase == "lobby":
            self.autostart(table)

    def _seat_of_hello(self, table: Table, vk: bytes, msg: dict[str, Any], now: float) -> tuple[int | None, str, bool]:
        """The seat and role a hello claims, checked: (seat, role, returning), where
        `returning` is a player back by its own key (its stand-in, if any, hands the seat
        back).  A seat token claims a bot's seat in the lobby or a stand-in's in the game."""
        sess = table.game
        token = msg.get("token")
        if msg.get("spectate"):
            return None, "spectator", False
        if token is None:
            seat = table.seat_of(vk)
            if seat is not None:
                return seat, "player", True
            if sess is not None and vk in sess.delegates:
                return sess.delegates.index(vk), "standin", False
            return None, "spectator", False
        if sess is None:
            seat = table.lobby.claim_bot(token, vk)
            role = "player"
        elif token in table.delegate_tokens:
            seat = table.delegate_tokens[token]
            if any(p.seat == seat and p.role == "player" for p in self.connections.at(table)):
                self.presence.withdraw_standins(table, seat)  # one seat, one key at a time
                raise ProtocolError("player_back", f"the player of seat {seat} is back: no stand-in plays it")
            del table.delegate_tokens[token]
            self.fanout.publish(table, sess.set_delegate(seat, vk, now))
            role = "standin"
        else:
            seat = None
        if seat is None:
            raise ProtocolError(
                "bad_token", "this seat token is unknown, already used, or withdrawn (its player came back)"
            )
        return seat, role, False

    def _room_to_watch(self, table: Table, vk: bytes, rid: bytes) -> None:
        """A watcher is let in while the table has room (keys are free to make: watchers are
        what anyone can add without end), or a lobby visitor gives way to it."""
        watching = [p for p in self.connections.at(table) if p.role == "spectator" and p.vk != vk and p.rid != rid]
        if len(watching) >= self.max_watchers and not (self.seating and self.seating.make_room(table, vk)):
            raise ProtocolError(
                "watchers_full",
                f"this table has {self.max_watchers} watchers (and visitors in its lobby) already; try again later",
            )

    def holds_lost_tail(self, sess: HostedGame | None, msg: dict[str, Any]) -> int:
        """The last event a hello's client holds past the log of a game recovering from a power
        loss (it is asked to give them back), else 0."""
        last = msg.get("last_seq", 0)
        if sess is None or sess.recovering is None or msg.get("game") != sess.game_id or last <= sess.seq:
            return 0
        return int(last)

    def tail(self, peer: Peer, msg: dict[str, Any]) -> None:
        """Events a client gives back to a game recovering from a power loss (`tail` frame):
        taken if they are this host's own (net/host/game.py `HostedGame.adopt`), put on disk,
        then sent to every peer that lacks them."""
        table, sess = peer.table, peer.table.game
        request = msg["id"]
        try:
            if sess is None:
                raise ProtocolError("not_started", "the game has not started")
            frames = [decode_batch_event(data) for data in msg["evs"]]
            taken = sess.adopt(frames)
        except ProtocolError as exc:
            exc.request = request  # type: ignore[attr-defined]
            raise
        journal = sess.journal
        if taken and journal is not None:
            journal.sync()  # taken back for good before anything else is sent or signed
        table.durable_seq = table.synced_seq = table.watched_seq = sess.seq
        log.info("tail table=%s seat=%s taken=%d head=%d", table.id, peer.seat, taken, sess.seq)
        self.router.send_frame(peer.rid, ack_frame(request, sess.seq))
        if peer.ahead and sess.seq >= peer.ahead:
            peer.next_seq = max(peer.next_seq, peer.ahead + 1)
            peer.ahead = 0
            if peer.role == "player" and peer.seat is not None:
                self.heard(table, peer.seat)
        for other in self.connections.at(table):
            self.pump(other)  # everyone else gets what was taken back

    def heard(self, table: Table, seat: int) -> None:
        """The player of `seat` holds nothing the recovering game lacks: once all have said
        so, the game plays on."""
        sess = table.game
        if sess is None or sess.recovering is None:
            return
        events = sess.heard(seat, self.clock.now())
        if sess.recovering is None:
            self.fanout.publish_all(table, events)
            self.presence.recovered(table)

    def catch_up_from(self, sess: HostedGame | None, msg: dict[str, Any], head: int) -> tuple[int, bool]:
        """The last event the hello's client holds that this host's history shares, and whether
        it must start over (its history differs, or is of another game)."""
        if sess is None:
            return 0, False
        last = msg.get("last_seq", 0)
        if msg.get("game") != sess.game_id or last > head or last == 0:
            return 0, last != 0 or msg.get("game") not in (None, sess.game_id)
        if sess.log[last - 1].h != msg.get("last_hash"):
            return 0, True  # the client's history differs from ours: start it over
        return last, False

    def acknowledged(self, peer: Peer) -> None:
        """`peer` acknowledged what it read (a ping): send it more, and once a returning
        player is live (every event made is queued for it, no catch-up batch unread), its
        stand-in hands the seat back, in one event that reaches it live.

        Until then the stand-in keeps the seat: a player on a slow link who comes back
        behind the table would otherwise leave its seat to the clock while it reads."""
        self.pump(peer)
        if not peer.returning or self.connections.peers.get(peer.rid) is not peer or peer.seat is None:
            return
        if peer.next_seq > peer.table.durable_seq and not any(s.nonce is not None for s in peer.link.pending):
            peer.returning = False
            self.presence.player_returns(peer.table, peer.seat)

    def pump(self, peer: Peer) -> None:
        """Send `peer` the events it lacks (written; a watcher: on disk), in batches, while its link has room.

        Called at its hello and at each of its acknowledgements: a peer that does not read
        gets at most one window of batches (net/host/flow.py; it is dropped as lagging by
        the tick loop)."""
        sess = peer.table.game
        if sess is None or self.connections.peers.get(peer.rid) is not peer:
            return
        head = peer.table.watched_seq if peer.role == "spectator" else peer.table.durable_seq
        seat = peer.seat if peer.role != "spectator" else None
        most = peer.link.batch_bytes()  # paced by how fast this peer reads (net/host/flow.py)
        while peer.next_seq <= head and peer.link.room_for_batch(most):
            batch: list[bytes] = []
            size = ENVELOPE
            seq = peer.next_seq
            while seq <= head:
                data = pack(sess.log[seq - 1].frame_for(seat))
                if batch and size + len(data) + 5 > most:
                    break
                batch.append(data)
                size += len(data) + 5  # with its msgpack bin header
                seq += 1
            nonce = secrets.token_bytes(NONCE_BYTES)
            if not self.connections.send_event(peer, pack(batch_frame(batch, nonce)), seq - 1, nonce):
                return
            peer.next_seq = seq
