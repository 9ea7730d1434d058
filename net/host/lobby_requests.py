"""The host's lobby requests: seats, ready marks, admin requests, chat and the start.

Each request of a peer goes to its table's `Lobby` (net/host/lobby.py); the peer gets a
reply or the refusal's code, and the table's peers the new lobby.  `try_start` turns a
full, ready lobby into a game (on the admin's request, or by itself with `autostart`).

The admin's rule changes (options, clocks) are limited to RULE_RATE a second (RULE_BURST
at once; more are refused, `rate_limited`), and the lobby messages they cause are paced
(net/host/fanout.py `lobby_paced`).  The admin's `remove` drops every connection of the
removed key from the table, and neither its seat nor a watcher's place is given to it
again.  A table that is full makes room for a newcomer from its weakest occupant
(net/host/lobby.py `Lobby.evictable`, `make_room` for watchers); a key is *known* if it
is the admin's, the table is locked to it, or it played a game at this host.
"""

from __future__ import annotations

import logging
from typing import Any

from modernart.net.host.bot_clients import BotClients
from modernart.net.host.connections import Connections, Peer
from modernart.net.host.fanout import Fanout
from modernart.net.host.lobby import LOBBY_IDLE, LobbyError, occupant_rank
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.protocol import pack
from modernart.net.protocol.frames import chat_frame, err_frame, reply_frame, seat_frame
from modernart.net.trust.identity import fingerprint

log = logging.getLogger("modernart.net.host.host")

RULE_RATE = 4.0  # rule changes (options, clocks) a second a table takes, sustained
RULE_BURST = 8.0  # ... and at once
#: Lobby ops that change the rules: limited (RULE_RATE) and announced paced
RULE_OPS = ("options", "clocks")
#: Seconds without a request after which a watcher counts as idle (its place may go to a newcomer)
WATCHER_IDLE = LOBBY_IDLE


