"""`modernart play` through the protocol: a host with bot clients in a child process on
127.0.0.1, and this client joining it as a normal player.

The child (`python -m cli.tui.host_game SETTINGS_JSON`) runs `net.host.Host` with one
table, seats the bots (seats 2..n; you take seat 1), writes one JSON line per fact to
stdout ({"join": ...}, then {"record": ...} when the game is saved) and stops when its
stdin closes, so it never outlives the client.  A separate process keeps a searching bot
from freezing the screen, and the table works exactly as it does on the LAN.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class HostGameSettings:
    players: int = 4
    levels: list[str] = field(default_factory=lambda: ["random"] * 3)
    table_name: str = "Modern Art"
    options: dict[str, Any] = field(default_factory=dict)
    open_seconds: float = 10.0
    decision_seconds: float | None = None
    bot_pace: float = 1.0
    journal_dir: str | None = None
    config_dir: str | None = None
    autostart: bool = True


class HostProcess:
    """The child process hosting the table; `join_string` once started, `record_path` once saved."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.join_string: str | None = None
        self.record_path: str | None = None
        self.on_record = None  # called with the path once the record is saved
        self._reader: asyncio.Task | None = None

    @classmethod
    async def start(cls, settings: HostGameSettings, *, timeout: float = 20.0, log_path: str | None = None):
        stderr = open(log_path, "ab") if log_path else asyncio.subprocess.DEVNULL
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "modernart.cli.tui.child_host",
                json.dumps(asdict(settings)),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
                cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            )
        finally:
            if log_path:
                stderr.close()  # type: ignore[union-attr]
        host = cls(proc)
        try:
            async with asyncio.timeout(timeout):  # not wait_for: see net/clocks.wait_event
                line = await proc.stdout.readline()  # type: ignore[union-attr]
            host.join_string = json.loads(line)["join"]
        except (asyncio.TimeoutError, ValueError, KeyError) as exc:
            await host.close()
            raise RuntimeError(f"the local host did not start ({exc!r}); see {log_path or 'its log'}") from None
        host._reader = asyncio.get_running_loop().create_task(host._read())
        return host

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            try:
                fact = json.loads(line)
            except ValueError:
                continue
            if "record" in fact:
                self.record_path = fact["record"]
                if self.on_record is not None:
                    self.on_record(self.record_path)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.proc.returncode is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # the child stops when its stdin closes
            try:
                async with asyncio.timeout(5):
                    await self.proc.wait()
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def play_session(settings: HostGameSettings, name: str, *, log_path: str | None = None):
    """Start the child host and a `NetSession` that will sit in seat 1 (and say ready)."""
    from modernart.cli.tui.net_session import NetSession

    host = await HostProcess.start(settings, log_path=log_path)
    session = NetSession(host.join_string, name=name, config_dir=settings.config_dir, seat=0, ready=settings.autostart)

    def saved(path: str) -> None:
        session.record_path = path
        session.changed()

    host.on_record = saved
    session.ends_when_you_leave = True  # the host stops with this client
    return host, session


# ---------------------------------------------------------------------- the child


async def _child(settings: HostGameSettings) -> int:
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys
    from modernart.net.host.lobby import Lobby
    from modernart.rules import RuleOptions

    keys = Keys.load_or_create(settings.config_dir, "host")
    host = Host(keys, bind="127.0.0.1", port=0, bot_pace=settings.bot_pace)
    clocks = ClockSettings(open_countdown=settings.open_seconds, decision=settings.decision_seconds or 0)
    lobby = Lobby(RuleOptions.from_dict(settings.options), clocks)
    table = host.open_table(
        settings.table_name, journal_dir=settings.journal_dir, lobby=lobby, autostart=settings.autostart
    )
    await host.start()
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def watch_stdin() -> None:
        await reader.read()
        stdin_closed.set_result(None)

    watcher = loop.create_task(watch_stdin())
    try:
        print(json.dumps({"join": str(host.target(table.id))}), flush=True)
        if settings.autostart:  # seat the bots once the person sits, or three bots would start alone
            while table.lobby.seats[0] is None and not stdin_closed.done():
                await asyncio.wait([stdin_closed], timeout=0.05)
        for seat, level in enumerate(settings.levels, start=1):
            _seat, token = table.lobby.add_bot(None, level, seat=seat)
            host.spawn_bot(table, token, level)
        while not stdin_closed.done():
            if table.record_path is not None:
                print(json.dumps({"record": table.record_path}), flush=True)
                await stdin_closed
                break
            await asyncio.wait([stdin_closed], timeout=0.25)
        return 0
    finally:
        watcher.cancel()
        await host.close()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    settings = HostGameSettings(**json.loads(argv[0]))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    return asyncio.run(_child(settings))


if __name__ == "__main__":
    raise SystemExit(main())
