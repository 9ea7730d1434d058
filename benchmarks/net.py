"""`python -m benchmarks net`: network figures on loopback (latency, many tables, bytes per move).

Every part starts its own host process (`python -m benchmarks.net serve`) with its journal
on this machine's disk (a temporary directory under /tmp) or on tmpfs (/dev/shm), fsync on
unless MODERNART_BENCH_FSYNC=0:

- bare: a bare pyzmq DEALER->ROUTER round trip (64 bytes, no CURVE) to an echo process;
- latency: one table; from the moment a client sends its signed action to the moment the
  last of the 5 clients has checked and applied the resulting event (p50, p99), with the
  5 clients in this process (one asyncio loop and one ZeroMQ context, moves made one at a
  time) and as 5 bot processes playing a whole game, each move PLAYER_GAP after its player
  decided, so one at a time as well (`time.perf_counter` is CLOCK_MONOTONIC, comparable
  across processes on Linux); each once with the journal on disk, once on tmpfs;
- saturation: N tables (MODERNART_BENCH_TABLES, default 100) of 5 bots at pace 0 in 2 bot
  processes (MODERNART_BENCH_BOT_PROCS): throughput and queueing, not the latency of a
  live table;
- live: the same N tables with bots playing at their own pace() scaled by
  MODERNART_BENCH_PACE (default 1.0, a game of a few minutes: a move a second per table,
  5-10 times a table of people), in 2 bot processes (MODERNART_BENCH_LIVE_PROCS; more
  processes on 2 cores made the p99 worse, not better), each with one ZeroMQ context and
  no automatic full garbage collection (`_packed_clients_gc`): action -> ack at the sender,
  action -> last of the 5 clients holding the event, host CPU per move (user + system time
  of the host process over the run / moves journaled), host memory per table (peak RSS
  growth / tables), games finished and errors;
- bytes: bytes on the wire per move (host -> all clients, client -> host).

- club: the same N tables served by a club (net/host/club.py): at pace 0 with 1 worker
  process, then with one per core (at least 2), for the speed-up of the added workers
  (moves per second of the same bots), then live with one per core: games finished and
  action -> last of 5 clients p99 against the single table's p99 of the same run (target
  under 10x); host CPU and memory are the front's and its workers' together.

MODERNART_BENCH_PARTS=latency,procs,saturation,live,club picks parts (default: all).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

PY = sys.executable
#: a Sealed auction, card put up -> result on every client, in ordinary moves at most (the target)
SEALED_MOVES = 4
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


def _proc_cpu_ns(pid: int) -> int:
    """CPU time of every thread of process `pid` so far (ns; /proc/<pid>/task/*/schedstat):
    precise where /proc/<pid>/stat counts clock ticks of 10 ms."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
            pass
    return total


def _proc_cpu_by_thread(pid: int) -> dict[str, int]:
    """CPU time so far (ns) of process `pid`'s threads by kind: the event loop (its main
    thread), ZeroMQ's I/O thread (CURVE, TCP), and the others (the journal syncs)."""
    kinds = {"event loop": 0, "ZeroMQ I/O": 0, "other threads": 0}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                comm = f.read().strip()
        except (OSError, ValueError, IndexError):
            continue
        kind = "event loop" if int(tid) == pid else "ZeroMQ I/O" if comm.startswith("ZMQbg/IO") else "other threads"
        kinds[kind] += ns
    return kinds


def _journal_dir(where: str) -> str:
    """A fresh journal directory on this machine's disk ("disk") or on tmpfs ("tmpfs")."""
    return tempfile.mkdtemp(prefix="ma-bench-", dir=TMPFS if where == "tmpfs" else None)


def start_host(tmp: str, tables: int, workers: int = 0) -> tuple[subprocess.Popen, list[str]]:
    """The benchmark's host process serving `tables` (with `workers`: a club, net/host/club.py,
    whose worker processes it names on a `pids` line, read into `HOST_PIDS`)."""
    proc = subprocess.Popen(
        [PY, "-m", "benchmarks.net", "serve", "--tables", str(tables), "--dir", tmp, "--workers", str(workers)],
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
        elif line.startswith("pids "):
            HOST_PIDS[proc.pid] = [int(x) for x in line.split()[1:]]
    return proc, joins


#: a club host's worker processes, by the front's pid (`start_host`)
HOST_PIDS: dict[int, list[int]] = {}


def _host_cpu_ns(pid: int) -> int:
    """CPU time of the host process `pid` and of its club's workers, if it has any."""
    return sum(_proc_cpu_ns(p) for p in [pid, *HOST_PIDS.get(pid, [])])


def _host_rss(pid: int) -> int:
    return sum(_proc_rss(p) for p in [pid, *HOST_PIDS.get(pid, [])])


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _host_gc(proc: subprocess.Popen, tmp: str) -> dict[str, Any] | None:
    """Stop the host and read what its garbage collections cost (`_serve` writes it)."""
    _stop(proc)
    try:
        with open(os.path.join(tmp, "host-gc.json")) as f:
            return dict(json.load(f))
    except (OSError, ValueError):
        return None


def _journal_lines(tmp: str):
    for name in os.listdir(tmp):
        if name.endswith(".jsonl"):
            with open(os.path.join(tmp, name)) as f:
                yield from f


# ---------------------------------------------------------------------- the floor


def _signature_costs(samples: int) -> dict[str, float]:
    """Median microseconds of one Ed25519 signature and one verification (an action body)."""
    from modernart.net.protocol.signed import ACT_TAG
    from modernart.net.trust.identity import Keys, verify

    keys = Keys.generate()
    signs, checks = [], []
    for i in range(samples):
        body = i.to_bytes(60, "big")  # each its own: a process checks a signature once (identity.verify)
        t0 = time.perf_counter()
        sig = keys.sign(ACT_TAG, body)
        t1 = time.perf_counter()
        verify(keys.vk, ACT_TAG, body, sig)
        checks.append(time.perf_counter() - t1)
        signs.append(t1 - t0)
    return {"sign_us": percentile(signs, 50) * 1e6, "verify_us": percentile(checks, 50) * 1e6}


def _work_per_move(moves: int) -> dict[str, float]:
    """The host's and one client's work per ordinary move, in this process without sockets
    (median microseconds): the host checks the signed action, applies it, makes and signs
    the event, writes it to its journal (no fsync: it is off the path) and packs the five
    seats' frames (`HostedGame.submit`, `LoggedEvent.frame_for`); a client decodes the
    frame, checks it (chain link, the relayed player signature, its private part) and the
    host signature, and rebuilds its Observation (`VerifiedGame.apply`, `check_head`).
    Random legal moves of a 5-player game; Sealed auctions are played, not timed."""
    import random

    from modernart.bots.random_bot import random_move
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.lobby import Lobby
    from modernart.net.host.table import Table
    from modernart.net.protocol import pack
    from modernart.net.protocol.frames import decode_host_frame
    from modernart.net.protocol.signed import (
        ACT_TAG,
        COMMIT_TAG,
        REVEAL_TAG,
        SEED_TAG,
        Commit,
        Reveal,
        SeedCommit,
        bid_commitment,
        encode_action_body,
        seed_commitment,
    )
    from modernart.net.trust.identity import Keys, forget_verified, new_nonce
    from modernart.net.trust.verified_game import VerifiedGame
    from modernart.phase import Phase

    tmp = _journal_dir("disk")
    host_keys = Keys.generate()
    keys = [Keys.generate() for _ in range(5)]
    lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, hammer_call=0))
    for i, k in enumerate(keys):
        lobby.sit(k.vk, f"P{i}")
        lobby.ready(k.vk, True)
    host_us: list[float] = []
    client_us: list[float] = []
    rng = random.Random(1)
    try:
        while len(host_us) < moves:
            table = Table("t1", "bench", host_keys, journal_dir=tmp, lobby=lobby, fsync=False)
            sess_events = [table.start(0.0)]
            sess = table.game
            assert sess is not None
            follower = VerifiedGame(sess.game_id, host_keys.vk)

            def follow(events: list[Any]) -> None:
                for event in events:
                    follower.apply(decode_host_frame(pack(event.frame_for(0))), 0, defer_signature=True)
                follower.check_head()

            for seat, k in enumerate(keys):
                seed = new_nonce()
                body = SeedCommit(sess.game_id, seat, k.vk, seed_commitment(sess.game_id, seat, k.vk, seed)).body()
                sess_events += sess.submit_seed(k.vk, seat, body, k.sign(SEED_TAG, body), seed, 0.0)
            follow(sess_events)
            ctr = [0] * 5
            state = sess.state
            assert state is not None
            while not state.is_over() and len(host_us) < moves:
                if state.phase == Phase.SEALED:
                    rnd, auction, events, bids = sess.sealed, state.auction_no, [], {}
                    for seat, k in enumerate(keys):
                        amount, nonce = rng.randint(0, min(state.money[seat], 20)), new_nonce()
                        bids[seat] = (amount, nonce)
                        c = bid_commitment(sess.game_id, auction, seat, k.vk, amount, nonce)
                        body = Commit(sess.game_id, auction, seat, k.vk, c).body()
                        events += sess.submit_commit(k.vk, seat, body, k.sign(COMMIT_TAG, body), 0.0)
                    assert rnd is not None and rnd.digest is not None
                    for seat, k in enumerate(keys):
                        amount, nonce = bids[seat]
                        body = Reveal(sess.game_id, auction, seat, k.vk, amount, nonce, rnd.digest).body()
                        events += sess.submit_reveal(body, k.sign(REVEAL_TAG, body), 0.0)[0]
                    follow(events)
                    continue
                seat = state.to_move()[0]
                move = random_move(state, seat, rng.random)
                ctr[seat] += 1
                body = encode_action_body(sess.game_id, seat, ctr[seat], move.to_list(), sess.seq)
                sig = keys[seat].sign(ACT_TAG, body)
                t0 = time.perf_counter()
                events, _ctr = sess.submit(keys[seat].vk, seat, body, sig, 0.0)
                frames = [pack(e.frame_for(s)) for e in events for s in range(5)]
                forget_verified()  # the client is another process: the host's check is not its own
                t1 = time.perf_counter()
                for data in frames[:1]:  # seat 0's frame of the move's event
                    follower.apply(decode_host_frame(data), 0, defer_signature=True)
                follower.check_head()
                t2 = time.perf_counter()
                follow(events[1:])  # the disclosure, if the move ended the game
                if len(events) == 1:
                    host_us.append((t1 - t0) * 1e6)
                    client_us.append((t2 - t1) * 1e6)
            if sess.journal is not None:
                sess.journal.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"host_us": percentile(host_us, 50), "client_us": percentile(client_us, 50), "moves": len(host_us)}


def floor_figures(bare_p50_ms: float, sign_us: float, host_us: float, client_us: float) -> dict[str, float]:
    """The floor of action -> last of 5 clients (ms): the mover signs, one round trip, the
    host's work, and the clients' work, done one after the other in one process, and in 5
    processes as far as the cores let them run side by side.  The clients' work comes
    after the host's, on every core; a client's check (about 0.5 ms) is shorter than a
    scheduler's time slice, so once started it runs to its end, and C cores run the 5
    checks in ceil(5 / C) rounds: 3 on 2 cores (5 / 2 = 2.5 would assume the checks could
    be cut and shared out evenly; 1 would need a core per client)."""
    cores = os.cpu_count() or 1
    base = bare_p50_ms + (sign_us + host_us) / 1e3
    waves = -(-5 // cores)  # ceil(5 / cores): rounds of clients the cores run
    return {"floor_1proc_ms": base + 5 * client_us / 1e3, "floor_5proc_ms": base + waves * client_us / 1e3}


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


def _puts_up_sealed(obs: Any, rng: Any) -> Any:
    """Half the time the auctioneer has a Sealed card, the move that puts it up (more Sealed
    auctions to time), else None."""
    from modernart.cards import AuctionType
    from modernart.moves import Move
    from modernart.phase import Phase

    if obs.phase != Phase.PLAY_CARD or rng.random() < 0.5:
        return None
    sealed = [c for c in obs.hand if c.kind == AuctionType.SEALED]
    return Move.play(obs.seat, sealed[0]) if sealed else None


async def _next_change(client: Any) -> None:
    """Wait for the next change of `client`'s state."""
    client.changed.clear()
    await client.changed.wait()


async def _all_ready(clients: list[Any]) -> None:
    """Mark every seated client ready and wait until each holds its view of the game."""
    for c in clients:
        await c.ready()
    for c in clients:
        await c.wait_until(lambda s: s.observation is not None, 20)


async def _held_and_bid(clients: list[Any], seq: int, bot: Any) -> list[asyncio.Task[Any]]:
    """Wait until each client holds event `seq`; each seat asked for a Sealed bid bids at
    once, as soon as it holds the event (the bids' tasks)."""
    from modernart.phase import Phase

    bids: list[asyncio.Task[Any]] = []
    for c in clients:
        while c.state.head_seq < seq:
            await _next_change(c)
        own = c.state.observation
        if own is not None and own.phase == Phase.SEALED and own.seat in own.to_move:
            bid = bot.choose(own)
            if bid is not None:
                bids.append(asyncio.ensure_future(c.send_move(bid)))
    return bids


async def _latency(moves: int, where: str) -> dict[str, Any]:
    """5 clients in this process; moves one at a time; action -> the last of the 5 holding
    it.  A Sealed auction is timed whole: from the card put up to the result (the sale)
    applied by all 5 clients, who commit side by side as soon as they see the auction (and
    reveal by themselves); it is not counted among the ordinary moves."""
    import random

    from modernart.bots import make_bot
    from modernart.events import SealedRevealed
    from modernart.net.client.client import Client
    from modernart.net.trust.identity import Keys
    from modernart.phase import Phase

    import zmq.asyncio

    tmp = _journal_dir(where)
    host, joins = start_host(tmp, 1)
    clients = []
    # one ZeroMQ context for the process, as the zguide has it (one I/O thread: not five to
    # wake for every event, which a loaded machine schedules one after another)
    ctx = zmq.asyncio.Context()
    try:
        for i in range(5):
            c = Client(joins[0], keys=Keys.generate(), updates=False, ctx=ctx)
            await c.connect()
            await c.take_seat(f"P{i}")
            clients.append(c)
        await _all_ready(clients)
        bot = make_bot("random", 1)
        rng = random.Random(2)
        lat: list[float] = []
        acks: list[float] = []
        sealed: list[float] = []
        sent_bytes, events, received = 0, 0, 0
        host_cpu_ns = 0  # the host process's CPU (all its threads) during the ordinary moves
        threads0 = _proc_cpu_by_thread(host.pid)  # and by thread over the whole run (Sealed included)

        def settled(c: Any, auction: int) -> bool:
            return any(isinstance(e, SealedRevealed) and e.auction == auction for _seq, e in c.state.log[-12:])

        while len(lat) < moves:
            obs = clients[0].state.observation
            assert obs is not None
            if obs.is_over:
                break
            if not obs.to_move:  # a Sealed auction between its commitments and its settlement
                await _next_change(clients[0])
                continue
            mover = next(c for c in clients if c.state.seat == obs.to_move[0])
            view = mover.state.observation
            assert view is not None  # every client has its view (waited for above)
            sealed_card = _puts_up_sealed(view, rng)
            move = sealed_card or bot.choose(view)
            if move is None:  # the mover's view is a step behind: wait for it
                await _next_change(mover)
                continue
            bytes_before = sum(c.bytes_in for c in clients)
            cpu0 = _proc_cpu_ns(host.pid)
            t0 = time.perf_counter()
            reply = await mover.send_move(move)
            if not reply.ok:
                continue
            ack = time.perf_counter() - t0
            bids = await _held_and_bid(clients, reply.seq or 0, bot)
            now = clients[0].state.observation
            if now is not None and now.phase == Phase.SEALED:  # a card put up for a Sealed auction
                auction = now.auction_no
                await asyncio.gather(*bids)
                for c in clients:
                    while not settled(c, auction):
                        await _next_change(c)
                sealed.append(time.perf_counter() - t0)
                continue
            lat.append(time.perf_counter() - t0)
            host_cpu_ns += _proc_cpu_ns(host.pid) - cpu0
            received += sum(c.bytes_in for c in clients) - bytes_before  # an ordinary move's frames (and ticks)
            acks.append(ack)
            sent_bytes += 60 + 64 + 20  # body, signature, framing
            events += 1
        threads = {k: v - threads0[k] for k, v in _proc_cpu_by_thread(host.pid).items()}
        figures: dict[str, Any] = {
            "samples": len(lat),
            "host_cpu_us_per_move": host_cpu_ns / max(len(lat), 1) / 1e3,
            "host_cpu_threads": {k: v / max(sum(threads.values()), 1) for k, v in threads.items()},
            "p50_ms": percentile(lat, 50) * 1e3,
            "p99_ms": percentile(lat, 99) * 1e3,
            "ack_p50_ms": percentile(acks, 50) * 1e3,
            "ack_p99_ms": percentile(acks, 99) * 1e3,
            "sealed_auctions": len(sealed),
            "sealed_p50_ms": percentile(sealed, 50) * 1e3,
            "sealed_p99_ms": percentile(sealed, 99) * 1e3,
            "host_to_clients_bytes_per_move": received / max(events, 1),
            "per_client_bytes_per_move": received / max(events, 1) / 5,
            "client_to_host_bytes_per_move": sent_bytes / max(events, 1),
        }
        figures["host_gc"] = _host_gc(host, tmp)
        return figures
    finally:
        for c in clients:
            await c.close()
        ctx.destroy(linger=0)
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


def _timed_bot(
    bot: Any,
    table: str,
    sent: dict[str, float],
    applied: dict[str, list[float]],
    acks: list[float] | None = None,
    arrived: dict[str, float] | None = None,
) -> None:
    """Record when `bot` sends each accepted action and when it applies each event, keyed
    "table:seq" (`applied[key]` = [clients of this process that applied it, the latest
    time]; several bots of a table share a process); with `acks`, also each action ->
    acknowledgement time; with `arrived`, when the client began on the burst that brought
    each event (the process was awake and read it).  Sealed auctions: "table:a<auction>" in `applied` is when the
    result (SealedRevealed) was applied, `sent["table:s<auction>"]` the seq of the event
    that put the card up."""
    from modernart.cards import AuctionType
    from modernart.events import AuctionStarted, SealedRevealed
    from modernart.moves import Action

    def hold(key: str, now: float) -> None:
        held = applied.setdefault(key, [0, now])
        held[0] += 1
        held[1] = max(held[1], now)

    def seen(update: Any) -> None:
        if update.kind == "event":
            now = time.perf_counter()
            info = update.data
            hold(f"{table}:{info.seq}", now)
            for e in info.events:
                if isinstance(e, AuctionStarted) and e.kind == AuctionType.SEALED:
                    sent[f"{table}:s{e.auction}"] = info.seq
                elif isinstance(e, SealedRevealed):
                    hold(f"{table}:a{e.auction}", now)

    bot.client.on_update = seen
    if arrived is not None:
        receiving = bot.client.receiving
        on_burst = receiving.on_burst

        def read(burst: list[bytes]) -> None:
            began, before = time.perf_counter(), receiving.feed.state.head_seq
            on_burst(burst)
            for seq in range(before + 1, receiving.feed.state.head_seq + 1):
                arrived[f"{table}:{seq}"] = began

        receiving.on_burst = read  # type: ignore[method-assign]
    send = bot.client.send_move

    async def timed(move: Any) -> Any:
        t0 = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes on Linux
        reply = await send(move)
        # a sealed bid's commitment has no event of its own (the last one's ack names the set's):
        # it is timed with its whole auction, not as an ordinary move
        if reply.ok and reply.seq and move.action != Action.SEALED_BID:
            sent[f"{table}:{reply.seq}"] = t0
            if acks is not None:
                acks.append(time.perf_counter() - t0)
        return reply

    bot.client.send_move = timed  # type: ignore[method-assign]


def _woken(data: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Per accepted action of the 5 player processes: the time until the first of them
    began on its event, and until the last did (each process woke and read it; what lies
    between the two is the scheduler's, not the work's: each began on it as it got a core)."""
    sent = {k: v for d in data for k, v in d["sent"].items()}
    first, last = [], []
    for key, t0 in sent.items():
        began = [d["arrived"][key] for d in data if key in d.get("arrived", {})]
        if len(began) == len(data):
            first.append(min(began) - t0)
            last.append(max(began) - t0)
    return first, last


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


def _sealed_held(data: list[dict[str, Any]], seats_of: dict[str, int]) -> list[float]:
    """Per Sealed auction: from the sending of the move that put its card up to the last
    client of its table applying its result."""
    sent = {k: v for d in data for k, v in d["sent"].items()}
    applied: dict[str, list[float]] = {}
    for d in data:
        for k, (count, latest) in d["applied"].items():
            if ":a" in k:
                held = applied.setdefault(k, [0, latest])
                held[0] += count
                held[1] = max(held[1], latest)
    out = []
    for key, (count, latest) in applied.items():
        table, auction = key.split(":a")
        start = sent.get(f"{table}:s{auction}")
        t0 = sent.get(f"{table}:{int(start)}") if start is not None else None
        if t0 is not None and count == seats_of.get(table, 5):
            out.append(latest - t0)
    return out


#: How long a player process waits before each move, so that a move's event is alone on the
#: machine, as it is in the 1-process part and in the floor (at full speed the next move
#: would be made and checked while 4 processes still check the last one)
PLAYER_GAP = 0.02


async def _player_main(join: str, out_path: str) -> None:
    """One bot player that records when it applied each event and when it sent its moves
    (each PLAYER_GAP after it decided: one move at a time)."""
    from modernart.net.client.bot import BotClient
    from modernart.net.trust.identity import Keys

    from modernart.moves import Action

    bot = BotClient(join, keys=Keys.generate(), pace_scale=0, name=f"p{os.getpid()}")
    sent: dict[str, float] = {}
    applied: dict[str, list[float]] = {}
    arrived: dict[str, float] = {}
    _timed_bot(bot, "t", sent, applied, arrived=arrived)
    timed = bot.client.send_move

    async def apart(move: Any) -> Any:
        if move.action != Action.SEALED_BID:  # a Sealed auction's bids go at once, as before
            await asyncio.sleep(PLAYER_GAP)
        return await timed(move)  # timed from the send itself, after the gap

    bot.client.send_move = apart  # type: ignore[method-assign]
    await bot.run(60)
    with open(out_path, "w") as f:
        json.dump({"applied": applied, "sent": sent, "arrived": arrived}, f)


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
        sealed = _sealed_held(data, {"t": 5})
        first, last = _woken(data)
        return {
            "samples": len(lat),
            "p50_ms": percentile(lat, 50) * 1e3,
            "p99_ms": percentile(lat, 99) * 1e3,
            "first_awake_p50_ms": percentile(first, 50) * 1e3,
            "last_awake_p50_ms": percentile(last, 50) * 1e3,
            "sealed_auctions": len(sealed),
            "sealed_p50_ms": percentile(sealed, 50) * 1e3,
        }
    finally:
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------- many tables


async def _bots_main(pace: float, joins: list[str]) -> None:
    import zmq.asyncio

    from modernart.net.client.bot import BotClient
    from modernart.net.trust.identity import Keys

    ctx = zmq.asyncio.Context()  # one per process (the zguide's rule): one I/O thread, not hundreds
    _packed_clients_gc()

    acks: list[float] = []
    sent: dict[str, float] = {}
    applied: dict[str, list[float]] = {}
    errors = 0
    done = 0
    bots: list[Any] = []

    async def one(join: str, i: int) -> None:
        nonlocal errors, done
        bot = BotClient(join, keys=Keys.generate(), pace_scale=pace, name=f"b{i}", seed=i, ctx=ctx)
        bots.append(bot)
        _timed_bot(bot, join.rsplit("/", 1)[1], sent, applied, acks)
        # connections 10 ms apart: hundreds of CURVE handshakes at once on a loaded machine
        # outlast the handshake timeout, which a client takes for a wrong host key
        await asyncio.sleep(i * 0.01)
        try:
            obs = await bot.run(60)
            done += 1 if obs.is_over else 0
        except Exception as exc:  # counted and reported, never hidden
            errors += 1
            print(f"bot error: {exc!r}", file=sys.stderr)

    lags: list[float] = []

    async def watch_loop() -> None:
        """How late this process's event loop wakes from a 10 ms sleep: a loop busy with its
        clients would delay every event they apply (the benchmark would measure itself)."""
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t0 - 0.01)

    gc_pauses = _gc_pauses()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    watcher = asyncio.get_running_loop().create_task(watch_loop())
    tasks = [asyncio.get_running_loop().create_task(one(j, i)) for i, j in enumerate(joins)]
    _done, pending = await asyncio.wait(tasks, timeout=float(os.environ.get("MODERNART_BENCH_DEADLINE", "900")))
    watcher.cancel()
    cpu_share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    for task in pending:  # a bot that never saw its game end is an error, with its state shown
        errors += 1
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)  # their sockets closed before the context goes
    for bot in bots:
        st = bot.client.state
        if not (st.observation and st.observation.is_over):
            print(f"unfinished bot: status={st.status} seq={st.head_seq} errors={st.errors[-3:]}", file=sys.stderr)
        errors += len([e for e in st.errors if e[0] in ("untrusted_host", "bad_host_frame", "forked_history")])
    ctx.destroy(linger=0)
    print(
        json.dumps(
            {
                "acks": acks,
                "sent": sent,
                "applied": applied,
                "errors": errors,
                "done": done,
                "cpu_share": cpu_share,
                "loop_lag_p50_ms": percentile(lags, 50) * 1e3,
                "loop_lag_p99_ms": percentile(lags, 99) * 1e3,
                "gc": _gc_summary(gc_pauses),
            }
        ),
        flush=True,
    )


def _tables(count: int, bot_procs: int, pace: float, workers: int = 0) -> dict[str, Any]:
    """`count` tables of 5 bots in `bot_procs` processes; `workers`: served by a club of that
    many worker processes (0: one host process)."""
    tmp = _journal_dir("disk")
    host, joins = start_host(tmp, count, workers)
    try:
        time.sleep(0.5)
        rss0, cpu0 = _host_rss(host.pid), _host_cpu_ns(host.pid) / 1e9
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
            peak = max(peak, _host_rss(host.pid))
            time.sleep(0.2)
        wall = time.perf_counter() - t0
        cpu = _host_cpu_ns(host.pid) / 1e9 - cpu0
        results = []
        for out in outs:
            out.seek(0)
            results.append(json.loads(out.read().strip().splitlines()[-1]))
            out.close()
        acks = [x for r in results for x in r["acks"]]
        seats_of = {j.rsplit("/", 1)[1]: 5 for j in joins}
        held = _all_held(results, seats_of)
        sealed = _sealed_held(results, seats_of)
        moves = sum(1 for line in _journal_lines(tmp) if line.startswith('{"m"'))
        finished = sum(1 for line in _journal_lines(tmp) if line.startswith('{"result"'))
        return {
            "tables": count,
            "workers": workers,
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
            "sealed_p50_ms": percentile(sealed, 50) * 1e3,
            "bot_proc_cpu_share": [r["cpu_share"] for r in results],
            "bot_loop_lag_p99_ms": [r["loop_lag_p99_ms"] for r in results],
            "bot_gc": [r["gc"] for r in results],
            "host_gc": _host_gc(host, tmp) if not workers else None,
        }
    finally:
        _stop(host)
        shutil.rmtree(tmp, ignore_errors=True)


async def _serve_club(tables: int, directory: str, workers: int) -> None:
    """The benchmark's tables served by a club of `workers` processes (net/host/club.py)."""
    from modernart.net.host.club import Club
    from modernart.net.trust.identity import Keys

    club = Club(Keys.generate(), workers=workers, bot_pace=0)
    fsync = os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0"
    await club.start()
    print("pids", *club.pids(), flush=True)
    clocks = {"open_countdown": 0, "decision": 0, "grace": 30, "hammer_call": 0}  # as `_serve`'s
    for i in range(tables):
        table = club.open_table(f"bench {i}", journal_dir=directory, clocks=clocks, autostart=5, fsync=fsync)
        print("join", club.target(table), flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await club.close()


async def _serve(tables: int, directory: str) -> None:
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys
    from modernart.net.host.lobby import Lobby

    # the host as `modernart host` runs it: its garbage collection its own (net/host/quiet_gc.py)
    host = Host(Keys.generate(), bot_pace=0, quiet_gc=True)
    fsync = os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0"
    await host.start()
    for i in range(tables):
        # no hammer call: the auctioneer's hammer falls at once (a call waits seconds by design)
        lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, grace=30, hammer_call=0))
        host.open_table(f"bench {i}", journal_dir=directory, lobby=lobby, autostart=5, fsync=fsync)
        print("join", host.target(f"t{i + 1}"), flush=True)
    pauses = _gc_pauses()
    lags: list[float] = []
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    probe = asyncio.get_running_loop().create_task(_loop_lag(lags, stop))
    await stop.wait()
    await probe
    summary = _gc_summary(pauses)
    summary["kinds"] = host.collector.figures() if host.collector is not None else {}
    if host.collector is not None:  # after the run: what the settles froze that is garbage now
        before = host.collector.reclaimed
        host.collector.reclaim()
        summary["left_frozen_garbage"] = host.collector.reclaimed - before
    summary["loop_lag_p99_ms"] = percentile(lags, 99) * 1e3
    summary["loop_lag_max_ms"] = max(lags, default=0.0) * 1e3
    with open(os.path.join(directory, "host-gc.json"), "w") as f:  # read by `_host_gc`
        json.dump(summary, f)
    os._exit(0)  # as the terminate signal would have: the benchmark's host needs no goodbye


async def _loop_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late the event loop wakes from a 10 ms sleep: each of its pauses (a collection,
    a long handler, the wait for a core on a loaded machine) shows as lag."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(max(0.0, time.perf_counter() - t0 - 0.01))


def _packed_clients_gc() -> None:
    """The garbage collection of a process that plays the clients of many machines: no
    automatic full collections (the young generations are still collected).  A full
    collection looks at every object of every client in the process (measured: 246 ms
    with 25 clients at load 12, during which none of them applies an event), a pause that
    a real client, holding one game, never has; reference counting frees the rest.  The
    objects of the start-up (imports) are frozen out of the young generations too."""
    import gc

    gc.freeze()
    gc.set_threshold(700, 10, 1_000_000_000)  # the third: full collections only by hand


def _gc_pauses() -> dict[int, list[float]]:
    """Record how long each of this process's garbage collections takes, by generation
    (gc.callbacks): a full collection of a heap of many tables pauses everything."""
    import gc

    pauses: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: [], 4: [], 5: []}  # 3-5: CPU time
    started = [0.0, 0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            pauses[info["generation"]].append(time.perf_counter() - started[0])
            pauses[3 + info["generation"]].append(time.thread_time() - started[1])

    gc.callbacks.append(timed)
    return pauses


def _gc_summary(pauses: dict[int, list[float]]) -> dict[str, Any]:
    """Collections per generation; the full ones' longest pause (wall time: on a loaded
    machine it includes waiting for a core) and CPU time; the total of both (ms)."""
    return {
        "collections": [len(pauses[g]) for g in (0, 1, 2)],
        "full_max_ms": max(pauses[2], default=0.0) * 1e3,
        "full_max_cpu_ms": max(pauses[5], default=0.0) * 1e3,
        "total_ms": sum(sum(pauses[g]) for g in (0, 1, 2)) * 1e3,
        "total_cpu_ms": sum(sum(pauses[g]) for g in (3, 4, 5)) * 1e3,
    }


# ---------------------------------------------------------------------- entry points


def _verdict(value: float, target: float) -> str:
    return "met" if value <= target else "MISSED"


def _host_lines(g: dict[str, Any] | None, cpu_us: float | None, work_us: float) -> list[str]:
    """The host's own figures of a part: CPU per move against its work without sockets, and
    its pauses (garbage collections by kind, the event loop's lag)."""
    out = []
    if cpu_us is not None:
        ratio = cpu_us / work_us
        out.append(
            f"  host CPU per move {cpu_us:.0f} us = {ratio:.2f} x its own work without sockets ({work_us:.0f} us) "
            f"({_verdict(ratio, 1.5)} <= 1.5)"
        )
    if g:
        on_path = [k for kind, k in g.get("kinds", {}).items() if isinstance(k, dict) and kind != "start-up"]
        # the verdict on CPU time: the wall time of a pause on a loaded machine includes the
        # wait for a core, which any 1 ms of work may meet (the loop's lag says how long)
        longest_cpu = max([g.get("full_max_cpu_ms", 0.0)] + [k["max_cpu_ms"] for k in on_path])
        longest = max([g.get("full_max_ms", 0.0)] + [k["max_ms"] for k in on_path])
        kinds = "; ".join(
            f"{kind} {k['count']} (longest {k['max_ms']:.1f} ms, {k['max_cpu_ms']:.1f} ms of CPU)"
            for kind, k in sorted(g.get("kinds", {}).items())
            if isinstance(k, dict)
        )
        out.append(
            f"  host pauses: longest garbage collection after start-up {longest_cpu:.1f} ms of CPU "
            f"({_verdict(longest_cpu, 50)} <= 50 ms), {longest:.1f} ms of wall time with the wait for a core; "
            f"{kinds}; reclaims found {g.get('kinds', {}).get('reclaimed', 0)} unreachable objects, "
            f"one after the run {g.get('left_frozen_garbage', 0)}; "
            f"event-loop lag p99 {g.get('loop_lag_p99_ms', float('nan')):.1f} ms, longest {g.get('loop_lag_max_ms', float('nan')):.1f} ms"
        )
    return out


def _print(figures: dict[str, Any]) -> None:
    m = figures["machine"]
    bare = figures["bare_rtt_p50_ms"]
    print(
        f"modernart net benchmark, {m['date']} {m.get('time', '')}, {m['cpu']} ({m['cores']} cores), "
        f"{m['implementation']} {m['python']}, loopback, journal fsync {figures['fsync']} (off the path), "
        f"load average {figures['load_average'][0]} -> {figures['load_average'][1]}"
    )
    print(f"bare pyzmq round trip              p50 {bare:.3f} ms  p99 {figures['bare_rtt_p99_ms']:.3f} ms")
    w = figures["work"]
    print(
        f"Ed25519 sign {w['sign_us']:.0f} us, verify {w['verify_us']:.0f} us; per ordinary move: host "
        f"{w['host_us']:.0f} us (check, apply, event, sign, journal write, 5 frames), one client "
        f"{w['client_us']:.0f} us (decode, chain, player and host signatures, view)"
    )
    print(
        f"floor = sign + round trip + host + clients: 1 process (5 clients one after another) "
        f"{figures['floor_1proc_ms']:.3f} ms, 5 processes ({m['cores']} cores) {figures['floor_5proc_ms']:.3f} ms"
    )
    for where in ("disk", "tmpfs"):
        lat = figures.get(f"latency_{where}")
        if lat:
            floor = figures["floor_1proc_ms"]
            print(
                f"action -> last of 5 clients, 1 process, journal on {where:5}  p50 {lat['p50_ms']:.3f} ms = "
                f"{lat['p50_ms'] / floor:.2f} x floor ({_verdict(lat['p50_ms'] / floor, 1.3)} <= 1.3)  "
                f"p99 {lat['p99_ms']:.3f} ms = {lat['p99_ms'] / lat['p50_ms']:.2f} x p50 "
                f"({_verdict(lat['p99_ms'] / lat['p50_ms'], 2.5)} <= 2.5)  ({lat['samples']} moves)"
            )
            print(
                f"  action -> ack at the sender                    p50 {lat['ack_p50_ms']:.3f} ms  "
                f"p99 {lat['ack_p99_ms']:.3f} ms"
            )
            for line in _host_lines(lat.get("host_gc"), lat.get("host_cpu_us_per_move"), w["host_us"]):
                print(line)
            if lat.get("host_cpu_threads"):
                split = ", ".join(f"{kind} {share * 100:.0f}%" for kind, share in lat["host_cpu_threads"].items())
                print(f"  host CPU by thread: {split}")
            if lat["sealed_auctions"]:
                ratio = lat["sealed_p50_ms"] / lat["p50_ms"]
                print(
                    f"  Sealed auction, card put up -> result on all 5: p50 {lat['sealed_p50_ms']:.3f} ms = "
                    f"{ratio:.1f} ordinary moves ({_verdict(ratio, SEALED_MOVES)} <= {SEALED_MOVES})  p99 {lat['sealed_p99_ms']:.3f} ms "
                    f"({lat['sealed_auctions']} auctions)"
                )
        spread = figures.get(f"latency_5_processes_{where}")
        if spread:
            floor = figures["floor_5proc_ms"]
            print(
                f"action -> last of 5 clients, 5 processes, {where:5}     p50 {spread['p50_ms']:.3f} ms = "
                f"{spread['p50_ms'] / floor:.2f} x floor ({_verdict(spread['p50_ms'] / floor, 1.3)} <= 1.3)  "
                f"p99 {spread['p99_ms']:.3f} ms = {spread['p99_ms'] / spread['p50_ms']:.2f} x p50 "
                f"({_verdict(spread['p99_ms'] / spread['p50_ms'], 2.5)} <= 2.5)  ({spread['samples']} moves)"
            )
            print(
                f"  action -> the first of the 5 processes begins on it p50 {spread['first_awake_p50_ms']:.3f} ms, "
                f"the last begins p50 {spread['last_awake_p50_ms']:.3f} ms (woken as the scheduler gives each a core)"
            )
            if spread["sealed_auctions"]:
                ratio = spread["sealed_p50_ms"] / spread["p50_ms"]
                print(
                    f"  Sealed auction, card put up -> result on all 5: p50 {spread['sealed_p50_ms']:.3f} ms = "
                    f"{ratio:.1f} ordinary moves ({_verdict(ratio, SEALED_MOVES)} <= {SEALED_MOVES})  ({spread['sealed_auctions']} auctions)"
                )
    lat = figures.get("latency_disk") or figures.get("latency_tmpfs")
    if lat:
        print(
            f"bytes per move      host->clients {lat['host_to_clients_bytes_per_move']:.0f} "
            f"(per client {lat['per_client_bytes_per_move']:.0f}), "
            f"client->host {lat['client_to_host_bytes_per_move']:.0f}"
        )
    for name in ("saturation", "live", "club_1", "club_n", "club_live"):
        many = figures.get(name)
        if not many:
            continue
        served = f", a club of {many['workers']} worker processes" if many.get("workers") else ""
        print(
            f"{many['tables']} tables x 5 bots in {many['bot_procs']} processes{served}, {name} (pace {many['pace']:g}): "
            f"finished {many['games_finished']}, "
            f"errors {many['bot_errors']}, {many['moves']} moves in {many['wall_s']:.1f} s"
        )
        print(f"  action -> ack                p50 {many['ack_p50_ms']:.2f} ms  p99 {many['ack_p99_ms']:.2f} ms")
        verdict = f" ({_verdict(many['held_p99_ms'], 50)} < 50 ms)" if name == "live" else ""
        print(
            f"  action -> last of 5 clients  p50 {many['held_p50_ms']:.2f} ms  p99 {many['held_p99_ms']:.2f} ms{verdict}"
        )
        print(
            f"  host CPU per move            {many['host_cpu_us_per_move']:.0f} us "
            f"(host busy {many['host_cpu_share'] * 100:.0f}% of one core)"
        )
        for line in _host_lines(many.get("host_gc"), many["host_cpu_us_per_move"], w["host_us"]):
            print(line)
        print(f"  host memory per table        {many['host_mem_per_table_kib']:.0f} KiB")
        shares = ", ".join(f"{x * 100:.0f}%" for x in many["bot_proc_cpu_share"])
        lags = ", ".join(f"{x:.1f}" for x in many["bot_loop_lag_p99_ms"])
        print(f"  bot processes: CPU {shares} of one core; event-loop lag p99 {lags} ms")
        for who, gcs in (("host", [many.get("host_gc")]), ("bot processes", many.get("bot_gc", []))):
            if not any(gcs):  # a club's host: its workers' collections are not gathered
                continue
            print(
                f"  garbage collections, {who}: "
                + "; ".join(
                    f"{g['collections'][2]} full (longest {g['full_max_ms']:.1f} ms, "
                    f"{g.get('full_max_cpu_ms', 0):.1f} ms of CPU), {g['total_ms']:.0f} ms in all "
                    f"({g.get('total_cpu_ms', 0):.0f} ms of CPU)"
                    for g in gcs
                    if g
                )
            )


def _print_club(figures: dict[str, Any]) -> None:
    """The club's ratios (net/host/club.py): the speed-up of its added workers, and its live
    tables' p99 against the single table's of the same run."""
    one, many, live = figures.get("club_1"), figures.get("club_n"), figures.get("club_live")
    if one and many:
        rate1, rate_n = one["moves"] / one["wall_s"], many["moves"] / many["wall_s"]
        print(
            f"club speed-up, pace 0: 1 worker {rate1:.0f} moves/s, {many['workers']} workers {rate_n:.0f} moves/s "
            f"= {rate_n / rate1:.2f} x ({(rate_n / rate1 - 1) / max(many['workers'] - 1, 1) * 100:.0f}% more per added "
            f"worker and core); host CPU per move {one['host_cpu_us_per_move']:.0f} us -> {many['host_cpu_us_per_move']:.0f} us"
        )
    single = figures.get("latency_disk") or figures.get("latency_tmpfs")
    if live:
        finished = live["games_finished"] == live["tables"] and not live["bot_errors"]
        line = (
            f"club live, {live['workers']} workers: {live['games_finished']} of {live['tables']} games finished, "
            f"{live['bot_errors']} errors ({'met' if finished else 'MISSED'}: all, none)"
        )
        if single:
            ratio = live["held_p99_ms"] / single["p99_ms"]
            line += (
                f"; action -> last of 5 clients p99 {live['held_p99_ms']:.1f} ms = {ratio:.2f} x the single table's "
                f"p99 {single['p99_ms']:.1f} ms ({'met' if ratio < 10 else 'MISSED'} < 10)"
            )
        print(line)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help="under a minute: the floor, 1 process and 5 processes on disk, 10 live tables (pace 0.05)",
    )


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    quick = bool(getattr(args, "quick", False))
    tables = int(os.environ.get("MODERNART_BENCH_TABLES", "10" if quick else "100"))
    pace = float(os.environ.get("MODERNART_BENCH_PACE", "0.05" if quick else "1.0"))
    default_parts = "latency,procs,live,club" if quick else "latency,procs,saturation,live,club"
    parts = set(os.environ.get("MODERNART_BENCH_PARTS", default_parts).split(","))
    places = ("disk",) if quick else ("disk", "tmpfs")
    moves = 150 if quick else max(50, int(args.seconds * 100))
    bare = asyncio.run(_bare_rtt(300 if quick else 1000))
    work = {**_signature_costs(500 if quick else 2000), **_work_per_move(150 if quick else 600)}
    bare_p50 = percentile(bare, 50) * 1e3
    load_before = os.getloadavg()
    figures: dict[str, Any] = {
        "machine": {**machine(), "time": time.strftime("%H:%M UTC", time.gmtime())},
        "bare_rtt_p50_ms": bare_p50,
        "bare_rtt_p99_ms": percentile(bare, 99) * 1e3,
        "work": work,
        **floor_figures(bare_p50, work["sign_us"], work["host_us"], work["client_us"]),
        "fsync": "on" if os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0" else "off",
        "quick": quick,
    }
    for where in places:
        if "latency" in parts:
            figures[f"latency_{where}"] = asyncio.run(_latency(moves, where))
        if "procs" in parts:
            figures[f"latency_5_processes_{where}"] = _latency_processes(where)
    if "saturation" in parts:
        figures["saturation"] = _tables(tables, int(os.environ.get("MODERNART_BENCH_BOT_PROCS", "2")), 0.0)
    if "live" in parts:
        figures["live"] = _tables(tables, int(os.environ.get("MODERNART_BENCH_LIVE_PROCS", "2")), pace)
    if "club" in parts:  # the same tables over worker processes: 1, then one per core (at least 2)
        workers = max(2, os.cpu_count() or 1)
        bot_procs = int(os.environ.get("MODERNART_BENCH_BOT_PROCS", "2"))
        figures["club_1"] = _tables(tables, bot_procs, 0.0, workers=1)
        figures["club_n"] = _tables(tables, bot_procs, 0.0, workers=workers)
        figures["club_live"] = _tables(tables, int(os.environ.get("MODERNART_BENCH_LIVE_PROCS", "2")), pace, workers)
    # the machine's load average (1 min) at the start and at the end: the figures move with it
    figures["load_average"] = [round(load_before[0], 1), round(os.getloadavg()[0], 1)]
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        _print(figures)
        _print_club(figures)
    return 0


def main(argv: list[str]) -> int:
    if argv[0] == "serve":
        p = argparse.ArgumentParser()
        p.add_argument("--tables", type=int)
        p.add_argument("--dir")
        p.add_argument("--workers", type=int, default=0)
        a = p.parse_args(argv[1:])
        asyncio.run(_serve_club(a.tables, a.dir, a.workers) if a.workers else _serve(a.tables, a.dir))
    elif argv[0] == "bots":
        asyncio.run(_bots_main(float(argv[1]), argv[2:]))
    elif argv[0] == "player":
        asyncio.run(_player_main(argv[1], argv[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
