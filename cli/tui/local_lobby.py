"""`LocalLobby`: the seats, rules and clocks of a table in this process, before its game.

`LocalTable` (local_table.py) builds the game on top.  Every method answers with None,
or with a sentence saying why it refused (shown to that person only).  A person is
bound to their seat by an identity (the SSH key's fingerprint) when they have one, so
they can come back to it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from modernart.bots import bot_levels
from modernart.rules import RuleOptions

from modernart.cli.tui.session import Clocks, LogEntry, SeatInfo, Status

if TYPE_CHECKING:
    from modernart.cli.tui.local_session import LocalSession


class LocalLobby:
    """Seats taken by people (`join`) or bots (`add_bot`); the first person is the host."""

    def __init__(
        self, seats: int, *, name: str, options: RuleOptions | None, clocks: Clocks | None, join_code: str = ""
    ) -> None:
        if not 3 <= seats <= 5:
            raise ValueError("a table has 3 to 5 seats")
        self.name = name
        self.join_string = "(this machine)"  # how others reach this table, for the lobby
        self.join_code = join_code  # what a joiner must type (LocalFinder checks it)
        self.options = options or RuleOptions()
        self.clocks = clocks or Clocks()
        self.seats: list[SeatInfo] = [SeatInfo(i) for i in range(seats)]
        self.owners: dict[int, LocalSession] = {}  # seat -> its session
        self.identities: dict[str, int] = {}  # identity (e.g. SSH key) -> seat
        self.sessions: list = []  # every LocalSession attached
        self.admin: object | None = None  # the session that may change the table
        self.status = Status.LOBBY

    def join(self, session, name: str, identity: str | None = None) -> int | None:
        """Attach `session`; seat it (again, for a known identity) if a seat is free."""
        self.sessions.append(session)
        if self.admin is None:
            self.admin = session
        seat = self.identities.get(identity) if identity else None
        if seat is not None and self.seats[seat].kind == "human" and seat not in self.owners:
            self.owners[seat] = session
            self.seats[seat] = replace(self.seats[seat], connected=True)
            self.broadcast_system(f"{self.seats[seat].name} is back")
            self._person_returns(seat)
        else:
            seat = next((s.seat for s in self.seats if s.empty), None)
            if seat is None or self.status != Status.LOBBY:
                self._refresh()
                return None
            self.seats[seat] = SeatInfo(seat, name, "human", ready=False)
            self.owners[seat] = session
            if identity:
                self.identities[identity] = seat
            self.broadcast_system(f"{name} takes seat {seat + 1}")
        self._refresh()
        return seat

    def detach(self, session) -> None:
        """`session` has gone: free its seat in the lobby, keep it (disconnected) in a game."""
        if session in self.sessions:
            self.sessions.remove(session)
        for seat, owner in list(self.owners.items()):
            if owner is session:
                del self.owners[seat]
                info = self.seats[seat]
                self.broadcast_system(f"{info.name} left")
                if self.status == Status.LOBBY:
                    self.seats[seat] = SeatInfo(seat)
                    self.identities = {k: v for k, v in self.identities.items() if v != seat}
                else:
                    self.seats[seat] = replace(info, connected=False)
                    self._person_leaves(seat, info)
        if self.admin is session:
            self.admin = self.sessions[0] if self.sessions else None
        self._refresh()

    def _person_returns(self, seat: int) -> None:
        """A person is back at their seat (the game hands it back)."""

    def _person_leaves(self, seat: int, info: SeatInfo) -> None:
        """A person left a seat after the lobby closed (the game finds a stand-in)."""

    def slot_of(self, session) -> int | None:
        return next((s for s, owner in self.owners.items() if owner is session), None)

    def _lobby_check(self, session, admin: bool = False) -> str | None:
        if self.status != Status.LOBBY:
            return "The game has started: the lobby is closed"
        if admin and session is not None and session is not self.admin:  # None: the host itself
            return "Only the host may change the table"
        return None

    def take_seat(self, session, slot: int) -> str | None:
        if (err := self._lobby_check(session)) is not None:
            return err
        if not 0 <= slot < len(self.seats) or not self.seats[slot].empty:
            return f"Seat {slot + 1} is not free"
        old = self.slot_of(session)
        if old is None:
            return "You are watching: there is no seat of yours to move"
        self.seats[slot] = replace(self.seats[old], seat=slot, ready=False)
        self.seats[old] = SeatInfo(old)
        self.owners[slot] = self.owners.pop(old)
        self.identities = {k: (slot if v == old else v) for k, v in self.identities.items()}
        self._refresh()
        return None

    def set_ready(self, session, ready: bool) -> str | None:
        if (err := self._lobby_check(session)) is not None:
            return err
        slot = self.slot_of(session)
        if slot is None:
            return "Take a seat first"
        self.seats[slot] = replace(self.seats[slot], ready=ready)
        self._refresh()
        return None

    def add_bot(self, session, slot: int, level: str) -> str | None:
        if (err := self._lobby_check(session, admin=True)) is not None:
            return err
        if level not in bot_levels():
            return f"No bot level {level!r}: choose from {', '.join(bot_levels())}"
        if not 0 <= slot < len(self.seats) or self.seats[slot].kind == "human":
            return f"Seat {slot + 1} is taken by a person"
        taken = {s.name for i, s in enumerate(self.seats) if i != slot}
        name = next(f"Bot {c}" for c in "ABCDEFGHIJ" if f"Bot {c}" not in taken)  # as a LAN host names them
        self.seats[slot] = SeatInfo(slot, name, "bot", level, ready=True)
        self._refresh()
        return None

    def remove_bot(self, session, slot: int) -> str | None:
        if (err := self._lobby_check(session, admin=True)) is not None:
            return err
        if not 0 <= slot < len(self.seats) or self.seats[slot].kind != "bot":
            return f"There is no bot in seat {slot + 1}"
        self.seats[slot] = SeatInfo(slot)
        self._refresh()
        return None

    def set_options(self, session, options: RuleOptions) -> str | None:
        if (err := self._lobby_check(session, admin=True)) is not None:
            return err
        self.options = options
        self._refresh()
        return None

    def set_clocks(self, session, clocks: Clocks) -> str | None:
        if (err := self._lobby_check(session, admin=True)) is not None:
            return err
        if clocks.open_seconds <= 0 or (clocks.decision_seconds is not None and clocks.decision_seconds <= 0):
            return "Clocks must be positive"
        self.clocks = clocks
        self._refresh()
        return None

    # ------------------------------------------------------------------ fan-out

    def broadcast_system(self, text: str, kind: str = "system") -> None:
        for session in self.sessions:
            session.push(LogEntry(text, kind))

    def chat(self, session, text: str) -> str | None:
        text = " ".join(text.split())[:200]
        if not text:
            return "Type a message first"
        slot = self.slot_of(session)
        who = self.seats[slot].name if slot is not None else getattr(session, "name", "guest")
        for other in self.sessions:
            other.push(LogEntry(text, "chat", who))
        self._refresh()
        return None

    def _refresh(self) -> None:
        for session in list(self.sessions):
            session.refresh()
