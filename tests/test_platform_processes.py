"""Processes the same way on every platform (net/runtime.py, cli/tui/child_process.py): a
child's output read line by line through threads rather than asyncio's subprocesses
(which Windows offers only on the proactor loop that pyzmq cannot use), and a host child
stopped by closing its stdin (Windows has no SIGTERM) that still says goodbye to its
clients and exits cleanly."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest

from modernart.cli.tui.child_process import ChildProcess
from modernart.net.client.client import Client
from modernart.net.lan.address import parse_join_string
from modernart.net.trust.identity import Keys

from .net_helpers import PY, ROOT, run

#: Prints two lines, then waits for its stdin to end, then prints one more
TALKER = textwrap.dedent("""
    import sys
    print("one", flush=True)
    print("two", flush=True)
    sys.stdin.read()
    print("stdin ended", flush=True)
""")


async def _talk() -> tuple[list[bytes], int, bytes]:
    child = await ChildProcess.start([sys.executable, "-c", TALKER], cwd=str(ROOT))
    try:
        first = [await child.readline(), await child.readline()]
        assert child.returncode is None
        child.close_stdin()
        first.append(await child.readline())
        code = await asyncio.wait_for(child.wait(), 10)
        return first, code, await child.readline()
    finally:
        child.kill()


def test_a_child_is_read_line_by_line_and_stops_when_its_stdin_closes():
    lines, code, after = run(_talk(), 30)
    assert lines == [b"one\n", b"two\n", b"stdin ended\n"]
    assert code == 0 and after == b""  # the end, and it stays the end


async def _host_stopped_by_stdin(tmp) -> tuple[str, int, str]:
    argv = [PY, "-m", "modernart.cli.main", "host", "--headless", "--until-stdin-closes"]
    argv += ["--bind", "127.0.0.1", "--port", "0", "--no-beacon", "--name", "Closing"]
    argv += ["--config-dir", str(tmp / "hostcfg"), "--journal-dir", str(tmp / "games")]
    host = await ChildProcess.start(argv, cwd=str(ROOT))
    client = None
    try:
        join = ""
        while not join:
            line = await asyncio.wait_for(host.readline(), 30)
            assert line, "the host ended before its join string"
            if line.startswith(b"join string:"):
                join = line.decode().split(":", 1)[1].strip()
        client = Client(parse_join_string(join), keys=Keys.generate())
        await client.connect()
        await client.wait_until(lambda st: bool(st.table.get("name")), 5)
        host.close_stdin()
        await client.wait_until(lambda st: st.status == "host_closed", 10)
        code = await asyncio.wait_for(host.wait(), 10)
        return client.state.status, code, str(client.state.table.get("name"))
    finally:
        if client is not None:
            await client.close()
        host.kill()
        await host.wait()


def test_a_headless_host_whose_stdin_closes_says_goodbye_and_exits(tmp_path):
    status, code, name = run(_host_stopped_by_stdin(tmp_path), 60)
    assert status == "host_closed" and code == 0 and name == "Closing"


#: Forks a talker (cli/tui/child_process.py `fork_child`), reads it through `ChildProcess`,
#: closes its stdin, and prints what it saw as JSON; a thread running stops the fork
FORKS_A_TALKER = textwrap.dedent("""
    import asyncio, json, sys, threading
    from modernart.cli.tui.child_process import ChildProcess, can_fork, fork_child

    def talker():
        print("one", flush=True)
        print("two", flush=True)
        sys.stdin.read()
        print("stdin ended", flush=True)
        return 3

    alone = can_fork()
    forked = fork_child(talker)

    async def main():
        child = ChildProcess(forked, asyncio.get_running_loop())
        lines = [await child.readline(), await child.readline()]
        running = child.returncode
        child.close_stdin()
        lines.append(await child.readline())
        code = await asyncio.wait_for(child.wait(), 10)
        return [line.decode() for line in lines], running, code, (await child.readline()).decode()

    lines, running, code, after = asyncio.run(main())
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
    with_a_thread = can_fork()
    stop.set()
    print(json.dumps({"alone": alone, "lines": lines, "running": running, "code": code, "after": after,
                      "with_a_thread": with_a_thread}))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked only on Linux (can_fork)")
def test_a_forked_child_is_read_and_stopped_like_any_other():
    """`modernart play`'s host is a fork where that is safe: the same pipes, the same stop."""
    done = subprocess.run([PY, "-c", FORKS_A_TALKER], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["alone"] is True and out["with_a_thread"] is False
    assert out["lines"] == ["one\n", "two\n", "stdin ended\n"]
    assert out["running"] is None and out["code"] == 3 and out["after"] == ""
