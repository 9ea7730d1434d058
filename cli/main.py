"""The `modernart` command: one subcommand per module `cli/cmd_<name>.py`.

Each command module defines `register(subparsers)`, which adds its parser and sets
`func(args) -> int` as the handler.  Commands import their heavy dependencies lazily so
that `modernart --help` and `modernart replay` start fast, and a command line that names
its command registers that command's module only (`modernart play` never loads `arena`'s
or `replay`'s parser; `modernart --help` and a mistyped command list every one).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

from modernart.net.durable import open_fd
from modernart.net.runtime import choose_event_loop

COMMANDS = ("play", "resume", "host", "club", "join", "replay", "review", "audit", "stats", "arena", "bot")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or with `only` (one of `COMMANDS`) that
    command's alone, the same parser for every command line that names it."""
    parser = argparse.ArgumentParser(
        prog="modernart",
        description="Reiner Knizia's Modern Art: play against bots, host or join a table on the LAN.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="tell the story in the log (debug level)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"modernart.cli.cmd_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"modernart.cli.cmd_{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    return parser


def named_command(argv: list[str]) -> str | None:
    """The command `argv` names, if its first word that is not an option is one of `COMMANDS`
    (the options before it are the program's own, which take no value); None when the
    program's help comes first, which lists every command.

    >>> named_command(["-v", "play", "--offline"]), named_command(["-h", "play"]), named_command(["pley"])
    ('play', None, None)
    """
    for word in argv:
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(only=named_command(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        stream=sys.stderr,
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    choose_event_loop()  # before any command's event loop (net/runtime.py)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # whoever read our output has gone (`modernart replay F | head`): stop quietly, and
        # point stdout at /dev/null so the interpreter's final flush does not complain
        os.dup2(open_fd(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    raise SystemExit(main())
