"""A game ended early at a table's vote (docs/rules.md §12.9): the round in progress is
scored as it stands, the lot on offer counts for its artist and goes to nobody, and no
later round is played."""

from __future__ import annotations

import random

import pytest

from modernart.errors import GameOver
from modernart.events import GameEnded, RoundEnded
from modernart.game import GameState
from modernart.moves import Action
from modernart.phase import Phase
from modernart.scoring import score_round


def play_until(state: GameState, rng: random.Random, stop: object) -> None:
    while not state.is_over() and not stop(state):  # type: ignore[operator]
        state.apply(rng.choice(state.legal_moves()))


def test_the_round_in_progress_is_scored_as_it_stands_and_the_game_ends() -> None:
    rng = random.Random(7)
    state = GameState(4, seed=3, track_events=True)
    # into round 2, with paintings bought this round and a card on offer
    play_until(state, rng, lambda s: s.round == 1 and sum(len(b) for b in s.bought) >= 3 and s.lot)
    assert state.round == 1 and state.lot and not state.is_over()
    before = list(state.money)
    lot = list(state.lot)
    counts = list(state.counts)
    bought = [list(b) for b in state.bought]
    expected = score_round(1, counts, state.tiles, bought, "early", state.auctioneer, lot, state.artist_of)
    state.end_early()
    assert state.phase == Phase.GAME_OVER and state.is_over()
    result = state.results[-1]
    assert (result.round, result.ended_by, tuple(result.ending_cards)) == (1, "early", tuple(lot))
    assert result.payouts == expected.payouts and result.ranking == expected.ranking
    assert state.money == [m + p for m, p in zip(before, result.payouts)]
    assert len(state.results) == 2  # rounds 3 and 4 are never played
    assert state.lot == [] and all(not b for b in state.bought)
    assert isinstance(state.events[-2], RoundEnded) and isinstance(state.events[-1], GameEnded)
    assert state.events[-1].winners == state.winners()
    with pytest.raises(GameOver):
        state.end_early()
    with pytest.raises(GameOver):
        state.apply(state.legal_moves()[0] if state.legal_moves() else (0, Action.PASS, 0))  # type: ignore[arg-type]


def test_ended_at_the_first_card_nobody_is_paid() -> None:
    state = GameState(3, seed=5)
    state.end_early()
    assert state.money == [100, 100, 100] and state.winners() == (0, 1, 2)
    assert state.results[0].values == (0, 0, 0, 0, 0)
