"""The host: one ROUTER socket serving every table, player and spectator of this process.

`Host` is the composition of its parts, each a class with its own state that is handed
only the parts it uses:
  router        net/host/router.py: the CURVE ROUTER socket (its role is described
                there), reading it and sending on it
  rates         net/host/rates.py: frames per key
  connections   net/host/connections.py: peers (proven hellos) and links (flow control)
  fanout        net/host/fanout.py: events once written (watchers: once on disk), lobby messages, ticks
  registry      net/host/registry.py: the tables by id
  bot_clients   net/host/bot_clients.py: in-process bot clients (lobby bots, stand-ins)
  presence      net/host/presence.py: liveness, grace periods, stand-ins, clocks, freeing
  admission     net/host/admission.py: hello and catch-up
  lobby_requests, game_requests   net/host/lobby_requests.py, net/host/game_requests.py
The host itself reads each frame's kind and hands it to the part that serves it.
Tasks: one timer loop (clock defaults, grace periods, on the injectable clock), one tick
loop (liveness), and one task per in-process bot client.  Threads: the journal syncs
(net/host/fanout.py `SYNCERS`), whose rounds end in a callback on the loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable, Sequence

from modernart.net.clocks import MonotonicClock, cancel_and_wait
from modernart.net.host.admission import MAX_WATCHERS, Admission
from modernart.net.host.bot_clients import BotClients, forget_bots
from modernart.net.host.connections import Connections, Peer
from modernart.net.host.deadlines import DueTables
from modernart.net.host.fanout import Fanout
from modernart.net.host.flow import PEER_BUDGET, Link
from modernart.net.host.game_requests import GameRequests
from modernart.net.host.lobby import Lobby
from modernart.net.host.lobby_requests import LobbyRequests
from modernart.net.host.presence import Presence
from modernart.net.host.quiet_gc import QuietCollector
from modernart.net.host.rates import Bucket, RateLimits
from modernart.net.host.registry import TableRegistry
from modernart.net.host.router import Router
from modernart.net.host.table import Table
from modernart.net.host.visitors import Visitors
from modernart.net.lan.address import JoinTarget
from modernart.net.protocol import ProtocolError, pack
from modernart.net.protocol.frames import closed_frame, decode_client_frame, err_frame, tables_frame
from modernart.net.trust.identity import Keys, check_zmq
from modernart.net.trust.shuffle import FixedDeal

log = logging.getLogger("modernart.net.host.host")

#: How long closing waits once it said goodbye, before it closes the connections: a
#: connection closed with input unread is reset, and a reset can make the peer's system
#: drop what it had received but not yet handed over (the goodbye)
GOODBYE_SECONDS = 0.2
GOODBYE_LINGER = 2.0  # seconds the closed socket still delivers queued frames (the goodbye)


class Host:
    """Serves tables over one CURVE ROUTER socket.  Use `await start()`, then `await close()`."""

    def __init__(
        self,
        keys: Keys,
        *,
        bind: str = "127.0.0.1",
        port: int = 0,
        clock: Any = None,
        advertise: str | None = None,
        also_at: Sequence[str] = (),
        bot_pace: float = 1.0,
        bot_factory: Callable[..., Any] | None = None,
        peer_budget: int = PEER_BUDGET,
        max_watchers: int = MAX_WATCHERS,
        quiet_gc: bool = False,
        router: Callable[..., Router] = Router,
    ) -> None:
        """`quiet_gc`: this host runs its process's garbage collection (net/host/quiet_gc.py):
        for a process that is a host and nothing else, not for one that holds other work.
        `router`: makes the socket's part (default: its own ROUTER socket; a worker of a club
        is handed its frames by the club's front process instead, net/host/club_worker.py)."""
        check_zmq()
        self.keys = keys
        self.clock = clock or MonotonicClock()
        self.tasks: list[asyncio.Task[Any]] = []  # the timer and tick loops, once started
        due: DueTables[Table] = DueTables()  # the timer loop's: tables whose deadlines may have changed
        self.due = due
        self.router = router(
            keys, bind=bind, port=port, advertise=advertise, also_at=also_at, receive=self.receive, lost=self.lost
        )
        self.rates = RateLimits()
        self.visitors = Visitors()  # connections that have not said hello (net/host/visitors.py)
        self.said_goodbye = False  # closing: a hello gets the goodbye again (goodbye_again)
        self.connections = Connections(self.router, peer_budget)
        self.registry = TableRegistry(keys)
        self.fanout = Fanout(
            self.router,
            self.connections,
            self.registry.tables,
            self.clock,
            due,
            lambda t: self.presence.free_if_done(t),
        )
        self.bot_clients = BotClients(self.router, factory=bot_factory, pace=bot_pace)
        self.presence = Presence(
            self.registry, self.connections, self.fanout, self.bot_clients, self.rates, self.clock, due
        )
        self.lobby_requests = LobbyRequests(self.router, self.connections, self.fanout, self.bot_clients, self.clock)
        self.game_requests = GameRequests(self.connections, self.fanout, self.presence, self.clock)
        self.admission = Admission(
            keys,
            self.router,
            self.registry,
            self.connections,
            self.fanout,
            self.presence,
            self.clock,
            lambda table: self.lobby_requests.try_start(table, None),
            max_watchers=max_watchers,
            seating=self.lobby_requests,
        )
        self.collector = QuietCollector() if quiet_gc else None
        self.presence.collector = self.collector
        self.presence.visitors = self.visitors

    # ------------------------------------------------------------------ what the parts hold

    @property
    def port(self) -> int:
        return self.router.port

    @property
    def stats(self) -> dict[str, int]:
        return self.router.stats

    @property
    def tables(self) -> dict[str, Table]:
        return self.registry.tables

    @property
    def peers(self) -> dict[bytes, Peer]:
        return self.connections.peers

    @property
    def links(self) -> dict[bytes, Link]:
        return self.connections.links

    @property
    def buckets(self) -> dict[bytes, Bucket]:
        return self.rates.buckets

    @property
    def bots(self) -> dict[bytes, tuple[asyncio.Task[Any], Any]]:
        """The running in-process bot clients: token -> (task, bot client)."""
        return self.bot_clients.running

    @property
    def stopping(self) -> set[asyncio.Task[Any]]:
        """Bots told to stop that have not ended yet."""
        return self.bot_clients.stopping

    @property
    def absent(self) -> dict[tuple[str, int], float]:
        """(table, seat) -> since when (host clock) nobody plays it."""
        return self.presence.absent

    @property
    def retiring(self) -> dict[bytes, Table]:
        """Stand-ins whose player is back, kept until they reveal."""
        return self.presence.retiring

    @property
    def peer_budget(self) -> int:
        """Event bytes one connection may hold unacknowledged (connections made from now on)."""
        return self.connections.peer_budget

    @peer_budget.setter
    def peer_budget(self, budget: int) -> None:
        self.connections.peer_budget = budget

    @property
    def max_watchers(self) -> int:
        """Connections without a seat one table serves at once."""
        return self.admission.max_watchers

    @max_watchers.setter
    def max_watchers(self, count: int) -> None:
        self.admission.max_watchers = count

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self.router.start()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.presence.timer_loop()), loop.create_task(self.presence.tick_loop())]
        if self.collector is not None:  # start-up is over: what it made is frozen
            self.collector.install(time.monotonic())
        log.info("host listening port=%d key=%s", self.port, self.target().code)

    async def close(self) -> None:
        """Stop serving: loops first (no stand-in is spawned while bots leave), then the
        in-process bots (their clients close on the live context), then a goodbye to every
        peer, then files and sockets.  The socket and context close even if this is
        cancelled half-way: a context left to the garbage collector with a socket open
        blocks in zmq_ctx_term."""
        self.presence.stop()
        self.bot_clients.refuse_new()
        try:
            await cancel_and_wait(self.tasks)
            await self.bot_clients.close()
            for table in self.tables.values():  # a saved game's bots are not resumed: their keys go
                if table.game is not None and table.record_path is not None:
                    forget_bots(table, [p.vk for p in table.game.players if p.bot])
            flushers = [t.flusher for t in self.tables.values() if t.flusher is not None]
            await asyncio.gather(*flushers, return_exceptions=True)
            said = self.say_goodbye()
            if said:
                await asyncio.sleep(GOODBYE_SECONDS)
        finally:
            for table in self.tables.values():
                if table.game and table.game.journal:
                    table.game.journal.close()
            # the goodbye may still wait behind a catch-up the peer is reading: the socket keeps
            # trying to deliver it for at most GOODBYE_LINGER seconds after closing
            await self.router.close(linger=GOODBYE_LINGER if said else 0.0)
            if self.collector is not None:  # the process's own policy again
                self.collector.uninstall()

    def say_goodbye(self) -> bool:
        """Tell every peer its table is closed on purpose, with the journal it can be resumed
        from (a path on this machine) and the record of a finished game.  True if any was sent."""
        said = self.router.say_goodbye(
            [
                (rid, pack(closed_frame(peer.table.id, peer.table.journal_path, peer.table.record_path)))
                for rid, peer in list(self.peers.items())
            ]
        )
        log.info("goodbye peers=%d said=%s", len(self.peers), said)
        self.said_goodbye = True
        return said

    def goodbye_again(self, rid: bytes, msg: dict[str, Any]) -> None:
        """Closing, the host still reads (see GOODBYE_SECONDS) but admits nobody: a hello gets
        the goodbye of its table again, so a client that says hello as the goodbye crosses it
        is not welcomed back by a host about to go; other frames are dropped."""
        if msg["t"] != "hello":
            return
        table = self.registry.find(msg.get("table"))
        if table is not None:
            self.router.send_frame(rid, closed_frame(table.id, table.journal_path, table.record_path))

    # ------------------------------------------------------------------ tables and bots

    def target(self, table: str | None = None) -> JoinTarget:
        """Where clients reach table `table` (None: the only one, if there is one), with its join code."""
        if table is None and len(self.tables) == 1:
            table = next(iter(self.tables))
        return self.router.target(table)

    def add_table(self, table: Table) -> Table:
        """Serve `table` (a resumed one's seats are all absent until their players return)."""
        self.registry.add(table)
        self.presence.table_added(table)
        return table

    def open_table(
        self,
        name: str = "table",
        *,
        table_id: str | None = None,
        journal_dir: str | None = None,
        lobby: Lobby | None = None,
        autostart: bool | int = False,
        fsync: bool = True,
        fixed_deal: FixedDeal | None = None,
        hidden_hands: bool = False,
    ) -> Table:
        """A new table of this host; `fixed_deal` (the program's choice, never a client's)
        deals those cards instead of the shuffle, announced to everyone (net/host/table.py);
        `hidden_hands`: the hands are hidden even from this host (docs/fair-play.md)."""
        if hidden_hands and fixed_deal is not None:
            raise ValueError("a fixed deal is known to the host: it cannot hide hands")
        table = Table(
            self.registry.new_id(table_id),
            name,
            self.keys,
            journal_dir=journal_dir,
            lobby=lobby,
            autostart=autostart,
            fsync=fsync,
            fixed_deal=fixed_deal,
            hidden_hands=hidden_hands,
        )
        return self.add_table(table)

    def free_table(self, table: Table) -> None:
        """Forget `table` and everything the host keeps for it (its peers are dropped without
        a word: whoever closes a table tells its peers first)."""
        self.presence.free_table(table)

    def spawn_bot(self, table: Table, token: bytes, level: str) -> None:
        """Start an in-process bot client that claims a seat (or a stand-in role) with `token`."""
        self.bot_clients.spawn(table, token, level)

    def stop_bot(self, token: bytes) -> None:
        """Stop the in-process bot client of `token` (`close` waits for it to end)."""
        self.bot_clients.stop(token)

    # ------------------------------------------------------------------ receiving

    def lost(self, rid: bytes, lagging: bool) -> None:
        """A send to `rid` failed: a full queue drops the peer as lagging, a gone one as
        unreachable; either may say hello again and catch up."""
        self.presence.drop_peer(rid, "lagging" if lagging else "unreachable")

    def receive(self, rid: bytes, curve: bytes, data: bytes) -> None:
        """One frame from the socket: within its key's rate, decoded, and handed on."""
        peer = self.peers.get(rid)
        if peer is not None and peer.curve != curve:
            peer = None
        refused = self.rates.take(curve)
        if refused is not None:
            if self.rates.should_warn(refused):
                self.answer(rid, peer, err_frame("rate_limited", "too many frames; slow down"))
            return
        now = time.monotonic()
        if peer is not None:
            peer.last_seen = now
        else:
            self.visitors.heard(rid, now)
        link = self.links.get(rid)
        if link is not None:
            link.last_seen = now
        try:
            msg = decode_client_frame(data)
            if peer is None and not self.visitor_heard(rid, msg, now):
                return
            self.dispatch(rid, curve, peer, msg)
        except ProtocolError as exc:
            self.router.stats["errors"] += 1
            log.info("refused frame code=%s reason=%s", exc.code, exc.message)
            request = getattr(exc, "request", None)
            self.answer(
                rid,
                self.peers.get(rid),
                err_frame(exc.code, exc.message, request if isinstance(request, int) else None, exc.params),
            )

    def visitor_heard(self, rid: bytes, msg: dict[str, Any], now: float) -> bool:
        """Whether `msg` from `rid`, which has not said hello, is handled: a hello within the
        hellos heard a second from its address (net/host/visitors.py; one with a seat token
        its table holds always: the host's own bots and stand-ins), a ping on a connection
        whose bytes are still counted (a peer dropped as lagging that reads its queue), and
        anything else only from a visitor that gets answers.  Otherwise it is dropped."""
        kind = msg["t"]
        if kind == "hello":
            token, table = msg.get("token"), self.registry.find(msg.get("table"))
            if token is not None and table is not None and table.holds_token(token):
                return True
            return self.visitors.may_hear_hello(self.router.peer_address(), now)
        if kind == "ping" and rid in self.links:
            return True
        return self.visitors.served(rid, self.router.peer_address(), now)

    def answer(self, rid: bytes, peer: Peer | None, frame: dict[str, Any]) -> None:
        """Send `frame` to `rid`: a peer at once, a connection that has not said hello only
        within its visitor's budget and count (net/host/visitors.py), else not at all."""
        data = pack(frame)
        if peer is None and not self.visitors.may_answer(rid, self.router.peer_address(), time.monotonic(), len(data)):
            return
        self.router.send(rid, data)

    def dispatch(self, rid: bytes, curve: bytes, peer: Peer | None, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if self.said_goodbye:
            self.goodbye_again(rid, msg)
            return
        if kind == "tables":
            self.answer(rid, peer, tables_frame(msg.get("id", 0), [t.info() for t in self.tables.values()]))
            return
        if kind == "hello":
            self.admission.hello(rid, curve, msg)
            self.visitors.admitted(rid)  # a peer now (a refused hello raised: still a visitor)
            return
        if peer is None or peer.curve != curve:
            link = self.links.get(rid)
            if kind == "ping" and link is not None:  # dropped as lagging: it may be reading its queue now
                link.ack(msg.get("seq", 0), msg.get("n"))
            raise ProtocolError("hello_first", "say hello before anything else")
        if kind == "ping":  # last_seen is updated; the tick loop answers every peer once a second
            peer.link.ack(msg.get("seq", 0), msg.get("n"))
            self.admission.acknowledged(peer)
            return
        # a request may change the table's deadlines without an event (a reveal held until
        # every reveal is in): the timer loop looks at this table again
        self.due.touch(peer.table)
        if kind == "bye":
            self.presence.drop_peer(rid, "bye")
        elif kind == "act":
            self.game_requests.act(peer, msg)
        elif kind in ("commit", "seed", "reveal"):
            self.game_requests.fair(peer, kind, msg)
        elif kind == "deck":
            self.game_requests.deck(peer, msg)
        elif kind == "open":
            self.game_requests.opening(peer, msg)
        elif kind == "vote":
            self.game_requests.vote(peer, msg)
        elif kind == "lobby":
            self.lobby_requests.request(peer, msg)
        elif kind == "tail":
            self.admission.tail(peer, msg)
