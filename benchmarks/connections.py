"""What one idle connection costs a ROUTER host in libzmq: RSS growth per connection.

Each variant starts a bare host process (one ROUTER on 127.0.0.1, nothing of modernart's)
and a client process that opens N DEALERs, each sending one small frame and never reading.
The host reads every frame (and answers it with `--answer` bytes in the `+answer` variants),
then its VmRSS growth over its own start is divided by N.  Variants: a plain ROUTER, a CURVE
ROUTER with a ZAP handler (the host's own setup), the same with answers, one whose ZAP
handler refuses every key (what a refused handshake leaves), and with
ZMQ_IN_BATCH_SIZE/ZMQ_OUT_BATCH_SIZE lowered (reported as unavailable where libzmq was built
without its draft API, which those options need).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import tempfile
import time
from multiprocessing.synchronize import Event

import zmq
import zmq.auth
from zmq.auth.thread import ThreadAuthenticator


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    return 0


def _host(
    result: mp.Queue,
    ready: mp.Queue,
    curve: bool,
    batch: int,
    answer: int,
    n: int,
    keys: tuple[bytes, bytes],
    deny: bool,
) -> None:
    ctx = zmq.Context()
    auth = None
    if curve:
        auth = ThreadAuthenticator(ctx)
        auth.start()
        # an empty directory of allowed keys: every handshake is refused
        auth.configure_curve(domain="*", location=tempfile.mkdtemp() if deny else zmq.auth.CURVE_ALLOW_ANY)
    s = ctx.socket(zmq.ROUTER)
    s.linger = 0
    if curve:
        s.curve_server = True
        s.curve_publickey, s.curve_secretkey = keys
    if batch:
        try:
            s.setsockopt(zmq.IN_BATCH_SIZE, batch)
            s.setsockopt(zmq.OUT_BATCH_SIZE, batch)
        except zmq.ZMQError as exc:
            ready.put(None)
            result.put((0, 0, f"batch options refused: {exc}"))
            return
    port = s.bind_to_random_port("tcp://127.0.0.1")
    time.sleep(0.5)
    base = _rss_kib()
    ready.put(port)
    got, deadline = 0, time.monotonic() + (10 if deny else 60)  # refused: no frame comes
    while got < n and time.monotonic() < deadline:
        if s.poll(1000):
            rid, _ = s.recv_multipart()
            got += 1
            if answer:
                s.send_multipart([rid, b"x" * answer], zmq.DONTWAIT)
    time.sleep(2)
    result.put((n if deny else got, _rss_kib() - base, ""))
    s.close(linger=0)
    if auth is not None:
        auth.stop()
    ctx.term()


def _clients(n: int, port: int, curve: bool, server_key: bytes, done: Event) -> None:
    ctx = zmq.Context()
    socks = []
    for _ in range(n):
        d = ctx.socket(zmq.DEALER)
        d.linger, d.rcvhwm = 0, 1
        if curve:
            d.curve_publickey, d.curve_secretkey = zmq.curve_keypair()
            d.curve_serverkey = server_key
        d.connect(f"tcp://127.0.0.1:{port}")
        d.send(b"tables")
        socks.append(d)
    done.wait(120)
    for d in socks:
        d.close(linger=0)
    ctx.term()


def measure(n: int, curve: bool, batch: int, answer: int, deny: bool = False) -> str:
    keys = zmq.curve_keypair()
    result: mp.Queue = mp.Queue()
    ready: mp.Queue = mp.Queue()
    done = mp.Event()
    host = mp.Process(target=_host, args=(result, ready, curve, batch, answer, n, keys, deny))
    host.start()
    port = ready.get(timeout=30)
    clients = None
    if port is not None:
        clients = mp.Process(target=_clients, args=(n, port, curve, keys[0], done))
        clients.start()
    got, grown, why = result.get(timeout=120)
    done.set()
    if clients is not None:
        clients.join(30)
    host.join(30)
    name = f"{'curve' if curve else 'plain'}{' ZAP refuses' if deny else ''}{f' batch={batch}' if batch else ''}{f' +answer {answer} B' if answer else ''}"
    if why:
        return f"{name:32} {why}"
    return f"{name:32} {got:4} connections  +{grown / 1024:5.1f} MiB  {grown / max(got, 1):5.1f} KiB each"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--connections", type=int, default=300, help="connections per variant (default 300)")
    p.add_argument("--answer", type=int, default=16 * 1024, help="answer bytes in the +answer variant (default 16 KiB)")


def run(args: argparse.Namespace) -> int:
    print(f"libzmq {zmq.zmq_version()}, pyzmq {zmq.__version__}")
    for curve, batch, answer in ((False, 0, 0), (True, 0, 0), (True, 0, args.answer), (True, 1024, 0)):
        print(measure(args.connections, curve, batch, answer), flush=True)
    print(measure(args.connections, True, 0, 0, deny=True), flush=True)
    return 0
