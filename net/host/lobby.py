"""Seats before the game: take a seat, leave, get ready; the admin's bots, options, clocks.

Pure bookkeeping, no sockets.  Seats 0..4; a seat is bound to a player's Ed25519 key.
A bot seat is reserved with a one-time token that the bot client presents when it
connects (its own key is then bound to the seat).  The admin is the key the table was
opened for, or else the first player to sit.  Errors are `LobbyError`s with stable codes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Mapping

from modernart.bots import bot_levels
from modernart.cards import MAX_PLAYERS, MIN_PLAYERS
from modernart.rules import OptionError, RuleOptions

from modernart.net.clocks import ClockError, ClockSettings
from modernart.net.protocol import Params
from modernart.net.protocol.frames import seat_description
from modernart.net.trust.identity import fingerprint


class LobbyError(ValueError):
    """A lobby request refused: `code` and `params` for the client's words, `message` in English."""

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: Params = dict(params or {})


@dataclass
class Seat:
    name: str
    vk: bytes | None = None  # None: a bot seat waiting for its client
    bot: str | None = None  # bot level, None for a person
    ready: bool = False
    token: bytes | None = field(default=None, repr=False)

    def to_wire(self, index: int, admin: bytes | None, connected: bool) -> dict[str, Any]:
        return seat_description(
            index,
            self.name,
            self.bot,
            self.ready or self.bot is not None,
            fingerprint(self.vk) if self.vk else None,
            self.vk is not None and self.vk == admin,
            connected,
        )


class Lobby:
    """The seats, options and clocks of a table that has not started yet."""

    def __init__(
        self, options: RuleOptions | None = None, clocks: ClockSettings | None = None, admin: bytes | None = None
    ) -> None:
        self.seats: list[Seat | None] = [None] * MAX_PLAYERS
        self.options = options or RuleOptions()
        self.clocks = clocks or ClockSettings()
        self.admin = admin

    def seat_of(self, vk: bytes) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.vk == vk:
                return i
        return None

    def taken(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None]

    def _require_admin(self, vk: bytes) -> None:
        if vk != self.admin:
            raise LobbyError("not_admin", "only the host (the player who opened the table) may do that")

    def _free_seat(self, wanted: int | None) -> int:
        if wanted is not None:
            if self.seats[wanted] is not None:
                raise LobbyError("seat_taken", f"seat {wanted} is taken", {"seat": wanted})
            return wanted
        for i, s in enumerate(self.seats):
            if s is None:
                return i
        raise LobbyError("table_full", f"all {MAX_PLAYERS} seats are taken", {"seats": MAX_PLAYERS})

    def sit(self, vk: bytes, name: str, seat: int | None = None) -> int:
        name = name.strip()
        if not name:
            raise LobbyError("bad_name", "a name must not be blank")
        current = self.seat_of(vk)
        if current is not None and (seat is None or seat == current):
            self.seats[current].name = name  # type: ignore[union-attr]
            return current
        index = self._free_seat(seat)
        if current is not None:
            self.seats[current] = None
        self.seats[index] = Seat(name, vk)
        if self.admin is None:
            self.admin = vk
        return index

    def leave(self, vk: bytes) -> int:
        index = self.seat_of(vk)
        if index is None:
            raise LobbyError("not_seated", "you have no seat to leave")
        self.seats[index] = None
        return index

    def ready(self, vk: bytes, flag: bool) -> int:
        index = self.seat_of(vk)
        if index is None:
            raise LobbyError("not_seated", "take a seat first")
        self.seats[index].ready = flag  # type: ignore[union-attr]
        return index

    def add_bot(self, vk: bytes | None, level: str, seat: int | None = None) -> tuple[int, bytes]:
        """Reserve a seat for a bot (vk None: the host itself, e.g. --bots); returns (seat, token)."""
        if vk is not None:
            self._require_admin(vk)
        if level not in bot_levels():
            raise LobbyError(
                "bad_level",
                f"unknown bot level {level!r}; choose from {', '.join(bot_levels())}",
                {"level": str(level)[:32], "levels": ", ".join(bot_levels())},
            )
        index = self._free_seat(seat)
        token = secrets.token_bytes(16)
        names = {s.name for s in self.seats if s is not None}
        name = next(f"Bot {c}" for c in "ABCDEFGHIJ" if f"Bot {c}" not in names)
        self.seats[index] = Seat(name, None, level, True, token)
        return index, token

    def claim_bot(self, token: bytes, vk: bytes) -> int | None:
        """Bind a bot client's key to the seat reserved with `token` (one use)."""
        for i, s in enumerate(self.seats):
            if s is not None and s.token is not None and secrets.compare_digest(s.token, token):
                s.vk, s.token = vk, None
                return i
        return None

    def remove_bot(self, vk: bytes, seat: int) -> Seat:
        self._require_admin(vk)
        s = self.seats[seat]
        if s is None or s.bot is None:
            raise LobbyError("not_a_bot", f"seat {seat} holds no bot", {"seat": seat})
        self.seats[seat] = None
        return s

    def set_options(self, vk: bytes, data: Mapping[str, Any]) -> None:
        self._require_admin(vk)
        try:
            self.options = RuleOptions.from_dict({**self.options.to_dict(), **data})
        except (OptionError, TypeError) as exc:
            raise LobbyError("bad_options", str(exc)) from None
        self._unready()

    def set_clocks(self, vk: bytes, data: Mapping[str, Any]) -> None:
        self._require_admin(vk)
        try:
            self.clocks = self.clocks.changed(data)
        except (ClockError, TypeError) as exc:
            raise LobbyError("bad_clocks", str(exc)) from None
        self._unready()

    def _unready(self) -> None:
        for s in self.seats:
            if s is not None and s.bot is None:
                s.ready = False

    def check_start(self, vk: bytes | None) -> None:
        """Raise LobbyError unless the game may start now (vk None: the host's autostart)."""
        if vk is not None:
            self._require_admin(vk)
        seated = self.taken()
        if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
            raise LobbyError(
                "bad_count",
                f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, {len(seated)} seated",
                {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "seated": len(seated)},
            )
        for i in seated:
            s = self.seats[i]
            assert s is not None
            if s.vk is None:
                raise LobbyError("bot_not_ready", f"the bot in seat {i} has not connected yet", {"seat": i})
            if s.bot is None and not s.ready:
                raise LobbyError("not_ready", f"{s.name} (seat {i}) is not ready", {"player": s.name, "seat": i})
