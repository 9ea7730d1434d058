"""The host's in-process bot clients: lobby bots and stand-ins, each a `BotClient` task
playing through the protocol like any other client (net/client/bot.py), on the host's
ZeroMQ context.  The host keeps each by the seat token it claims with."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from modernart.net.clocks import cancel_and_wait
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys


def bot_table(bot: Any) -> str | None:
    """The table an in-process bot client plays at (None if it does not say)."""
    target = getattr(getattr(bot, "client", None), "target", None)
    return getattr(target, "table", None)


class BotClients:
    """Starts, stops and forgets the in-process bot clients of one host."""

    def __init__(self, router: Router, *, factory: Callable[..., Any] | None, pace: float) -> None:
        self.router = router  # where the bots connect (its join target), on its context
        self.factory = factory  # None: net/client/bot.py's BotClient
        self.pace = pace  # the host's factor (0: tests, benchmarks); each table's `bot_pace` multiplies it
        self.running: dict[bytes, tuple[asyncio.Task[Any], Any]] = {}  # token -> (task, bot client)
        self.stopping: set[asyncio.Task[Any]] = set()  # bots told to stop that have not ended yet
        self.closing = False  # the host is closing: no bot is started any more

    def spawn(self, table: Table, token: bytes, level: str) -> None:
        """Start an in-process bot client that claims a seat (or a stand-in role) with `token`."""
        if self.closing:
            return
        factory = self.factory
        if factory is None:
            from modernart.net.client.bot import BotClient  # the host side runs clients; never the reverse

            factory = BotClient
        bot = factory(
            self.router.target(table.id),
            level=level,
            keys=Keys.generate(),
            token=token,
            pace_scale=self.pace * table.clocks.bot_pace,  # the host's factor times the table's setting
            ctx=self.router.ctx,
        )
        task = asyncio.get_running_loop().create_task(bot.run())
        self.running[token] = (task, bot)
        task.add_done_callback(lambda done: self.ended(token, done))

    def ended(self, token: bytes, task: asyncio.Task[Any]) -> None:
        """A bot whose game is over is forgotten (it holds its whole copy of the game)."""
        entry = self.running.get(token)
        if entry is not None and entry[0] is task:
            del self.running[token]

    def stop(self, token: bytes) -> None:
        entry = self.running.pop(token, None)
        if entry is not None:
            task = entry[0]
            task.cancel()
            self.stopping.add(task)  # `close` waits for it too
            task.add_done_callback(self.stopping.discard)

    def key_of(self, token: bytes) -> bytes | None:
        """The Ed25519 key of the running bot with `token` (None: none runs)."""
        entry = self.running.get(token)
        return entry[1].keys.vk if entry is not None else None

    def tokens_of(self, vk: bytes | None) -> list[bytes]:
        """The tokens of the running bots whose key is `vk`."""
        return [
            t
            for t, (_task, bot) in self.running.items()
            if getattr(bot, "keys", None) is not None and bot.keys.vk == vk
        ]

    def stop_at(self, table: Table) -> None:
        """Stop every bot playing at `table`."""
        for token in [t for t, (_task, bot) in self.running.items() if bot_table(bot) == table.id]:
            self.stop(token)

    def refuse_new(self) -> None:
        """Start no bot from now on (the host is closing)."""
        self.closing = True

    async def close(self) -> None:
        """Stop every bot and wait until each has ended (their clients close on the live context)."""
        self.closing = True
        while self.running or self.stopping:
            tokens, stopping = list(self.running), list(self.stopping)
            # forgotten only once they have ended: a close cancelled meanwhile leaves them known
            await cancel_and_wait([self.running[t][0] for t in tokens] + stopping)
            for token in tokens:
                self.running.pop(token, None)
            self.stopping.difference_update(stopping)  # their own discard may not have run yet
