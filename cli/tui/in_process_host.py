"""The real host (net/host/) inside this process (a table's settings: cli/tui/local_game.py;
`modernart play --offline` starts it through cli/local_table.py `LocalTable.start`).

`modernart play --offline`, `modernart play --ssh`, the client's start-up benchmark and the
client's tests all play at this host: one `net.host.host.Host` bound to 127.0.0.1 on a port
the system chooses, with one table.  People join it through `NetSession` over loopback,
exactly as over the LAN; the host seats its own bots (in-process bot clients, net/client/bot.py),
which search in their own worker threads (`THINKERS`), so a thinking bot never freezes a
screen drawn on the same event loop.  `modernart play` without --offline runs the same
table in a child process instead (cli/tui/child_host.py).

A table whose settings have `deal` set deals those cards, a fixed deal announced to every player
(net/trust/shuffle.py `FixedDeal`); it is given here, in Python, never by a frame.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from modernart.cli.tui.local_game import TableSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys
from modernart.rules import RuleOptions

log = logging.getLogger(__name__)

#: How often the host is looked at for the saved record of a finished game (seconds)
RECORD_POLL = 0.25


class InProcessHost:
    """A running host of this process with its one table.  `await InProcessHost.start(...)`,
    then `await close()`; `join_string` is what a client joins, `record_path` the saved
    record once the game is over (`on_record(path)` is called then)."""

    def __init__(self, host: Host, table: Table, settings: TableSettings) -> None:
        self.host = host
        self.table = table
        self.settings = settings
        self.join_string = str(host.target(table.id))
        self.record_path: str | None = None
        self.on_record: Callable[[str], None] | None = None
        self.on_journal: Callable[[str], None] | None = None  # called once the game's journal exists
        self._seating: asyncio.Task | None = None

    @property
    def journal_path(self) -> str | None:
        """The running (or resumed) game's journal, once the game has started."""
        return self.table.journal_path

    @classmethod
    async def start(cls, settings: TableSettings, *, keys: Keys | None = None, clock: Any = None) -> "InProcessHost":
        """Start the host; `keys` its signing key (default: the host key of `config_dir`);
        `clock` its clock (default: real time; a test's `ManualClock` moves its timers)."""
        keys = keys or Keys.load_or_create(settings.config_dir, "host")
        host = Host(keys, bind="127.0.0.1", port=0, bot_pace=settings.bot_pace, clock=clock)
        if settings.resume is not None:  # raises OSError/ValueError for a journal it cannot continue
            table = host.add_table(Table.resume(settings.resume, keys, host.clock.now()))
        else:
            lobby = Lobby(RuleOptions.from_dict(settings.options), settings.clock_settings)
            table = host.open_table(
                settings.table_name,
                journal_dir=settings.journal_dir,
                lobby=lobby,
                # the number of players to wait for: the bots, seated at once, never start alone
                autostart=settings.players if settings.autostart else False,
                fixed_deal=settings.fixed_deal,
            )
        table.extra_meta["local"] = 1  # a table of this machine: `modernart resume` continues it here
        await host.start()
        here = cls(host, table, settings)
        here.begin_seating()
        return here

    def begin_seating(self) -> None:
        """Seat the bots and watch the table (a task of its own: the host serves meanwhile)."""
        self._seating = asyncio.get_running_loop().create_task(self._seat_bots_and_watch())

    async def _seat_bots_and_watch(self) -> None:
        settings, table = self.settings, self.table
        for seat, level in enumerate(settings.levels if settings.resume is None else [], start=settings.first_bot_seat):
            _seat, token = table.lobby.add_bot(None, level, seat=seat)
            self.host.spawn_bot(table, token, level)  # it connects while the person's client starts
        self.host.fanout.lobby_soon(table)
        told = None
        while table.record_path is None:
            if table.journal_path != told and table.journal_path is not None:
                told = table.journal_path
                if self.on_journal is not None:
                    self.on_journal(told)
            await asyncio.sleep(RECORD_POLL)
        self.record_path = table.record_path
        if self.on_record is not None:
            self.on_record(self.record_path)

    async def close(self) -> None:
        if self._seating is not None:
            self._seating.cancel()
            await asyncio.gather(self._seating, return_exceptions=True)
        await self.host.close()


async def seat_people(
    here: InProcessHost, names: list[str], *, start: bool = True, timeout: float = 10.0, session_class: Any = None
) -> list[Any]:
    """People at `here`'s table (tests, benchmarks): one `NetSession` (or `session_class`)
    each, with a key of its own that is kept nowhere, seated in order (the first is the
    table's host player).  With `start` everyone says ready and the first starts the game;
    returns once every session sees its seat (and with `start`, its hand)."""
    from modernart.cli.tui.net_session import NetSession
    from modernart.cli.tui.session import Status

    make = session_class or NetSession
    sessions = [make(here.join_string, name=name, keys=Keys.generate()) for name in names]
    for session in sessions:
        await session.open()
    async with asyncio.timeout(timeout):
        while not all(s.lobby is not None and s.seat is not None for s in sessions):
            await asyncio.sleep(0.01)
        if start:
            for session in sessions:
                await session.set_ready(True)
            await sessions[0].start()
            while not all(s.obs is not None and s.status == Status.PLAYING for s in sessions):
                await asyncio.sleep(0.01)
    return sessions
