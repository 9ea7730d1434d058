"""The host's lobby operations: seats, ready marks, admin requests, chat and the start.

A mixin of `net.host.Host` (it uses the host's peers, send and broadcast methods).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modernart.net.host.host_base import HostParts  # the Host parts a mixin uses, typed (see host_base)
from modernart.net.host.lobby import LobbyError
from modernart.net.protocol import pack
from modernart.net.protocol.frames import chat_frame, err_frame, reply_frame, seat_frame

if TYPE_CHECKING:
    from modernart.net.host.host import Peer
    from modernart.net.host.table import Table


class LobbyOps(HostParts):
    """Lobby requests of the peers of a table (before its game starts), and chat."""

    def _lobby(self, peer: Peer, msg: dict[str, Any]) -> None:
        table, op, args, request = peer.table, msg["op"], msg.get("args") or {}, msg["id"]
        try:
            self._lobby_op(peer, table, op, args)
        except LobbyError as exc:
            self.send(peer.rid, err_frame(exc.code, exc.message, request))
            return
        self.send(peer.rid, reply_frame(request))
        if op != "chat":
            self.broadcast_lobby(table)

    def _lobby_op(self, peer: Peer, table: Table, op: str, args: dict[str, Any]) -> None:
        lob, vk = table.lobby, peer.vk
        if op == "chat":
            name = table.seat_names()[peer.seat] if peer.seat is not None else "spectator"
            chat = pack(chat_frame(peer.seat, name, args["text"]))
            for other in self._table_peers(table):
                self._send(other.rid, chat)
            return
        if table.phase != "lobby":
            raise LobbyError("started", "the game has already started")
        if op == "sit":
            peer.seat = lob.sit(vk, args["name"], args.get("seat"))
            peer.role = "player"
            self._tell_seat(peer)
        elif op == "leave":
            lob.leave(vk)
            peer.seat, peer.role = None, "spectator"
            self._tell_seat(peer)
        elif op == "ready":
            lob.ready(vk, args.get("ready", True))
        elif op == "add_bot":
            seat, token = lob.add_bot(vk, args.get("level") or "random", args.get("seat"))
            self.spawn_bot(table, token, lob.seats[seat].bot or "random")  # type: ignore[union-attr]
        elif op == "remove_bot":
            removed = lob.remove_bot(vk, args["seat"])
            for p in [p for p in self._table_peers(table) if p.vk == removed.vk]:
                p.seat, p.role = None, "spectator"
                self._tell_seat(p)
            for token, (_task, bot) in list(self.bots.items()):
                if getattr(bot, "keys", None) is not None and bot.keys.vk == removed.vk:
                    self._stop_bot(token)
        elif op == "options":
            lob.set_options(vk, args["options"])
        elif op == "clocks":
            lob.set_clocks(vk, args["clocks"])
        elif op == "start":
            self._try_start(table, vk)
            return
        if table.autostart:
            self._try_start(table, None)

    def _tell_seat(self, peer: Peer) -> None:
        self.send(peer.rid, seat_frame(peer.seat, peer.role))

    def _try_start(self, table: Table, vk: bytes | None) -> None:
        if vk is None:  # autostart: True, or the number of players to wait for
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
        table.extra_meta["port"] = self.port
        event = table.start(self.clock.now())
        for peer in self._table_peers(table):  # seats are renumbered 0..n-1 in seat order
            if peer.seat is not None:
                peer.seat = seats.index(peer.seat) if peer.seat in seats else None
                self._tell_seat(peer)
        self.broadcast_lobby(table)
        self.publish(table, event)

    # ------------------------------------------------------------------ presence, bots, clocks
