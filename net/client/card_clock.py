"""A hidden-hands table's card play on the clock, kept by the seat's own client.

At a table that hides hands (docs/fair-play.md "Absent seats") only a seat's owner can play
one of its cards, so the host's decision clock cannot play a card for a person who lets it
run out: the host stops that clock and the seat waits.  A connected client keeps the clock
for its own player instead.  When the decision time the host announced has run out (plus
GRACE, for the drift between the two clocks) and it is still this seat's card to play, it
plays the card the host's clock would have played at an open table (the choice of a bot of
the table's `bot_level`: net/clocks.py `default_card`) and tells its player.
If the host's clock ran out before the hand could be played (a deal whose shares came
late, a client that came back), the player gets a whole decision time of the table's from
when the cards can be read.

An absent seat still waits: its client is not there to keep the clock.  A client that does
not keep it (a modified one) only makes its own seat wait, as an absent one does.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from modernart.bots import arena_levels
from modernart.moves import Move
from modernart.phase import Phase

from modernart.net.clocks import ClockSettings, default_card
from modernart.net.client.state import ConnectionState, Reply, Update
from modernart.net.client.updates import UpdateFeed
from modernart.net.trust.verified_game import VerifiedGame

log = logging.getLogger(__name__)

#: Seconds past the host's announced deadline before the client plays: the host, whose clock
#: decides, has let its own go by then (its ticks correct the client's clock to within 0.25 s)
GRACE = 0.5


class OwnSeat(Protocol):
    """What the card clock uses of its client (net/client/client.py `Client`)."""

    feed: UpdateFeed

    @property
    def state(self) -> ConnectionState: ...

    @property
    def game(self) -> VerifiedGame | None: ...

    @property
    def hand_ready(self) -> bool: ...

    async def send_move(self, move: Move) -> Reply: ...


class CardClock:
    """Plays this seat's default card when its time runs out at a hidden-hands table."""

    def __init__(self, client: OwnSeat) -> None:
        self.client = client
        self.grace = GRACE
        self.timer: asyncio.TimerHandle | None = None
        self.armed: tuple[tuple[int, int, int], float] | None = None  # (card play, deadline) timed
        self.task: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"<CardClock armed={self.armed}>"

    @property
    def deadline(self) -> float | None:
        """When this client plays its seat's card (loop time), if it is timing one: the screen
        shows it where the host's clock has stopped."""
        return self.armed[1] + self.grace if self.armed is not None and self.timer is not None else None

    def _due(self) -> tuple[tuple[int, int, int], float | None] | None:
        """(which card play: round, auction, seat; the host's decision deadline) while this
        seat must play a card at a hidden-hands table; None otherwise."""
        client = self.client
        st = client.state
        obs = st.observation
        game = client.game
        if st.role != "player" or obs is None or obs.phase != Phase.PLAY_CARD or not obs.my_turn:
            return None
        if game is None or game.deck is None:  # the host sees the hands: its own clock plays
            return None
        if game.pending_play is not None:  # a card play committed to: it is being opened
            return None
        return (obs.round, obs.auction_no, obs.seat), st.deadlines.get("decide")

    def look(self) -> None:
        """After every burst from the host: arm, keep or drop the timer."""
        due = self._due()
        if due is None or not self.client.hand_ready:  # no card to play, or none readable yet
            self._drop()
            return
        play, deadline = due
        timing = self.armed[1] if self.armed is not None and self.armed[0] == play else None  # its deadline
        if timing is not None and deadline in (None, timing):
            return  # the same card play; a deadline gone is the host's clock stopping at its end
        loop = asyncio.get_running_loop()
        if timing is None and (deadline is None or deadline <= loop.time()):
            # the host's clock ran out before this hand could be played (a deal whose shares
            # came late, a client come back): the player gets a whole decision time of its own
            seconds = ClockSettings.told(self.client.state.table.get("clocks")).decision
            if seconds <= 0:
                self._drop()
                return  # a table without a decision clock waits for its players
            deadline = loop.time() + float(seconds)
        assert deadline is not None
        self._drop()
        self.armed = (play, deadline)
        self.timer = loop.call_at(deadline + self.grace, self._ran_out, play)

    def _drop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.armed = None, None

    def _ran_out(self, play: tuple[int, int, int]) -> None:
        self.timer = None
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._play(play))

    def _still(self, play: tuple[int, int, int]) -> bool:
        due = self._due()
        return due is not None and due[0] == play and self.client.hand_ready

    async def _play(self, play: tuple[int, int, int]) -> None:
        client = self.client
        obs = client.state.observation
        if obs is None or not self._still(play):
            return  # played meanwhile
        level = ClockSettings.told(client.state.table.get("clocks")).bot_level
        if level not in arena_levels():  # a host's word: a level this client has not got plays as the default
            level = ClockSettings().bot_level
        move = await asyncio.get_running_loop().run_in_executor(None, default_card, obs, level, client.state.head_seq)
        if not self._still(play):
            return  # the player chose while the bot did
        log.info("card clock ran out seat=%s card=%s", obs.seat, move.arg)
        client.feed.emit(Update("clock_played", move))
        reply = await client.send_move(move)
        if not reply.ok:  # lost with the connection, say: the next burst times this card play again
            log.info("card clock move refused code=%s", reply.code)
            self.armed = None

    def close(self) -> None:
        self._drop()
        if self.task is not None:
            self.task.cancel()
