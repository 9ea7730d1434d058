"""`modernart stats`: your games on this machine, counted: played, won, the average final
money, by player count, by variant and by opponent (bot level or person), from the saved
games (cli/stats.py)."""

from __future__ import annotations

import argparse
import json

from modernart.cli.i18n import _
from modernart.cli.language_options import add_language_arguments, apply_language_arguments
from modernart.cli.subcommands import Subcommands
from modernart.net import user_dirs


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "stats",
        help="your games on this machine: played, won, average money, by players, variant and opponent",
        description="Count the finished games you played on this machine (the journals and records in the "
        "games directory, and your clients' own copies): games played and won and the average final money, "
        "in all and by player count, by variant (edition, deck and rule options) and by opponent (a bot level, "
        "or a person).",
    )
    p.add_argument(
        "--record-dir",
        default=None,
        metavar="DIR",
        help=f"where the hosts' journals and records are (default {user_dirs.games_dir()})",
    )
    p.add_argument(
        "--config-dir",
        default=None,
        help="where your player key (and your clients' copies of games, in state/games) live "
        "(default: the user's config directory)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_language_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    from modernart.net.trust.identity import Keys

    from modernart.cli.saved_games import saved_games
    from modernart.cli.stats import game_dirs, my_finished_games, report, tally

    me = Keys.load_or_create(args.config_dir, "player").vk.hex()
    dirs = game_dirs(args.config_dir, args.record_dir)
    stats = tally(my_finished_games(saved_games(dirs), me))
    if args.json:

        def plain(t) -> dict:
            return {"played": t.played, "won": t.won, "average_money": round(t.average, 2)}

        print(
            json.dumps(
                {
                    "all": plain(stats.total),
                    "by_players": {str(n): plain(t) for n, t in sorted(stats.by_players.items())},
                    "by_variant": {v: plain(t) for v, t in sorted(stats.by_variant.items())},
                    "by_opponent": {k: plain(t) for k, t in sorted(stats.by_opponent.items())},
                },
                indent=1,
            )
        )
        return 0
    print(_("Your games on this machine ({where}):").format(where=", ".join(map(str, dirs))))
    for line in report(stats):
        print(line)
    return 0
