"""Whole games over real CURVE sockets on 127.0.0.1 with in-process bot clients.

Checks: games for 3, 4 and 5 seats finish; the journal and the saved record replay to
the same result (also through `modernart replay --check`); after every event the
Observation a client rebuilt equals the engine's; sealed amounts stay hidden until the
auction resolves; a spectator sees public parts only.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from dataclasses import replace

import pytest

from modernart.events import SealedRevealed
from modernart.moves import Action
from modernart.phase import Phase
from modernart.record import read_record
from modernart.net.trust.audit import audit_files
from modernart.net.client.client import Client
from modernart.net.protocol.signed import decode_commit, decode_reveal
from modernart.net.trust.identity import Keys
from modernart.net.host.journal import read_journal
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.sealed import overlay

from tests.net_helpers import PY, ROOT, env, in_process_host, run, seat_bots


async def play_game(tmp, players, watcher_seat=None):
    host, table = await in_process_host(tmp)
    spectator = Client(host.target(), keys=Keys.generate(), spectate=True)
    await spectator.connect()
    seen = []
    player = None
    try:
        if watcher_seat is not None:  # a plain client in a seat, driven here by a bot
            from modernart.net.client.bot import BotClient

            player = BotClient(host.target(), keys=Keys.generate(), pace_scale=0, name="Watched")
            last = [0]

            def on_update(u):  # updates come in order: an event, then the observation it gave
                if u.kind == "event":
                    last[0] = u.data.seq
                elif u.kind == "observation":
                    seen.append((last[0], u.data))
                    # who the host said had sealed (clk.sealed; protocol 2 publishes no commitment
                    # before the complete set), when this observation was shown
                    player.sealed_seen.append(player.client.state.sealed)

            player.sealed_seen = []

            player.client.on_update = on_update
            import asyncio

            task = asyncio.get_running_loop().create_task(player.run())
            await spectator.wait_until(
                lambda s: any(x and x["name"] == "Watched" for x in s.table.get("seats", [])), 10
            )
        seat_bots(host, table, players - (1 if player else 0))
        await spectator.wait_until(lambda s: bool(s.public and s.public.get("winners")), 60)
        await spectator.wait_until(lambda s: table.record_path is not None, 10)
        if player:
            await task
        return host, table, spectator, seen, player
    finally:
        await spectator.close()
        await host.close()


@pytest.mark.timeout(90)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_complete_game_replays_to_the_same_result(tmp_path, players):
    host, table, spectator, _seen, _ = run(play_game(tmp_path, players), 80)
    state = table.game.state
    assert state.is_over() and state.n == players
    journal = read_journal(table.journal_path)
    replayed = journal.replay()
    assert replayed.money == state.money and journal.result is not None and not journal.check_result(replayed)
    record = read_record(table.record_path)
    assert not record.check_result(record.replay())
    assert list(spectator.state.public["final_money"]) == state.money
    moves = [item for _seq, item in spectator.state.log if hasattr(item, "action")]
    assert len(moves) == len(journal.moves)
    done = subprocess.run(
        [PY, "-m", "modernart.cli.main", "replay", "--check", table.record_path],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    report = audit_files(table.record_path)  # signatures, chain, commit-reveal, shuffle, rules
    assert report.ok and not report.notes, (report.problems, report.notes)
    # beside the finished journal only what is read after the game: the record and its
    # transcript (issue 27: the event log, the held file and the boot marker were left)
    beside = sorted(
        p.name for p in Path(table.journal_path).parent.iterdir() if p.name.startswith(Path(table.journal_path).stem)
    )
    stem = Path(table.journal_path).stem
    assert beside == [f"{stem}.json", f"{stem}.jsonl", f"{stem}.transcript"], beside


def commit_progress(table):
    """seq -> (committed seats, set complete) of the Sealed auction running at that event: the
    seats the event says have sealed (its clocks' `sealed`), every seat once the set is out."""
    out, committed, complete, auction = {}, [], False, None
    for event in table.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == "commits":
            if pub["auction"] != auction:
                auction, committed = pub["auction"], []
            committed, complete = list(range(len(pub["set"]))), True
        elif pub.get("pv") and pub["pv"]["auction_no"] != auction:
            auction, committed, complete = pub["pv"]["auction_no"], [], False
        if not complete:
            committed = list(pub.get("clk", {}).get("sealed", []))
        out[event.seq] = (committed, complete)
    return out


@pytest.mark.timeout(90)
def test_client_observation_equals_the_engine_after_every_event(tmp_path):
    host, table, spectator, seen, player = run(play_game(tmp_path, 4, watcher_seat=True), 80)
    record = read_journal(table.journal_path)
    # which event numbers carried a move: the spectator's log says
    # (one per move: a settlement's event carries every seat's sealed bid)
    move_seqs = sorted(seq for seq, item in spectator.state.log if hasattr(item, "action"))
    progress = commit_progress(table)
    assert seen, "the seated client received no observations"
    seat = player.client.state.seat
    overlaid = 0
    for index, (seq, obs) in enumerate(seen):
        applied = sum(1 for s in move_seqs if s <= seq)
        expected = record.replay(upto=applied).observation(seat)
        if expected.phase == Phase.SEALED:  # commit-reveal: who has committed, who still may
            committed, complete = progress[seq]
            if not complete:  # between events: who the host's clocks said had sealed then
                committed = list(player.sealed_seen[index])
            view = overlay(
                {"to_move": list(expected.to_move), "sealed_done": list(expected.sealed_done)}, committed, complete
            )
            expected = replace(expected, to_move=tuple(view["to_move"]), sealed_done=tuple(view["sealed_done"]))
            overlaid += bool(committed)
        assert obs == expected, f"event {seq}: client view differs from the engine's"
    assert seen[-1][1].is_over
    assert overlaid, "no Sealed auction had a commitment"


@pytest.mark.timeout(90)
def test_sealed_bids_reach_the_engine_only_after_the_complete_commitment_set(tmp_path):
    host, table, spectator, _seen, _ = run(play_game(tmp_path, 5), 80)
    set_seq = {}
    settled = 0
    for event in table.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == "commits":  # protocol 2: the commitments are published in the set only
            set_seq[pub["auction"]] = event.seq
            assert len(pub["set"]) == 5
            for item in pub["set"]:
                if "c" not in item:
                    continue
                body = decode_commit(item["c"][0])  # a hash, a key and the context: no amount
                assert (body.auction, body.seat) == (pub["auction"], item["seat"])
        for bid in pub["bids"] if pub["k"] == "settle" else []:  # every seat's bid in one event
            auction = pub["auction"]
            assert auction in set_seq and event.seq > set_seq[auction]
            assert bid["by"] in ("reveal", "clock")  # bots are honest: no offender
            if bid["by"] == "reveal":
                reveal = decode_reveal(bid["reveal"][0])
                assert reveal.amount == bid["m"][2] and reveal.seat == bid["m"][0]
            settled += 1
    assert set_seq and settled == 5 * len(set_seq)
    shown = [item for _seq, item in spectator.state.log if hasattr(item, "action") and item.action == Action.SEALED_BID]
    assert len(shown) == settled and all(m.arg >= 0 for m in shown)
    assert any(isinstance(item, SealedRevealed) for _seq, item in spectator.state.log)
    assert not spectator.state.errors, spectator.state.errors
    # spectators never get a private part
    assert spectator.state.observation is None
