"""The `Session` protocol: exactly what the client's screens read and its keys call.

A session is the client's link to one table.  `NetSession` implements it over the
protocol, for a host on the LAN, in a child process or in this process alike
(cli/tui/in_process_host.py), so the screens never know where the table runs.

Reading: every attribute below is a plain value, replaced (never mutated) when the
table changes; after each change the session calls its listeners on the event loop
(the app's listener calls `app.invalidate()`).  Deadlines are `time.monotonic()`
values of this process, converted from the host's clock on arrival.

Calling: the coroutine methods send a request and return once it is sent; the host's
answer arrives as a change of state, or as an entry of kind "error" in `log`.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, Sequence, runtime_checkable

from modernart.moves import Move
from modernart.rules import RuleOptions
from modernart.views import Observation

from modernart.cli.i18n import _
from modernart.net.clocks import ClockSettings


class Status(enum.Enum):
    """Where the session stands: which screen the client shows."""

    CONNECTING = "connecting"
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    DISCONNECTED = "disconnected"


@dataclass(frozen=True)
class SeatInfo:
    """One seat of the table as the lobby shows it."""

    seat: int
    name: str = ""  # "" while the seat is empty
    kind: str = "empty"  # "human", "bot" or "empty"
    bot_level: str = ""  # for bots: "random", "medium", "hard"
    ready: bool = False
    connected: bool = True
    fpr: str = ""  # the fingerprint of its key ("" for an empty seat or a bot not yet connected)

    @property
    def empty(self) -> bool:
        return self.kind == "empty"


@dataclass(frozen=True)
class LobbyView:
    """The lobby of one table."""

    table_name: str
    seats: tuple[SeatInfo, ...]
    options: RuleOptions = RuleOptions()
    clocks: ClockSettings = ClockSettings()  # the host's clocks (0 = no limit)
    join_string: str = ""  # what a friend pastes into `modernart join`
    other_joins: tuple[str, ...] = ()  # the same table at the host's other addresses (Wi-Fi, Ethernet, VPN)
    join_code: str = ""  # short code a joiner confirms (shown on the host's screen)
    admin: bool = False  # this client may seat bots, change options and start
    bot_levels: tuple[str, ...] = ("random",)
    hidden_hands: bool = False  # the hands are hidden even from the host (docs/fair-play.md)
    watchers: tuple[str, ...] = ()  # the fingerprints of the keys watching (the admin may remove them)
    locked: bool = False  # the admin locked the table to the keys seated

    @property
    def filled(self) -> tuple[SeatInfo, ...]:
        return tuple(s for s in self.seats if not s.empty)

    @property
    def can_start(self) -> bool:
        """Three to five seats taken, every person ready (empty seats are left out)."""
        filled = self.filled
        return 3 <= len(filled) <= 5 and all(s.ready or s.kind == "bot" for s in filled)


def hidden_hands_text() -> str:
    """What the lobby and the log say of a table that hides hands even from its host
    (docs/fair-play.md "The hidden deck")."""
    return _(
        "Hands hidden even from the host: the players shuffle an encrypted deck together, your "
        "client alone reads your cards, and a card is opened only when it is played"
    )


@dataclass(frozen=True)
class LogEntry:
    """One line of the game log: `kind` is "event", "chat", "system" or "error"."""

    text: str
    kind: str = "event"
    who: str = ""  # chat: the speaker
    at: float = field(default_factory=time.time)


@runtime_checkable
class Session(Protocol):
    """What the client reads (attributes) and calls (coroutines).  See the module doc."""

    status: Status
    detail: str  # a sentence about `status` (e.g. why we disconnected)
    notice: str  # a short warning for the status line ("reconnecting...")
    lobby: LobbyView | None
    seat: int | None  # this client's seat, once seated
    names: tuple[str, ...]  # player names by seat, once the game has started
    obs: Observation | None  # this seat's view of the game, once it has started

    @property
    def log(self) -> Sequence[LogEntry]: ...  # read-only here, so a session may hold a list

    open_deadline: float | None  # Open auction: when the countdown runs out
    decision_deadline: float | None  # when the current decision's clock runs out
    call_deadline: float | None  # Open auction: when the auctioneer's hammer call falls (None: no call)
    reveals_owed: tuple[int, ...]  # Sealed: seats whose reveal the host still waits for
    record_path: str | None  # where the finished game's record was saved
    ends_when_you_leave: bool  # the table stops when this client leaves (a game on this machine)
    local_only: bool  # the table listens on this machine only (`modernart play`): nobody can join it
    last_reveal: tuple[Any, int] | None  # the last Sealed reveal (SealedRevealed) and that auction's seller
    away: frozenset[int]  # game seats whose person has lost touch with the table
    last_word: str  # what to tell the person once the screen is gone ("" = nothing)
    cards_coming: bool  # hidden hands: this seat's new cards wait for the other seats' shares
    hidden_hands: bool  # the table hides hands: only a seat's own client can open its cards
    mystery_coming: bool  # hidden hands: the mystery card asked for waits for every seat's share
    deck_deadline: float | None  # hidden hands: when the deck step owed now is late (time.monotonic)
    deck_late: tuple[int, ...]  # hidden hands: seats late with a deck step
    vote_on: int | None  # hidden hands: the late seat this seat's person may vote on now (keep waiting / end)
    my_vote: str | None  # what this person voted on it in this wait ("wait", "end"; None: not yet)
    ended_without: int | None  # the absent seat the players' vote ended the game without

    def add_listener(self, callback: Callable[[], None]) -> None: ...
    def remove_listener(self, callback: Callable[[], None]) -> None: ...

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def send_move(self, move: Move) -> None: ...
    async def chat(self, text: str) -> None: ...
    async def take_seat(self, seat: int) -> None: ...
    async def leave(self) -> None: ...
    async def set_ready(self, ready: bool) -> None: ...
    async def add_bot(self, seat: int, level: str) -> None: ...
    async def remove_bot(self, seat: int) -> None: ...
    async def remove(self, fpr: str) -> None: ...
    async def lock(self, flag: bool) -> None: ...
    async def set_options(self, options: RuleOptions) -> None: ...
    async def set_clocks(self, clocks: ClockSettings) -> None: ...
    async def start(self) -> None: ...
    async def vote(self, choice: str) -> None: ...


MAX_LOG = 2000


class Listeners:
    """Callbacks run after every change of a session (a small mixin)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def add_listener(self, callback: Callable[[], None]) -> None:
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def changed(self) -> None:
        for callback in list(self._listeners):
            callback()


