"""Time at the table: clock settings, the host's injectable clock, and default actions.

The host owns every timer.  `ClockSettings` holds the lobby-configurable limits (seconds;
0 turns a limit off).  `default_moves(state, seats)` names what the host plays when a
decision limit runs out (docs/rules.md §12.5 for Open): Open closes with the current high bid,
Once-around passes, Fixed offer declines, a Fixed price not set in time is the lowest
legal price, a Sealed bid not committed in time is 0 (net/trust/sealed.py makes it the
host's default entry of the commitment set), a Double offer is declined, and a card to
put up is chosen by a bot from the seat's own observation.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable, Mapping

from modernart.bots import make_bot
from modernart.cards import AuctionType
from modernart.game import GameState
from modernart.moves import Move
from modernart.phase import Phase
from modernart.views import Observation


#: The longest a clock may be set to, where it is not an hour: a hammer call is a call, not a wait.
MOST_SECONDS = {"hammer_call": 60, "bot_pace": 10}


class ClockError(ValueError):
    """A clock setting out of range."""


@dataclass(frozen=True)
class ClockSettings:
    """Timers of one table, in seconds (0 = no limit).  Defaults suit friends at a table."""

    open_countdown: float = 10.0  # Open auction: closes this long after the last bid
    decision: float = 60.0  # every other decision: then the default action is played
    grace: float = 30.0  # a dropped player's seat waits this long, then a bot plays it
    bot_level: str = "medium"  # level of the bot that stands in for a dropped player (medium:
    # it plays sensibly, and decides in well under a millisecond)
    reveal: float = 10.0  # Sealed: reveals due this long after the commitment set (and
    # shuffle seeds after the start); a missing one is then forfeited
    hammer_call: float = 3.0  # Open: the auctioneer's hammer is a call ("going once, going
    # twice") this long, during which anyone may still outbid; 0 = the hammer falls at once
    bot_pace: float = 1.0  # the table's bots take this times their natural thinking pauses
    # (0 = at once; the host's own factor, for tests and benchmarks, multiplies it)
    deck_step: float = 120.0  # hidden hands: a seat that owes a deck step (its key, shuffle,
    # shares, a card from its hand, its key after the game) longer than this is named late

    def __post_init__(self) -> None:
        for name in ("open_countdown", "decision", "grace", "reveal", "hammer_call", "bot_pace", "deck_step"):
            value = getattr(self, name)
            most = MOST_SECONDS.get(name, 3600)
            if type(value) not in (int, float) or not 0 <= value <= most or value != value:
                unit = "" if name == "bot_pace" else " seconds"
                raise ClockError(f"clock {name} must be 0..{most}{unit}, got {value!r}")
        if type(self.bot_level) is not str or not 0 < len(self.bot_level) <= 16:
            raise ClockError("clock bot_level must be a bot level name")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ClockSettings":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ClockError(f"unknown clock setting(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**dict(data))

    @classmethod
    def told(cls, data: object) -> "ClockSettings":
        """The settings a host's lobby frame tells (its `clocks`), or the defaults where it
        tells them wrong: a client shows them and keeps its own card clock by them."""
        try:
            return cls.from_dict(data if isinstance(data, Mapping) else {})
        except (ClockError, TypeError):
            return cls()

    def changed(self, data: Mapping[str, Any]) -> "ClockSettings":
        return ClockSettings.from_dict({**self.to_dict(), **data})


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait for `event` at most `timeout` seconds; True if it is set.

    Every bounded wait in net/ and cli/ uses asyncio.timeout, never asyncio.wait_for: on
    Python 3.11 wait_for swallows a cancellation that arrives just as the awaited thing
    finishes, which left cancelled bots playing on and hosts that never finished closing.
    """
    try:
        async with asyncio.timeout(max(0.0, timeout)):
            await event.wait()
    except TimeoutError:
        pass
    return event.is_set()


async def cancel_and_wait(tasks: Iterable[asyncio.Task], retry: float = 1.0) -> None:
    """Cancel `tasks` and wait until every one has finished, cancelling again each `retry`
    seconds: a cancellation swallowed on the way (by library code, or wait_for on 3.11)
    must not leave a closing host waiting forever."""
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=retry)


class MonotonicClock:
    """Real time (time.monotonic); `sleep(seconds, wake)` returns early when `wake` is set."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float, wake: asyncio.Event) -> None:
        await wait_event(wake, seconds)


class ManualClock(MonotonicClock):
    """A clock that moves only when a test calls `advance`."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self._waiters: set[asyncio.Event] = set()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for ev in list(self._waiters):
            ev.set()

    async def sleep(self, seconds: float, wake: asyncio.Event) -> None:
        self._waiters.add(wake)
        try:
            if seconds > 0:
                await wake.wait()
        finally:
            self._waiters.discard(wake)


def default_moves(state: GameState, seats: tuple[int, ...], bot_level: str = "random") -> list[Move]:
    """The moves the host plays for `seats` whose decision time ran out (in order)."""
    moves: list[Move] = []
    for seat in seats:
        if seat not in state.to_move():
            continue
        if state.phase == Phase.OPEN:
            return [Move.hammer(state.auctioneer)]
        obs = state.observation(seat)
        fixed = fixed_default(obs)
        if fixed is not None:
            moves.append(fixed)
        elif state.phase == Phase.PLAY_CARD:
            moves.append(default_card(obs, bot_level, state.move_count))
    return moves


def fixed_default(obs: Observation) -> Move | None:
    """The default the rules fix for the step of `obs`'s seat, read from what that seat sees
    (None: an Open auction, whose countdown brings the auctioneer's hammer down, or a card to
    put up, which is a choice).  Only these may come "by clock" at a table that hides hands
    (net/trust/verified_game.py checks them from the public view and the public money)."""
    seat, phase = obs.seat, obs.phase
    if phase == Phase.ONCE_AROUND:
        return Move.pass_(seat)
    if phase in (Phase.FIXED_OFFER, Phase.POSTED_OFFER):
        return Move.decline(seat)
    if phase == Phase.FIXED_SET:
        price = obs.amount_range()
        return Move.set_price(seat, price[1]) if price is not None else None
    if phase == Phase.SEALED:
        return Move.sealed_bid(seat, 0)
    if phase == Phase.DOUBLE_OFFER:
        return Move.decline_second(seat)
    if phase == Phase.CHOOSE_BUYER and obs.candidates:  # the first of the tied bidders or takers, clockwise
        return Move.choose_buyer(seat, obs.candidates[0])
    if phase == Phase.MYSTERY_FLIP:
        return Move.keep_mystery(seat)
    if phase == Phase.ANNOUNCE and obs.lot:  # the auction printed on the card (Open for a Double)
        kind = obs.lot[0].kind
        return Move.announce(seat, kind if kind != AuctionType.DOUBLE else AuctionType.OPEN)
    return None


def default_card(obs: Observation, bot_level: str, seed: int) -> Move:
    """The card a clock puts up for `obs`'s seat: a `bot_level` bot's choice from the seat's
    own observation (the first legal card if it makes none).  The host's clock plays it; at
    a hidden-hands table the seat's own client does (net/client/card_clock.py)."""
    move = make_bot(bot_level, seed=seed).choose(obs)
    return move if move is not None else obs.legal_moves(amounts=False)[0]
