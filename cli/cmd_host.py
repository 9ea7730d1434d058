"""`modernart host`: open a table on this machine (headless for now) or resume one."""

from __future__ import annotations

import argparse
import asyncio
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("host", help="host a table on the LAN",
                       description="Open a table, announce it on the LAN and print its join string and code. "
                                   "Players join with `modernart join`.")
    p.add_argument("--name", default="Modern Art", help="table name shown to players")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument("--port", type=int, default=None,
                   help="TCP port (default 47000, or the resumed game's port; 0 = any free port)")
    p.add_argument("--advertise", default=None, help="address to put in the join string")
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=None,
                   help="quick start: start when this many are seated and ready")
    p.add_argument("--bots", type=int, default=0, help="bots the host seats itself")
    p.add_argument("--bot-level", default="random", help="level of those bots")
    p.add_argument("--bot-pace", type=float, default=1.0, help="scale the bots' thinking pauses (0 = instant)")
    p.add_argument("--resume", metavar="FILE", default=None, help="resume the game of this journal after a crash")
    p.add_argument("--journal-dir", default=None, help="where journals and records are written")
    p.add_argument("--config-dir", default=None, help="where the host key lives (default ~/.config/modernart)")
    p.add_argument("--options", default="{}", help='rule options as JSON, e.g. \'{"double_split": true}\'')
    p.add_argument("--clocks", default="{}",
                   help='clocks as JSON: open_countdown (10), decision (60), grace (30) seconds, 0 = off')
    p.add_argument("--no-beacon", action="store_true", help="do not announce the table by UDP broadcast")
    p.add_argument("--beacon-target", action="append", metavar="ADDR[:PORT]",
                   help="send beacons here instead of every interface's broadcast address")
    p.add_argument("--exit-when-over", action="store_true", help="stop once the game is over and saved")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from net.serve import HostSettings, beacon_targets_from, serve

    settings = HostSettings(
        name=args.name, bind=args.bind, port=args.port, advertise=args.advertise, players=args.players,
        bots=args.bots, bot_level=args.bot_level, bot_pace=args.bot_pace, resume=args.resume,
        journal_dir=args.journal_dir, config_dir=args.config_dir, options=json.loads(args.options),
        clocks=json.loads(args.clocks), beacon=not args.no_beacon,
        beacon_targets=beacon_targets_from(args.beacon_target), exit_when_over=args.exit_when_over)
    return asyncio.run(serve(settings))
