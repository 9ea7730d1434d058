"""LAN discovery, on loopback only: beacons go to 127.255.255.255 inside a network
namespace the test creates (`unshare -n`), never to a real interface's broadcast address."""

from __future__ import annotations

import json
import shlex
import subprocess
import textwrap

import msgpack
import pytest

from modernart.net.lan.beacon import MAX_BEACON, decode_beacon, encode_beacon
from modernart.net.trust.identity import Keys

from tests.net_helpers import PY, in_namespace, needs_netns
from tests.slowdown import scaled


def test_beacon_encoding_is_bounded_and_malformed_beacons_are_ignored():
    key = Keys.generate().curve_public_raw
    info = {
        "id": "t1",
        "name": "N" * 300,
        "state": "lobby",
        "taken": 2,
        "free": 3,
        "options": {f"o{i}": "x" * 40 for i in range(20)},
    }
    data = encode_beacon(47000, key, info)
    assert len(data) <= MAX_BEACON
    heard = decode_beacon(data, "127.0.0.1")
    assert heard is not None and heard.target.port == 47000 and heard.target.host_key == key
    for bad in (
        b"",
        b"MART",
        b"XXXX\x01" + data[5:],
        data[:4] + b"\x09" + data[5:],
        data[:-3],
        data + b"\x00" * MAX_BEACON,
        b"MART\x01" + msgpack.packb({"port": "x", "key": key, "table": "t"}),
        b"MART\x01" + msgpack.packb({"port": 1, "key": b"short", "table": "t"}),
    ):
        assert decode_beacon(bad, "127.0.0.1") is None


PROBE = textwrap.dedent("""
    import asyncio, json, sys
    from modernart.net.lan.beacon import Announcer, Listener
    from modernart.net.client.client import Client
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys, normalise_code

    async def main():
        host = Host(Keys.generate(), bind="127.0.0.1")
        await host.start()
        host.open_table("Alice's table")
        a, b = await Listener.open("0.0.0.0", 47999), await Listener.open("0.0.0.0", 47999)
        wrong = await Listener.open("0.0.0.0", 47999, code="AAAA-AAAA-AAAA")
        ann = Announcer(lambda: [t.info() for t in host.tables.values()], host.port, host.keys.curve_public_raw,
                        targets=[("127.255.255.255", 47999)], every=0.2)
        task = asyncio.get_running_loop().create_task(ann.run())
        # until both listeners heard a beacon (at most WAIT seconds): the same broadcast reached
        # the third listener in the same poll of the loop, handled before this looks again
        end = asyncio.get_running_loop().time() + float(sys.argv[1])
        while not (a.tables() and b.tables()):
            if asyncio.get_running_loop().time() > end:
                raise SystemExit(f"no beacon heard within {sys.argv[1]} s: a {a.tables()}, b {b.tables()}")
            await asyncio.sleep(0.02)
        await asyncio.sleep(0)
        heard_a, heard_b = a.tables(), b.tables()
        code = host.target().code
        match = [h for h in heard_a if h.code == normalise_code(code.lower())]
        client = Client(match[0].target, keys=Keys.generate())
        await client.connect()
        await client.wait_until(lambda st: bool(st.table.get("name")), 5)  # it follows the welcome
        out = {"a": [h.name for h in heard_a], "b": [h.name for h in heard_b], "wrong": len(wrong.tables()),
               "joined": client.state.table.get("name"), "code": code, "heard_code": match[0].code}
        await client.close()
        task.cancel()
        await host.close()
        print(json.dumps(out))
    asyncio.run(main())
""")


@needs_netns
@pytest.mark.timeout(60)
def test_tables_are_discovered_by_broadcast_on_loopback_and_joined_by_code():
    done = in_namespace(f"{PY} -c {shlex.quote(PROBE)} {scaled(10):.0f}", timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["a"] == ["Alice's table"] and out["b"] == ["Alice's table"]  # every listener hears it
    assert out["wrong"] == 0  # a listener given another code ignores the beacon
    assert out["joined"] == "Alice's table" and out["heard_code"] == out["code"]


def join_beside_a_hosted_table(join_args: str) -> subprocess.CompletedProcess:
    """`modernart join JOIN_ARGS` in a namespace where `modernart host` announces LoopTable."""
    script = (
        f"{PY} -m modernart.cli.main host --bind 127.0.0.1 --port 0 --name LoopTable "
        f"--config-dir /tmp/ma-beacon-$$ --journal-dir /tmp/ma-beacon-$$/games "
        f"--beacon-target 127.255.255.255:47999 > /tmp/ma-beacon-$$.out & HOST=$!; "
        # the join listens once the host says it is serving (it announces from then on)
        f"for i in $(seq {int(scaled(30) * 10)}); do grep -q 'join string' /tmp/ma-beacon-$$.out && break; sleep 0.1; done; "
        f"grep -q 'join string' /tmp/ma-beacon-$$.out || {{ echo 'the host never said it serves:' >&2; "
        f"cat /tmp/ma-beacon-$$.out >&2; }}; "
        f"{PY} -m modernart.cli.main join {join_args}; RC=$?; kill $HOST; wait $HOST; "
        f"rm -rf /tmp/ma-beacon-$$ /tmp/ma-beacon-$$.out; exit $RC"
    )
    return in_namespace(script, timeout=scaled(60))


@needs_netns
@pytest.mark.timeout(60)
def test_modernart_join_print_lists_a_hosted_table():
    done = join_beside_a_hosted_table("--print --listen 2")
    assert done.returncode == 0, done.stderr
    assert "LoopTable" in done.stdout and "code" in done.stdout and "ma://127.0.0.1:" in done.stdout


@needs_netns
@pytest.mark.timeout(60)
def test_modernart_join_with_a_code_no_table_shows_says_so_and_lists_what_was_heard():
    done = join_beside_a_hosted_table("zzzz-zzzz-zzzz --check --listen 2")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "no table with join code ZZZZ-ZZZZ-ZZZZ was heard in 2 s; the tables heard:" in done.stderr
    assert "LoopTable" in done.stderr and "ma://127.0.0.1:" in done.stderr
    assert "connected to" not in done.stdout
