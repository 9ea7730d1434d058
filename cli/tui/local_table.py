"""`LocalTable`: a table hosted inside this process: the engine, bots and clocks.

It plays the host's part for `modernart play --offline`, for the client's tests and for
serving local games over SSH: it owns the only `GameState`, validates every move with the
engine, runs the clocks (the Open countdown restarted by each bid; an optional clock per
decision), lets bots act after `bot.pace()` seconds, narrates events into each seat's log
and saves the record when the game ends.  People reach it through `LocalSession`s, which
see only their own seat's `Observation`, exactly as over the network.

Everything runs on one asyncio loop (timers are `loop.call_later` handles), except the
bots' `choose`, which runs in one worker thread so that a searching bot never freezes
the screens.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import logging
import os
import time
from typing import Callable

from modernart.bots import Bot, make_bot
from modernart.errors import IllegalMove
from modernart.events import CardsDealt
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.record import GameRecord
from modernart.rules import RuleOptions

from modernart.cli.narrate import describe_events, describe_timeout
from modernart.cli.tui.local_lobby import LocalLobby
from modernart.cli.tui.session import Clocks, LogEntry, SeatInfo, Status

log = logging.getLogger(__name__)
STANDIN_LEVEL = "medium"  # plays for a person who has gone, until they come back

#: Phases in which the decision clock runs (the Open auction has its own countdown).
TIMED_PHASES = frozenset(
    {Phase.PLAY_CARD, Phase.DOUBLE_OFFER, Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET, Phase.FIXED_OFFER}
)


def default_record_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "modernart", "records")


class LocalTable(LocalLobby):
    """One table in this process: its lobby (local_lobby.py), then its game."""

    def __init__(
        self,
        seats: int = 5,
        *,
        name: str = "Local table",
        options: RuleOptions | None = None,
        clocks: Clocks | None = None,
        seed: int | None = None,
        bot_pace: float = 1.0,
        record_dir: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        deck_order: list[int] | None = None,
        first_auctioneer: int | None = None,
        join_code: str = "",
    ) -> None:
        super().__init__(seats, name=name, options=options, clocks=clocks, join_code=join_code)
        self.deck_order = deck_order  # a fixed deal (tests, replays); None = shuffle
        self.first_auctioneer = first_auctioneer
        self.seed = seed
        self.bot_pace = bot_pace
        self.record_dir = record_dir if record_dir is not None else default_record_dir()
        self.clock = clock
        self.state: GameState | None = None
        self.seat_of_slot: list[int] = []  # game seat -> lobby slot
        self.names: tuple[str, ...] = ()
        self.bots: dict[int, Bot] = {}  # game seat -> bot
        self.standins: set[int] = set()  # game seats a bot plays while their person is away
        self.record: GameRecord | None = None
        self.record_path: str | None = None
        self.open_deadline: float | None = None
        self.decision_deadline: float | None = None
        self.received: list[Move] = []  # every move a person sent (for tests and audits)
        self._narrated = 0
        self._quiet_move: Move | None = None  # a move not to narrate (told another way)
        self._open_key: tuple[int, int] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._timer_keys: dict[str, tuple] = {}  # what each timer was started for
        self._bot_tasks: dict[int, asyncio.Task] = {}
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def _person_returns(self, seat: int) -> None:
        if seat in self.seat_of_slot:  # the stand-in bot hands the seat back
            self.standins.discard(self.seat_of_slot.index(seat))
            self.bots.pop(self.seat_of_slot.index(seat), None)
            if self.state is not None and self.status == Status.PLAYING:
                self._after_change()

    def _person_leaves(self, seat: int, info: SeatInfo) -> None:
        if self.status == Status.PLAYING and seat in self.seat_of_slot:
            game_seat = self.seat_of_slot.index(seat)
            self.bots[game_seat] = make_bot(STANDIN_LEVEL, None)
            self.standins.add(game_seat)
            self.broadcast_system(f"A bot plays for {info.name} until they return")
            self._after_change()

    # ------------------------------------------------------------------ the game

    def start(self, session=None, *, force: bool = False) -> str | None:
        """Start the game with the taken seats (3-5), people ready (or `force`)."""
        if session is not None and (err := self._lobby_check(session, admin=True)) is not None:
            return err
        taken = [s for s in self.seats if not s.empty]
        if not 3 <= len(taken) <= 5:
            return f"A game needs 3 to 5 players; {len(taken)} seat(s) are taken"
        if not force and not all(s.ready or s.kind == "bot" for s in taken):
            waiting = ", ".join(s.name for s in taken if not s.ready and s.kind != "bot")
            return f"Waiting for {waiting} to be ready"
        self.seat_of_slot = [s.seat for s in taken]
        self.names = tuple(s.name for s in taken)
        self.state = GameState(
            len(taken),
            self.options,
            seed=self.seed,
            deck_order=self.deck_order,
            first_auctioneer=self.first_auctioneer,
            track_events=True,
        )
        for game_seat, info in enumerate(taken):
            if info.kind == "bot":
                seed = None if self.seed is None else self.seed * 31 + game_seat
                self.bots[game_seat] = make_bot(info.bot_level, seed)
        self.record = GameRecord.start(self.state, self.names, {"table": self.name, "host": "local"})
        self.status = Status.PLAYING
        self.broadcast_system(f"The game begins: {', '.join(self.names)}")
        self._after_change()
        return None

    def game_seat(self, session) -> int | None:
        slot = self.slot_of(session)
        if slot is None or slot not in self.seat_of_slot:
            return None
        return self.seat_of_slot.index(slot)

    def submit(self, session, move: Move) -> str | None:
        """A person's move: checked by the engine; an error sentence, or None once applied."""
        seat = self.game_seat(session)
        if self.state is None or self.status != Status.PLAYING:
            return "No game is running"
        if seat is None or move.seat != seat:
            return "That move is not for your seat"
        if move.action == Action.SEALED_FORFEIT:
            return "A forfeit is decided by the host, not sent"
        self.received.append(move)
        return self._apply(move)

    def _apply(self, move: Move) -> str | None:
        assert self.state is not None and self.record is not None
        try:
            self.state.apply(move)
        except IllegalMove as exc:
            log.debug("rejected move=%r reason=%s", move, exc.code)
            return str(exc.detail)
        self.record.moves.append(move)
        log.debug("applied move=%r", move)
        self._after_change()
        return None

    def _after_change(self) -> None:
        state = self.state
        assert state is not None
        self._narrate()
        if state.is_over():
            self._finish()
            return
        self._set_clocks()
        self._plan_bots()
        self._refresh()

    def _narrate(self) -> None:
        state = self.state
        assert state is not None and state.events is not None
        public: list[object] = []
        for event in state.events[self._narrated :]:
            if isinstance(event, CardsDealt):
                self._tell_all(public)
                session = self.owners.get(self.seat_of_slot[event.seat])
                if session is not None:
                    n = len(event.cards)
                    session.push(LogEntry(f"Round {event.round + 1}: you receive {n} painting{'s' * (n != 1)}"))
                continue
            if isinstance(event, Move) and event == self._quiet_move:  # the countdown's hammer: its own line was told
                self._quiet_move = None
                continue
            public.append(event)
        self._tell_all(public)
        self._narrated = len(state.events)

    def _tell_all(self, items: list[object]) -> None:
        """Narrate `items` (moves and public events, in order) to every seat; empties the list."""
        assert self.state is not None
        for text in describe_events(items, self.names, self.state.edition, self.state.deck):
            for session in self.sessions:
                session.push(LogEntry(text, "event"))
        items.clear()

    def _finish(self) -> None:
        assert self.state is not None and self.record is not None
        self._cancel_all()
        self.open_deadline = self.decision_deadline = None
        self.status = Status.OVER
        self.record.sync(self.state)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            os.makedirs(self.record_dir, exist_ok=True)
            path = os.path.join(self.record_dir, f"modernart-{stamp}-{os.getpid()}.json")
            self.record.save(path)
            self.record_path = path
            self.broadcast_system(f"Record saved to {path}")
        except OSError as exc:
            self.broadcast_system(f"The record could not be saved: {exc}", kind="error")
        self._refresh()

    # ------------------------------------------------------------------ clocks and bots

    def _set_clocks(self) -> None:
        state = self.state
        assert state is not None
        now = self.clock()
        if state.phase == Phase.OPEN:
            key = (state.auction_no, len(state.bids))
            if key != self._open_key:  # a new Open auction, or a new bid: restart the countdown
                self._open_key = key
                self.open_deadline = now + self.clocks.open_seconds
                self._timer("open", self.clocks.open_seconds, self._open_timeout, key)
        else:
            self._open_key = None
            self.open_deadline = None
            self._cancel("open")
        people = [s for s in state.to_move() if s not in self.bots]
        if self.clocks.decision_seconds and state.phase in TIMED_PHASES and people:
            key2 = (state.move_count,) if state.phase != Phase.SEALED else (state.auction_no,)
            if self._timer_keys.get("decision") != key2:
                self.decision_deadline = now + self.clocks.decision_seconds
                self._timer("decision", self.clocks.decision_seconds, self._decision_timeout, key2)
        else:
            self.decision_deadline = None
            self._cancel("decision")

    def _timer(self, name: str, delay: float, callback: Callable, key: tuple) -> None:
        self._cancel(name)
        self._timers[name] = self.loop.call_later(delay, callback, key)
        self._timer_keys[name] = key

    def _cancel(self, name: str) -> None:
        handle = self._timers.pop(name, None)
        self._timer_keys.pop(name, None)
        if handle is not None:
            handle.cancel()

    def _cancel_all(self) -> None:
        for name in ("open", "decision"):
            self._cancel(name)
        for task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()

    def _open_timeout(self, key: tuple[int, int]) -> None:
        state = self.state
        if state is None or state.phase != Phase.OPEN or (state.auction_no, len(state.bids)) != key:
            return
        self._timers.pop("open", None)
        self._timer_keys.pop("open", None)
        self.broadcast_system(describe_timeout(state.high, state.high_seat, self.names), kind="event")
        self._quiet_move = Move.hammer(state.auctioneer)
        self._apply(self._quiet_move)
        self._quiet_move = None

    def _decision_timeout(self, key: tuple) -> None:
        state = self.state
        if state is None or state.is_over():
            return
        self._timers.pop("decision", None)
        self._timer_keys.pop("decision", None)
        for seat in [s for s in state.to_move() if s not in self.bots]:
            move = cautious_move(state, seat)
            if move is not None and state.phase in TIMED_PHASES:
                self.broadcast_system(f"{self.names[seat]} ran out of time", kind="event")
                if self._apply(move) is not None:
                    break

    def _plan_bots(self) -> None:
        """Ask every bot that may act what it will do; each acts after its pace unless the
        table changes first (then everyone is asked again)."""
        state = self.state
        assert state is not None
        for task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()
        acting = state.to_move()
        for seat, bot in self.bots.items():
            if seat in acting:
                self._bot_tasks[seat] = self.loop.create_task(self._bot_turn(bot, state.observation(seat)))

    async def _bot_turn(self, bot: Bot, obs) -> None:
        version = self.state.move_count if self.state is not None else -1
        # one worker thread for all bots: a slow search never freezes the screens, and a
        # bot is never asked twice at once (a cancelled turn's question finishes first)
        move = await self.loop.run_in_executor(self._bot_thread(), bot.choose, obs)
        state = self.state
        if move is None or state is None or state.move_count != version or state.is_over():
            return
        # a stand-in takes its time (at least a person's pace): its person may be back soon
        factor = max(1.0, self.bot_pace) if obs.seat in self.standins else self.bot_pace
        await asyncio.sleep(max(0.0, bot.pace(obs, move) * factor))
        if state.move_count != version or state.is_over():
            return
        error = self._apply(move)
        if error:
            log.warning("bot move rejected seat=%d move=%r reason=%s", move.seat, move, error)

    def _bot_thread(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="modernart-bots")
        return self._executor

    # ------------------------------------------------------------------ fan-out

    def close(self) -> None:
        """Stop the clocks and the bots (the table can no longer be played)."""
        self._cancel_all()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def cautious_move(state: GameState, seat: int) -> Move | None:
    """What the host plays for a person whose decision clock ran out."""
    phase = state.phase
    if phase == Phase.PLAY_CARD:
        hand = state.hands[seat]
        return Move.play(seat, min(hand)) if hand else None
    if phase == Phase.DOUBLE_OFFER:
        return Move.decline_second(seat)
    if phase == Phase.ONCE_AROUND:
        return Move.pass_(seat)
    if phase == Phase.SEALED:
        return Move.sealed_bid(seat, 0)
    if phase == Phase.FIXED_SET:
        r = state.amount_range(seat)
        return Move.set_price(seat, r[1]) if r else None
    if phase == Phase.FIXED_OFFER:
        return Move.decline(seat)
    return None
