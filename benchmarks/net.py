"""`python -m benchmarks net`: network figures on loopback (latency, many tables, bytes per move).

Every part starts its own host process (`python -m benchmarks.net serve`) with its journal
on this machine's disk (a temporary directory under /tmp) or on tmpfs (/dev/shm), fsync on
unless MODERNART_BENCH_FSYNC=0:

- bare: a bare pyzmq DEALER->ROUTER round trip (64 bytes, no CURVE) to an echo process;
- latency: one table; from the moment a client sends its signed action to the moment the
  last of the 5 clients has checked and applied the resulting event (p50, p99), with the
  5 clients in this process (one asyncio loop, moves made one at a time) and as 5 bot
  processes playing a whole game at full speed (`time.perf_counter` is CLOCK_MONOTONIC,
  comparable across processes on Linux); each once with the journal on disk, once on tmpfs;
- saturation: N tables (MODERNART_BENCH_TABLES, default 100) of 5 bots at pace 0 in 2 bot
  processes (MODERNART_BENCH_BOT_PROCS): throughput and queueing, not the latency of a
  live table;
- live: the same N tables with bots playing at their own pace() scaled by
  MODERNART_BENCH_PACE (default 1.0, a game of a few minutes), in 2 bot processes
  (MODERNART_BENCH_LIVE_PROCS; more processes on 2 cores made the p99 worse, not
  better): action -> ack at the sender,
  action -> last of the 5 clients holding the event, host CPU per move (user + system time
  of the host process over the run / moves journaled), host memory per table (peak RSS
  growth / tables), games finished and errors;
- bytes: bytes on the wire per move (host -> all clients, client -> host).

MODERNART_BENCH_PARTS=latency,procs,saturation,live picks parts (default: all).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

PY = sys.executable
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMPFS = "/dev/shm"
ECHO = """
import sys, zmq
ctx = zmq.Context(); s = ctx.socket(zmq.ROUTER); s.linger = 0
port = s.bind_to_random_port("tcp://127.0.0.1"); print(port, flush=True)
while True:
    s.send_multipart(s.recv_multipart())
"""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def child_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _proc_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _journal_dir(where: str) -> str:
    """A fresh journal directory on this machine's disk ("disk") or on tmpfs ("tmpfs")."""
    return tempfile.mkdtemp(prefix="ma-bench-", dir=TMPFS if where == "tmpfs" else None)


def start_host(tmp: str, tables: int) -> tuple[subprocess.Popen, list[str]]:
    proc = subprocess.Popen(
        [PY, "-m", "benchmarks.net", "serve", "--tables", str(tables), "--dir", tmp],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=child_env(),
        text=True,
    )
    joins: list[str] = []
    assert proc.stdout is not None
    while len(joins) < tables:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("bench host died")
        if line.startswith("join "):
            joins.append(line.split()[1])
    return proc, joins


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _journal_lines(tmp: str):
    for name in os.listdir(tmp):
        if name.endswith(".jsonl"):
            with open(os.path.join(tmp, name)) as f:
                yield from f


# ---------------------------------------------------------------------- latency and bytes


async def _bare_rtt(samples: int) -> list[float]:
    import zmq
    import zmq.asyncio

    echo = subprocess.Popen([PY, "-c", ECHO], stdout=subprocess.PIPE, text=True)
    try:
        port = int(echo.stdout.readline())  # type: ignore[union-attr]
        ctx = zmq.asyncio.Context()
        s = ctx.socket(zmq.DEALER)
        s.linger = 0
        s.connect(f"tcp://127.0.0.1:{port}")
        out = []
        for i in range(samples + 20):
            t0 = time.perf_counter()
            await s.send(b"x" * 64)
            await s.recv()
            if i >= 20:
                out.append(time.perf_counter() - t0)
        s.close()
        ctx.destroy(linger=0)
        return out
    finally:
        echo.kill()
        echo.wait()


