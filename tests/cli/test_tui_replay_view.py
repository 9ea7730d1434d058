"""The replay viewer (`modernart replay FILE --view`, cli/tui/replay_view.py), headless: its
steps forwards and back, move by move and round by round, every hand shown, each round's
scoring at its end; every screen fits 80x24 and larger."""

from __future__ import annotations

import random

from prompt_toolkit.utils import get_cwidth

from modernart.bots.random_bot import random_step
from modernart.game import GameState
from modernart.record import GameRecord

from modernart.cli.tui.replay_view import Replay


def recorded_game(players: int = 4, seed: int = 5) -> GameRecord:
    rng = random.Random(seed)
    state = GameState(players, seed=rng)
    record = GameRecord.start(state, ["Ana", "Bea", "Cem", "Dai", "Eli"][:players], {"seed": seed})
    while not state.is_over():
        move = random_step(state, rng.random)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    return record


def text_of(replay: Replay, cols: int = 80, rows: int = 24) -> str:
    lines = replay.lines(cols, rows)
    assert len(lines) == rows and all(get_cwidth(text) <= cols for _style, text in lines)
    return "\n".join(text for _style, text in lines)


def test_moves_and_rounds_forwards_and_back():
    record = recorded_game()
    replay = Replay(record, "game.json")
    assert replay.moves == len(record.moves)
    text = text_of(replay)
    assert "Replay game.json: move 0 of" in text and "round 1 of 4" in text
    state = record.new_state()
    for s, name in enumerate(record.players):  # every hand, with its size, at the start
        assert name in text and len(state.hands[s]) > 0
    replay.go(1)
    first = text_of(replay)
    assert "move 1 of" in first and record.players[record.first_auctioneer] in first
    replay.next_round()
    end = replay.position
    assert end == replay.round_ends()[0]
    text = text_of(replay)
    assert "Round 1 scored:" in text and "Paid:" in text  # the round's scoring at its end
    replay.next_round()
    assert replay.position == replay.round_ends()[1]
    replay.previous_round()
    assert replay.position == end  # back to the start of round 2 (= the end of round 1)
    replay.previous_round()
    assert replay.position == 0
    replay.go(-5)
    assert replay.position == 0
    replay.go(10_000)
    assert replay.position == replay.moves
    text = text_of(replay)
    assert "Game over:" in text and "Won by" in text


def test_every_position_fits_every_size():
    record = recorded_game(players=5, seed=9)
    replay = Replay(record, "a-rather-long-file-name-of-a-game-record.json")
    for cols, rows in ((80, 24), (132, 43)):
        for position in range(0, replay.moves + 1, 7):
            replay.go(position)
            text_of(replay, cols, rows)


def test_hands_are_all_shown():
    record = recorded_game(players=3, seed=2)
    replay = Replay(record, "g.json")
    replay.go(5)
    state = replay.state_at(5)
    text = text_of(replay, 132, 43)
    ed = replay.edition
    for s in range(3):
        for card in state.hands[s][:3]:
            assert f"{ed.initials[card.artist]}:{'O1SFD'[int(card.kind)]}" in text


def test_each_happening_is_told_once():
    """Issue 27: a painting put up was told twice, by the move and by its auction's event
    ("Cem puts up Karl Gitter (Once-around)" above "... (Once-around): the fifth ... ends the round")."""
    import doctest

    from modernart.cli.tui import replay_view

    assert doctest.testmod(replay_view).failed == 0
    for seed in (2, 5):
        replay = Replay(recorded_game(4, seed), "game.json")
        for step in replay.steps:
            assert len(set(step.lines)) == len(step.lines)
            assert not any(a != b and b.startswith(a + ":") for a in step.lines for b in step.lines), step.lines
        replay.go(replay.round_ends()[0])
        rows = [r.strip() for r in text_of(replay).split("\n") if r.strip()]
        puts = [r for r in rows if " puts up " in r]
        assert len({r.split(":")[0] for r in puts}) == len(puts), puts
