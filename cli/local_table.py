"""A game on this machine: the host of `modernart play` (a child process, or this one) with
its bots and this player's client, for a new table or an unfinished game continued
(`modernart resume`, and `modernart play`'s offer); and what the shell is told once the
screen is gone: where the record of a finished game is, or how to continue one left
mid-game."""

from __future__ import annotations

import asyncio
import importlib
import os
import shlex
import sys
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from modernart.cli.i18n import _
from modernart.cli.invocation import program
from modernart.cli.screen_options import ScreenOptions
from modernart.net import user_dirs

if TYPE_CHECKING:  # the engine, the host and the screen are imported when a table starts, not before
    from modernart.cli.saved_games import SavedGame
    from modernart.cli.tui.in_process_host import InProcessHost
    from modernart.cli.tui.local_game import TableSettings
    from modernart.cli.tui.net_session import NetSession


def run_table(
    settings: TableSettings, name: str, *, offline: bool, screen: ScreenOptions = ScreenOptions(), offer: bool = False
) -> int:
    """`play_table` in an event loop of its own, for a command: a child host is forked
    first where that is safe (cli/tui/child_host.py `fork_host`), before the loop and its
    threads exist, so that it boots while this process loads the screen.

    A command's table keeps its keys in the user's config directory when it names none,
    hosted in a child or (`offline`) in this process alike: every game of this machine is
    journaled under this machine's host key and your player key, so `modernart resume`
    and `play`'s offer continue it.  (Only a caller of `play_table` that gives no config
    directory, a test, plays with keys kept nowhere.)"""
    settings = replace(settings, config_dir=settings.config_dir or str(user_dirs.config_dir()))
    forked = None
    if not offline:
        from modernart.cli.tui.child_host import fork_host
        from modernart.cli.tui.local_game import host_log_path

        forked = fork_host(settings, log_path=host_log_path())
    return asyncio.run(play_table(settings, name, offline=offline, screen=screen, offer=offer, forked=forked))


async def play_table(
    settings: TableSettings,
    name: str,
    *,
    offline: bool,
    screen: ScreenOptions = ScreenOptions(),
    offer: bool = False,
    forked: Any = None,
) -> int:
    """The table of `settings` started (`LocalTable.start`) and played on this screen until
    the person leaves; then the shell is told where the game is: its record, or how to
    continue it."""
    try:
        table = await LocalTable.start(settings, name, offline=offline, offer=offer, forked=forked)
    except (RuntimeError, OSError, ValueError) as exc:
        print(_("modernart play: {error}; try --offline").format(error=exc), file=sys.stderr)
        return 1
    from modernart.cli.tui.app import run_client_async

    try:
        code = await run_client_async(table.session, screen=screen)
    finally:
        await table.host.close()
    resumable = not (offline and table.settings.config_dir is None)
    print(after_words(table.session, table.host.journal_path, resumable=resumable))
    return code


@dataclass
class LocalTable:
    """A table of this machine, started: its `host` (a child process, cli/tui/child_host.py
    `HostProcess`, or this process's, cli/tui/in_process_host.py `InProcessHost`: both have
    `journal_path`, `record_path` and `close()`), the `session` of this machine's player
    (seat 1), and the `settings` it plays (those of the unfinished game continued instead,
    when one was offered and taken)."""

    host: Any
    session: NetSession
    settings: TableSettings

    @classmethod
    async def start(
        cls, settings: TableSettings, name: str, *, offline: bool, offer: bool = False, forked: Any = None
    ) -> LocalTable:
        """The one place a table of this machine starts (`modernart play` and `resume`): a
        host with bots on 127.0.0.1 for `settings` (a new table, or the game it resumes), in
        a child process or, with `offline`, in this one, and the session of this machine's
        player for seat 1.  With `offer`, the newest unfinished game of this machine is
        offered first (`offer_to_continue`).  `forked`: the child host already forked for
        `settings` (`run_table`).

        In this process, the person's client joins while the screen's modules load
        (`join_while_the_screen_loads`); with a child, the child boots (the host's imports,
        keys, table) while this process looks for an unfinished game and loads its own
        screen: the start-ups overlap instead of adding up.  Until this client joins, the
        child has started no game and written nothing, so it is simply stopped if an
        unfinished game is continued instead."""
        if offline:
            settings = (offer_to_continue(settings) if offer else None) or settings
            here, session = await play_here(settings, name)
            try:
                await join_while_the_screen_loads(session)
            except BaseException:
                await session.close()
                await here.close()
                raise
            return cls(here, session, settings)
        from modernart.cli.tui.child_host import HostProcess
        from modernart.cli.tui.local_game import host_log_path

        child = await HostProcess.launch(settings, log_path=host_log_path(), forked=forked)
        try:
            resumed = offer_to_continue(settings) if offer else None
            if resumed is not None:
                await child.close()
                settings = resumed
                child = await HostProcess.launch(settings, log_path=host_log_path())
            load_the_client()
            await child.joined()
        except BaseException:
            await child.close()
            raise
        assert child.join_string is not None  # joined() has heard it
        return cls(child, player_session(child.join_string, settings, name), settings)