async def _latency(moves: int, where: str) -> dict[str, Any]:
    """5 clients in this process; moves one at a time; action -> the last of the 5 holding it."""
    from modernart.bots import make_bot
    from modernart.net.client.client import Client
    from modernart.net.trust.identity import Keys

    tmp = _journal_dir(where)
    host, joins = start_host(tmp, 1)
    clients = []
    try:
        for i in range(5):
            c = Client(joins[0], keys=Keys.generate(), updates=False)
            await c.connect()
            await c.take_seat(f"P{i}")
            clients.append(c)
        for c in clients:
            await c.ready()
        for c in clients:
            await c.wait_until(lambda s: s.observation is not None, 20)
        bot = make_bot("random", 1)
        lat: list[float] = []
        acks: list[float] = []
        sent_bytes, events = 0, 0
        bytes_before = sum(c.bytes_in for c in clients)
        while len(lat) < moves:
            obs = clients[0].state.observation
            assert obs is not None
            if obs.is_over:
                break
            if not obs.to_move:  # a Sealed auction between its commitments and its settlement
                clients[0].changed.clear()
                await clients[0].changed.wait()
                continue
            mover = next(c for c in clients if c.state.seat == obs.to_move[0])
            assert mover.state.observation is not None  # every client has its view (waited for above)
            move = bot.choose(mover.state.observation)
            if move is None:  # the mover's view is a step behind: wait for it
                mover.changed.clear()
                await mover.changed.wait()
                continue
            t0 = time.perf_counter()
            reply = await mover.send_move(move)
            if not reply.ok:
                continue
            acks.append(time.perf_counter() - t0)
            seq = reply.seq or 0
            for c in clients:
                while c.state.head_seq < seq:
                    c.changed.clear()
                    await c.changed.wait()
            lat.append(time.perf_counter() - t0)
            sent_bytes += 60 + 64 + 20  # body, signature, framing
            events += 1
        received = sum(c.bytes_in for c in clients) - bytes_before
        return {
            "samples": len(lat),
            "p50_ms": percentile(lat, 50) * 1e3,
            "p99_ms": percentile(lat, 99) * 1e3,
            "ack_p50_ms": percentile(acks, 50) * 1e3,
            "ack_p99_ms": percentile(acks, 99) * 1e3,
            "host_to_clients_bytes_per_move": received / max(events, 1),
            "per_client_bytes_per_move": received / max(events, 1) / 5,
            "client_to_host_bytes_per_move": sent_bytes / max(events, 1),
        }
    finally:
        for c in clients:
            await c.close()
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


def _timed_bot(
    bot: Any, table: str, sent: dict[str, float], applied: dict[str, list[float]], acks: list[float] | None = None
) -> None:
    """Record when `bot` sends each accepted action and when it applies each event, keyed
    "table:seq" (`applied[key]` = [clients of this process that applied it, the latest
    time]; several bots of a table share a process); with `acks`, also each action ->
    acknowledgement time."""

    def seen(update: Any) -> None:
        if update.kind == "event":
            now = time.perf_counter()
            held = applied.setdefault(f"{table}:{update.data.seq}", [0, now])
            held[0] += 1
            held[1] = max(held[1], now)

    bot.client.on_update = seen
    send = bot.client.send_move

    async def timed(move: Any) -> Any:
        t0 = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes on Linux
        reply = await send(move)
        if reply.ok and reply.seq:
            sent[f"{table}:{reply.seq}"] = t0
            if acks is not None:
                acks.append(time.perf_counter() - t0)
        return reply

    bot.client.send_move = timed  # type: ignore[method-assign]


def _all_held(data: list[dict[str, Any]], seats_of: dict[str, int]) -> list[float]:
    """Per accepted action: the time until the last client of its table applied its event."""
    sent = {k: v for d in data for k, v in d["sent"].items()}
    applied: dict[str, list[float]] = {}
    for d in data:
        for k, (count, latest) in d["applied"].items():
            held = applied.setdefault(k, [0, latest])
            held[0] += count
            held[1] = max(held[1], latest)
    out = []
    for key, t0 in sent.items():
        count, latest = applied.get(key, (0, 0.0))
        if count == seats_of.get(key.split(":")[0], 5):
            out.append(latest - t0)
    return out


async def _player_main(join: str, out_path: str) -> None:
    """One bot player that records when it applied each event and when it sent its moves."""
    from modernart.net.client.bot import BotClient
    from modernart.net.trust.identity import Keys

    bot = BotClient(join, keys=Keys.generate(), pace_scale=0, name=f"p{os.getpid()}")
    sent: dict[str, float] = {}
    applied: dict[str, list[float]] = {}
    _timed_bot(bot, "t", sent, applied)
    await bot.run(60)
    with open(out_path, "w") as f:
        json.dump({"applied": applied, "sent": sent}, f)


def _latency_processes(where: str) -> dict[str, Any]:
    """5 bot players in 5 processes, a whole game at full speed; action -> the last of the 5."""
    tmp = _journal_dir(where)
    host, joins = start_host(tmp, 1)
    try:
        outs = [os.path.join(tmp, f"player{i}.json") for i in range(5)]
        procs = [
            subprocess.Popen([PY, "-m", "benchmarks.net", "player", joins[0], out], cwd=ROOT, env=child_env())
            for out in outs
        ]
        for p in procs:
            p.wait(timeout=300)
        data = [json.load(open(out)) for out in outs]
        lat = _all_held(data, {"t": 5})
        return {"samples": len(lat), "p50_ms": percentile(lat, 50) * 1e3, "p99_ms": percentile(lat, 99) * 1e3}
    finally:
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------- many tables


