"""Connect storm: many clients joining one loaded host at once; how each connect ends.

One host process serving one table, its event loop kept busy (`--host-busy`: the share of
each 310 ms it is blocked, as a host of 100 tables under load is), and `--procs` client
processes of `--clients` clients each, their loops kept busy too (50 of every 60 ms), all
connecting at once with a 60 s connect timeout.  It counts how the connects end:
`connected`, `timeout` (no handshake got through in time: the host was too busy), and
`host_key_mismatch`, which must be 0 (every client holds the host's real key: a wrong
key reported is a slow handshake taken for a refused one, docs/protocol.md "Transport").
Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import subprocess
import sys
import time
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--procs", type=int, default=5, help="client processes (default 5)")
    parser.add_argument("--clients", type=int, default=300, help="clients per process (default 300)")
    parser.add_argument(
        "--host-busy", type=float, default=0.3, help="seconds of every 0.31 s the host's loop is blocked"
    )
    parser.add_argument("--role", default="run", help=argparse.SUPPRESS)  # host / clients: the child processes
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--key", default="", help=argparse.SUPPRESS)


async def _busy(seconds: float, every: float) -> None:
    """Block the event loop `seconds` of every `every` (a loaded process)."""
    while True:
        time.sleep(seconds)
        await asyncio.sleep(every - seconds)


async def _host(busy: float) -> None:
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys

    host = Host(Keys.generate(), bind="127.0.0.1", max_watchers=100_000)
    await host.start()
    host.open_table("storm")
    lag = asyncio.get_running_loop().create_task(_busy(busy, busy + 0.01))
    print(json.dumps({"port": host.port, "key": host.keys.curve_public_raw.hex()}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes it
    lag.cancel()
    await host.close()


async def _clients(port: int, key: str, count: int) -> None:
    from modernart.net.client.client import Client, ConnectError
    from modernart.net.lan.address import JoinTarget
    from modernart.net.trust.identity import Keys

    async def one() -> str:
        client = Client(JoinTarget("127.0.0.1", port, bytes.fromhex(key), "t1"), keys=Keys.generate(), spectate=True)
        try:
            await client.connect(timeout=60)
            return "connected"
        except ConnectError as exc:
            return exc.code
        finally:
            await client.close()

    lag = asyncio.get_running_loop().create_task(_busy(0.05, 0.06))
    ends = await asyncio.gather(*(one() for _ in range(count)))
    lag.cancel()
    print(json.dumps(collections.Counter(ends)), flush=True)


def run(args: argparse.Namespace) -> int:
    if args.role == "host":
        asyncio.run(_host(args.host_busy))
        return 0
    if args.role == "clients":
        asyncio.run(_clients(args.port, args.key, args.clients))
        return 0
    me = [sys.executable, "-m", "benchmarks", "handshakes"]
    host = subprocess.Popen(
        [*me, "--role", "host", "--host-busy", str(args.host_busy)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        info = json.loads(host.stdout.readline())
        started = time.monotonic()
        procs = [
            subprocess.Popen(
                [
                    *me,
                    "--role",
                    "clients",
                    "--port",
                    str(info["port"]),
                    "--key",
                    info["key"],
                    "--clients",
                    str(args.clients),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(args.procs)
        ]
        ends: collections.Counter[str] = collections.Counter()
        for proc in procs:
            assert proc.stdout is not None
            ends.update(json.loads(proc.stdout.readline() or "{}"))
            proc.wait(120)
        report: dict[str, Any] = {
            "clients": args.procs * args.clients,
            "ends": dict(ends),
            "seconds": round(time.monotonic() - started, 1),
            "load": open("/proc/loadavg").read().split()[:3] if sys.platform == "linux" else None,
        }
    finally:
        if host.stdin is not None:
            host.stdin.close()
        host.wait(30)
    print(
        json.dumps(report)
        if args.json
        else f"{report['clients']} clients: {report['ends']} in {report['seconds']} s, load {report['load']}"
    )
    return 0 if not ends.get("host_key_mismatch") else 1
