"""The host's garbage collection (net/host/quiet_gc.py): no full collection of every table
on the event path, and nothing lost for it.

The policy rests on one fact, tested here: what the host keeps for a table and for a peer
is freed by reference counting alone once the table or the peer goes (no reference cycle),
so freezing it while it lives costs no memory later.  The collector's own steps run in a
child process: `gc` is the process's, and this test process must keep CPython's policy.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref

from modernart.net.host.quiet_gc import NO_AUTOMATIC_FULL, QuietCollector

from tests.net_helpers import ROOT, close_all, drive_to_sealed, env, in_process_host, run, seated_clients, until

COLLECTOR_STEPS = r"""
import gc, json
from modernart.net.host.quiet_gc import QuietCollector, BOTS_PER_RECLAIM, SETTLE_SECONDS

class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it

out = {}
before = gc.get_threshold()
c = QuietCollector()
c.install(0.0)
out["thresholds"] = list(gc.get_threshold())
out["frozen_at_start"] = gc.get_freeze_count() > 0

# a cycle made and dropped between two settles is freed by the settle
young = Node(); young_ref = __import__("weakref").ref(young); del young
c.tick(SETTLE_SECONDS, in_play=True, bots_ended=0)
out["settle_frees_new_cycles"] = young_ref() is None

# a cycle alive at a settle is frozen; dropped later, it waits for a reclaim
old = Node(); old_ref = __import__("weakref").ref(old)
c.tick(2 * SETTLE_SECONDS, in_play=True, bots_ended=0)
del old
c.tick(3 * SETTLE_SECONDS, in_play=True, bots_ended=0)
out["frozen_cycle_kept_while_in_play"] = old_ref() is not None
c.tick(3 * SETTLE_SECONDS + 1, in_play=True, bots_ended=BOTS_PER_RECLAIM - 1)
out["kept_below_the_bot_count"] = old_ref() is not None
c.tick(3 * SETTLE_SECONDS + 2, in_play=True, bots_ended=BOTS_PER_RECLAIM)
out["reclaimed_after_the_bot_count"] = old_ref() is None

# when nothing is in play, anything that ended since is reclaimed
old = Node(); old_ref = __import__("weakref").ref(old)
c.tick(5 * SETTLE_SECONDS, in_play=True, bots_ended=BOTS_PER_RECLAIM)
del old
c.tick(5 * SETTLE_SECONDS + 1, in_play=False, bots_ended=BOTS_PER_RECLAIM)
out["nothing_ended_nothing_reclaimed"] = old_ref() is not None
c.table_freed()
c.tick(5 * SETTLE_SECONDS + 2, in_play=False, bots_ended=BOTS_PER_RECLAIM)
out["idle_reclaim"] = old_ref() is None
out["reclaimed"] = c.reclaimed
out["kinds"] = sorted(k for k in c.figures() if k != "reclaimed")
c.uninstall()
out["restored"] = gc.get_threshold() == before and gc.get_freeze_count() == 0
print(json.dumps(out))
"""


def test_the_collector_settles_freezes_reclaims_and_gives_the_policy_back():
    import json

    done = subprocess.run(
        [sys.executable, "-c", COLLECTOR_STEPS], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["thresholds"][2] == NO_AUTOMATIC_FULL and out["frozen_at_start"]
    assert out["settle_frees_new_cycles"]
    assert out["frozen_cycle_kept_while_in_play"] and out["kept_below_the_bot_count"]
    assert out["reclaimed_after_the_bot_count"]
    assert out["nothing_ended_nothing_reclaimed"] and out["idle_reclaim"]
    assert out["reclaimed"] >= 2  # the two dropped cycles (and what they held)
    assert out["kinds"] == ["reclaim", "settle", "start-up"]
    assert out["restored"]


def test_a_collector_not_installed_does_nothing():
    c = QuietCollector()
    before = gc.get_threshold()
    c.tick(100.0, in_play=False, bots_ended=1000)
    c.uninstall()
    assert gc.get_threshold() == before and not c.installed and "installed=False" in repr(c)


def test_a_freed_table_and_its_dropped_peers_need_no_garbage_collector(tmp_path):
    """What lets the host freeze its tables: with the collector off, a table played up to a
    Sealed auction, its 5 peers gone and the table freed, the host's objects for it (the
    table, its game, every peer) are freed by reference counting alone."""

    async def main() -> None:
        host, table = await in_process_host(tmp_path)
        clients = await seated_clients(host, 5)
        try:
            await drive_to_sealed(clients, table)
            refs = [weakref.ref(table), weakref.ref(table.game)]
            refs += [weakref.ref(p) for p in host.peers.values()]
            assert len(refs) == 7
            gc.collect()
            gc.disable()
            try:
                for c in clients:
                    await c.close()
                await until(lambda: not host.peers, 30)
                host.presence.free_table(table)
                del table
                await until(lambda: all(r() is None for r in refs), 10, what=lambda: [r() for r in refs])
            finally:
                gc.enable()
        finally:
            await close_all(clients, host)

    run(main(), 120)
