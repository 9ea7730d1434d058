"""`modernart join`: find tables on the LAN and join one, in the full-screen client.

With no argument the join screen lists the tables heard by UDP beacon; a join code joins
the table showing that code as soon as it is heard; a join string `ma://HOST:PORT/KEY`
works where broadcast does not (SSH tunnels, VPNs, other subnets).  `--print` only lists
what it hears; `--check` only connects and prints the table.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from modernart.cli.cmd_play import default_name

from modernart.cli.i18n import _
from modernart.cli.language_options import apply_language_arguments
from modernart.cli.screen_options import ScreenOptions, add_screen_arguments
from modernart.cli.subcommands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "join",
        help="find tables on the LAN and join one",
        description="Join a table: the tables heard on the LAN, a join code, or a join string.",
    )
    p.add_argument("join", nargs="?", default=None, help="join string ma://HOST:PORT/KEY, or a join code")
    p.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    p.add_argument("--print", dest="print_only", action="store_true", help="print the tables heard and exit")
    p.add_argument("--check", action="store_true", help="connect, print the table's seats and exit")
    p.add_argument("--listen", type=float, default=2.0, help="seconds to listen for beacons with --print")
    p.add_argument(
        "--beacon-port",
        type=int,
        default=47999,
        help="UDP port the tables' beacons are heard on (default 47999, where hosts announce)",
    )
    p.add_argument("--config-dir", default=None, help="where your player key lives")
    p.add_argument(
        "--accept-new-host-key",
        action="store_true",
        help="trust a host whose key changed since you last joined it (compare its join code first)",
    )
    add_screen_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    is_string = bool(args.join and args.join.startswith("ma://"))
    if args.print_only or args.check:
        return asyncio.run(_print(args, is_string))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("modernart join: the client needs a terminal (use --print or --check to list tables)", file=sys.stderr)
        return 2
    from modernart.cli.tui.launch import find_and_join, join_table

    name = args.name or default_name()
    if is_string:
        return join_table(
            args.join,
            name=name,
            config_dir=args.config_dir,
            screen=ScreenOptions.from_args(args),
            accept_new_host_key=args.accept_new_host_key,
        )
    return find_and_join(
        name=name,
        config_dir=args.config_dir,
        beacon_port=args.beacon_port,
        code=args.join,
        screen=ScreenOptions.from_args(args),
        accept_new_host_key=args.accept_new_host_key,
    )


def _list(heard, out) -> None:
    for h in heard:
        hidden = "  " + _("hands hidden even from the host") if h.hidden else ""
        seats = _("seats {taken} taken {free} free  code {code}").format(taken=h.taken, free=h.free, code=h.code)
        print(f"{h.name!r:24} {h.state:8} {seats}  {h.target}{hidden}", file=out)


async def _print(args: argparse.Namespace, is_string: bool) -> int:
    from modernart.net.lan.address import JoinStringError, parse_join_string
    from modernart.net.lan.beacon import discover
    from modernart.net.client.client import Client, ConnectError
    from modernart.net.trust.identity import normalise_code

    if is_string:
        try:
            target = parse_join_string(args.join)
        except JoinStringError as exc:
            print(f"modernart join: {exc}", file=sys.stderr)
            return 2
    else:
        code = normalise_code(args.join) if args.join else None
        every = await discover(args.listen, port=args.beacon_port)
        heard = [h for h in every if code is None or h.code == code]
        if code is not None and not heard:
            heard_words = (
                _("modernart join: no table with join code {code} was heard in {seconds} s; the tables heard:")
                if every
                else _(
                    "modernart join: no table with join code {code} was heard in {seconds} s; no table at all was heard"
                    " (a join string works where broadcast does not reach)"
                )
            )
            print(heard_words.format(code=code, seconds=f"{args.listen:g}"), file=sys.stderr)
            _list(every, sys.stderr)
            return 1
        if args.print_only or not heard:
            if not heard:
                print(_("no tables heard (use a join string where broadcast does not reach)"))
            _list(heard, sys.stdout)
            return 0
        target = heard[0].target
    client = Client(target, config_dir=args.config_dir, accept_new_host_key=args.accept_new_host_key)
    try:
        await client.connect()
    except ConnectError as exc:
        hint = " (if you trust the host's new key: --accept-new-host-key)" if exc.code == "host_key_changed" else ""
        print(f"modernart join: {exc.message} [{exc.code}]{hint}", file=sys.stderr)
        return 1
    try:
        try:  # the table's description follows the welcome
            await client.wait_until(lambda st: bool(st.table.get("name")), 5.0)
        except TimeoutError:
            pass  # printed as far as it is known
        table = client.state.table
        print(
            _("connected to {table} ({state}), code {code}").format(
                table=repr(table.get("name")), state=table.get("state"), code=table.get("code") or target.code
            )
        )
        for seat in table.get("seats") or []:
            if seat:
                about = [_("bot")] if seat["bot"] else []
                about += [_("ready")] if seat["ready"] else []
                told = f" ({', '.join(about)})" if about else ""
                print("  " + _("seat {seat}: {name}").format(seat=seat["seat"], name=seat["name"]) + told)
    finally:
        await client.close()
    return 0
