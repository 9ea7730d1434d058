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
- before hello: V connections (`--visitors`, default 300) ask for the table list 4 times a
  second for 2 x P seconds (`--phase`, default 10) and never read nor say hello, at the
  host of the never-reading peers: RSS before, peak, and 10 s after they went.  Then a
  live table of 4 honest players (clients in this process that read and play random
  moves at once; a new table when a game ends) while, in turns of P seconds, nothing else
  happens (quiet), the V connections do the same, or H throwaway keys (`--hello-ers`,
  default 320) say hello 4 times a second and never read: the seated players dropped as
  lagging, and the honest players' move latency (send to acknowledgement, median) in each
  kind of phase, side by side in the same run (quiet, visitors, quiet, hello-ers, twice).

`--quick` runs small numbers (5 peers x 10 s, 40 games, 100 connections, 60 visitors and
hello-ers in 6 s phases).
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
import threading
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
TARGET_VISITORS_MIB = 10.0  # RSS growth while 300 never-reading connections have not said hello
TARGET_VISITORS_BACK_MIB = 2.0  # and 10 s after they went, at most this above where it began
TARGET_LATENCY_RATIO = 1.5  # honest move latency during either flood, against the quiet phases


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


def _cpu(pid: int) -> float:
    """CPU seconds (user and system) process `pid` has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


async def _serve_live(directory: str) -> None:
    """A host with the usual caps (watchers too) whose table is played by 4 players from
    elsewhere; a new one once its game is over.  Prints `join` lines, and `dropped N` each
    time a seated peer is dropped as lagging (N in all)."""
    import logging

    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.host.lobby import Lobby

    dropped = [0]

    class Drops(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            args = record.args
            if record.msg.startswith("peer gone") and isinstance(args, tuple) and args[1] is not None:
                if args[2] == "lagging":
                    dropped[0] += 1
                    print("dropped", dropped[0], flush=True)

    logger = logging.getLogger("modernart.net.host.host")
    logger.setLevel(logging.INFO)
    logger.addHandler(Drops())
    logger.propagate = False
    host = Host(Keys.generate(), bot_pace=0)
    await host.start()
    try:
        n = 0
        while True:
            n += 1
            lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, grace=30))
            table = host.open_table(f"live {n}", journal_dir=directory, lobby=lobby, autostart=4, fsync=False)
            print("join", host.target(table.id), flush=True)
            while table.record_path is None:
                await asyncio.sleep(0.05)
    finally:
        await host.close()


class _Host:
    """A bench host process and its output lines."""

    def __init__(self, games: int, live: bool = False) -> None:
        self.dir = tempfile.mkdtemp(prefix="ma-bench-mem-")
        self.proc = subprocess.Popen(
            [PY, "-m", "benchmarks.memory", "serve", "--games", str(games), "--dir", self.dir]
            + (["--live"] if live else []),
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


class _LiveHost(_Host):
    """The live host process (`serve --live`): its `join` and `dropped` lines, read by a thread."""

    def __init__(self) -> None:
        super().__init__(0, live=True)
        self.joins: list[str] = []
        self.drops: list[str] = []
        self.new_join = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("join"):
                self.joins.append(line.split()[1])
                self.new_join.set()
            elif line.startswith("dropped"):
                self.drops.append(line.strip())

    async def next_join(self, after: int) -> str:
        """The join string of the table after the first `after` ones."""
        while len(self.joins) <= after:
            self.new_join.clear()
            await asyncio.to_thread(self.new_join.wait, 1.0)
        return self.joins[after]


class _Honest:
    """4 players at the live host's tables who read and play at once (random moves): their
    move latencies as (when sent, seconds to the acknowledgement)."""

    def __init__(self, host: _LiveHost) -> None:
        self.host = host
        self.latencies: list[tuple[float, float]] = []
        self.stop = asyncio.Event()
        self.refused = 0

    async def run(self) -> None:
        tables = 0
        while not self.stop.is_set():
            join = await self.host.next_join(tables)
            tables += 1
            await asyncio.gather(*(self._play(join, i) for i in range(4)))

    async def _play(self, join: str, i: int) -> None:
        from modernart.bots.levels import make_bot
        from modernart.net.client.client import Client
        from modernart.net.clocks import wait_event

        client = Client(join, keys=Keys.generate())
        await client.connect()
        try:
            assert (await client.take_seat(f"honest {i}")).ok
            await client.ready()
            bot = make_bot("random", i)
            st = client.state
            while True:
                obs = st.observation
                if obs is not None and obs.is_over:
                    return
                if obs is None or not obs.my_turn or st.status != "connected" or not client.caught_up:
                    client.changed.clear()
                    await wait_event(client.changed, 0.5)
                    continue
                seen = st.decision_seq
                move = bot.choose(obs)
                if move is None:
                    client.changed.clear()
                    await wait_event(client.changed, 0.5)
                    continue
                sent = time.monotonic()
                reply = await client.send_move(move)
                if reply.ok:
                    self.latencies.append((sent, time.monotonic() - sent))
                    while st.head_seq < (reply.seq or 0) and st.status == "connected":
                        client.changed.clear()
                        await wait_event(client.changed, 1.0)
                else:
                    self.refused += 1
                    if st.decision_seq == seen:
                        client.changed.clear()
                        await wait_event(client.changed, 0.05)
        finally:
            await client.close()

    def median_between(self, spans: list[tuple[float, float]]) -> float:
        values = sorted(d for t, d in self.latencies if any(a <= t < b for a, b in spans))
        return values[len(values) // 2] if values else float("nan")

    def count_between(self, spans: list[tuple[float, float]]) -> int:
        return sum(1 for t, _ in self.latencies if any(a <= t < b for a, b in spans))


async def _visitors_memory(visitors: int, seconds: float) -> dict[str, float]:
    """RSS of a host whose game is over (watched by a reading spectator, as for the
    never-reading peers) before, at the peak and SETTLE s after `visitors` connections
    asked for the table list 4 times a second for `seconds` and never read nor said hello."""
    async with _watched_host() as (host, target, _gaps):
        rss0 = host.rss
        ctx = zmq.Context()
        askers = [NeverReader(ctx, target) for _ in range(visitors)]
        peak = rss0
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            for asker in askers:
                asker.send({"t": "tables", "id": 1})
            await asyncio.sleep(HELLO_EVERY)
            peak = max(peak, host.rss)
        for asker in askers:
            asker.close()
        ctx.destroy(linger=0)
        await asyncio.sleep(SETTLE)
        return {"before": rss0, "peak": peak, "after": host.rss}


async def _live_phases(
    visitors: int, hello_ers: int, phase: float
) -> tuple[_Honest, dict[str, Any], list[str], dict[str, float]]:
    """The live table's phases: quiet, visitors, quiet, hello-ers, twice over."""
    host = _LiveHost()
    honest = _Honest(host)
    players = asyncio.get_running_loop().create_task(honest.run())
    ctx = zmq.Context()
    spans: dict[str, list[tuple[float, float]]] = {"quiet": [], "visitors": [], "hello-ers": []}
    cpu = {kind: 0.0 for kind in spans}  # the host's CPU seconds in each kind of phase
    try:
        while len(honest.latencies) < 20:  # the first game is under way
            await asyncio.sleep(0.1)
        for _ in range(2):
            for kind in ("quiet", "visitors", "quiet", "hello-ers"):
                peers: list[NeverReader] = []
                if kind != "quiet":
                    join = parse_join_string(host.joins[-1])  # the table being played
                    peers = [NeverReader(ctx, join) for _ in range(visitors if kind == "visitors" else hello_ers)]
                start, cpu0 = time.monotonic(), _cpu(host.proc.pid)
                while time.monotonic() - start < phase:
                    for peer in peers:
                        if kind == "visitors":
                            peer.send({"t": "tables", "id": 1})
                        else:
                            peer.hello()
                    await asyncio.sleep(HELLO_EVERY)
                spans[kind].append((start, time.monotonic()))
                cpu[kind] += _cpu(host.proc.pid) - cpu0
                for peer in peers:
                    peer.close()
        return honest, spans, list(host.drops), cpu
    finally:
        honest.stop.set()
        players.cancel()
        await asyncio.gather(players, return_exceptions=True)
        ctx.destroy(linger=0)
        host.close()