async def play_here(settings: TableSettings, name: str) -> tuple[InProcessHost, NetSession]:
    """Start the host of `settings` in this process and the session of this machine's player
    (`player_session`); the host stops when the client leaves."""
    from modernart.net.trust.identity import Keys

    from modernart.cli.tui.in_process_host import InProcessHost

    # without a config dir nothing is kept: both keys live as long as this table (the host
    # keeps the record in its journal dir; a config dir adds the client's own audited copy)
    ephemeral = settings.config_dir is None
    host = await InProcessHost.start(settings, keys=Keys.generate() if ephemeral else None)
    mine = Keys.generate() if ephemeral else Keys.load_or_create(settings.config_dir, "player")
    if settings.resume is None:
        host.table.lobby.admin = mine.vk  # the player of this machine, never an SSH guest who sits first
    return host, player_session(host.join_string, settings, name, keys=mine)


def player_session(join_string: str, settings: TableSettings, name: str, *, keys: Any = None) -> NetSession:
    """The `NetSession` of this machine's player at its own table: seat 1, ready at once with
    `autostart`, its key `keys` (default: the player key of `settings.config_dir`).

    It notes no known-hosts entry: the join string comes from the host itself (this
    process's, or the child's own output), and names the host's key, which the handshake
    checks; its address is a loopback port of the moment, so an entry would protect no later
    game and only grow the file by a line, written and synced on the start-up path, per game."""
    from modernart.cli.tui.net_session import NetSession

    session = NetSession(
        join_string,
        name=name,
        config_dir=settings.config_dir,
        keys=keys,
        seat=0,
        ready=settings.autostart,
        remembers_host=False,
    )
    session.ends_when_you_leave = True  # the host stops with this client
    session.local_only = True  # 127.0.0.1, no beacon: its join string is of no use to anyone
    return session


async def join_while_the_screen_loads(session: NetSession) -> None:
    """Join the in-process host's table (connect, sit, say ready; the bots are seated
    meanwhile, the seed round and the deal follow) while the screen's modules are imported
    in a worker thread: the join's round trips wait on ZeroMQ's I/O threads and on the
    other seats, and the imports use that time instead of adding to it.  The thread only
    imports (`load_the_client`) and ends; it touches no state.  A refused join is left to
    the screen, which shows why (the session's status says it)."""
    from modernart.cli.tui.session import JoinError

    joining = asyncio.get_running_loop().create_task(session.open())
    try:
        await asyncio.to_thread(load_the_client)
    finally:
        try:
            await joining
        except JoinError:
            pass  # the session says why; the screen shows it


def load_the_client() -> None:
    """Import what the client's first frame needs (its screen, its session and their
    protocol client), so that a child host can boot meanwhile."""
    for module in ("modernart.cli.tui.app", "modernart.cli.tui.net_session", "modernart.net.client.client"):
        importlib.import_module(module)


def after_words(session, journal: str | None, *, resumable: bool) -> str:
    """What the shell is told once the client of a game on this machine exits: the saved
    record and how to see it again, or how to continue an unfinished game."""
    obs = session.obs
    record = session.record_path
    if record is not None:
        return record_words(record)
    if obs is None or journal is None:
        return _("modernart: no game was played")
    if not resumable:
        return _(
            "modernart: the game was journaled in {path}, but --offline without --config-dir keeps no keys, so it cannot be continued"
        ).format(path=journal)
    return _("modernart: the game is saved ({path}).\nContinue it with: {program} resume").format(
        path=journal, program=program()
    )


def record_words(record: str) -> str:
    """The shell's line about a finished game's record: the file the final screen named
    "the record" (the client's own copy), and the command that shows it again."""
    return _(
        "modernart: the game's record is saved in {path}\nSee it again with: {program} replay {path} --view"
    ).format(path=shlex.quote(record), program=program())


def search_dirs(record_dir: str | None) -> list[str]:
    """The directories holding the journals of this machine's games."""
    return [record_dir] if record_dir else [str(user_dirs.games_dir())]


def your_unfinished_games(record_dir: str | None, config_dir: str | None) -> list[SavedGame]:
    """The unfinished games of this machine's player and host keys, newest first."""
    from modernart.net.trust.identity import Keys

    player = Keys.load_or_create(config_dir, "player").vk.hex()
    host = Keys.load_or_create(config_dir, "host").vk.hex()
    from modernart.cli.saved_games import unfinished_games

    return unfinished_games(search_dirs(record_dir), player, host)


def settings_for(game: SavedGame, config_dir: str | None) -> TableSettings:
    """The `TableSettings` that continue `game` on this machine."""
    from modernart.cli.tui.local_game import TableSettings

    return TableSettings(
        players=len(game.players),
        levels=[],
        table_name=game.table_name,
        journal_dir=os.path.dirname(game.path),
        config_dir=config_dir,
        autostart=False,
        resume=game.path,
    )


def offer_to_continue(settings: TableSettings) -> TableSettings | None:
    """Before `modernart play` starts a new game: offer the newest unfinished game of this
    machine (its settings, if the player says yes; None: start the new game)."""
    journal_dir = settings.journal_dir
    games = [g for g in your_unfinished_games(journal_dir, settings.config_dir) if g.local]
    if not games:
        return None
    newest = games[0]
    from modernart.net.trust.identity import Keys

    me = Keys.load_or_create(settings.config_dir, "player").vk.hex()
    print(_("You have an unfinished game: {game}").format(game=newest.describe(newest.seat_of(me))))
    if len(games) > 1:
        print(_("({count} unfinished in all: {program} resume lists them)").format(count=len(games), program=program()))
    try:
        answer = input(_("Continue it? [Y/n] (n: a new game) ")).strip().lower()
    except EOFError:
        return None
    if answer in ("", "y", "yes"):
        return settings_for(newest, settings.config_dir)
    return None