class LobbyRequests:
    """Lobby requests of the peers of a table (before its game starts), and chat."""

    def __init__(self, router: Router, connections: Connections, fanout: Fanout, bots: BotClients, clock: Any) -> None:
        self.router = router
        self.connections = connections
        self.fanout = fanout
        self.bots = bots
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.known_players: set[bytes] = set()  # keys that played a game at this host
        self.rule_tokens: dict[str, tuple[float, float]] = {}  # table id -> (tokens, when: host clock)

    def known(self, table: Table, vk: bytes) -> bool:
        """Whether `vk` is a key this host knows for `table` (see the module docstring)."""
        lob = table.lobby
        return vk == lob.admin or (lob.locked is not None and vk in lob.locked) or vk in self.known_players

    def request(self, peer: Peer, msg: dict[str, Any]) -> None:
        table, op, args, request = peer.table, msg["op"], msg.get("args") or {}, msg["id"]
        now = self.clock.now()
        peer.asked = now
        table.lobby.touch(peer.vk, now)
        try:
            if op in RULE_OPS:
                self.take_rule_change(table, now)
            self.apply(peer, table, op, args)
        except LobbyError as exc:
            self.router.send_frame(peer.rid, err_frame(exc.code, exc.message, request, exc.params))
            return
        self.router.send_frame(peer.rid, reply_frame(request))
        if op in RULE_OPS:
            self.fanout.lobby_paced(table, peer)
        elif op != "chat":
            self.fanout.broadcast_lobby(table)

    def take_rule_change(self, table: Table, now: float) -> None:
        """One rule change of `table`'s budget, or refused (`rate_limited`)."""
        tokens, since = self.rule_tokens.get(table.id, (RULE_BURST, now))
        tokens = min(RULE_BURST, tokens + (now - since) * RULE_RATE)
        if tokens < 1.0:
            self.rule_tokens[table.id] = (tokens, now)
            raise LobbyError(
                "rate_limited", f"at most {RULE_RATE:g} rule changes a second; wait a moment", {"rate": int(RULE_RATE)}
            )
        self.rule_tokens[table.id] = (tokens - 1.0, now)

    def apply(self, peer: Peer, table: Table, op: str, args: dict[str, Any]) -> None:
        if op == "chat":
            name = table.seat_names()[peer.seat] if peer.seat is not None else "spectator"
            chat = pack(chat_frame(peer.seat, name, args["text"]))
            for other in self.connections.at(table):
                self.router.send(other.rid, chat)
            return
        if table.phase != "lobby":
            raise LobbyError("started", "the game has already started")
        if op == "start":
            self.try_start(table, peer.vk)
            return
        if not self._seat_request(peer, table, op, args):
            self._setting_request(peer, table, op, args)
        if table.autostart:
            self.try_start(table, None)

    def _seat_request(self, peer: Peer, table: Table, op: str, args: dict[str, Any]) -> bool:
        """A request that seats or unseats someone (a person, a bot); False: not one."""
        lob, vk = table.lobby, peer.vk
        if op == "sit":
            peer.seat = self.sit(peer, table, args["name"], args.get("seat"))
            peer.role = "player"
            self.connections.tell_seat(peer)
        elif op == "leave":
            lob.leave(vk)
            peer.seat, peer.role = None, "spectator"
            self.connections.tell_seat(peer)
        elif op == "add_bot":
            seat, token = lob.add_bot(vk, args.get("level") or "random", args.get("seat"))
            self.bots.spawn(table, token, lob.seats[seat].bot or "random")  # type: ignore[union-attr]
        elif op == "remove_bot":
            removed = lob.remove_bot(vk, args["seat"])
            for p in [p for p in self.connections.at(table) if p.vk == removed.vk]:
                p.seat, p.role = None, "spectator"
                self.connections.tell_seat(p)
            for token in self.bots.tokens_of(removed.vk):
                self.bots.stop(token)
        else:
            return False
        return True

    def _setting_request(self, peer: Peer, table: Table, op: str, args: dict[str, Any]) -> None:
        """A request that changes the lobby's state: ready, removing a key, the lock, the rules, the clocks."""
        lob, vk = table.lobby, peer.vk
        if op == "ready":
            lob.ready(vk, args.get("ready", True))
        elif op == "remove":
            self.remove(peer, table, args["fpr"])
        elif op == "lock":
            lob.lock(vk, args["lock"])
        elif op == "options":
            lob.set_options(vk, args["options"])
        elif op == "clocks":
            lob.set_clocks(vk, args["clocks"])

    def sit(self, peer: Peer, table: Table, name: str, seat: int | None) -> int:
        """Seat `peer`; a newcomer who finds every seat taken gets the seat of its weakest
        occupant, if one ranks below it (net/host/lobby.py `Lobby.evictable`)."""
        lob, now = table.lobby, self.clock.now()
        try:
            return lob.sit(peer.vk, name, seat, now)
        except LobbyError as exc:
            if exc.code != "table_full" or lob.seat_of(peer.vk) is not None:
                raise
        connected = {p.vk for p in self.connections.at(table) if p.role == "player"}
        index = lob.evictable(now, lambda k: self.known(table, k), connected, self.known(table, peer.vk))
        if index is None:
            raise LobbyError("table_full", "every seat is taken", {"seats": len(lob.seats)})
        evicted = lob.key_at(index)
        log.info("lobby seat given to a newcomer table=%s seat=%d", table.id, index)
        lob.seats[index] = None
        for other in [p for p in self.connections.at(table) if p.vk == evicted]:
            other.seat, other.role = None, "spectator"
            self.connections.tell_seat(other)
        return lob.sit(peer.vk, name, index, now)

    def remove(self, peer: Peer, table: Table, fpr: str) -> None:
        """The admin removes every key at `table` whose fingerprint is `fpr` (seated or watching)."""
        lob = table.lobby
        peers = self.connections.at(table)
        keys = {p.vk for p in peers} | {s.vk for s in lob.seats if s is not None and s.vk is not None}
        targets = [k for k in keys if fingerprint(k) == fpr]
        if not targets:
            lob.require_admin(peer.vk)  # a non-admin is refused as such, not told who is here
            raise LobbyError("no_such_key", f"nobody with key {fpr} is at this table", {"fpr": fpr})
        for key in targets:
            seat = lob.remove(peer.vk, key)
            log.info("removed by the admin table=%s seat=%s", table.id, seat)
            for token in self.bots.tokens_of(key):
                self.bots.stop(token)
            for other in [p for p in peers if p.vk == key]:
                self.router.send_frame(other.rid, err_frame("removed", "the host removed you from this table"))
                self.router.send_frame(other.rid, seat_frame(None, "spectator"))
                self.connections.peers.pop(other.rid, None)

    def make_room(self, table: Table, vk: bytes) -> bool:
        """A watcher's place for `vk` at a table whose places are all taken: the place of the
        weakest watcher ranked below the newcomer (an unknown key, or one idle WATCHER_IDLE
        seconds), the longest idle first; whether one was made."""
        now = self.clock.now()
        mine = occupant_rank(self.known(table, vk), True, True)
        weakest: tuple[tuple[bool, bool, bool], float, Peer] | None = None
        for p in self.connections.at(table):
            if p.role != "spectator" or p.vk == vk:
                continue
            since = p.asked
            rank = occupant_rank(self.known(table, p.vk), True, now - since < WATCHER_IDLE)
            if rank < mine and (weakest is None or (rank, since) < weakest[:2]):
                weakest = (rank, since, p)
        if weakest is None:
            return False
        out = weakest[2]
        log.info("watcher's place given to a newcomer table=%s", table.id)
        self.router.send_frame(out.rid, err_frame("watchers_full", "your place went to another watcher"))
        self.connections.peers.pop(out.rid, None)
        return True

    def welcomed(self, peer: Peer) -> None:
        """`peer` said hello: active from now."""
        peer.asked = self.clock.now()

    def try_start(self, table: Table, vk: bytes | None) -> None:
        """Start the game of `table`: asked by `vk` (refused with a LobbyError if it may not),
        or with None by the table's autostart (True, or the number of players to wait for)."""
        if vk is None:
            wanted = table.autostart
            if type(wanted) is int and len(table.lobby.taken()) != wanted:
                return
            try:
                table.lobby.check_start(None)
            except LobbyError:
                return
        else:
            table.lobby.check_start(vk)
        seats = table.lobby.taken()
        table.extra_meta["port"] = self.router.port
        event = table.start(self.clock.now())
        if table.game is not None:
            self.known_players.update(p.vk for p in table.game.players if not p.bot)
        for peer in self.connections.at(table):  # seats are renumbered 0..n-1 in seat order
            if peer.seat is not None:
                peer.seat = seats.index(peer.seat) if peer.seat in seats else None
                self.connections.tell_seat(peer)
        self.fanout.broadcast_lobby(table)
        self.fanout.publish(table, event)
