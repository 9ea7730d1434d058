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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from modernart.cli.i18n import _
from modernart.cli.invocation import program
from modernart.net import user_dirs

if TYPE_CHECKING:  # the engine is imported only when a game is read (`modernart --help` stays quick)
    from modernart.cli.saved_games import SavedGame


def run_table(settings, name: str, *, offline: bool, **screen: Any) -> int:
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
    return asyncio.run(play_table(settings, name, offline=offline, forked=forked, **screen))


async def play_table(
    settings,
    name: str,
    *,
    offline: bool,
    ascii: bool | None,
    color: str,
    alerts: bool | None = None,
    offer: bool = False,
    forked: Any = None,
) -> int:
    """A host with bots on 127.0.0.1 (a child process, or with `offline` this one) for the
    table of `settings` (a new one, or the game it resumes); this client joins it as seat 1.
    With `offer`, the newest unfinished game of this machine is offered first
    (`offer_to_continue`).  `forked`: the child host already forked for `settings`
    (`run_table`).  Once the screen is gone, says on the shell where the game is: its
    record, or how to continue it."""
    try:
        if offline:
            from modernart.cli.tui.in_process_host import play_here

            settings = (offer_to_continue(settings) if offer else None) or settings
            here, session = await play_here(settings, name)
            host: Any = here
        else:
            # the child boots (the host's imports, keys, table) while this process looks for
            # an unfinished game and loads its own screen: the start-ups overlap instead of
            # adding up.  Until this client joins, the child has started no game and written
            # nothing, so it is simply stopped if an unfinished game is continued instead.
            from modernart.cli.tui.child_host import HostProcess, session_at
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
            session = session_at(child, settings, name)
            host = child
    except (RuntimeError, OSError, ValueError) as exc:
        print(_("modernart play: {error}; try --offline").format(error=exc), file=sys.stderr)
        return 1
    from modernart.cli.tui.app import run_client_async

    try:
        code = await run_client_async(session, ascii=ascii, color=color, alerts=alerts)
    finally:
        await host.close()
    print(after_words(session, host.journal_path, resumable=not (offline and settings.config_dir is None)))
    return code


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


def settings_for(game: SavedGame, config_dir: str | None):
    """The `HostGameSettings` that continue `game` on this machine."""
    from modernart.cli.tui.local_game import HostGameSettings

    return HostGameSettings(
        players=len(game.players),
        levels=[],
        table_name=game.table_name,
        journal_dir=os.path.dirname(game.path),
        config_dir=config_dir,
        autostart=False,
        resume=game.path,
    )


def offer_to_continue(settings):
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
