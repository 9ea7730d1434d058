"""Running a host process: what `modernart host` calls (the UI can call it too).

`serve(settings)` opens one table (or resumes one from its journal), announces it on the
LAN, prints the join string and join code, and runs until interrupted (Ctrl-C, SIGTERM,
SIGHUP, Ctrl-Break: those the platform has, net/runtime.py), with `until_stdin_closes`
until its stdin closes (how a parent process stops it on every platform), or with
`exit_when_over` until the game ends and its record is saved.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from modernart.rules import RuleOptions

from modernart.net import user_dirs

from modernart.net.lan.beacon import PORT as BEACON_PORT, Announcer
from modernart.net.lan.interfaces import lan_addresses
from modernart.net.runtime import on_stop_signals, when_stdin_closes
from modernart.net.clocks import ClockSettings, cancel_and_wait, wait_event
from modernart.net.host.host import Host
from modernart.net.trust.identity import Keys
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table

log = logging.getLogger("modernart.net.host.serve")
DEFAULT_PORT = 47000


@dataclass
class HostSettings:
    name: str = "Modern Art"
    bind: str = "0.0.0.0"
    port: int | None = None  # None: DEFAULT_PORT, or the port of the game being resumed
    advertise: str | None = None
    players: int | None = None  # quick start: start as soon as this many are seated and ready
    bots: int = 0  # bots the host seats itself
    bot_level: str = "medium"
    bot_pace: float = 1.0
    resume: str | None = None
    journal_dir: str | None = None
    config_dir: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    clocks: dict[str, Any] = field(default_factory=dict)
    beacon: bool = True
    beacon_targets: list[tuple[str, int]] | None = None
    exit_when_over: bool = False
    admin: bytes | None = None  # Ed25519 key of the hosting player's own client (None: the table has no admin)
    until_stdin_closes: bool = False  # stop once stdin ends: the parent process has gone or stops us
    fsync: bool = True
    # hands hidden even from this host (docs/fair-play.md "The hidden deck"): on for LAN tables
    hidden_hands: bool = True
    # the host runs the process's garbage collection (net/host/quiet_gc.py): for a process that
    # is a host and nothing else (not one that also runs SSH guests' screens)
    quiet_gc: bool = True


def host_keys(config_dir: str | None, err: Any = None) -> Keys | None:
    """The host's keys from `config_dir` (made on first use), or None after one line on
    `err` saying why they cannot be read (a corrupt or unreadable `host.key`).  A key file
    that other users may read is used, with a warning: whoever reads it can pose as this
    host to every player who trusts it."""
    import stat

    from modernart.net.trust.identity import config_dir as config_path

    err = err or sys.stderr
    path = config_path(config_dir) / "host.key"
    try:
        keys = Keys.load_or_create(config_dir, "host")
        mode = os.stat(path).st_mode
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"modernart host: cannot use the host key ({exc}); move {path} away to make a new key", file=err)
        return None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        print(
            f"modernart host: warning: {path} may be read by other users of this machine (mode "
            f"{stat.S_IMODE(mode):04o}), who could then pose as this host; chmod 600 {path}",
            file=err,
        )
    return keys


def default_journal_dir(config_dir: str | None) -> str:
    """`<config dir>/games` for a host given its own config dir, else the user's games dir."""
    return os.path.join(config_dir, "games") if config_dir else str(user_dirs.games_dir())


def _journal_port(path: str) -> Any:
    """The port a journal's game was played on (`journal_meta`)."""
    return journal_meta(path, "port")


def journal_meta(path: str, name: str) -> Any:
    """A journal's table setting `name` (its port, its table id): from its header, or before
    the deal (no header yet: a hidden-hands table shuffles first) from its first event's
    host-only meta."""
    from modernart.net.host.journal import read_events, read_journal
    from modernart.record import RecordError

    try:
        return read_journal(path).meta.get(name)
    except RecordError:
        first = next(iter(read_events(path)), None)
        hidden = first[8] if isinstance(first, list) and len(first) > 8 else None
        if not isinstance(hidden, dict) or not isinstance(hidden.get("meta"), dict):
            raise
        return hidden["meta"].get(name)


