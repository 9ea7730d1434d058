"""The client's requests and their replies: each request frame gets an id, and the
host's answer with that id (ack, reply, tables or err) resolves it as a `Reply`.

A request never waits past its timeout, nor past a lost connection or the host's
goodbye: those answer every pending request at once (`fail_pending`).
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any, Callable, Coroutine

from modernart.net.client.state import Reply

REQUEST_TIMEOUT = 15.0


class Requests:
    """The requests of one client awaiting their reply."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send  # puts a frame on the client's socket (never blocks)
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[Reply]] = {}

    async def request(self, msg: dict[str, Any], timeout: float = REQUEST_TIMEOUT) -> Reply:
        """Send `msg` with a fresh id and wait for its reply (at most `timeout` seconds)."""
        return await self.begin(msg, timeout)

    def begin(self, msg: dict[str, Any], timeout: float = REQUEST_TIMEOUT) -> Coroutine[Any, Any, Reply]:
        """Send `msg` with a fresh id now, and return what waits for its reply (at most
        `timeout` seconds): a request sent in the middle of a burst leaves at once, not
        once the loop gets round to the task that would send it."""
        request = next(self.ids)
        msg["id"] = request
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.pending[request] = fut
        self.send(msg)
        return self._reply(request, fut, timeout)

    async def _reply(self, request: int, fut: asyncio.Future[Reply], timeout: float) -> Reply:
        try:
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            return Reply(False, "timeout", f"no answer within {timeout:g} s")
        finally:
            self.pending.pop(request, None)

    def waits_for(self, request: Any) -> bool:
        return request in self.pending

    def resolve(self, request: Any, reply: Reply) -> None:
        fut = self.pending.get(request) if isinstance(request, int) else None
        if fut is not None and not fut.done():
            fut.set_result(reply)

    def fail_pending(self, code: str) -> None:
        """Answer every pending request with `code`: the connection was lost, or the host closed."""
        message = "the host closed the table" if code == "host_closed" else "the connection to the host was lost"
        for rid, fut in list(self.pending.items()):
            if not fut.done():
                fut.set_result(Reply(False, code, message))
            del self.pending[rid]

    def close(self) -> None:
        """The client is closed: every pending request is answered so."""
        for fut in self.pending.values():
            if not fut.done():
                fut.set_result(Reply(False, "closed", "the client was closed"))