async def _bots_main(pace: float, joins: list[str]) -> None:
    from modernart.net.client.bot import BotClient
    from modernart.net.trust.identity import Keys

    acks: list[float] = []
    sent: dict[str, float] = {}
    applied: dict[str, list[float]] = {}
    errors = 0
    done = 0
    bots: list[Any] = []

    async def one(join: str, i: int) -> None:
        nonlocal errors, done
        bot = BotClient(join, keys=Keys.generate(), pace_scale=pace, name=f"b{i}", seed=i)
        bots.append(bot)
        _timed_bot(bot, join.rsplit("/", 1)[1], sent, applied, acks)
        try:
            obs = await bot.run(60)
            done += 1 if obs.is_over else 0
        except Exception as exc:  # counted and reported, never hidden
            errors += 1
            print(f"bot error: {exc!r}", file=sys.stderr)

    tasks = [asyncio.get_running_loop().create_task(one(j, i)) for i, j in enumerate(joins)]
    _done, pending = await asyncio.wait(tasks, timeout=float(os.environ.get("MODERNART_BENCH_DEADLINE", "900")))
    for task in pending:  # a bot that never saw its game end is an error, with its state shown
        errors += 1
        task.cancel()
    for bot in bots:
        st = bot.client.state
        if not (st.observation and st.observation.is_over):
            print(f"unfinished bot: status={st.status} seq={st.head_seq} errors={st.errors[-3:]}", file=sys.stderr)
        errors += len([e for e in st.errors if e[0] in ("untrusted_host", "bad_host_frame", "forked_history")])
    print(json.dumps({"acks": acks, "sent": sent, "applied": applied, "errors": errors, "done": done}), flush=True)


def _tables(count: int, bot_procs: int, pace: float) -> dict[str, Any]:
    tmp = _journal_dir("disk")
    host, joins = start_host(tmp, count)
    try:
        time.sleep(0.5)
        rss0, cpu0 = _proc_rss(host.pid), _proc_cpu(host.pid)
        seats = [j for j in joins for _ in range(5)]
        random.Random(1).shuffle(seats)
        chunks = [seats[i::bot_procs] for i in range(bot_procs)]
        t0 = time.perf_counter()
        outs = [open(os.path.join(tmp, f"bots{i}.out"), "w+") for i in range(len(chunks))]
        procs = [
            subprocess.Popen(
                [PY, "-m", "benchmarks.net", "bots", str(pace), *chunk],
                stdout=out,  # a file: no pipe deadlock
                cwd=ROOT,
                env=child_env(),
                text=True,
            )
            for chunk, out in zip(chunks, outs)
        ]
        peak = 0
        while any(p.poll() is None for p in procs):
            peak = max(peak, _proc_rss(host.pid))
            time.sleep(0.2)
        wall = time.perf_counter() - t0
        cpu = _proc_cpu(host.pid) - cpu0
        results = []
        for out in outs:
            out.seek(0)
            results.append(json.loads(out.read().strip().splitlines()[-1]))
            out.close()
        acks = [x for r in results for x in r["acks"]]
        held = _all_held(results, {j.rsplit("/", 1)[1]: 5 for j in joins})
        moves = sum(1 for line in _journal_lines(tmp) if line.startswith('{"m"'))
        finished = sum(1 for line in _journal_lines(tmp) if line.startswith('{"result"'))
        return {
            "tables": count,
            "pace": pace,
            "bot_procs": bot_procs,
            "games_finished": finished,
            "bot_errors": sum(r["errors"] for r in results),
            "bots_done": sum(r["done"] for r in results),
            "moves": moves,
            "wall_s": wall,
            "ack_p50_ms": percentile(acks, 50) * 1e3,
            "ack_p99_ms": percentile(acks, 99) * 1e3,
            "held_p50_ms": percentile(held, 50) * 1e3,
            "held_p99_ms": percentile(held, 99) * 1e3,
            "host_cpu_us_per_move": cpu / max(moves, 1) * 1e6,
            "host_cpu_share": cpu / wall,
            "host_mem_per_table_kib": (peak - rss0) / count / 1024,
        }
    finally:
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


async def _serve(tables: int, directory: str) -> None:
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys
    from modernart.net.host.lobby import Lobby

    host = Host(Keys.generate(), bot_pace=0)
    fsync = os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0"
    await host.start()
    for i in range(tables):
        lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, grace=30))
        host.open_table(f"bench {i}", journal_dir=directory, lobby=lobby, autostart=5, fsync=fsync)
        print("join", host.target(f"t{i + 1}"), flush=True)
    await asyncio.Event().wait()


