"""What the client's screens read of a table (`SessionBase`'s fields), and its values.

A session is the client's link to one table: `NetSession` (cli/tui/net_session.py), over
the protocol, for a host on the LAN, in a child process or in this process alike
(cli/tui/in_process_host.py), so the screens never know where the table runs.  The screens'
tests drive a bare `SessionBase`, setting its fields as a table would.

Reading: every field below is a plain value, replaced (never mutated) when the table
changes; after each change the session calls its listeners on the event loop (the app's
listener calls `app.invalidate()`).  Deadlines are `time.monotonic()` values of this
process, converted from the host's clock on arrival.

Calling: `NetSession`'s coroutine methods send a request and return once it is sent; the
host's answer arrives as a change of state, or as an entry of kind "error" in `log`.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Any, Callable

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
    """The fields the screens read of a table (see the module doc), at their start."""

    def __init__(self, name: str, detail: str = "") -> None:
        super().__init__()
        self.name = name
        self.status = Status.CONNECTING
        self.detail = detail  # a sentence about `status` (e.g. why we disconnected)
        self.notice = ""  # a short warning for the status line ("reconnecting...")
        self.lobby: LobbyView | None = None
        self.seat: int | None = None  # this client's seat, once seated
        self.names: tuple[str, ...] = ()  # player names by seat, once the game has started
        self.obs: Observation | None = None  # this seat's view of the game, once it has started
        self.log: list[LogEntry] = []  # appended to (bounded: `append_log`), never replaced
        self.open_deadline: float | None = None  # Open auction: when the countdown runs out
        self.decision_deadline: float | None = None  # when the current decision's clock runs out
        self.call_deadline: float | None = None  # Open auction: when the hammer call falls (None: no call)
        self.reveals_owed: tuple[int, ...] = ()  # Sealed: seats whose reveal the host still waits for
        self.record_path: str | None = None  # where the finished game's record was saved
        self.ends_when_you_leave = False  # the table stops when this client leaves (a game on this machine)
        self.local_only = False  # the table listens on this machine only (`modernart play`): nobody can join
        self.last_reveal: tuple[Any, int] | None = None  # the last Sealed reveal (SealedRevealed), its seller
        self.away: frozenset[int] = frozenset()  # game seats whose person has lost touch with the table
        self.last_word = ""  # what to tell the person once the screen is gone ("" = nothing)
        self.cards_coming = False  # hidden hands: this seat's new cards wait for the other seats' shares
        self.hidden_hands = False  # the table hides hands: only a seat's own client can open its cards
        self.mystery_coming = False  # hidden hands: the mystery card asked for waits for every seat's share
        self.deck_deadline: float | None = None  # hidden hands: when the deck step owed now is late
        self.deck_late: tuple[int, ...] = ()  # hidden hands: seats late with a deck step
        self.vote_on: int | None = None  # hidden hands: the late seat this person may vote on now (keep waiting / end)
        self.my_vote: str | None = None  # what this person voted on it in this wait ("wait", "end"; None: not yet)
        self.ended_without: int | None = None  # the absent seat the players' vote ended the game without

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


class JoinError(Exception):
    """Joining failed: the message is shown to the user as is."""
