"""The host's lobby requests: seats, ready marks, admin requests, chat and the start.

Each request of a peer goes to its table's `Lobby` (net/host/lobby.py); the peer gets a
reply or the refusal's code, and the table's peers the new lobby.  `try_start` turns a
full, ready lobby into a game (on the admin's request, or by itself with `autostart`).
"""

from __future__ import annotations

from typing import Any

from modernart.net.host.bot_clients import BotClients
from modernart.net.host.connections import Connections, Peer
from modernart.net.host.fanout import Fanout
from modernart.net.host.lobby import LobbyError
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.protocol import pack
from modernart.net.protocol.frames import chat_frame, err_frame, reply_frame


class LobbyRequests:
    """Lobby requests of the peers of a table (before its game starts), and chat."""

    def __init__(self, router: Router, connections: Connections, fanout: Fanout, bots: BotClients, clock: Any) -> None:
        self.router = router
        self.connections = connections
        self.fanout = fanout
        self.bots = bots
        self.clock = clock  # MonotonicClock, or a test's ManualClock

    def request(self, peer: Peer, msg: dict[str, Any]) -> None:
        table, op, args, request = peer.table, msg["op"], msg.get("args") or {}, msg["id"]
        try:
            self.apply(peer, table, op, args)
        except LobbyError as exc:
            self.router.send_frame(peer.rid, err_frame(exc.code, exc.message, request, exc.params))
            return
        self.router.send_frame(peer.rid, reply_frame(request))
        if op != "chat":
            self.fanout.broadcast_lobby(table)

    def apply(self, peer: Peer, table: Table, op: str, args: dict[str, Any]) -> None:
        lob, vk = table.lobby, peer.vk
        if op == "chat":
            name = table.seat_names()[peer.seat] if peer.seat is not None else "spectator"
            chat = pack(chat_frame(peer.seat, name, args["text"]))
            for other in self.connections.at(table):
                self.router.send(other.rid, chat)
            return
        if table.phase != "lobby":
            raise LobbyError("started", "the game has already started")
        if op == "sit":
            peer.seat = lob.sit(vk, args["name"], args.get("seat"))
            peer.role = "player"
            self.connections.tell_seat(peer)
        elif op == "leave":
            lob.leave(vk)
            peer.seat, peer.role = None, "spectator"
            self.connections.tell_seat(peer)
        elif op == "ready":
            lob.ready(vk, args.get("ready", True))
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
        elif op == "options":
            lob.set_options(vk, args["options"])
        elif op == "clocks":
            lob.set_clocks(vk, args["clocks"])
        elif op == "start":
            self.try_start(table, vk)
            return
        if table.autostart:
            self.try_start(table, None)

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
        for peer in self.connections.at(table):  # seats are renumbered 0..n-1 in seat order
            if peer.seat is not None:
                peer.seat = seats.index(peer.seat) if peer.seat in seats else None
                self.connections.tell_seat(peer)
        self.fanout.broadcast_lobby(table)
        self.fanout.publish(table, event)
