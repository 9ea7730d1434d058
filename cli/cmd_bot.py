"""`modernart bot JOINSTRING`: play a seat at a table with a bot (its own key, like a person)."""

from __future__ import annotations

import argparse

from modernart.cli.subcommands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "bot",
        help="let a bot take a seat at a table",
        description="Connect to a table as a bot client: take a free seat, say ready, play.",
    )
    p.add_argument("join", help="join string ma://HOST:PORT/KEY[/TABLE]")
    p.add_argument("--level", default="random", help="bot level (default random)")
    p.add_argument("--name", default=None, help="name at the table")
    p.add_argument("--seat", type=int, default=None, help="seat wanted (0-4)")
    p.add_argument("--config-dir", default=None, help="where the bot's key lives")
    p.add_argument("--pace", type=float, default=1.0, help="scale of the bot's thinking pauses (0 = instant)")
    p.add_argument(
        "--seed", type=int, default=None, help="seed of the bot's choices, for a repeatable bot (default: random)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from modernart.net.client.bot import main

    argv = [args.join, "--level", args.level, "--pace", str(args.pace)]
    for flag, value in (
        ("--name", args.name),
        ("--seat", args.seat),
        ("--config-dir", args.config_dir),
        ("--seed", args.seed),
    ):
        if value is not None:
            argv += [flag, str(value)]
    return main(argv)
