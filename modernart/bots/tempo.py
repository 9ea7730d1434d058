"""How long a table of bots takes over an Open auction, on a simulated clock.

A host's table runs its bots as net/client/bot.py does: every bot that has something to
do in the auction thinks, waits its `pace` (times the table's bot pace), then sends its
move; a move by anyone makes every bot think again, and a bot whose move is still the one
it was about to make sends it when its first pause is over (someone else's pass does not
make it start its thinking over), while a bot whose move changed (the high bid moved)
waits its pace for the new one.  A bid restarts the table's countdown; when the countdown runs out
the auction closes (sold to the high bidder).  Seats in `silent` are people who neither
bid nor pass (a player who is out of it, or away): only the countdown closes an auction
they sit in.  `open_auction_seconds` plays one auction so, the bots' moves applied to
the state as they come, and returns the seconds from its first moment to its end.

With `jumps=False` the medium bot raises by one step with 0.7-2.9 s of thought per bid:
with a player who sits out, the 40 auctions of `tests/bots/test_bots_tempo.py` end up to
23.5 s after the countdown.  Jumping towards its price (`pricing.open_raise`) with quicker
bids, they end 4.5 s after the countdown in the median and 5.8 s at most, and without
such a player (bots only) within 6.8 s of the card put up.
"""

from __future__ import annotations

from typing import Collection, Sequence

from ..game import GameState
from ..moves import Action, Move
from ..phase import Phase
from .base import Bot

TRACE = False


def open_auction_seconds(
    state: GameState,
    bots: Sequence[Bot | None],
    *,
    countdown: float = 10.0,
    hammer_call: float = 3.0,
    pace: float = 1.0,
    silent: Collection[int] = (),
) -> float:
    """Seconds the Open auction now running in `state` takes at a table (`state` is played
    on to its end).  `bots[s]` plays seat s (None, or a seat in `silent`: a person who does
    nothing)."""
    if state.phase != Phase.OPEN:
        raise ValueError("no Open auction is running")
    auction = state.auction_no
    now = 0.0
    last_bid = 0.0
    pending: dict[int, tuple[float, Move]] = {}  # seat -> (when it sends, the move)
    while state.phase == Phase.OPEN and state.auction_no == auction:
        best: tuple[float, Move] | None = None
        thinking: dict[int, tuple[float, Move]] = {}
        for seat in state.to_move():
            bot = bots[seat]
            if bot is None or seat in silent:
                continue
            obs = state.observation(seat)
            move = bot.choose(obs)
            if move is None:
                continue
            was = pending.get(seat)
            at = was[0] if was is not None and was[1] == move else now + bot.pace(obs, move) * pace
            thinking[seat] = (at, move)
            if best is None or at < best[0]:
                best = (at, move)
        pending = thinking
        closes = last_bid + countdown
        if best is None or best[0] >= closes:
            return _close(state, auction, closes)
        now, move = best
        if TRACE:
            print(round(now, 2), move, state.high)
        if move.action == Action.HAMMER and hammer_call > 0:
            now += hammer_call  # the call: anyone may still outbid (the bots have had their say)
        state.apply(move)
        if move.action == Action.BID:
            last_bid = now
    return now


def _close(state: GameState, auction: int, at: float) -> float:
    """The countdown ran out: the seats still in it pass (the host's default), which sells."""
    for seat in range(state.n):
        if state.phase != Phase.OPEN or state.auction_no != auction:
            break
        if seat != state.high_seat and not state.passed[seat] and seat in state.to_move():
            state.apply(Move.pass_(seat))
    if state.phase == Phase.OPEN and state.auction_no == auction:
        state.apply(Move.hammer(state.auctioneer))
    return at