async def before_hello(visitors: int, hello_ers: int, phase: float) -> dict[str, Any]:
    """The `before hello` part (see the module docstring)."""
    rss = await _visitors_memory(visitors, 2 * phase)
    honest, spans, drops, cpu = await _live_phases(visitors, hello_ers, phase)
    lat = {k: honest.median_between(v) for k, v in spans.items()}
    moves = {k: honest.count_between(v) for k, v in spans.items()}
    growth = (rss["peak"] - rss["before"]) / 2**20
    back = (rss["after"] - rss["before"]) / 2**20
    ratios = {k: lat[k] / lat["quiet"] for k in ("visitors", "hello-ers")}
    return {
        "visitors": visitors,
        "hello_ers": hello_ers,
        "phase_s": phase,
        "rss_before_mib": rss["before"] / 2**20,
        "rss_peak_mib": rss["peak"] / 2**20,
        "rss_after_mib": rss["after"] / 2**20,
        "growth_mib": growth,
        "after_vs_before_mib": back,
        "seated_dropped_lagging": len(drops),
        "latency_median_ms": {k: v * 1000 for k, v in lat.items()},
        "moves": moves,
        "refused_moves": honest.refused,
        "host_cpu_per_s": {k: cpu[k] / max(sum(b - a for a, b in spans[k]), 1e-9) for k in spans},
        "latency_ratio": ratios,
        "target_growth_mib": TARGET_VISITORS_MIB,
        "target_back_mib": TARGET_VISITORS_BACK_MIB,
        "target_ratio": TARGET_LATENCY_RATIO,
        "met_memory": growth <= TARGET_VISITORS_MIB and back <= TARGET_VISITORS_BACK_MIB,
        "met_drops": not drops,
        "met_latency": all(r <= TARGET_LATENCY_RATIO for r in ratios.values()),
    }