# ---------------------------------------------------------------------- entry points


def _print(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    bare = figures["bare_rtt_p50_ms"]
    print(
        f"modernart net benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), "
        f"{m['implementation']} {m['python']}, loopback, journal fsync {figures['fsync']}"
    )
    print(f"bare pyzmq round trip              p50 {bare:.3f} ms  p99 {figures['bare_rtt_p99_ms']:.3f} ms")
    for where in ("disk", "tmpfs"):
        lat = figures.get(f"latency_{where}")
        if lat:
            print(
                f"action -> last of 5 clients, 1 process, journal on {where:5}  p50 {lat['p50_ms']:.3f} ms  "
                f"p99 {lat['p99_ms']:.3f} ms ({lat['samples']} moves; p50 = {lat['p50_ms'] / bare:.1f} x bare)"
            )
            print(
                f"  action -> ack at the sender                    p50 {lat['ack_p50_ms']:.3f} ms  "
                f"p99 {lat['ack_p99_ms']:.3f} ms"
            )
        spread = figures.get(f"latency_5_processes_{where}")
        if spread:
            print(
                f"action -> last of 5 clients, 5 processes, {where:5}     p50 {spread['p50_ms']:.3f} ms  "
                f"p99 {spread['p99_ms']:.3f} ms ({spread['samples']} moves of a bot game; "
                f"p50 = {spread['p50_ms'] / bare:.1f} x bare)"
            )
    lat = figures.get("latency_disk") or figures.get("latency_tmpfs")
    if lat:
        print(
            f"bytes per move      host->clients {lat['host_to_clients_bytes_per_move']:.0f} "
            f"(per client {lat['per_client_bytes_per_move']:.0f}), "
            f"client->host {lat['client_to_host_bytes_per_move']:.0f}"
        )
    for name in ("saturation", "live"):
        many = figures.get(name)
        if not many:
            continue
        print(
            f"{many['tables']} tables x 5 bots in {many['bot_procs']} processes, {name} (pace {many['pace']:g}): "
            f"finished {many['games_finished']}, "
            f"errors {many['bot_errors']}, {many['moves']} moves in {many['wall_s']:.1f} s"
        )
        print(f"  action -> ack                p50 {many['ack_p50_ms']:.2f} ms  p99 {many['ack_p99_ms']:.2f} ms")
        print(f"  action -> last of 5 clients  p50 {many['held_p50_ms']:.2f} ms  p99 {many['held_p99_ms']:.2f} ms")
        print(
            f"  host CPU per move            {many['host_cpu_us_per_move']:.0f} us "
            f"(host busy {many['host_cpu_share'] * 100:.0f}% of one core)"
        )
        print(f"  host memory per table        {many['host_mem_per_table_kib']:.0f} KiB")


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    tables = int(os.environ.get("MODERNART_BENCH_TABLES", "100"))
    pace = float(os.environ.get("MODERNART_BENCH_PACE", "1.0"))
    parts = set(os.environ.get("MODERNART_BENCH_PARTS", "latency,procs,saturation,live").split(","))
    moves = max(50, int(args.seconds * 100))
    bare = asyncio.run(_bare_rtt(1000))
    figures: dict[str, Any] = {
        "machine": machine(),
        "bare_rtt_p50_ms": percentile(bare, 50) * 1e3,
        "bare_rtt_p99_ms": percentile(bare, 99) * 1e3,
        "fsync": "on" if os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0" else "off",
    }
    for where in ("disk", "tmpfs"):
        if "latency" in parts:
            figures[f"latency_{where}"] = asyncio.run(_latency(moves, where))
        if "procs" in parts:
            figures[f"latency_5_processes_{where}"] = _latency_processes(where)
    if "saturation" in parts:
        figures["saturation"] = _tables(tables, int(os.environ.get("MODERNART_BENCH_BOT_PROCS", "2")), 0.0)
    if "live" in parts:
        figures["live"] = _tables(tables, int(os.environ.get("MODERNART_BENCH_LIVE_PROCS", "2")), pace)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        _print(figures)
    return 0


def main(argv: list[str]) -> int:
    if argv[0] == "serve":
        p = argparse.ArgumentParser()
        p.add_argument("--tables", type=int)
        p.add_argument("--dir")
        a = p.parse_args(argv[1:])
        asyncio.run(_serve(a.tables, a.dir))
    elif argv[0] == "bots":
        asyncio.run(_bots_main(float(argv[1]), argv[2:]))
    elif argv[0] == "player":
        asyncio.run(_player_main(argv[1], argv[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
