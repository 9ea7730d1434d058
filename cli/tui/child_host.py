"""`modernart play` through the protocol: a host with bot clients in a child process on
127.0.0.1, and this client joining it as a normal player.

The child (`python -m modernart.cli.tui.child_host SETTINGS_JSON`) runs the in-process host
of cli/tui/in_process_host.py (seating the bots; you take seat 1), writes one JSON line per fact to
stdout ({"join": ...}, {"journal": ...} when the game starts, then {"record": ...} when the
game is saved) and stops when its
stdin closes, so it never outlives the client.  A separate process keeps a searching bot
from freezing the screen, and the table works exactly as it does on the LAN.

Where it is safe (cli/tui/child_process.py `can_fork`: Linux, before `modernart play` has
started its event loop), the child is a fork of the command's process rather than a new
interpreter (`fork_host`): the engine and the network client, which both sides need, are
imported once before it, and then the child imports the host while the parent imports
its screen.  A new interpreter would import them all a second time, which on two shared
cores costs the first frame as much as the host itself (docs/client.md, start-up).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import subprocess
import sys
from dataclasses import asdict

from modernart.cli.tui.child_process import ChildProcess, ForkedProcess, can_fork, fork_child
from modernart.cli.tui.local_game import TableSettings
from modernart.net.runtime import choose_event_loop, when_stdin_closes

log = logging.getLogger(__name__)


class HostProcess:
    """The child process hosting the table; `join_string` once started, `journal_path` once
    the game runs, `record_path` once saved."""

    def __init__(self, proc: ChildProcess) -> None:
        self.proc = proc
        self.join_string: str | None = None
        self.journal_path: str | None = None
        self.record_path: str | None = None
        self.on_record = None  # called with the path once the record is saved
        self.log_path: str | None = None  # where its stderr goes
        self._reader: asyncio.Task | None = None

    @classmethod
    async def launch(
        cls, settings: TableSettings, *, log_path: str | None = None, forked: ForkedProcess | None = None
    ) -> "HostProcess":
        """Start the child and return at once: it boots (imports the host, opens the table)
        while this process goes on (`modernart play` loads its screen meanwhile);
        `await joined()` then waits for its join string.  `forked`: the child `fork_host`
        started for these settings before the event loop ran, taken over instead."""
        if forked is not None:
            host = cls(ChildProcess(forked, asyncio.get_running_loop()))
            host.log_path = log_path
            return host
        stderr = open(log_path, "ab") if log_path else subprocess.DEVNULL
        try:
            proc = await ChildProcess.start(
                [sys.executable, "-m", "modernart.cli.tui.child_host", json.dumps(asdict(settings))],
                stderr=stderr,
                cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            )
        finally:
            if log_path:
                stderr.close()  # type: ignore[union-attr]
        host = cls(proc)
        host.log_path = log_path
        return host

    async def joined(self, timeout: float = 20.0) -> None:
        """Wait until the child has said its join string (RuntimeError, child stopped, if it
        does not within `timeout`), then follow its output."""
        try:
            async with asyncio.timeout(timeout):  # not wait_for: see net/clocks.wait_event
                while self.join_string is None:  # a resumed game's journal may be told first
                    fact = json.loads(await self.proc.readline())
                    self.journal_path = fact.get("journal", self.journal_path)
                    self.join_string = fact.get("join") if "journal" not in fact else None
                    if not fact:
                        raise KeyError("join")
        except (asyncio.TimeoutError, ValueError, KeyError) as exc:
            await self.close()
            raise RuntimeError(f"the local host did not start ({exc!r}); see {self.log_path or 'its log'}") from None
        self.follow_output()

    @classmethod
    async def start(cls, settings: TableSettings, *, timeout: float = 20.0, log_path: str | None = None):
        """`launch`, then `joined`: the child host, once it serves."""
        host = await cls.launch(settings, log_path=log_path)
        await host.joined(timeout)
        return host

    def follow_output(self) -> None:
        """Read the child's facts (its record, once saved) until its stdout closes."""
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while line := await self.proc.readline():
            try:
                fact = json.loads(line)
            except ValueError:
                continue
            if "journal" in fact:
                self.journal_path = fact["journal"]
            if "record" in fact:
                self.record_path = fact["record"]
                if self.on_record is not None:
                    self.on_record(self.record_path)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.proc.returncode is None:
            self.proc.close_stdin()  # the child stops when its stdin closes
            try:
                async with asyncio.timeout(5):
                    await self.proc.wait()
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()


# ---------------------------------------------------------------------- the child


async def _child(settings: TableSettings) -> int:
    from modernart.cli.tui.in_process_host import InProcessHost

    here = await InProcessHost.start(settings)
    here.on_record = lambda path: print(json.dumps({"record": path}), flush=True)
    here.on_journal = lambda path: print(json.dumps({"journal": path}), flush=True)
    gone = asyncio.Event()
    when_stdin_closes(asyncio.get_running_loop(), gone.set)
    try:
        print(json.dumps({"join": here.join_string}), flush=True)
        await gone.wait()  # the client closed our stdin: it has gone
        return 0
    finally:
        await here.close()


def serve_until_stdin_closes(settings: TableSettings) -> int:
    """The child's whole life: host the table of `settings` until its stdin closes."""
    # force: a forked child has its parent's log handler, at its level (cli/main.py)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s", force=True)
    choose_event_loop()
    return asyncio.run(_child(settings))


#: What both the child host and its parent import, loaded before `fork_host` forks: the
#: network client (with the engine, the protocol, ZeroMQ and the signatures); the host's
#: bots play through it, and the person's client is one
SHARED_MODULES = ("modernart.net.client.client",)


def fork_host(settings: TableSettings, *, log_path: str | None = None) -> ForkedProcess | None:
    """Start the child host of `settings` as a fork of this process, where that is safe
    (`can_fork`: call it before any event loop or thread runs), else None (then `launch`
    starts a new interpreter).  `HostProcess.launch(..., forked=...)` takes it over."""
    if not can_fork():
        return None
    for module in SHARED_MODULES:
        importlib.import_module(module)
    return fork_child(lambda: serve_until_stdin_closes(settings), stderr_path=log_path)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return serve_until_stdin_closes(TableSettings(**json.loads(argv[0])))


if __name__ == "__main__":
    raise SystemExit(main())
