"""`modernart resume`: the unfinished games of this machine, and continuing one.

Every game `modernart play` and `modernart host` start is journaled as it is played, by
default in the user's games directory (`user_dirs.games_dir()`).  `modernart resume` lists
the unfinished ones this player sits in (newest first) and, in a terminal, asks which to
continue; `modernart resume N` (its number in that list) or `modernart resume JOURNAL`
continues one at once.  A game of `modernart play` is hosted again on this machine, its bots
included, and this client takes its seat again; a game of a LAN table (`modernart host`, its
hands hidden from the host or not) is hosted again here as `modernart host --resume JOURNAL`
would (`--host-flags` adds that command's flags, e.g. its address).  `modernart play`
offers the newest unfinished game of this machine before starting a new one
(`offer_to_continue`).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import TYPE_CHECKING

from modernart.cli.cmd_play import default_name
from modernart.cli.i18n import _
from modernart.cli.invocation import program
from modernart.cli.language_options import apply_language_arguments
from modernart.cli.screen_options import ScreenOptions, add_screen_arguments
from modernart.cli.local_table import run_table, search_dirs, settings_for, your_unfinished_games
from modernart.cli.subcommands import Subcommands
from modernart.net import user_dirs

if TYPE_CHECKING:  # the engine is imported only when a game is read
    from modernart.cli.saved_games import SavedGame


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "resume",
        help="list your unfinished games and continue one",
        description="List the unfinished games you play in on this machine (newest first) and continue "
        "one: a game of `modernart play` is hosted here again, its bots included, and you take your seat "
        "again; a LAN table's game is hosted here again, as `modernart host --resume JOURNAL` would.",
    )
    p.add_argument(
        "game",
        nargs="?",
        default=None,
        metavar="N|JOURNAL",
        help="the game to continue: its number in the list, or its journal file (default: ask)",
    )
    p.add_argument("--list", action="store_true", help="only list the unfinished games, continue none")
    p.add_argument(
        "--record-dir",
        default=None,
        metavar="DIR",
        help=f"where to look for journals (default {user_dirs.games_dir()}, where play and host journal games)",
    )
    p.add_argument(
        "--config-dir",
        default=None,
        help="where your player key and the host key live (default: the user's config directory)",
    )
    p.add_argument("--name", default=None, help="your name, if asked (default: your login name)")
    p.add_argument("--offline", action="store_true", help="host the game inside this process (no child process)")
    p.add_argument(
        "--host-flags",
        default="",
        metavar="FLAGS",
        help="for a LAN table's game: more flags of `modernart host --resume`, as one string "
        '(e.g. "--bind 192.168.1.5 --no-beacon")',
    )
    add_screen_arguments(p)
    p.set_defaults(func=run)


def listing(games: list[SavedGame], config_dir: str | None) -> list[str]:
    """The numbered lines `modernart resume` prints."""
    from modernart.net.trust.identity import Keys

    me = Keys.load_or_create(config_dir, "player").vk.hex()
    lines = []
    for number, game in enumerate(games, 1):
        lines.append(f"{number:>2}. {game.describe(game.seat_of(me))}")
        lines.append(f"    {game.path}")
        if not game.local:
            lines.append(
                "    "
                + _("a LAN table: continue it with: {program} host --resume {path}").format(
                    program=program(), path=shlex.quote(game.path)
                )
            )
    return lines


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    games = your_unfinished_games(args.record_dir, args.config_dir)
    where = ", ".join(search_dirs(args.record_dir))
    if args.game is None:
        if not games:
            print(_("modernart: no unfinished game of yours in {where}").format(where=where))
            return 0
        print(_("Your unfinished games (newest first):"))
        for line in listing(games, args.config_dir):
            print(line)
        if args.list or not (sys.stdin.isatty() and sys.stdout.isatty()):
            print(_("Continue one with: {program} resume N").format(program=program()))
            return 0
        chosen = ask_which(games)
        if chosen is None:
            return 0
    else:
        chosen = pick(games, args.game)
        if chosen is None:
            print(
                _(
                    "modernart resume: {game!r} is not one of your unfinished games in {where} (modernart resume lists them)"
                ).format(game=args.game, where=where),
                file=sys.stderr,
            )
            return 2
        if args.list:
            print("\n".join(listing([chosen], args.config_dir)))
            return 0
    if not chosen.local:
        return host_again(chosen, args)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(_("modernart resume needs a terminal (over SSH, use: ssh -t HOST modernart resume)"), file=sys.stderr)
        return 2
    return run_table(
        settings_for(chosen, args.config_dir),
        args.name or default_name(),
        offline=args.offline,
        screen=ScreenOptions.from_args(args),
    )


def host_again(game: SavedGame, args: argparse.Namespace) -> int:
    """Host a LAN table's game again: `modernart host --resume JOURNAL` (in a terminal with
    this player's seat, as `modernart host` runs), with `--host-flags` after it."""
    from modernart.cli import cmd_host

    try:
        extra = shlex.split(args.host_flags)
    except ValueError as exc:
        print(f"modernart resume: --host-flags: {exc}", file=sys.stderr)
        return 2
    argv = ["host", "--resume", game.path, "--journal-dir", os.path.dirname(game.path)]
    for flag, value in (("--config-dir", args.config_dir), ("--player-name", args.name), ("--color", args.color)):
        if value is not None:
            argv += [flag, value]
    if getattr(args, "lang", None):
        argv += ["--lang", args.lang]
    if args.ascii:
        argv.append("--ascii")
    if args.alerts is False:
        argv.append("--no-alerts")
    print(_("A LAN table's game: hosting it again (modernart host --resume {path})").format(path=game.path), flush=True)
    parser = argparse.ArgumentParser(prog="modernart")
    cmd_host.register(parser.add_subparsers())
    try:
        host_args = parser.parse_args(argv + extra)
    except SystemExit as exc:  # argparse said what is wrong with --host-flags
        return int(exc.code or 2)
    return int(host_args.func(host_args) or 0)


def pick(games: list[SavedGame], wanted: str) -> SavedGame | None:
    """The game `wanted` names: its number in the list, or its journal's path."""
    if wanted.isdigit():
        number = int(wanted)
        return games[number - 1] if 1 <= number <= len(games) else None
    real = os.path.realpath(wanted)
    return next((g for g in games if os.path.realpath(g.path) == real), None)


def ask_which(games: list[SavedGame]) -> SavedGame | None:
    """Ask on the terminal which game to continue (Enter: the newest; q: none)."""
    while True:
        try:
            answer = input(_("Continue which game? [1-{last}, Enter: 1, q: none] ").format(last=len(games))).strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "n", "no"):
            return None
        chosen = pick(games, answer or "1")
        if chosen is not None:
            return chosen
        print(_("Type a number from 1 to {last}, or q").format(last=len(games)))
