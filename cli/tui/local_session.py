"""`LocalSession`: one person's `Session` on a `LocalTable` in this process.

It sees what a network client would see (its seat's `Observation`, the narrated log, the
host's deadlines) and calls the table the way a client calls a host, so the screens run
unchanged against it.  `local_game()` builds the usual table: you plus bots.
"""

from __future__ import annotations

from typing import Callable, Sequence

from modernart.moves import Move
from modernart.rules import RuleOptions

from modernart.cli.tui.local_table import LocalTable
from modernart.cli.tui.session import (
    Clocks,
    JoinError,
    Listeners,
    LobbyView,
    LogEntry,
    SessionBase,
    Status,
    TableAd,
    append_log,
)


class LocalSession(SessionBase):
    """A seat (or a watcher) at a `LocalTable`.  See `session.Session` for the fields."""

    def __init__(
        self,
        table: LocalTable,
        name: str = "You",
        *,
        identity: str | None = None,
        on_open: Callable[["LocalSession"], None] | None = None,
        owns_table: bool = False,
    ) -> None:
        super().__init__(name)
        self.owns_table = owns_table  # closing this session ends the table (local play)
        self.ends_when_you_leave = owns_table
        self.on_open = on_open  # run once, after joining (e.g. to seat bots and start)
        self.table = table
        self.identity = identity
        self._joined = False

    def __repr__(self) -> str:
        return f"<LocalSession {self.name!r} seat={self.seat} {self.status.value}>"

    # ------------------------------------------------------------------ from the table

    def push(self, entry: LogEntry) -> None:
        append_log(self.log, entry)

    def refresh(self) -> None:
        """Copy this seat's view from the table, then tell the listeners."""
        t = self.table
        self.status = t.status
        self.lobby = LobbyView(
            t.name,
            tuple(t.seats),
            t.options,
            t.clocks,
            join_string=t.join_string,
            join_code=t.join_code,
            admin=t.admin is self,
            bot_levels=_levels(),
        )
        self.names = t.names
        seat = t.game_seat(self) if t.state is not None else None
        self.seat = seat if t.state is not None else t.slot_of(self)
        self.obs = t.state.observation(seat) if t.state is not None and seat is not None else None
        self.open_deadline = t.open_deadline
        self.decision_deadline = t.decision_deadline
        self.record_path = t.record_path
        self.detail = {Status.LOBBY: "in the lobby", Status.PLAYING: "playing", Status.OVER: "game over"}.get(
            self.status, ""
        )
        if self.obs is None and self.status in (Status.PLAYING, Status.OVER):
            self.detail = "the game is under way and every seat is taken"
        self.changed()

    def _answer(self, error: str | None) -> None:
        if error:
            self.push(LogEntry(error, "error"))
            self.changed()

    # ------------------------------------------------------------------ Session calls

    async def open(self) -> None:
        if not self._joined:
            self._joined = True
            self.table.join(self, self.name, self.identity)
            self.refresh()
            if self.on_open is not None:
                self.on_open(self)

    async def close(self) -> None:
        if self._joined:
            self._joined = False
            self.table.detach(self)
            if self.owns_table:
                self.table.close()
        self.status = Status.DISCONNECTED
        self.detail = "you left the table"

    async def send_move(self, move: Move) -> None:
        self._answer(self.table.submit(self, move))

    async def chat(self, text: str) -> None:
        self._answer(self.table.chat(self, text))

    async def take_seat(self, seat: int) -> None:
        self._answer(self.table.take_seat(self, seat))

    async def leave(self) -> None:
        await self.close()

    async def set_ready(self, ready: bool) -> None:
        self._answer(self.table.set_ready(self, ready))

    async def add_bot(self, seat: int, level: str) -> None:
        self._answer(self.table.add_bot(self, seat, level))

    async def remove_bot(self, seat: int) -> None:
        self._answer(self.table.remove_bot(self, seat))

    async def set_options(self, options: RuleOptions) -> None:
        self._answer(self.table.set_options(self, options))

    async def set_clocks(self, clocks: Clocks) -> None:
        self._answer(self.table.set_clocks(self, clocks))

    async def start(self) -> None:
        self._answer(self.table.start(self))


def _levels() -> tuple[str, ...]:
    from modernart.bots import bot_levels

    return bot_levels()


def local_game(
    players: int = 4,
    levels: Sequence[str] | str = "random",
    *,
    name: str = "You",
    seed: int | None = None,
    options: RuleOptions | None = None,
    clocks: Clocks | None = None,
    bot_pace: float = 1.0,
    record_dir: str | None = None,
    start: bool = True,
) -> LocalSession:
    """A table on this machine: you in seat 1, bots in the others.

    With `start`, the game begins as soon as the session is opened; otherwise the
    lobby is shown and you start it there (you are the host).
    """
    level_list = [levels] * (players - 1) if isinstance(levels, str) else list(levels)
    if len(level_list) != players - 1:
        raise ValueError(f"{players} players need {players - 1} bot levels, got {len(level_list)}")
    table = LocalTable(players, options=options, clocks=clocks, seed=seed, bot_pace=bot_pace, record_dir=record_dir)

    def seat_bots(session: LocalSession) -> None:
        for slot, level in enumerate(level_list, start=1):
            error = table.add_bot(session, slot, level)
            if error:
                raise ValueError(error)
        if start:
            table.start(session, force=True)

    return LocalSession(table, name, on_open=seat_bots, owns_table=True)


class LocalFinder(Listeners):
    """The tables of this process, as the join screen lists them (no network involved)."""

    def __init__(self, tables: Sequence[LocalTable] = (), name: str = "You") -> None:
        super().__init__()
        self.name = name
        self.autojoin: tuple[str, str] | None = None
        self.missing_code: str | None = None  # no code is asked for on this machine's tables
        self._tables = list(tables)

    @property
    def tables(self) -> list[TableAd]:
        return [
            TableAd(
                t.name,
                "this machine",
                sum(not s.empty for s in t.seats),
                len(t.seats),
                t.join_string,
                needs_code=bool(t.join_code),
            )
            for t in self._tables
        ]

    def add(self, table: LocalTable) -> None:
        self._tables.append(table)
        self.changed()

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def connect(self, join_string: str, code: str = "") -> LocalSession:
        table = next((t for t in self._tables if t.join_string == join_string), None)
        if table is None:
            raise JoinError(f"No table answers to {join_string!r}")
        if table.join_code and code.strip().upper() != table.join_code.upper():
            raise JoinError("Wrong join code: check the code on the host's screen")
        return LocalSession(table, self.name)
