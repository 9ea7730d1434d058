"""A slow link for tests: a TCP relay on 127.0.0.1 that carries a ZeroMQ connection at a
fixed rate in each direction, as a player's bad Wi-Fi would.

It runs as asyncio tasks in the test's loop: each accepted connection is relayed to the
host's port, each direction through its own pacer, which forwards at most `rate` bytes a
second (in chunks of `CHUNK` bytes, so a frame trickles in as it would on the wire).
Everything is closed by `close()`.
"""

from __future__ import annotations

import asyncio
import contextlib

CHUNK = 512  # bytes forwarded at a time


class SlowLink:
    """A relay from `port` (chosen on `start`) to 127.0.0.1:`to_port`, `rate` bytes a second each way."""

    def __init__(self, to_port: int, rate: float) -> None:
        self.to_port = to_port
        self.rate = rate
        self.port = 0
        self.server: asyncio.base_events.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: list[asyncio.StreamWriter] = []
        self.carried = 0  # bytes forwarded towards the client

    async def start(self) -> "SlowLink":
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.to_port)
        except OSError:
            writer.close()
            return
        self.writers += [writer, up_writer]
        for task in (
            asyncio.ensure_future(self._pace(reader, up_writer, towards_client=False)),
            asyncio.ensure_future(self._pace(up_reader, writer, towards_client=True)),
        ):
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pace(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, towards_client: bool) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time()
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                due = max(due, loop.time()) + len(data) / self.rate
                await asyncio.sleep(max(due - loop.time(), 0.0))
                writer.write(data)
                await writer.drain()
                if towards_client:
                    self.carried += len(data)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def cut(self) -> None:
        """Close every relayed connection now (both ends see it closed)."""
        for writer in self.writers:
            writer.close()
        self.writers = []

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self.cut()
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)
