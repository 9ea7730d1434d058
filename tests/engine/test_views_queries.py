"""The Observation's queries a client asks instead of knowing the rules: `amount_action()`
(digits type an amount) and `card_action()` (a card is asked for) agree with the legal
moves in every position of random games, for every seat."""

from __future__ import annotations

import random

import pytest

from modernart.game import GameState
from modernart.moves import Action
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.views import observation


@pytest.mark.parametrize("players,final", [(3, False), (4, True), (5, False)])
def test_queries_agree_with_the_legal_moves(players: int, final: bool) -> None:
    rng = random.Random(players)
    options = RuleOptions(open_pass_is_final=final)
    for seed in range(6):
        state = GameState(players, options, seed=seed)
        while not state.is_over():
            for seat in range(players):
                obs = observation(state, seat)
                legal = obs.legal_moves(amounts=False)
                r = obs.amount_range()
                if r is not None:  # an amount open to the seat is of the step's kind
                    assert obs.amount_action() == r[0]
                if obs.amount_action() is None:
                    assert r is None
                card = obs.card_action()
                card_moves = {m.action for m in legal if m.action.takes_card}
                assert card_moves <= ({card} if card is not None else set())
                if card == Action.PLAY:
                    assert card_moves == {Action.PLAY}
                if card == Action.ADD_SECOND:  # the Double may be passed on, a card or none
                    assert any(m.action == Action.DECLINE_SECOND for m in legal)
                assert (card is not None) == (
                    seat in obs.to_move and obs.phase in (Phase.PLAY_CARD, Phase.DOUBLE_OFFER)
                )
            moves = state.legal_moves()
            state.apply(rng.choice(moves))
        final_obs = observation(state, 0)
        assert final_obs.amount_action() is None and final_obs.card_action() is None


def test_a_watcher_is_asked_for_nothing() -> None:
    state = GameState(3, seed=2)
    seated = observation(state, 0)
    watcher = type(seated)(**{**seated.__dict__, "seat": -1, "hand": (), "money": 0})
    assert watcher.amount_action() is None and watcher.card_action() is None
