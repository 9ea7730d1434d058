"""The host's in-process bot clients: lobby bots and stand-ins, each a `BotClient` task
playing through the protocol like any other client (net/client/bot.py), on the host's
ZeroMQ context.  The host keeps each by the seat token it claims with.

At a table that hides hands (docs/fair-play.md "The hidden deck") a lobby bot's key and
its secrets (its deck key, its sealed bids) are kept on the host's disk, beside the
journals (`bot_dir`, mode 0700; each key file 0600), like a person's client keeps its own:
a host killed and resumed starts the same bot again on its own seat (`respawn`), which
reads its deck key from there and plays on (no stand-in could read its cards).  They are
the host's own bots, whose hands are on the host machine anyway; the files go when the
game's record is saved (`forget_bots`)."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any, Callable

from modernart.net.clocks import cancel_and_wait
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys, private_temp_file


def bot_dir(table: Table) -> Path | None:
    """Where the host's own bots of `table` keep their keys and secrets, if the table hides
    hands and has a journal directory (else they keep them in memory only)."""
    if not table.hidden_hands or table.journal_dir is None:
        return None
    return Path(table.journal_dir) / "bots"


def _saved_keys(directory: Path, vk: bytes) -> Keys | None:
    try:
        return Keys.from_json((directory / f"{vk.hex()}.key").read_text(encoding="ascii"))
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        return None


def forget_bots(table: Table, keys: list[bytes]) -> None:
    """Remove the saved keys and secrets of the bots with `keys` (their game is saved)."""
    directory = bot_dir(table)
    if directory is None:
        return
    for vk in keys:
        (directory / f"{vk.hex()}.key").unlink(missing_ok=True)
        shutil.rmtree(directory / vk.hex(), ignore_errors=True)


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
        self.ended_count = 0  # bot clients whose task has ended, ever

    def spawn(self, table: Table, token: bytes, level: str) -> None:
        """Start an in-process bot client that claims a seat (or a stand-in role) with `token`."""
        if self.closing:
            return
        factory = self.factory
        if factory is None:
            from modernart.net.client.bot import BotClient  # the host side runs clients; never the reverse

            factory = BotClient
        keys = Keys.generate()
        directory = bot_dir(table)
        extra: dict[str, Any] = {}
        if directory is not None and token not in table.delegate_tokens:  # a lobby bot at a hidden table
            os.makedirs(directory, mode=0o700, exist_ok=True)
            os.replace(
                private_temp_file(directory / f"{keys.vk.hex()}.key", keys.to_json(), "ascii"),
                directory / f"{keys.vk.hex()}.key",
            )
            extra["state_dir"] = str(directory / keys.vk.hex())
        bot = factory(
            self.router.target(table.id),
            level=level,
            keys=keys,
            token=token,
            pace_scale=self.pace * table.clocks.bot_pace,  # the host's factor times the table's setting
            ctx=self.router.ctx,
            **extra,
        )
        self._run(token, bot)

    def respawn(self, table: Table, vk: bytes, level: str) -> bool:
        """Start again the host's own bot whose key is `vk`, from its saved key and secrets
        (a hidden-hands table whose host was resumed); False if none is saved or it runs."""
        directory = bot_dir(table)
        token = b"respawn:" + vk
        if self.closing or directory is None or token in self.running:
            return False
        keys = _saved_keys(directory, vk)
        if keys is None:
            return False
        factory = self.factory
        if factory is None:
            from modernart.net.client.bot import BotClient

            factory = BotClient
        bot = factory(
            self.router.target(table.id),
            level=level,
            keys=keys,
            pace_scale=self.pace * table.clocks.bot_pace,
            ctx=self.router.ctx,
            state_dir=str(directory / vk.hex()),
        )
        self._run(token, bot)
        return True

    def _run(self, token: bytes, bot: Any) -> None:
        task = asyncio.get_running_loop().create_task(bot.run())
        self.running[token] = (task, bot)
        task.add_done_callback(lambda done: self.ended(token, done))

    def ended(self, token: bytes, task: asyncio.Task[Any]) -> None:
        """A bot whose game is over is forgotten (it holds its whole copy of the game)."""
        self.ended_count += 1  # the garbage collector's cue (net/host/quiet_gc.py)
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
