"""The client's lobby requests: seats, ready marks, chat, and the admin's bots, options,
clocks and start.  Each returns the host's `Reply` (`Client` offers them as its own)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from modernart.net.client.state import Reply
from modernart.net.protocol.frames import lobby_op_frame, tables_request

#: Sends a request frame and waits for its reply (net/client/requests.py)
Request = Callable[[dict[str, Any]], Awaitable[Reply]]


class LobbyRequests:
    """Lobby operations over a request function (see docs/protocol.md for the ops and their codes)."""

    def __init__(self, request: Request) -> None:
        self.request = request

    async def op(self, op: str, **args: Any) -> Reply:
        return await self.request(lobby_op_frame(op, args))

    async def take_seat(self, name: str, seat: int | None = None) -> Reply:
        return await self.op("sit", name=name, seat=seat)

    async def leave(self) -> Reply:
        return await self.op("leave")

    async def ready(self, flag: bool = True) -> Reply:
        return await self.op("ready", ready=flag)

    async def chat(self, text: str) -> Reply:
        return await self.op("chat", text=text)

    async def add_bot(self, level: str = "random", seat: int | None = None) -> Reply:
        return await self.op("add_bot", level=level, seat=seat)

    async def remove_bot(self, seat: int) -> Reply:
        return await self.op("remove_bot", seat=seat)

    async def remove(self, fpr: str) -> Reply:
        """The admin removes the seated person, bot or watcher whose key has fingerprint `fpr`."""
        return await self.op("remove", fpr=fpr)

    async def lock(self, flag: bool = True) -> Reply:
        """The admin locks the table to the keys seated (False: opens it again)."""
        return await self.op("lock", lock=flag)

    async def set_options(self, options: dict[str, Any]) -> Reply:
        return await self.op("options", options=options)

    async def set_clocks(self, clocks: dict[str, Any]) -> Reply:
        return await self.op("clocks", clocks=clocks)

    async def start(self) -> Reply:
        return await self.op("start")

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self.request(tables_request())
        return list(reply.data) if reply.ok and reply.data else []
