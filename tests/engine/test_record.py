"""Game records and journals: save, load, replay, and the `modernart replay` command."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from modernart.bots.random_bot import random_step
from modernart.game import GameState
from modernart.journal_format import header_line, move_line, result_line
from modernart.moves import Move
from modernart.record import GameRecord, RecordError, load_record, parse_journal, result_of
from modernart.rules import RuleOptions

NAMES = ["Ana", "Bea", "Cem", "Dai", "Eli"]


def _recorded_game(
    players: int, seed: int, options: RuleOptions | None = None, *, stop_after: int | None = None
) -> tuple[GameState, GameRecord]:
    rng = random.Random(seed)
    state = GameState(players, options, seed=rng)
    record = GameRecord.start(state, NAMES[:players], {"seed": seed})
    while not state.is_over() and (stop_after is None or len(record.moves) < stop_after):
        move = random_step(state, rng.random)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    return state, record


@pytest.mark.parametrize("players", [3, 4, 5])
def test_save_and_replay_round_trip_over_a_thousand_games(players):
    for seed in range(1000):
        options = RuleOptions(double_split=seed % 2 == 1)
        state, record = _recorded_game(players, seed * 7 + players, options)
        loaded = load_record(record.to_json())
        if seed % 3 == 0:  # records without the deck order rebuild it from the deals
            loaded.deck_order = None
        replayed = loaded.replay()
        assert replayed.money == state.money and replayed.results == state.results
        assert loaded.check_result(replayed) == []
        assert loaded.moves == record.moves and loaded.players == NAMES[:players]


def test_journal_round_trip_and_partial_tail():
    state, record = _recorded_game(4, 3)
    text = header_line(record) + "".join(move_line(m) for m in record.moves) + result_line(record.result)
    journal = parse_journal(text)
    replayed = journal.replay()
    assert replayed.money == state.money and journal.check_result(replayed) == []
    cut = text[: len(text) - len(result_line(record.result)) - 5]  # crash while writing a move line
    with pytest.raises(RecordError):
        parse_journal(cut)
    resumed = parse_journal(cut, allow_partial_tail=True)
    assert len(resumed.moves) == len(record.moves) - 1 and resumed.result is None
    assert not resumed.replay().is_over()
    assert load_record(text).moves == record.moves


def test_unfinished_record_replays_to_the_same_position():
    state, record = _recorded_game(5, 9, stop_after=60)
    loaded = load_record(record.to_json())
    replayed = loaded.replay()
    assert replayed.hands == state.hands and replayed.money == state.money and not replayed.is_over()
    assert loaded.check_result(replayed) == []


def _corrupt(record: GameRecord, change) -> str:
    data = json.loads(record.to_json())
    change(data)
    return json.dumps(data)


def test_an_illegal_move_names_its_index_and_rule():
    _, record = _recorded_game(4, 21)
    bad = record.moves[10]
    other = Move.of((bad.seat + 1) % 4, bad.action, bad.arg)
    text = _corrupt(record, lambda d: d["moves"].__setitem__(10, other.to_list()))
    with pytest.raises(RecordError) as info:
        load_record(text).replay()
    assert info.value.index == 10 and info.value.rule


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__("format", "chess"),
        lambda d: d.__setitem__("version", 99),
        lambda d: d.__setitem__("players", "Ana"),
        lambda d: d["options"].__setitem__("deck", "tarot"),
        lambda d: d.__setitem__("first_auctioneer", 9),
        lambda d: d.__setitem__("deck_order", [0] * 70),
        lambda d: d["moves"].__setitem__(3, [0, 3]),
        lambda d: d["moves"].__setitem__(3, "bid"),
        lambda d: d["deals"][0][0].__setitem__(0, 999),
        lambda d: d.__setitem__("result", [1, 2]),
    ],
)
def test_corrupt_records_are_refused(change):
    _, record = _recorded_game(4, 22)
    with pytest.raises(RecordError):
        load_record(_corrupt(record, change)).replay()


def test_tampered_deals_are_detected():
    _, record = _recorded_game(4, 23)
    data = json.loads(record.to_json())
    data["deals"][0][0], data["deals"][0][1] = data["deals"][0][1], data["deals"][0][0]
    with pytest.raises(RecordError, match="round 1"):
        load_record(json.dumps(data)).replay()


def test_truncated_json_is_refused():
    _, record = _recorded_game(4, 24)
    with pytest.raises(RecordError, match="truncated"):
        load_record(record.to_json()[:-40])


def _run_replay(path, *extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "modernart", "replay", str(path), *extra], capture_output=True, text=True, timeout=60
    )


@pytest.mark.timeout(120)
def test_replay_command_exit_codes(tmp_path):
    state, record = _recorded_game(4, 25)
    good = tmp_path / "good.json"
    record.save(str(good))
    done = _run_replay(good, "--check")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["final_money"] == state.money and len(out["rounds"]) == 4
    assert out["rounds"][0]["payouts"] == list(state.results[0].payouts)

    wrong = tmp_path / "wrong.json"
    data = json.loads(record.to_json())
    data["result"]["final_money"][0] += 1
    wrong.write_text(json.dumps(data))
    assert _run_replay(wrong).returncode == 0
    done = _run_replay(wrong, "--check")
    assert done.returncode == 1 and "final_money" in done.stderr

    illegal = tmp_path / "illegal.json"
    data = json.loads(record.to_json())
    data["moves"][5] = [data["moves"][5][0], 3, 100000]
    illegal.write_text(json.dumps(data))
    done = _run_replay(illegal, "--check")
    assert done.returncode == 2 and "move 5" in done.stderr and "rule" in done.stderr

    truncated = tmp_path / "truncated.json"
    truncated.write_text(record.to_json()[:200])
    assert _run_replay(truncated).returncode == 2
    assert _run_replay(tmp_path / "missing.json").returncode == 2


def test_result_block_matches_the_state():
    state, record = _recorded_game(3, 26)
    assert record.result == result_of(state)
    assert record.result["winners"] == list(state.winners())
