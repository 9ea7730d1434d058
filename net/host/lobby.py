"""Seats before the game: take a seat, leave, get ready; the admin's bots, options, clocks.

Pure bookkeeping, no sockets.  Seats 0..4; a seat is bound to a player's Ed25519 key.
A bot seat is reserved with a one-time token that the bot client presents when it
connects (its own key is then bound to the seat).  The admin is the key the table was
opened for (the hosting player's own client; `modernart host --headless --admin-key`).
A LAN host (net/host/serve.py) never makes whoever sits first its admin: a table opened
without an admin key has none (its `--players` start it).  `first_to_sit_admin` (the
default of this class, for tables a program opens for its own clients: tests, benchmarks)
makes the first to sit the admin of a table opened without one.

The admin may remove any seated person or bot (`remove`: the key may not sit again at
this table) and lock the table to the keys seated (`lock`).  A newcomer who finds every
seat taken takes the seat of the weakest occupant weaker than itself (`evictable`): a
person whose client is gone, or who is not ready and idle, or whose key is unknown (a key
neither the admin's nor one that played at this host).  Errors are `LobbyError`s with
stable codes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

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
    active: float = 0.0  # when its player last asked for something (the host's clock)

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


#: Seconds without a request after which a seated person who is not ready counts as idle
#: (a newcomer finding every seat taken may take an idle person's seat)
LOBBY_IDLE = 120.0


def occupant_rank(known: bool, connected: bool, active: bool) -> tuple[bool, bool, bool]:
    """How firmly someone holds a seat or a watcher's place: a newcomer (connected, active)
    takes the place of the weakest occupant ranked below it, never of one ranked as high.

    >>> occupant_rank(False, True, True) > occupant_rank(False, False, True)
    True
    >>> occupant_rank(False, True, True) > occupant_rank(True, False, False)
    False
    """
    return (known, connected, active)


class Lobby:
    """The seats, options and clocks of a table that has not started yet."""

    def __init__(
        self,
        options: RuleOptions | None = None,
        clocks: ClockSettings | None = None,
        admin: bytes | None = None,
        *,
        first_to_sit_admin: bool = True,
    ) -> None:
        self.seats: list[Seat | None] = [None] * MAX_PLAYERS
        self.options = options or RuleOptions()
        self.clocks = clocks or ClockSettings()
        self.admin = admin
        self.first_to_sit_admin = first_to_sit_admin  # a table of this machine (see the module doc)
        self.locked: frozenset[bytes] | None = None  # the keys it is locked to, None: open
        self.removed: set[bytes] = set()  # keys the admin removed: they may not come back

    def seat_of(self, vk: bytes) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.vk == vk:
                return i
        return None

    def taken(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None]

    def require_admin(self, vk: bytes) -> None:
        """Refuse (`not_admin`) anyone but the admin."""
        self._require_admin(vk)

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

    def may_sit(self, vk: bytes) -> None:
        """Refuse a key the admin removed, or one the table is not locked to."""
        if vk in self.removed:
            raise LobbyError("removed", "the host removed you from this table")
        if self.locked is not None and vk not in self.locked and vk != self.admin:
            raise LobbyError("locked", "the host locked this table to the players seated")

    def sit(self, vk: bytes, name: str, seat: int | None = None, now: float = 0.0) -> int:
        name = name.strip()
        if not name:
            raise LobbyError("bad_name", "a name must not be blank")
        self.may_sit(vk)
        current = self.seat_of(vk)
        if current is not None and (seat is None or seat == current):
            self.seats[current].name = name  # type: ignore[union-attr]
            self.seats[current].active = now  # type: ignore[union-attr]
            return current
        index = self._free_seat(seat)
        if current is not None:
            self.seats[current] = None
        self.seats[index] = Seat(name, vk, active=now)
        if self.admin is None and self.first_to_sit_admin:
            self.admin = vk
        return index

    def touch(self, vk: bytes, now: float) -> None:
        """The player of `vk` asked for something: not idle."""
        index = self.seat_of(vk)
        if index is not None:
            self.seats[index].active = now  # type: ignore[union-attr]

    def evictable(
        self, now: float, known: Callable[[bytes], bool], connected: set[bytes], newcomer_known: bool
    ) -> int | None:
        """The seat a newcomer (its key known or not) may take when every seat is taken: the
        weakest person ranked below the newcomer (`occupant_rank`), the longest idle first;
        never a bot (the admin's), the admin, or a key the table is locked to."""
        mine = occupant_rank(newcomer_known, True, True)
        weakest: tuple[tuple[bool, bool, bool], float, int] | None = None
        for i, s in enumerate(self.seats):
            if s is None or s.bot is not None or s.vk is None or s.vk == self.admin:
                continue
            if self.locked is not None and s.vk in self.locked:
                continue
            active = s.ready or now - s.active < LOBBY_IDLE
            rank = occupant_rank(known(s.vk), s.vk in connected, active)
            if rank < mine and (weakest is None or (rank, s.active) < weakest[:2]):
                weakest = (rank, s.active, i)
        return None if weakest is None else weakest[2]

    def remove(self, vk: bytes, target: bytes) -> int | None:
        """The admin removes the key `target` (a seated person or bot, or a watcher): it may
        not sit again here; its seat (None: it had none) is freed."""
        self._require_admin(vk)
        if target == self.admin:
            raise LobbyError("not_removable", "the host cannot remove themselves")
        self.removed.add(target)
        index = self.seat_of(target)
        if index is not None:
            self.seats[index] = None
        if self.locked is not None:
            self.locked = self.locked - {target}
        return index

    def lock(self, vk: bytes, flag: bool) -> None:
        """The admin locks the table to the keys seated now (bots' seats included), or opens it."""
        self._require_admin(vk)
        keys = {s.vk for s in self.seats if s is not None and s.vk is not None}
        self.locked = frozenset(keys | ({self.admin} if self.admin else set())) if flag else None

    def key_at(self, seat: int) -> bytes | None:
        s = self.seats[seat] if 0 <= seat < MAX_PLAYERS else None
        return s.vk if s is not None else None

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
