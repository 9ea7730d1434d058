"""Running a club process: what `modernart club` calls (net/host/club.py is the club).

`serve_club(settings)` starts the club's workers, opens its tables (or resumes them from
their journals), announces them on the LAN, prints each table's join string and code,
and runs until interrupted (Ctrl-C, SIGTERM, SIGHUP, Ctrl-Break: those the platform has,
net/runtime.py) or, with `until_stdin_closes`, until its stdin closes.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from modernart.net.clocks import cancel_and_wait
from modernart.net.host.club import Club
from modernart.net.host.serve import DEFAULT_PORT, default_journal_dir, host_keys
from modernart.net.lan.beacon import Announcer
from modernart.net.lan.interfaces import lan_addresses
from modernart.net.runtime import on_stop_signals, when_stdin_closes


@dataclass
class ClubSettings:
    name: str = "Modern Art"
    tables: int = 1
    workers: int | None = None  # None: one per core
    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    advertise: str | None = None
    players: int | None = None  # each table starts once this many are seated and ready
    bots: int = 0  # bots the club seats at each table
    bot_level: str = "medium"
    bot_pace: float = 1.0
    resume: list[str] = field(default_factory=list)  # journals of tables to serve again
    journal_dir: str | None = None
    config_dir: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    clocks: dict[str, Any] = field(default_factory=dict)
    beacon: bool = True
    beacon_targets: list[tuple[str, int]] | None = None
    admin: bytes | None = None  # the key that runs every table's lobby (None: no admin)
    hidden_hands: bool = True
    until_stdin_closes: bool = False
    fsync: bool = True
    verbose: bool = False


async def serve_club(
    settings: ClubSettings, *, ready: Callable[[Club, list[str]], None] | None = None, out: Any = sys.stdout
) -> int:
    keys = host_keys(settings.config_dir)
    if keys is None:
        return 2
    reachable = lan_addresses() if settings.bind in ("0.0.0.0", "*") else []
    club = Club(
        keys,
        workers=settings.workers,
        bind=settings.bind,
        port=settings.port,
        advertise=settings.advertise or (reachable[0] if reachable else None),
        also_at=reachable,
        bot_pace=settings.bot_pace,
        verbose=settings.verbose,
    )
    await club.start()
    tasks: list[asyncio.Task[Any]] = []
    try:
        ids = []
        for path in settings.resume:
            try:
                ids.append(await club.resume_table(path, fsync=settings.fsync))
            except (OSError, ValueError) as exc:
                print(f"modernart club: cannot resume {path}: {exc}", file=sys.stderr)
                return 2
        journal_dir = settings.journal_dir or default_journal_dir(settings.config_dir)
        for i in range(settings.tables):
            ids.append(
                club.open_table(
                    settings.name if settings.tables == 1 else f"{settings.name} {i + 1}",
                    journal_dir=journal_dir,
                    options=settings.options,
                    clocks=settings.clocks,
                    admin=settings.admin,
                    first_to_sit_admin=False,  # the admin is the key named, never whoever sits first
                    autostart=settings.players if settings.players is not None else False,
                    fsync=settings.fsync,
                    hidden_hands=settings.hidden_hands,
                    bots=[settings.bot_level] * settings.bots,
                )
            )
        print(f"club of {len(ids)} tables on port {club.port}, {club.count} worker processes", file=out)
        for table_id in ids:
            target = club.target(table_id)
            print(f"table {table_id}: join string {target}  join code {target.code}", file=out)
        out.flush()
        if settings.beacon:
            announcer = Announcer(club.infos, club.port, keys.curve_public_raw, settings.beacon_targets)
            tasks.append(asyncio.get_running_loop().create_task(announcer.run()))
        if ready is not None:
            ready(club, ids)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        on_stop_signals(loop, stop.set)
        if settings.until_stdin_closes:
            when_stdin_closes(loop, stop.set)
        await stop.wait()
        return 0
    finally:
        try:
            await cancel_and_wait(tasks)
        finally:
            await club.close()
