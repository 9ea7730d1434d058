"""`python -m benchmarks memory`: what the host holds whatever its peers do (docs/benchmarks-net.md).

Every part starts its own host process (`python -m benchmarks.memory serve`), on 127.0.0.1,
and reads its RSS from /proc:

- never-reading peers: a table whose game is over (5 bots played it; a reading spectator
  keeps it open) and N peers (`--peers`, default 20) that say hello 4 times a second for
  S seconds (`--seconds`, default 90) and never read: CURVE DEALER sockets with RCVHWM 1
  and a 4 KiB SO_RCVBUF, so their kernel ACKs what fits and libzmq stops reading.  RSS
  before, at the end, and 10 s after they have gone; the reading spectator's worst gap
  between two frames from the host (it must not wait for them);
- finished tables: G consecutive games (`--games`, default 1000) of 5 bots at pace 0, one
  table at a time (each freed when its bots leave); RSS after a warm-up of W games
  (`--warmup`, default 20) and after the last one, per game;
- silent connections: C connections (`--connections`, default 500) that say hello and then
  nothing; RSS before, while they are connected, and once the host has dropped them.

`--quick` runs small numbers (5 peers x 10 s, 40 games, 100 connections).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, AsyncIterator

import zmq

from modernart.net.lan.address import JoinTarget, parse_join_string
from modernart.net.protocol.signed import HELLO_TAG
from modernart.net.trust.identity import Keys
from modernart.net.protocol import VERSION, pack

PY = sys.executable
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELLO_EVERY = 0.25  # the never-reading peers of the target say hello 4 times a second
SETTLE = 10.0  # seconds given to the host to drop what left (peer timeout 6 s + a tick)

#: The targets (docs/benchmarks-net.md).
TARGET_NEVER_READING_MIB = 50.0
TARGET_PER_GAME_KIB = 20.0
TARGET_BACK_WITHIN = 0.10


class NeverReader:
    """A peer that says hello and never reads: a CURVE DEALER with a tiny receive queue and
    kernel buffer, so the host's frames pile up on the host's side of the connection."""

    def __init__(self, ctx: zmq.Context, target: JoinTarget, keys: Keys | None = None) -> None:
        self.keys = keys or Keys.generate()
        self.target = target
        s = self.sock = ctx.socket(zmq.DEALER)
        s.curve_serverkey = target.host_key_z85
        s.curve_publickey = self.keys.curve_public
        s.curve_secretkey = self.keys.curve_secret
        s.linger = 0
        s.rcvhwm = 1
        s.rcvbuf = 4096
        s.sndhwm = 1000
        s.connect(target.endpoint)

    def hello(self) -> None:
        from modernart.net.protocol.signed import hello_bytes

        sig = self.keys.sign(
            HELLO_TAG, hello_bytes(self.target.host_key, self.keys.curve_public_raw, self.target.table)
        )
        msg: dict[str, Any] = {"t": "hello", "v": VERSION, "vk": self.keys.vk, "sig": sig}
        if self.target.table:
            msg["table"] = self.target.table
        self.send(msg)

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self.sock.send(pack(msg), zmq.DONTWAIT)
        except zmq.Again:
            pass  # its own queue is full (the host is slow to read): the next one goes later

    def close(self) -> None:
        self.sock.close(linger=0)


# ---------------------------------------------------------------------- the host process


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


async def _serve(directory: str, games: int) -> None:
    """A host with one table at a time: each played by 5 bots at pace 0; `games` of them in
    a row (0: one, played once a watcher is there, and kept open by it).  Prints `join`
    and `game N tables peers links` lines."""
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.host.lobby import Lobby

    # no cap on watchers here: it bounds the total further, but this measures what each
    # connection may hold (docs/benchmarks-net.md)
    host = Host(Keys.generate(), bot_pace=0, max_watchers=1_000_000)
    await host.start()
    try:
        for n in range(max(games, 1)):
            lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, grace=30))
            table = host.open_table(f"bench {n}", journal_dir=directory, lobby=lobby, autostart=5, fsync=False)
            print("join", host.target(table.id), flush=True)
            while not games and not host.peers:  # the one kept open: its watcher comes first
                await asyncio.sleep(0.01)
            for _ in range(5):
                token = lobby.add_bot(None, "random")[1]
                host.spawn_bot(table, token, "random")
            while table.id in host.tables and table.record_path is None:
                await asyncio.sleep(0.01)
            while games and table.id in host.tables:  # a series: wait until it is freed
                await asyncio.sleep(0.01)
            print("game", n + 1, len(host.tables), len(host.peers), len(host.links), flush=True)
        await asyncio.Event().wait()
    finally:
        await host.close()


class _Host:
    """A bench host process and its output lines."""

    def __init__(self, games: int) -> None:
        self.dir = tempfile.mkdtemp(prefix="ma-bench-mem-")
        self.proc = subprocess.Popen(
            [PY, "-m", "benchmarks.memory", "serve", "--games", str(games), "--dir", self.dir],
            stdout=subprocess.PIPE,
            cwd=ROOT,
            text=True,
            env=dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")),
        )

    def line(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the bench host died")
            if line.startswith(prefix):
                return line.strip()

    @property
    def rss(self) -> int:
        return _rss(self.proc.pid)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.dir], check=False)


# ---------------------------------------------------------------------- the parts


async def _spectate(target: JoinTarget, gaps: list[float], stop: asyncio.Event) -> int:
    """A reading spectator: keeps the table open; the worst wait between two host frames."""
    from modernart.net.client.client import Client

    client = Client(target, keys=Keys.generate(), spectate=True)
    await client.connect()
    try:
        last = client.bytes_in
        seen = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.05)
            if client.bytes_in != last:
                now = time.monotonic()
                gaps.append(now - seen)
                last, seen = client.bytes_in, now
        return client.state.head_seq
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def _watched_host() -> AsyncIterator[tuple[_Host, JoinTarget, list[float]]]:
    """A host process whose first game is over, watched by a reading spectator that notes
    each gap between the host's frames (in the list), so a run shows whether the peers
    under test slow the others."""
    host = _Host(0)
    try:
        target = parse_join_string(host.line("join").split()[1])
        gaps: list[float] = []
        stop = asyncio.Event()
        watcher = asyncio.get_running_loop().create_task(_spectate(target, gaps, stop))
        try:
            await asyncio.to_thread(host.line, "game")
            await asyncio.sleep(3.0)
            yield host, target, gaps
        finally:
            stop.set()
            await watcher
    finally:
        host.close()


async def never_reading(peers: int, seconds: float) -> dict[str, Any]:
    async with _watched_host() as (host, target, gaps):
        rss0 = host.rss
        ctx = zmq.Context()
        readers = [NeverReader(ctx, target) for _ in range(peers)]
        peak = rss0
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            for reader in readers:
                reader.hello()
            await asyncio.sleep(HELLO_EVERY)
            peak = max(peak, host.rss)
        during = host.rss
        for reader in readers:
            reader.close()
        ctx.destroy(linger=0)
        await asyncio.sleep(SETTLE)
        after = host.rss
        return {
            "peers": peers,
            "seconds": seconds,
            "rss_before_mib": rss0 / 2**20,
            "rss_end_mib": during / 2**20,
            "rss_peak_mib": peak / 2**20,
            "rss_after_mib": after / 2**20,
            "growth_mib": (peak - rss0) / 2**20,
            "spectator_worst_gap_s": max(gaps, default=float("nan")),
            "target_growth_mib": TARGET_NEVER_READING_MIB,
            "met": (peak - rss0) / 2**20 <= TARGET_NEVER_READING_MIB,
        }


def finished_tables(games: int, warmup: int) -> dict[str, Any]:
    host = _Host(games)
    try:
        rss_warm = 0
        start = time.monotonic()
        last = ""
        for n in range(1, games + 1):
            last = host.line("game")
            if n == warmup:
                rss_warm = host.rss
        rss_end = host.rss
        _, _, tables, peers, links = last.split()
        per_game = (rss_end - rss_warm) / max(games - warmup, 1) / 1024
        return {
            "games": games,
            "warmup": warmup,
            "wall_s": time.monotonic() - start,
            "rss_after_warmup_mib": rss_warm / 2**20,
            "rss_end_mib": rss_end / 2**20,
            "per_game_kib": per_game,
            "tables_left": int(tables),
            "peers_left": int(peers),
            "links_left": int(links),
            "target_per_game_kib": TARGET_PER_GAME_KIB,
            "met": per_game < TARGET_PER_GAME_KIB,
        }
    finally:
        host.close()


async def silent_connections(count: int) -> dict[str, Any]:
    async with _watched_host() as (host, target, _gaps):
        rss0 = host.rss
        ctx = zmq.Context()
        readers = []
        for i in range(count):
            readers.append(NeverReader(ctx, target))
            readers[-1].hello()
            if i % 50 == 49:
                await asyncio.sleep(0.2)  # the host's CURVE handshakes take a while
        await asyncio.sleep(3.0)
        connected = host.rss
        for reader in readers:
            reader.close()
        ctx.destroy(linger=0)
        await asyncio.sleep(SETTLE)
        after = host.rss
        back = (after - rss0) / rss0
        return {
            "connections": count,
            "rss_before_mib": rss0 / 2**20,
            "rss_connected_mib": connected / 2**20,
            "rss_after_mib": after / 2**20,
            "after_vs_before": back,
            "target_within": TARGET_BACK_WITHIN,
            "met": back <= TARGET_BACK_WITHIN,
        }


# ---------------------------------------------------------------------- entry points


def add_arguments(g: argparse.ArgumentParser) -> None:
    g.add_argument("--peers", type=int, default=20, help="never-reading peers (default 20)")
    g.add_argument("--peer-seconds", type=float, default=90.0, help="seconds they say hello (default 90)")
    g.add_argument("--games", type=int, default=1000, help="consecutive finished tables (default 1000)")
    g.add_argument("--warmup", type=int, default=20, help="games before the per-game figure starts (default 20)")
    g.add_argument("--connections", type=int, default=500, help="silent connections (default 500)")
    g.add_argument("--parts", default="readers,tables,silent", help="memory parts to run (default: all)")
    g.add_argument("--quick", action="store_true", help="5 peers x 10 s, 40 games, 100 connections")


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    if args.quick:
        args.peers, args.peer_seconds, args.games, args.warmup, args.connections = 5, 10.0, 40, 10, 100
    parts = set(args.parts.split(","))
    figures: dict[str, Any] = {"machine": machine()}
    if "readers" in parts:
        figures["never_reading"] = asyncio.run(never_reading(args.peers, args.peer_seconds))
    if "tables" in parts:
        figures["finished_tables"] = finished_tables(args.games, min(args.warmup, args.games - 1))
    if "silent" in parts:
        figures["silent_connections"] = asyncio.run(silent_connections(args.connections))
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        _print(figures)
    return 0


def _verdict(part: dict[str, Any]) -> str:
    return "met" if part["met"] else "MISSED"


def _print(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    print(
        f"modernart host memory benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), "
        f"{m['implementation']} {m['python']}, loopback"
    )
    r = figures.get("never_reading")
    if r:
        print(
            f"{r['peers']} never-reading peers, hello every {HELLO_EVERY:g} s for {r['seconds']:g} s: "
            f"RSS {r['rss_before_mib']:.1f} -> peak {r['rss_peak_mib']:.1f} MiB (+{r['growth_mib']:.1f}), "
            f"{r['rss_after_mib']:.1f} MiB {SETTLE:g} s after they left; "
            f"target +{r['target_growth_mib']:g} MiB: {_verdict(r)}"
        )
        print(f"  a reading spectator meanwhile: worst gap between host frames {r['spectator_worst_gap_s']:.2f} s")
    t = figures.get("finished_tables")
    if t:
        print(
            f"{t['games']} consecutive games (5 bots, pace 0) in {t['wall_s']:.0f} s: RSS {t['rss_after_warmup_mib']:.1f} "
            f"MiB after {t['warmup']}, {t['rss_end_mib']:.1f} MiB after the last: {t['per_game_kib']:.1f} KiB/game; "
            f"tables/peers/links left {t['tables_left']}/{t['peers_left']}/{t['links_left']}; "
            f"target < {t['target_per_game_kib']:g} KiB/game: {_verdict(t)}"
        )
    s = figures.get("silent_connections")
    if s:
        print(
            f"{s['connections']} silent connections: RSS {s['rss_before_mib']:.1f} -> {s['rss_connected_mib']:.1f} MiB "
            f"connected -> {s['rss_after_mib']:.1f} MiB after ({s['after_vs_before'] * 100:+.1f}%); "
            f"target within {s['target_within'] * 100:g}%: {_verdict(s)}"
        )


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["serve"])
    p.add_argument("--games", type=int, default=0)
    p.add_argument("--dir")
    a = p.parse_args(argv)
    asyncio.run(_serve(a.dir, a.games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
