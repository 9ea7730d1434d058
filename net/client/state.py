"""What the client API hands out: its state, updates, replies and connection errors
(re-exported by net/client/client.py, which documents them)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from modernart.phase import Phase
from modernart.views import Observation


class ConnectError(ConnectionError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Update(NamedTuple):
    kind: str
    data: Any


@dataclass(frozen=True)
class Reply:
    ok: bool
    code: str | None = None
    message: str = ""  # the host's English, for logs: a screen words the code and params itself
    seq: int | None = None
    data: Any = None
    params: dict[str, Any] = field(default_factory=dict)  # a refusal's facts (the err frame's `args`)


@dataclass
class ConnectionState:
    status: str = "connecting"
    table: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None
    role: str | None = None
    game_id: bytes | None = None
    observation: Observation | None = None
    public: dict[str, Any] | None = None
    players: list[dict[str, Any]] = field(default_factory=list)
    log: list[tuple[int, Any]] = field(default_factory=list)
    deadlines: dict[str, float | None] = field(
        default_factory=lambda: {"open": None, "decide": None, "reveal": None, "call": None, "deck": None}
    )
    deck_late: tuple[int, ...] = ()  # hidden hands: seats late with a deck step (`clk.late`)
    reveals_owed: tuple[int, ...] = ()  # seats whose sealed-bid reveal the host still waits for
    sealed: tuple[int, ...] = ()  # seats whose Sealed commitment the host holds, before the set (`clk.sealed`)
    chat: list[tuple[Any, str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    head_seq: int = 0
    decision_seq: int = 0  # the last event that changed what a seat decides on (not in NOT_DECISIONS)
    saved_record: str | None = None
    saved_transcript: str | None = None
    saved_evidence: str | None = None  # where this client kept the events that made it stop trusting the host
    audit: list[str] | None = None
    last_heard: float = field(default_factory=time.monotonic)
    goodbye: dict[str, Any] | None = None

    def silent_for(self) -> float:
        """Seconds since the host was last heard."""
        return time.monotonic() - self.last_heard

    def remaining(self, name: str) -> float | None:
        t = self.deadlines.get(name)
        return None if t is None else max(0.0, t - asyncio.get_running_loop().time())


def with_sealed(obs: Observation | None, seats: tuple[int, ...]) -> Observation | None:
    """`obs` with the seats whose commitment the host holds (`seats`) among `sealed_done` and
    no longer to move: in protocol 2 the events before a Sealed auction's complete set do
    not say who has sealed, the host's clocks do (docs/protocol.md "Sealed bids")."""
    if obs is None or obs.phase != Phase.SEALED or not obs.to_move or not seats:
        return obs
    done = tuple(sorted(set(obs.sealed_done) | set(seats)))
    to_move = tuple(s for s in obs.to_move if s not in seats)
    if done == obs.sealed_done and to_move == obs.to_move:
        return obs
    return replace(obs, sealed_done=done, to_move=to_move)
