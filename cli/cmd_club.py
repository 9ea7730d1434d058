"""`modernart club`: many tables on this machine, over one worker process per core.

Where `modernart host` serves one table from one process (and the hosting player plays at
it in this terminal), a club serves `--tables` tables behind one port and one beacon, each
table in one of `--workers` processes (net/host/club.py), so that a machine that hosts
many games at once uses every core.  It runs headless: players join with `modernart join`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from modernart.cli.subcommands import Subcommands
from modernart.cli.variant_args import add_variant_arguments, options_from_args
from modernart.net import user_dirs


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "club",
        help="host many tables on the LAN, over every core of this machine",
        description="Open many tables behind one port, each served by one of several worker "
        "processes, and announce them on the LAN. Players join with `modernart join`.",
    )
    p.add_argument("--tables", type=int, default=1, help="tables to open (default 1)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--name", default="Modern Art", help="table name (numbered when there are several)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument("--port", type=int, default=47000, help="TCP port (default 47000; 0 = any free port)")
    p.add_argument("--advertise", default=None, help="address to put in the join strings")
    p.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5),
        default=None,
        help="start each table once this many are seated and ready",
    )
    p.add_argument("--bots", type=int, default=0, help="bots seated at each table")
    p.add_argument("--bot-level", default="medium", help="level of those bots (random, medium, hard)")
    p.add_argument("--bot-pace", type=float, default=1.0, help="scale the bots' thinking pauses (0 = instant)")
    p.add_argument(
        "--resume", metavar="FILE", action="append", default=[], help="also serve again the game of this journal"
    )
    p.add_argument(
        "--journal-dir", default=None, help=f"where journals and records are written (default {user_dirs.games_dir()})"
    )
    p.add_argument("--config-dir", default=None, help=f"where the keys live (default {user_dirs.config_dir()})")
    p.add_argument("--options", default="{}", help="rule options as JSON, on top of --variant")
    add_variant_arguments(p)
    p.add_argument("--clocks", default="{}", help="clocks as JSON, as for `modernart host`")
    p.add_argument("--no-beacon", action="store_true", help="do not announce the tables by UDP broadcast")
    p.add_argument(
        "--beacon-target",
        action="append",
        metavar="ADDR[:PORT]",
        help="send beacons here instead of every interface's broadcast address",
    )
    p.add_argument("--no-hidden-hands", dest="hidden_hands", action="store_false", help="let the club see the hands")
    p.add_argument(
        "--admin-key",
        default=None,
        metavar="KEY",
        help="who runs every table's lobby: a player's public key in hex, or their key file "
        "(without it the tables have no admin and start with --players)",
    )
    p.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from modernart.cli.cmd_host import admin_key
    from modernart.net.host.club_serve import ClubSettings, serve_club
    from modernart.net.host.serve import beacon_targets_from

    try:
        options, clocks = json.loads(args.options), json.loads(args.clocks)
        if not isinstance(options, dict) or not isinstance(clocks, dict):
            raise ValueError("--options and --clocks must be JSON objects")
        options = options_from_args(args, options)
        admin = admin_key(args.admin_key) if args.admin_key else None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        print(f"modernart club: {exc}", file=sys.stderr)
        return 2
    if args.tables < 0 or (args.workers is not None and args.workers < 1):
        print("modernart club: --tables must be at least 0 and --workers at least 1", file=sys.stderr)
        return 2
    settings = ClubSettings(
        name=args.name,
        tables=args.tables,
        workers=args.workers,
        bind=args.bind,
        port=args.port,
        advertise=args.advertise,
        players=args.players,
        bots=args.bots,
        bot_level=args.bot_level,
        bot_pace=args.bot_pace,
        resume=args.resume,
        journal_dir=args.journal_dir,
        config_dir=args.config_dir,
        options=options,
        clocks=clocks,
        beacon=not args.no_beacon,
        beacon_targets=beacon_targets_from(args.beacon_target),
        admin=admin,
        hidden_hands=args.hidden_hands,
        until_stdin_closes=args.until_stdin_closes,
        verbose=bool(getattr(args, "verbose", False)),
    )
    return asyncio.run(serve_club(settings))
