"""`modernart join`: list the tables heard on the LAN, or check a join string.

The playing client itself is the terminal UI (cli/tui); this command lists tables
(`--print`) and verifies that a join string or join code reaches a host.
"""

from __future__ import annotations

import argparse
import asyncio
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("join", help="find tables on the LAN or join one",
                       description="List the tables heard on the LAN, or connect to one by join string.")
    p.add_argument("join", nargs="?", default=None, help="join string ma://HOST:PORT/KEY, or a join code")
    p.add_argument("--print", dest="print_only", action="store_true", help="print the tables heard and exit")
    p.add_argument("--listen", type=float, default=2.0, help="seconds to listen for beacons (default 2)")
    p.add_argument("--beacon-port", type=int, default=47999)
    p.add_argument("--config-dir", default=None, help="where your player key lives")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    from net.address import JoinStringError, parse_join_string
    from net.beacon import discover
    from net.client import Client, ConnectError
    from net.identity import normalise_code

    target = None
    if args.join and args.join.startswith("ma://"):
        try:
            target = parse_join_string(args.join)
        except JoinStringError as exc:
            print(f"modernart join: {exc}", file=sys.stderr)
            return 2
    else:
        code = normalise_code(args.join) if args.join else None
        heard = await discover(args.listen, port=args.beacon_port, code=code)
        if args.print_only or code is None:
            if not heard:
                print("no tables heard (use a join string where broadcast does not reach)")
            for h in heard:
                print(f"{h.name!r:24} {h.state:8} seats {h.taken} taken {h.free} free  code {h.code}  {h.target}")
            return 0
        if not heard:
            print(f"modernart join: no table with code {code} heard", file=sys.stderr)
            return 1
        target = heard[0].target
    client = Client(target, config_dir=args.config_dir)
    try:
        await client.connect()
    except ConnectError as exc:
        print(f"modernart join: {exc.message} [{exc.code}]", file=sys.stderr)
        return 1
    table = client.state.table
    print(f"connected to {table.get('name')!r} ({table.get('state')}), code {target.code}")
    for seat in table.get("seats") or []:
        if seat:
            print(f"  seat {seat['seat']}: {seat['name']}{' (bot)' if seat['bot'] else ''}"
                  f"{' ready' if seat['ready'] else ''}")
    print("the full-screen client is started by the terminal UI")
    await client.close()
    return 0
