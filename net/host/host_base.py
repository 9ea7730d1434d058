"""What the mixins of `net.host.Host` may use of it: its state and its methods, typed.

Only for the type checker: the mixins (`Admission`, `LobbyOps`, `GameOps`, `Presence`)
inherit from `HostParts`, which is `HostBase` when type checking and `object` at run time.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    import zmq.asyncio

    from modernart.net.lan.address import JoinTarget
    from modernart.net.host.flow import Link
    from modernart.net.host.admission import Peer
    from modernart.net.trust.identity import Keys
    from modernart.net.host.game import LoggedEvent
    from modernart.net.host.table import Table


class HostBase(Protocol):
    """The attributes and methods of `Host` that its mixins use of one another."""

    keys: Keys
    port: int
    clock: Any  # MonotonicClock, or a test's ManualClock
    bot_pace: float
    bot_factory: Callable[..., Any] | None
    tables: dict[str, Table]
    peers: dict[bytes, Peer]
    links: dict[bytes, Link]
    peer_budget: int
    max_watchers: int
    freed: bool
    bots: dict[bytes, tuple[asyncio.Task[Any], Any]]
    stopping: set[asyncio.Task[Any]]
    retiring: dict[bytes, Table]
    absent: dict[tuple[str, int], float]
    wake: asyncio.Event
    closing: bool
    ctx: zmq.asyncio.Context | None

    def target(self, table: str | None = None) -> JoinTarget: ...
    def _send(self, rid: bytes, data: bytes) -> bool: ...
    def _send_event(self, peer: Peer, data: bytes, seq: int, nonce: bytes | None = None) -> bool: ...
    def forget_idle_buckets(self) -> None: ...
    def _free_if_done(self, table: Table) -> None: ...
    def send(self, rid: bytes, obj: dict[str, Any]) -> bool: ...
    def _table_peers(self, table: Table) -> list[Peer]: ...
    def publish(self, table: Table, event: LoggedEvent, ack: tuple[bytes, dict[str, Any]] | None = None) -> None: ...
    def publish_all(
        self, table: Table, events: list[LoggedEvent], ack: tuple[bytes, dict[str, Any]] | None = None
    ) -> None: ...
    def broadcast_lobby(self, table: Table) -> None: ...
    def lobby_soon(self, table: Table) -> None: ...
    def _tick(self, peer: Peer) -> dict[str, Any]: ...
    # defined by one mixin, used by another
    def _player_returns(self, table: Table, seat: int) -> None: ...
    def _try_start(self, table: Table, vk: bytes | None) -> None: ...
    def _tell_seat(self, peer: Peer) -> None: ...
    def spawn_bot(self, table: Table, token: bytes, level: str) -> None: ...
    def _stop_bot(self, token: bytes) -> None: ...
    def _retire_standins(self, table: Table) -> None: ...
    def _drop_peer(self, rid: bytes, why: str) -> None: ...
    def _pump(self, peer: Peer) -> None: ...


if TYPE_CHECKING:
    HostParts = HostBase
else:
    HostParts = object  # at run time the mixins are plain classes: `Host` itself has every part