# ---------------------------------------------------------------------- entry points


def add_arguments(g: argparse.ArgumentParser) -> None:
    g.add_argument("--peers", type=int, default=20, help="never-reading peers (default 20)")
    g.add_argument("--peer-seconds", type=float, default=90.0, help="seconds they say hello (default 90)")
    g.add_argument("--games", type=int, default=1000, help="consecutive finished tables (default 1000)")
    g.add_argument("--warmup", type=int, default=20, help="games before the per-game figure starts (default 20)")
    g.add_argument("--connections", type=int, default=500, help="silent connections (default 500)")
    g.add_argument("--visitors", type=int, default=300, help="never-reading connections before hello (default 300)")
    g.add_argument("--hello-ers", type=int, default=320, help="throwaway keys saying hello (default 320)")
    g.add_argument("--phase", type=float, default=10.0, help="seconds of each phase of `prehello` (default 10)")
    g.add_argument("--parts", default="readers,tables,silent,prehello", help="memory parts to run (default: all)")
    g.add_argument(
        "--quick", action="store_true", help="5 peers x 10 s, 40 games, 100 connections, 60 visitors/hello-ers x 6 s"
    )


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    if args.quick:
        args.peers, args.peer_seconds, args.games, args.warmup, args.connections = 5, 10.0, 40, 10, 100
        args.visitors, args.hello_ers, args.phase = 60, 60, 6.0
    parts = set(args.parts.split(","))
    figures: dict[str, Any] = {"machine": machine()}
    if "readers" in parts:
        figures["never_reading"] = asyncio.run(never_reading(args.peers, args.peer_seconds))
    if "tables" in parts:
        figures["finished_tables"] = finished_tables(args.games, min(args.warmup, args.games - 1))
    if "silent" in parts:
        figures["silent_connections"] = asyncio.run(silent_connections(args.connections))
    if "prehello" in parts:
        figures["before_hello"] = asyncio.run(before_hello(args.visitors, args.hello_ers, args.phase))
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
    b = figures.get("before_hello")
    if b:
        lat, ratio, moves = b["latency_median_ms"], b["latency_ratio"], b["moves"]
        print(
            f"{b['visitors']} never-reading connections before hello (table list 4 times a second, "
            f"{2 * b['phase_s']:g} s): RSS {b['rss_before_mib']:.1f} -> peak {b['rss_peak_mib']:.1f} MiB "
            f"(+{b['growth_mib']:.1f}), {b['rss_after_mib']:.1f} MiB {SETTLE:g} s after "
            f"({b['after_vs_before_mib']:+.1f}); target +{b['target_growth_mib']:g} MiB and back within "
            f"{b['target_back_mib']:g}: {'met' if b['met_memory'] else 'MISSED'}"
        )
        print(
            f"{b['hello_ers']} throwaway hello-ers (and the visitors): seated players dropped as lagging "
            f"{b['seated_dropped_lagging']}; target 0: {'met' if b['met_drops'] else 'MISSED'}"
        )
        print(
            f"  honest move latency, median: quiet {lat['quiet']:.1f} ms ({moves['quiet']} moves), "
            f"visitors {lat['visitors']:.1f} ms (x{ratio['visitors']:.2f}, {moves['visitors']} moves), "
            f"hello-ers {lat['hello-ers']:.1f} ms (x{ratio['hello-ers']:.2f}, {moves['hello-ers']} moves); "
            f"target x{b['target_ratio']:g}: {'met' if b['met_latency'] else 'MISSED'}"
        )
        hc = b["host_cpu_per_s"]
        print(
            f"  host CPU per second: quiet {hc['quiet']:.2f}, visitors {hc['visitors']:.2f}, "
            f"hello-ers {hc['hello-ers']:.2f}"
        )


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["serve"])
    p.add_argument("--games", type=int, default=0)
    p.add_argument("--dir")
    p.add_argument("--live", action="store_true")
    a = p.parse_args(argv)
    asyncio.run(_serve_live(a.dir) if a.live else _serve(a.dir, a.games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
