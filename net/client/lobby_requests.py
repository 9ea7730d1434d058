"""The client's lobby requests (a mixin of `net.client.Client`): seats, ready marks, chat,
and the admin's bots, options, clocks and start.  Each returns the host's `Reply`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modernart.net.client.state import Reply
from modernart.net.protocol.frames import lobby_op_frame, tables_request


class LobbyRequests:
    """Lobby operations over `_request` (see docs/protocol.md for the ops and their codes)."""

    if TYPE_CHECKING:  # provided by Client

        async def _request(self, msg: dict[str, Any], timeout: float = 15.0) -> Reply: ...

    async def _lobby(self, op: str, **args: Any) -> Reply:
        return await self._request(lobby_op_frame(op, args))

    async def take_seat(self, name: str, seat: int | None = None) -> Reply:
        return await self._lobby("sit", name=name, seat=seat)

    async def leave(self) -> Reply:
        return await self._lobby("leave")

    async def ready(self, flag: bool = True) -> Reply:
        return await self._lobby("ready", ready=flag)

    async def chat(self, text: str) -> Reply:
        return await self._lobby("chat", text=text)

    async def add_bot(self, level: str = "random", seat: int | None = None) -> Reply:
        return await self._lobby("add_bot", level=level, seat=seat)

    async def remove_bot(self, seat: int) -> Reply:
        return await self._lobby("remove_bot", seat=seat)

    async def set_options(self, options: dict[str, Any]) -> Reply:
        return await self._lobby("options", options=options)

    async def set_clocks(self, clocks: dict[str, Any]) -> Reply:
        return await self._lobby("clocks", clocks=clocks)

    async def start(self) -> Reply:
        return await self._lobby("start")

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self._request(tables_request())
        return list(reply.data) if reply.ok and reply.data else []
