"""The host holds no sealed bid amount before every commitment is in.

The host runs in this process (start money 10000); the three players are real bidder
processes (tests/net_helpers.py `bidder`) that spend nothing outside Sealed auctions and
seal distinctive amounts (primes near 8000).  At the moment the host accepts the last
commitment of the first Sealed auction (the probe wraps `HostedGame.submit_commit` on
the real session), the test walks everything reachable from the real `Host` object with
`gc.get_referents` (stopping at modules, classes and the event loop) and looks for the
amounts as int objects, as decimal text, inside every bytes value that decodes as
msgpack, and for a commitment preimage; it also reads the journal, the event log and
every log record written so far.  Positive control: once the auction is settled the same
search must find the amounts (in the engine's state, the journal and the event log).
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
import sys
import threading
import types
from pathlib import Path
from typing import Any

import msgpack
import pytest

from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.net.clocks import ClockSettings
from modernart.net.protocol.signed import BID_DOMAIN
from modernart.net.host.host import Host
from modernart.net.trust.identity import Keys
from modernart.net.host.journal import read_events
from modernart.net.host.lobby import Lobby
from modernart.net.protocol import decode_host_inner
from modernart.net.host.game import HostedGame

from tests.net_helpers import FAST, PY, Capture, Procs, captured_logs, run, until

AMOUNTS = (7919, 7927, 7933)
_PROBE: dict[str, Any] = {
    "host": None,
    "found": None,
    "auction": None,
    "journal": None,
    "files": None,
}  # module state: unreachable from the host


def _ints_in(value: Any, out: set[int], depth: int = 0) -> None:
    """Every int inside a decoded msgpack/JSON value (nested msgpack bytes decoded too)."""
    if depth > 12:
        return
    if type(value) is int:
        out.add(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _ints_in(v, out, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _ints_in(k, out, depth + 1)
            _ints_in(v, out, depth + 1)
    elif isinstance(value, (bytes, bytearray)) and len(value) > 2:
        try:
            inner = msgpack.unpackb(bytes(value), raw=False, strict_map_key=False)
        except Exception:
            return
        _ints_in(inner, out, depth + 1)


def _decimal(amount: int) -> re.Pattern:
    return re.compile(rf"(?<![0-9]){amount}(?![0-9])")


def search_host(host: Host, amounts: list[int]) -> dict[int, list[str]]:
    """Where each amount occurs in the object graph under `host` (see the module docstring)."""
    module_dicts = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    stop = (types.ModuleType, type, asyncio.AbstractEventLoop, threading.Thread)
    found: dict[int, list[str]] = {a: [] for a in amounts}
    texts = {a: _decimal(a) for a in amounts}
    seen: set[int] = set()
    stack: list[Any] = [host]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, stop) or id(obj) in module_dicts:
            continue
        seen.add(id(obj))
        kind = type(obj)
        if kind is int and obj in found:
            found[obj].append("an int object")
        elif kind is str:
            for a, pattern in texts.items():
                if pattern.search(obj):
                    found[a].append(f"text {obj[:60]!r}")
        elif kind in (bytes, bytearray):
            data = bytes(obj)
            if BID_DOMAIN in data:
                for a in amounts:
                    found[a].append("a commitment preimage")
            ints: set[int] = set()
            _ints_in(data, ints)
            for a in amounts:
                if a in ints:
                    found[a].append(f"msgpack bytes {data[:24]!r}")
                if texts[a].search(data.decode("latin-1")):
                    found[a].append(f"decimal bytes {data[:24]!r}")
        stack.extend(gc.get_referents(obj))
    return found


def search_files(journal: Path, amounts: list[int]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {a: [] for a in amounts}
    ints: set[int] = set()
    if journal.exists():
        lines = journal.read_text().splitlines()
        for i, line in enumerate(lines):
            try:
                _ints_in(json.loads(line), ints)
            except ValueError:
                if i != len(lines) - 1:  # only the line being written may be cut short
                    raise
    for entry in read_events(str(journal)):
        _ints_in(entry, ints)
    for a in amounts:
        if a in ints:
            found[a].append(f"the journal or event log of {journal.name}")
    return found


def _probing_submit_commit(self: HostedGame, *args: Any) -> Any:
    events = HostedGame.submit_commit(self, *args)
    if _PROBE["found"] is None and any(decode_host_inner(e.public)["k"] == "commits" for e in events):
        _PROBE["auction"] = self.state.auction_no
        candidates = [a for a in AMOUNTS if a not in self.state.money]  # a money value may equal one
        _PROBE["candidates"] = candidates
        _PROBE["found"] = search_host(_PROBE["host"], candidates)
        # the files at this very moment too: soon after, the reveals are in them
        _PROBE["files"] = search_files(_PROBE["journal"], candidates)
        _PROBE["logs"] = list(_PROBE["capture"].lines)
    return events


async def _scenario(tmp: Path, procs: Procs, capture: Capture):
    host = Host(Keys.generate(), bot_pace=0)
    await host.start()
    _PROBE.update(host=host, found=None, auction=None)
    lobby = Lobby(RuleOptions(start_money=10000), ClockSettings.from_dict(FAST))
    table = host.open_table("memory", journal_dir=str(tmp / "games"), lobby=lobby, autostart=3, fsync=False)
    try:
        for i, amount in enumerate(AMOUNTS):
            procs.start(
                [PY, "-m", "tests.net_helpers", "bidder", str(host.target()), str(amount), f"P{i}", str(tmp / f"p{i}")],
                f"bidder{i}",
            )
        await until(lambda: table.game is not None, 30)
        sess = table.game
        _PROBE.update(journal=Path(table.journal_path), capture=capture)
        sess.submit_commit = types.MethodType(_probing_submit_commit, sess)  # the probe, on the real session
        await until(lambda: _PROBE["found"] is not None, 60)
        at_commit = _PROBE["found"]
        logs_at_commit = _PROBE["logs"]
        files_at_commit = _PROBE["files"]
        auction = _PROBE["auction"]
        await until(lambda: sess.state.auction_no != auction or sess.state.phase != Phase.SEALED, 30)
        await asyncio.sleep(0.2)
        after = search_host(host, _PROBE["candidates"])
        files_after = search_files(Path(table.journal_path), _PROBE["candidates"])
        return at_commit, logs_at_commit, files_at_commit, after, files_after
    finally:
        await host.close()


@pytest.mark.timeout(120)
def test_the_host_holds_no_bid_amount_when_the_last_commitment_arrives(tmp_path):
    procs = Procs(tmp_path)
    with captured_logs() as capture:
        try:
            at_commit, logs, files_at_commit, after, files_after = run(_scenario(tmp_path, procs, capture), 110)
        finally:
            procs.close()
    candidates = list(at_commit)
    assert len(candidates) >= 2
    assert all(not where for where in at_commit.values()), at_commit
    assert all(not where for where in files_at_commit.values()), files_at_commit
    for amount in candidates:
        assert not [line for line in logs if _decimal(amount).search(line)]
    # positive control: settled, the same searches find every amount
    assert all(after[a] for a in candidates), after
    assert all(files_after[a] for a in candidates), files_after