def _first_table(host: Host, keys: Keys, settings: HostSettings) -> Table | None:
    """The table the command serves: the journal resumed, or a new table with the command's
    rules, clocks and admin (None: the journal cannot be continued, said on stderr)."""
    if settings.resume:
        try:
            table = Table.resume(settings.resume, keys, host.clock.now(), fsync=settings.fsync)
        except (OSError, ValueError) as exc:
            print(f"modernart host: cannot resume {settings.resume}: {exc}", file=sys.stderr)
            return None
        host.add_table(table)
        return table
    lobby = Lobby(
        RuleOptions.from_dict(settings.options),
        ClockSettings.from_dict(settings.clocks),
        admin=settings.admin,
        first_to_sit_admin=False,  # the admin is the key named, never whoever sits first
    )
    return host.open_table(
        settings.name,
        journal_dir=settings.journal_dir or default_journal_dir(settings.config_dir),
        lobby=lobby,
        autostart=settings.players if settings.players is not None else False,
        fsync=settings.fsync,
        hidden_hands=settings.hidden_hands,
    )


def _tell_join(host: Host, table: Table, out: Any) -> None:
    """The lines a player (or the program that started the host) reads to join the table."""
    target = host.target(table.id)
    print(f"table {table.name!r} ({table.phase})", file=out)
    print(f"join string: {target}", file=out)
    for other in host.router.other_targets(table.id):  # the same table on another interface
        print(f"or:          {other}", file=out)
    print(f"join code:   {target.code}", file=out)
    out.flush()


async def _until_stopped(table: Table, settings: HostSettings, out: Any) -> None:
    """Serve until a signal, stdin closing (`--until-stdin-closes`) or, with
    `--exit-when-over`, the record saved; the journal's path is told when it is known."""
    journal_told: str | None = None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    on_stop_signals(loop, stop.set)
    if settings.until_stdin_closes:
        when_stdin_closes(loop, stop.set)
    while not stop.is_set():
        if table.journal_path != journal_told and table.journal_path:  # resumed, or a game started
            journal_told = table.journal_path
            print(f"journal:     {journal_told}", file=out, flush=True)
        if settings.exit_when_over and table.record_path is not None:
            await asyncio.sleep(0.5)  # let the last events reach the clients
            break
        await wait_event(stop, 0.2)


async def serve(
    settings: HostSettings, *, ready: Callable[[Host, Table], None] | None = None, out: Any = sys.stdout
) -> int:
    keys = host_keys(settings.config_dir)
    if keys is None:
        return 2
    port = settings.port
    if settings.resume:
        try:
            known_port = _journal_port(settings.resume)
        except (OSError, ValueError) as exc:  # a missing, unreadable or corrupt journal
            print(f"modernart host: cannot resume {settings.resume}: {exc}", file=sys.stderr)
            return 2
        if port is None:  # clients come back to the port they knew
            port = known_port
    port = DEFAULT_PORT if port is None else port
    # bound to every interface: the join string names the best address, the lobby the others
    reachable = lan_addresses() if settings.bind in ("0.0.0.0", "*") else []
    advertise = settings.advertise or (reachable[0] if reachable else None)
    host = Host(
        keys,
        bind=settings.bind,
        port=port,
        advertise=advertise,
        also_at=reachable,
        bot_pace=settings.bot_pace,
        quiet_gc=settings.quiet_gc,  # full collections of every table off the event path
    )
    table = _first_table(host, keys, settings)
    if table is None:
        await host.close()
        return 2
    await host.start()
    tasks: list[asyncio.Task] = []
    try:
        if not settings.resume:
            for _ in range(settings.bots):
                _seat, token = table.lobby.add_bot(None, settings.bot_level)
                host.spawn_bot(table, token, settings.bot_level)
        _tell_join(host, table, out)
        if settings.beacon:
            announcer = Announcer(
                lambda: [t.info() for t in host.tables.values()],
                host.port,
                keys.curve_public_raw,
                settings.beacon_targets,
            )
            tasks.append(asyncio.get_running_loop().create_task(announcer.run()))
        if ready is not None:
            ready(host, table)
        await _until_stopped(table, settings, out)
        if table.record_path:
            print(f"record:      {table.record_path}", file=out)
        return 0
    finally:
        try:
            await cancel_and_wait(tasks)
        finally:  # even when cancelled again meanwhile: a context left open blocks the exit
            await host.close()


def beacon_targets_from(text: list[str] | None) -> list[tuple[str, int]] | None:
    if not text:
        return None
    out = []
    for item in text:
        host, _, port = item.partition(":")
        out.append((host, int(port) if port else BEACON_PORT))
    return out
