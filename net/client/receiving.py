"""The client's receiving side (a mixin of `net.client.Client`): frames from the host,
bursts of events checked as they arrive, replies, the welcome, and the updates handed
to the UI.

A burst is every frame that has arrived by the time the client reads: a catch-up batch,
or the events of one move (a Sealed auction's settlement and the disclosure come as
several).  See `Receiving._on_burst` for what is checked when.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import zmq
import zmq.asyncio

from modernart.net.trust.chain import ChainError
from modernart.net.client.state import ConnectionState, ConnectError, Reply, Update
from modernart.net.trust.shuffle import FixedDeal
from modernart.net.trust.verified_game import VerifiedGame
from modernart.net.protocol import NONCE_BYTES, ProtocolError, decode_host_frame, decode_host_inner

if TYPE_CHECKING:
    from modernart.net.client.fair_duties import FairPlay
    from modernart.net.lan.known_hosts import KnownHosts

log = logging.getLogger("modernart.net.client.client")
MAX_BURST = 256  # frames handled before the client checks the head and lets others run
CLOCK_DRIFT = 0.5  # seconds a host tick may move a deadline before the screens are told
_POLLIN = int(zmq.POLLIN)


class Receiving:
    """Frames from the host (see the module docstring)."""

    _held: list[Update] | None = None
    _ack_due = False  # a catch-up batch was applied: acknowledge it after the burst
    _batch_nonce: bytes | None = None  # the nonce of the last catch-up batch applied (net/host/flow.py)

    if TYPE_CHECKING:  # provided by Client
        sock: zmq.asyncio.Socket | None
        state: ConnectionState
        updates: asyncio.Queue[Update] | None
        on_update: Any
        changed: asyncio.Event
        fair: FairPlay
        known_hosts: KnownHosts | None
        target: Any
        token: bytes | None
        bytes_in: int
        _game: VerifiedGame | None
        _host_vk: bytes | None
        _welcome: asyncio.Future | None
        _pending: dict[int, asyncio.Future]
        _last_hello: float
        _doubt: list[bytes]
        _catch_up_head: int
        _conn: bytes | None
        _ctr: int
        _keep_transcript: bool

        @property
        def _address(self) -> str: ...
        def _hello(self) -> None: ...
        def _ping(self) -> None: ...
        def _set_status(self, status: str) -> None: ...
        def _error(self, code: str, message: str) -> None: ...
        def _fail_pending(self, code: str) -> None: ...

    async def _recv_loop(self) -> None:
        assert self.sock is not None
        while True:
            try:
                burst = [await self.sock.recv()]
            except zmq.ZMQError as exc:
                log.info("receive stopped: %s", exc)  # closed under us (a shared context was destroyed)
                self._set_status("closed")
                return
            # whatever else has arrived already is part of the same burst (asked first: a
            # refused read would leave a future, an exception and its traceback for the GC)
            try:
                while len(burst) < MAX_BURST and int(self.sock.get(zmq.EVENTS)) & _POLLIN:
                    more: Any = self.sock.recv(flags=zmq.NOBLOCK)  # a done future
                    burst.append(more.result())
            except zmq.ZMQError:
                pass  # closed under us: the next read says so
            self.state.last_heard = time.monotonic()
            self._on_burst(burst)
            self.fair.duties()

    def _on_burst(self, burst: list[bytes]) -> None:
        """Handle frames that arrived together; their updates go out once the burst is checked.

        Each event's chain link, private hash and player signatures are checked as it is
        applied; the host signature only on the burst's newest head (net/trust/chain.py: it covers
        every event before it).  That check runs here, before this method returns to the
        event loop, so nothing (a bot, the UI, a fair-play duty, a reply's awaiter) can act
        on an event of the burst before its signature is verified; the updates of a burst
        whose head does not verify are withheld and the client fails.
        """
        held: list[Update] = []
        self._held = held
        try:
            for data in burst:
                self.bytes_in += len(data)
                try:
                    self._on_frame(decode_host_frame(data))
                except ChainError as exc:  # the host's history does not check out: stop trusting it
                    self._untrusted(exc, held)
                except (ProtocolError, ValueError, KeyError, TypeError) as exc:
                    log.warning("bad frame from host: %s", exc)
                    self._error("bad_host_frame", str(exc))
            if self._game is not None and self.state.status != "failed":
                try:
                    self._game.check_head()
                except ChainError as exc:
                    self._untrusted(exc, held)
        finally:
            self._held = None
        if self._ack_due and self.state.status != "failed":
            self._ack_due = False
            self._ping()
        for update in held:
            self._emit(update)

    def _untrusted(self, exc: ChainError, held: list[Update]) -> None:
        log.warning("event refused: %s", exc)
        held[:] = [u for u in held if u.kind not in ("event", "observation")]  # unproven: never shown
        self._error("untrusted_host", str(exc))
        self._set_status("failed")

    def _emit(self, update: Update) -> None:
        if self._held is not None:  # inside a burst: after its check
            self._held.append(update)
            return
        if self.updates is not None:
            self.updates.put_nowait(update)
        if self.on_update is not None:
            self.on_update(update)
        self.changed.set()

    def _on_frame(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "ev":
            self._on_event(msg)
        elif kind == "evs":
            for data in msg["evs"]:
                self._on_event(decode_host_frame(data))
            nonce = msg.get("n")
            if type(nonce) is bytes and len(nonce) == NONCE_BYTES:
                self._batch_nonce = nonce
                self._ack_due = True  # the host sends the next batch once this one is acknowledged
        elif kind == "tick":
            if self.state.status == "failed":
                return
            if self.state.status == "reconnecting" and self._welcome and self._welcome.done():
                self._set_status("connected")
            if msg.get("head", 0) > self.state.head_seq and time.monotonic() - self._last_hello > 2.0:
                self._hello()  # missed events (we lagged): catch up
            # the tick's clocks are current; an event's are as of when it was sent, which is
            # long ago for events caught up after a reconnect: correct the drift, and tell
            if "clk" in msg and self._set_deadlines(msg["clk"]):
                self._emit(Update("clock", dict(self.state.deadlines)))
        elif kind in ("ack", "reply"):
            self._resolve(msg.get("id"), Reply(True, None, "", msg.get("seq")))
        elif kind == "tables":
            self._resolve(msg.get("id"), Reply(True, None, "", None, msg.get("tables", [])))
        elif kind == "err":
            self._on_err(msg)
        elif kind == "closed":
            self._on_goodbye(msg)
        elif kind == "welcome":
            self._on_welcome(msg)
        elif kind == "seat":
            self.state.seat, self.state.role = msg.get("seat"), msg.get("role")
            self._emit(Update("seat", (self.state.seat, self.state.role)))
        elif kind == "lobby":
            self.state.table = msg
            self._check_fixed_deal()
            if self.known_hosts is not None and isinstance(msg.get("name"), str):
                self.known_hosts.remember(self._address, self.target.host_key, msg["name"])
            self._emit(Update("lobby", msg))
        elif kind == "chat":
            line = (msg.get("seat"), str(msg.get("name")), str(msg.get("text")))
            self.state.chat.append(line)
            self._emit(Update("chat", line))

    def _on_goodbye(self, msg: dict[str, Any]) -> None:
        """The host closed the table on purpose (net/host/host.py `Host.close`): say so, with where
        its journal is (the game can be resumed from it).  Hellos go on: a resumed host answers."""
        if self.state.status in ("failed", "closed"):
            return

        def text(key: str) -> str | None:
            value = msg.get(key)
            return value if isinstance(value, str) and value.isprintable() and len(value) <= 1024 else None

        self.state.goodbye = {"table": text("table"), "journal": text("journal"), "record": text("record")}
        self._fail_pending("host_closed")
        self._set_status("host_closed")
        self._emit(Update("goodbye", dict(self.state.goodbye)))

    def _settle_doubts(self) -> None:
        """Once caught up after a reconnect: a move whose answer was lost either was relayed
        (the log shows it) or never reached the host, which is said now.  It cannot arrive
        later: a copy the socket kept for the new connection carries the old welcome's mark,
        which the host refuses, as it would a move made before the last event."""
        if not self._doubt or self._game is None or self.state.head_seq < self._catch_up_head:
            return
        unplayed = [body for body in self._doubt if self._game.own_actions.pop(body, None) is not None]
        self._doubt = []
        if unplayed:
            self._error("not_played", "your move was not played: it did not reach the host in time (look again)")

    def _resolve(self, request: Any, reply: Reply) -> None:
        fut = self._pending.get(request) if isinstance(request, int) else None
        if fut is not None and not fut.done():
            fut.set_result(reply)

    def _on_err(self, msg: dict[str, Any]) -> None:
        code, text = str(msg.get("code")), str(msg.get("msg"))
        if msg.get("id") in self._pending:
            self._resolve(msg["id"], Reply(False, code, text))
        elif code in ("hello_first", "lagging"):  # dropped (lagging: until we have read our queue): again
            if time.monotonic() - self._last_hello > 0.5:
                self._fail_pending("connection_lost")
                self._hello()
        elif self._welcome is not None and not self._welcome.done():
            self._welcome.set_exception(ConnectError(code, text))
        else:
            self._error(code, text)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        st = self.state
        if st.status == "failed":
            return
        if self._host_vk is not None and msg["host_vk"] != self._host_vk:
            self._error("host_key_changed", "the host now signs with another key")
            self._set_status("failed")
            return
        if msg.get("reset") and st.game_id is not None and msg.get("game") == st.game_id and st.head_seq > 0:
            self._error(
                "forked_history",
                f"the host offers a history of this game that differs from the "
                f"{st.head_seq} events already checked: refused",
            )
            self._set_status("failed")
            return
        st.seat, st.role = msg.get("seat"), msg.get("role")
        self._host_vk = msg["host_vk"]
        self._ctr = max(self._ctr, int(msg.get("ctr") or 0))
        if msg.get("reset") or msg.get("game") != st.game_id:
            st.game_id, st.head_seq, st.log = msg.get("game"), 0, []
            self._game = self._follower(st.game_id) if st.game_id else None
            st.observation, st.public = None, None
        self.token = None  # used once: from now on the key alone names the seat
        st.goodbye = None
        self._catch_up_head = int(msg.get("head") or 0)
        conn = msg.get("conn")
        self._conn = conn if type(conn) is bytes and len(conn) == 8 else None
        if self.known_hosts is not None:
            self.known_hosts.remember(self._address, self.target.host_key, str(st.table.get("name", "")))
        self.fair.welcome()
        self._set_status("connected")
        self._settle_doubts()
        if self._welcome is not None and not self._welcome.done():
            self._welcome.set_result(msg)

    def _check_fixed_deal(self) -> None:
        """A fixed deal (chosen cards, not shuffled) is only played if the table's lobby
        announces it: event 1 and the lobby must name the same one (or none).  Checked when
        both are known, whichever comes first (a client that sat before the start has the
        lobby first; one that arrives later gets event 1 first).  Raises ChainError."""
        game, table = self._game, self.state.table
        if game is None or game.view is None or not table:
            return
        raw = table.get("fixed_deal")
        try:
            announced = FixedDeal.from_wire(raw) if raw is not None else None
        except ValueError as exc:
            raise ChainError(f"the table announces a fixed deal that is none: {exc}") from None
        if game.fixed_deal is not None and announced != game.fixed_deal:
            raise ChainError("the host deals a fixed deal (not shuffled) that its table did not announce: refused")
        if game.fixed_deal is None and announced is not None:
            raise ChainError("the table announces a fixed deal that the game's first event does not have: refused")

    def _follower(self, game_id: bytes) -> VerifiedGame:
        assert self._host_vk is not None
        return VerifiedGame(game_id, self._host_vk, keep=self._keep_transcript)

    def _set_deadlines(self, clk: dict[str, Any]) -> bool:
        """Take the host's remaining times as deadlines on this loop's clock; True when one
        appeared, ended or moved by more than CLOCK_DRIFT seconds."""
        now = asyncio.get_running_loop().time()
        deadlines = self.state.deadlines
        moved = False
        for name in ("open", "decide", "reveal"):
            value = clk.get(name)
            new = None if value is None else now + float(value)
            old = deadlines.get(name)
            moved = (
                moved
                or (old is None) != (new is None)
                or (old is not None and new is not None and abs(old - new) > CLOCK_DRIFT)
            )
            deadlines[name] = new
        owe = clk.get("owe")
        owed = tuple(owe) if type(owe) is list and all(type(s) is int for s in owe) else ()
        if owed != self.state.reveals_owed:
            self.state.reveals_owed = owed
            moved = True
        return moved

    def _on_event(self, msg: dict[str, Any]) -> None:
        st = self.state
        seq = msg["seq"]
        if seq <= st.head_seq or st.status == "failed":
            return  # already held (a catch-up overlapping live events), or no longer trusted
        if seq == 1 and self._game is None and self._host_vk is not None:  # the game starts now
            st.game_id = decode_host_inner(msg["pub"])["g"]
            self._game = self._follower(st.game_id)
        if seq != st.head_seq + 1 or self._game is None:
            if time.monotonic() - self._last_hello > 1.0:
                self._hello()  # a gap: ask for the missing events
            return
        own = st.seat if st.role in ("player", "standin") else None
        info, observation = self._game.apply(msg, own, defer_signature=True)
        if info.kind == "start":
            self._check_fixed_deal()
        st.head_seq = seq
        if "pv" in info.public:
            st.public = info.public["pv"]
        st.players = self._game.players
        if info.move is not None:
            st.log.append((seq, info.move))
        st.log.extend((seq, e) for e in info.events)
        self._set_deadlines(info.public.get("clk") or {})
        self._emit(Update("event", info))
        for warning in info.warnings:
            self._error("fair_play", warning)
        self.fair.on_event(info)
        if observation is not None:
            st.observation = observation
            self._emit(Update("observation", observation))
        self._settle_doubts()
