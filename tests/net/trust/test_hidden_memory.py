"""While a hidden-hands game runs, the host holds nothing that tells a card in a hand or
in the stock before it is played (docs/fair-play.md "The hidden deck").

The host runs in this process; the three players are real bot processes
(`python -m modernart.net.client.bot`), each with its own deck key in its own config
dir.  What would tell a hidden card is a seat's secret deck key, or the one share of a
card that its owner never sends (x_s c1): with the public shares it decrypts the card.
At the moment the host accepts the sixth card play (a probe wraps `HostedGame.submit_opening`,
which plays a card the host committed to, on the real session), the test walks everything reachable from the real `Host` object with
`gc.get_referents` (stopping at modules, classes, the event loop and threads) and keeps
every bytes value and every int; it also keeps the journal, the event log and every log
record written so far, and the files under the host's directory.  After the game every
seat has disclosed its deck key, so the test can compute each secret and each owner's
share of every card that was still hidden at the probe, and search for them, as bytes
(in both byte orders), as ints, and anywhere inside the files.  The host's engine holds
stand-ins: the cards in its hands are the slot numbers dealt, not the cards.  Positive
control: after the disclosure the same search finds every secret in the host.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import types
from pathlib import Path
from typing import Any

import pytest

from modernart.moves import CARD_ACTIONS, Move
from modernart.net.clocks import ClockSettings
from modernart.net.host.game import HostedGame
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.trust.deck import own_share
from modernart.net.trust.group import scalar_bytes
from modernart.net.trust.identity import Keys

from tests.net_helpers import FAST, PY, Capture, Procs, captured_logs, run, until

_PROBE: dict[str, Any] = {"host": None, "plays": 0, "snapshot": None}  # module state: unreachable from the host


def snapshot(root: Any) -> tuple[set[bytes], set[int]]:
    """Every bytes value and every int reachable from `root` (see the module docstring)."""
    module_dicts = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    stop = (types.ModuleType, type, asyncio.AbstractEventLoop, threading.Thread)
    found_bytes: set[bytes] = set()
    found_ints: set[int] = set()
    seen: set[int] = set()
    stack: list[Any] = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, stop) or id(obj) in module_dicts:
            continue
        seen.add(id(obj))
        if type(obj) in (bytes, bytearray):
            found_bytes.add(bytes(obj))
        elif type(obj) is int:
            found_ints.add(obj)
        stack.extend(gc.get_referents(obj))
    return found_bytes, found_ints


def _contains(blobs: set[bytes], needle: bytes) -> bool:
    return any(needle in blob for blob in blobs)


def _probing_submit(self: HostedGame, *args: Any) -> Any:
    out = HostedGame.submit_opening(self, *args)
    events = out
    if any(e.move is not None and Move.from_list(e.move).action in CARD_ACTIONS for e in events):
        _PROBE["plays"] += 1
        if _PROBE["plays"] == 6 and _PROBE["snapshot"] is None:
            ledger = self.hidden.ledger
            hidden_slots = {s: ledger.slots_of(s) for s in range(self.n)}
            self.journal.sync()
            files = {p: p.read_bytes() for p in _PROBE["dir"].rglob("*") if p.is_file()}
            _PROBE["snapshot"] = (snapshot(_PROBE["host"]), hidden_slots, files, list(_PROBE["capture"].lines))
            _PROBE["stand_ins"] = [sorted(int(c) for c in hand) for hand in self.state.hands]
            _PROBE["stand_in_of"] = dict(self.hidden.blind.stand_in)
    return out


async def _scenario(tmp: Path, procs: Procs, capture: Capture) -> tuple[Any, ...]:
    host = Host(Keys.generate(), bot_pace=0)
    await host.start()
    _PROBE.update(host=host, plays=0, snapshot=None, dir=tmp / "games", capture=capture)
    lobby = Lobby(clocks=ClockSettings.from_dict(FAST))
    table = host.open_table(
        "memory", journal_dir=str(tmp / "games"), lobby=lobby, autostart=3, fsync=False, hidden_hands=True
    )
    try:
        for i in range(3):
            procs.start(
                [
                    PY,
                    "-m",
                    "modernart.net.client.bot",
                    str(host.target()),
                    "--name",
                    f"P{i}",
                    "--pace",
                    "0",
                    "--config-dir",
                    str(tmp / f"p{i}"),
                ],
                f"bot{i}",
            )
        await until(lambda: table.game is not None, 30)
        sess = table.game
        sess.submit_opening = types.MethodType(_probing_submit, sess)  # the probe, on the real session
        await until(lambda: _PROBE["snapshot"] is not None, 90)
        await until(lambda: sess.is_over and sess.deck_disclosed, 120)
        ledger = sess.hidden.ledger
        secrets = list(sess.hidden.secrets)
        after = snapshot(host)
        return _PROBE["snapshot"], ledger, secrets, after
    finally:
        await host.close()


@pytest.mark.timeout(240)
def test_the_host_holds_nothing_that_tells_a_hidden_card(tmp_path: Path) -> None:
    procs = Procs(tmp_path)
    with captured_logs() as capture:
        try:
            (memory, hidden_slots, files, logs), ledger, secrets, after = run(_scenario(tmp_path, procs, capture), 220)
        finally:
            procs.close()
    blobs, ints = memory
    assert all(x is not None for x in secrets)
    hidden_count = 0
    for seat, secret in enumerate(secrets):
        assert secret is not None
        for needle in (scalar_bytes(secret), scalar_bytes(secret)[::-1]):
            assert not _contains(blobs, needle), f"seat {seat}'s deck key is in the host's memory"
            assert not any(needle in data for data in files.values()), f"seat {seat}'s deck key is in a file"
        assert secret not in ints
        for slot in hidden_slots[seat]:
            share = own_share(secret, ledger.deck[slot])
            hidden_count += 1
            assert not _contains(blobs, share), f"the owner's share of slot {slot} is in the host's memory"
            assert not any(share in data for data in files.values()), f"the owner's share of slot {slot} is in a file"
    assert hidden_count >= 20  # most of round 1's 30 cards were still in the hands
    for data in files.values():  # no private part, journal line or event names a hand
        assert b"\xa4hand" not in data and b'"hand"' not in data
    assert not [line for line in logs if "hand" in line.lower()]
    # the host's engine holds stand-ins: slot numbers, in the seats the slots were dealt to
    for seat, held in enumerate(_PROBE["stand_ins"]):
        assert held == sorted(_PROBE["stand_in_of"][slot] for slot in hidden_slots[seat])
    # positive control: every key, once disclosed, is found by the same search
    after_blobs, _after_ints = after
    for secret in secrets:
        assert secret is not None and _contains(after_blobs, scalar_bytes(secret))