class SessionBase(Listeners):
    """The fields every session holds for the screens (see `Session`), at their start."""

    def __init__(self, name: str, detail: str = "") -> None:
        super().__init__()
        self.name = name
        self.status = Status.CONNECTING
        self.detail = detail
        self.notice = ""
        self.lobby: LobbyView | None = None
        self.seat: int | None = None
        self.names: tuple[str, ...] = ()
        self.obs: Observation | None = None
        self.log: list[LogEntry] = []
        self.open_deadline: float | None = None
        self.decision_deadline: float | None = None
        self.call_deadline: float | None = None
        self.reveals_owed: tuple[int, ...] = ()
        self.record_path: str | None = None
        self.ends_when_you_leave = False
        self.local_only = False
        self.last_reveal: tuple[Any, int] | None = None
        self.away: frozenset[int] = frozenset()
        self.last_word = ""
        self.cards_coming = False
        self.hidden_hands = False
        self.mystery_coming = False
        self.deck_deadline: float | None = None
        self.deck_late: tuple[int, ...] = ()
        self.vote_on: int | None = None
        self.my_vote: str | None = None
        self.ended_without: int | None = None

    async def vote(self, choice: str) -> None:
        """Vote on the late seat `vote_on` (net/trust/votes.py): a session without a host has none."""


def append_log(log: list[LogEntry], entry: LogEntry) -> None:
    """Append, keeping the log bounded."""
    log.append(entry)
    if len(log) > MAX_LOG:
        del log[: len(log) - MAX_LOG]


@dataclass(frozen=True)
class TableAd:
    """A table heard on the LAN (or listed by a finder)."""

    name: str
    address: str  # host:port, for display
    seats_taken: int
    seats: int
    join_string: str
    needs_code: bool = True  # the joiner must type the join code shown by the host
    hidden_hands: bool = False  # the hands are hidden even from the host (docs/fair-play.md)


@runtime_checkable
class Finder(Protocol):
    """Tables heard on the LAN, and how to join one (for the join screen)."""

    @property
    def tables(self) -> Sequence[TableAd]: ...  # read-only here, so a finder may hold a list

    autojoin: tuple[str, str] | None  # (join string, code) to join at once, e.g. a code given on the command line
    missing_code: str | None  # a code asked for that no table heard in a while shows (the screen says so)

    def add_listener(self, callback: Callable[[], None]) -> None: ...
    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def connect(self, join_string: str, code: str = "") -> Awaitable[Session]:
        """Join a table; raises `JoinError` with a sentence for the user on failure."""
        ...


class JoinError(Exception):
    """Joining failed: the message is shown to the user as is."""
