"""The client API: connect to a table, follow it, play a seat.  The terminal UI drives this.

    client = Client("ma://192.168.1.5:47000/KEY...", config_dir=None)   # or a JoinTarget
    await client.connect()                 # CURVE + hello + catch-up; raises ConnectError
                                           # (code "host_key_changed": see accept_new_host_key)
    await client.take_seat("Ana")          # lobby calls return a Reply(ok, code, message)
    await client.ready()
    ...                                    # leave(), chat(text); admin: add_bot(level, seat),
                                           # remove_bot(seat), set_options({...}),
                                           # set_clocks({...}), start()
    reply = await client.send_move(move)   # signed action; Reply(ok, code, message, seq); a sealed
                                           # bid is committed (commit-reveal), revealed by itself
    update = await client.updates.get()    # Update(kind, data), see below
    await client.close()

`client.state` (a `ConnectionState`) always holds the latest of everything:
  status      "connecting" | "connected" | "reconnecting" | "host_closed" | "closed" | "failed"
              ("host_closed": the host said goodbye, see `goodbye`; the client keeps saying
              hello, so a resumed host takes it back)
  table       the lobby/table dict from the host: name, state ("lobby"|"playing"|"over"),
              seats [{seat, name, bot, ready, fpr, admin, connected, standin}|None],
              options, clocks, join (join string), code (join code), admin (fingerprint)
  seat        this client's seat (None: watching); role "player" | "standin" | "spectator"
  observation the modernart.views.Observation of this seat (None for spectators)
  public      the public view dict (every client; spectators use it instead)
  players     [{name, vk, bot}] of the running game
  log         [(seq, item)]: item is a modernart Move (sealed amounts hidden: arg -1)
              or a modernart.events value, in order
  deadlines   {"open": t | None, "decide": t | None, "reveal": t | None} in loop.time()
              seconds; `state.remaining(name)` gives seconds left
  reveals_owed  the seats whose sealed-bid reveal the host still waits for (a tuple)
  sealed      the seats whose sealed-bid commitment the host holds, before the complete set
              (a tuple; shown in the observation's `sealed_done` too)
  chat        [(seat, name, text)]    errors  [(code, message)]
  head_seq    the last event applied
  last_heard  when the host was last heard (time.monotonic()); `state.silent_for()` in seconds
  goodbye     the host's goodbye ({table, journal, record}) while status is "host_closed", else None
  saved_record, saved_transcript   where this client saved the finished game (or None)
  saved_evidence  where it kept the events that made it stop trusting the host (or None):
              an evidence transcript, checked by `modernart audit` as far as it goes
  audit       the problems its audit of them found ([] = none; None = not audited)
Updates (`client.updates`, an asyncio.Queue; pass `updates=False` to skip it):
  Update("status", str), Update("lobby", dict), Update("event", EventInfo),
  Update("observation", Observation), Update("chat", (seat, name, text)),
  Update("error", (code, message)), Update("seat", (seat, role)), Update("record", path),
  Update("clock", deadlines) when a tick moved a deadline (`state.deadlines`, loop time),
  Update("silent", seconds) every second the host is silent (reconnecting or closed),
  Update("goodbye", dict) when the host closes the table on purpose,
  Update("evidence", path) once the evidence against a host it stopped trusting is saved,
  Update("clock_played", Move) when this seat's time ran out at a hidden-hands table and
  the client plays its default card (net/client/card_clock.py), just before sending it.
  `client.changed` is an asyncio.Event set on every change, for consumers that only want
  the latest state (bots).

Parts (each its own state, handed only what it uses): `feed` (net/client/updates.py: the
state and the updates), `requests` (net/client/requests.py: ids and replies), `receiving`
(net/client/receiving.py: frames from the host), `fair` (net/client/fair_duties.py),
`card_clock` (net/client/card_clock.py: a hidden table's card play on the clock).  The
client itself owns the socket and its loops, and sends the lobby's requests (`take_seat`
... `start`: one frame each, `lobby_op`).

Socket roles (zguide style):
  sock     DEALER, CURVE client of the host's ROUTER: every frame to and from the host.
           Sends with DONTWAIT (never queued while the host is away: the send fails and
           the request times out or is answered by the reconnect); reads every frame
           already arrived as one burst (`Receiving.on_burst`).  A plain (not asyncio)
           socket on the context's libzmq context, read by a reader on its FD in the event
           loop, like the host's (net/host/router.py): no future per frame, and after a
           send one more look (a send may take the FD's signal of a frame that arrived).
  monitor  PAIR (inproc, an asyncio socket), the DEALER's libzmq monitor: handshake
           failures (a wrong host key) and disconnects.
Tasks: the monitor loop, the ping loop (a ping every PING_EVERY seconds; hello again while the host is
silent), and the fair-play duties' sends; the socket's reader runs on the loop.  Threads:
none of its own; the loop's default executor syncs the vault and saves and audits a
finished game.

Every event is checked as it arrives (net/trust/verified_game.py): its hash-chain link, this seat's
private part against its hash, the player's signature and counter on every relayed action
(except an action this client sent itself, relayed byte for byte), every seed and
sealed-bid commitment, reveal and verdict, and at the end the disclosed seeds and the
deal; the host signature on the newest head of each burst of events that arrived
together, before anything acts on them (net/client/receiving.py).  A failed check is an error update and sets
status "failed" for good; so does a host that offers a different history of the same
game on reconnect (a fork).  Fair-play duties (seeds, reveals) run by themselves
(net/client/fair_duties.py).  If the host goes quiet the client says hello again every second
and catches up from the last event it holds (the host may have been restarted).

Moves are never queued while out of touch: `send_move` refuses at once (code
"out_of_touch") unless the client is connected and heard the host within HOST_SILENCE
seconds.  Each move carries the last event this client had applied (ref_seq) and the
mark of the welcome it was made under (conn); the host refuses it with code "stale" if
the game has changed since, or if the client has said hello again since (a frame the
socket kept for the next connection), so a key pressed while out of touch can never be
played later.  A move whose answer was lost with the connection is
"in_doubt" until the client has caught up again, then either shows in the log (played)
or is an error "not_played" (it did not reach the host in time).

State on disk: a client whose keys come from a config dir (`keys=None`, or `config_dir`
or `state_dir` given) keeps, in `state_dir` (default `<config dir>/state`), its sealed
bids and seeds until used (`secrets/`, net/trust/vault.py), the host keys it has met by address
(`known_hosts`, net/lan/known_hosts.py: a changed key is the ConnectError `host_key_changed`
unless `accept_new_host_key=True`; not with `remembers_host=False`, for a host of this
machine on a loopback port of the moment, whose join string came from the host itself),
and the finished game's transcript and record
(`games/`).  A client with ephemeral keys keeps all that in memory and saves nothing.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import time
from typing import Any, Callable, cast

import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from modernart.moves import CARD_ACTIONS, Action, Move
from modernart.views import Observation

from modernart.net.client.card_clock import CardClock
from modernart.net.client.fair_duties import FairPlay
from modernart.net.client.live_copy import LiveCopy
from modernart.net.client.receiving import HostMemo, Receiving
from modernart.net.client.requests import REQUEST_TIMEOUT, Requests
from modernart.net.client.state import ConnectError, ConnectionState, Reply, Update
from modernart.net.client.updates import UpdateFeed
from modernart.net.lan.address import JoinTarget, parse_join_string
from modernart.net.lan.known_hosts import HostKeyChanged, KnownHosts
from modernart.net.protocol import HANDSHAKE_MS, MAX_CLIENT_FRAME, pack
from modernart.net.protocol.frames import act_frame, bye_frame, hello_frame, lobby_op_frame, ping_frame, tables_request
from modernart.net.protocol.signed import ACT_TAG, HELLO_TAG, encode_action_body, hello_bytes
from modernart.net.trust.deck import DeckError
from modernart.net.trust.identity import Keys, check_zmq
from modernart.net.trust.identity import config_dir as config_dir_path
from modernart.net.trust.vault import Vault
from modernart.net.trust.verified_game import EventInfo, VerifiedGame


__all__ = ["Client", "ConnectionState", "ConnectError", "EventInfo", "Reply", "Update"]
log = logging.getLogger("modernart.net.client.client")

#: the replies that are no answer of the host's (it may yet have taken the move: in doubt)
NO_ANSWER = ("connection_lost", "host_closed", "timeout", "closed")


HOST_SILENCE = 4.0
#: Seconds between two pings (the host counts a peer silent after 6 s, net/host/presence.py
#: PEER_TIMEOUT; a catch-up batch is acknowledged at once, not by the next ping): each ping
#: is a frame the host decodes and a CURVE message each way, and with libzmq's own
#: heartbeat the link is looked after besides
PING_EVERY = 2.0
#: Seconds a client waits for its first welcome before it says hello again: a host hears
#: at most so many hellos a second from one address before they are seated
#: (net/host/visitors.py HELLOS_PER_ADDRESS), and leaves the others unanswered
HELLO_AGAIN = 2.0
OUT_OF_TOUCH = "not sent: out of touch with the host"
CATCHING_UP = "not sent: still catching up with the table (what is shown is not the table now)"
#: Handshakes the host closed in a row before its key is said to be wrong: a host that does
#: not hold the key closes every one at once; one closed by a host that crashed or restarted
#: mid-handshake, or by a cut link, is followed by one that gets through (or is not answered)
REFUSED_HANDSHAKES = 2
#: The same, with a host whose key was proven (its welcome came through it)
PROVEN_HANDSHAKE_RETRIES = 5
#: This client's handshake timer: shorter than the host's (HOST_HANDSHAKE_MS), which starts
#: later (at its accept), so a handshake too slow for both always ends here first, as *out of
#: time* (libzmq reports our timer with the errno of no read, never EPIPE or ECONNRESET),
#: while a host that closes the handshake itself did so for its own reason: it could not
#: open our hello, the box sealed to the key in the join string (docs/protocol.md "Transport")
CLIENT_HANDSHAKE_MS = HANDSHAKE_MS
#: The errno of a handshake failure whose connection the host closed (not our timer)
HOST_CLOSED = frozenset({errno.EPIPE, errno.ECONNRESET})
#: After handshakes that ran out of time, seconds before the next try: the first at once,
#: then doubling up to the last, each with +-50% jitter (a host too busy to answer hundreds
#: of handshakes is not sent all of them again at the same moment)
HANDSHAKE_BACKOFF = (0.0, 0.5, 1.0, 2.0, 4.0)
MAX_BURST = 256  # frames handled before the client checks the head and lets others run
_DONTWAIT = int(zmq.DONTWAIT)  # a plain int: no enum arithmetic per frame


class Client:
    """One connection to one table (see the module docstring)."""

    def __init__(
        self,
        target: JoinTarget | str,
        *,
        keys: Keys | None = None,
        config_dir: str | None = None,
        identity: str = "player",
        spectate: bool = False,
        token: bytes | None = None,
        ctx: zmq.asyncio.Context | None = None,
        updates: bool = True,
        table: str | None = None,
        state_dir: str | None = None,
        accept_new_host_key: bool = False,
        transcript: bool | None = None,
        keeps_card_clock: bool = True,
        remembers_host: bool = True,
    ) -> None:
        check_zmq()
        self.target = parse_join_string(target) if isinstance(target, str) else target
        self.table_id = table or self.target.table
        self.keys = keys or Keys.load_or_create(config_dir, identity)
        if state_dir is None and (keys is None or config_dir is not None):
            state_dir = str(config_dir_path(config_dir) / "state")
        if state_dir is not None:
            os.makedirs(state_dir, mode=0o700, exist_ok=True)
        self.state_dir = state_dir
        self.known_hosts = KnownHosts(state_dir) if state_dir is not None and remembers_host else None
        self.accept_new_host_key = accept_new_host_key
        self.spectate = spectate
        self.token = token  # a reserved seat's, until the first welcome
        self.own_ctx = ctx is None
        self.ctx = ctx or zmq.asyncio.Context()
        self.sock: zmq.Socket[bytes] | None = None  # plain: see the module docstring
        self.fd: int | None = None  # the socket's FD while the event loop reads it
        self.loop: asyncio.AbstractEventLoop | None = None
        self.read_soon = False  # a look at the socket is scheduled
        self.tasks: list[asyncio.Task[Any]] = []
        self.counter = 0  # the last action counter this seat signed (or the host knew at a welcome)
        self.last_hello = 0.0
        self.last_ping = 0.0  # time.monotonic() of the last ping sent
        self.feed = UpdateFeed(updates)
        self.requests = Requests(self.send_frame)
        self.fair = FairPlay(
            self.keys,
            self.feed,
            self.requests.request,
            Vault(state_dir),
            os.path.join(state_dir, "games") if state_dir else None,
            self.table_id,
            begin=self.requests.begin,
        )
        self.card_clock = CardClock(self)  # looked at after each burst, unless this client plays its own
        self.receiving = Receiving(
            self.feed,
            self.requests,
            self.fair,
            self,
            HostMemo(self.known_hosts, self.address, self.target.host_key),
            keep_transcript=transcript if transcript is not None else state_dir is not None,
            welcomed=self._welcomed,
            after_burst=self.card_clock.look if keeps_card_clock else None,
        )
        if state_dir is not None:  # its own copy of the game, to ask only for what came after (a restart)
            self.receiving.live = LiveCopy(
                state_dir, self.target.host_key, self.table_id, self.keys.curve_public_raw, spectate
            )
        self.fair.attach(
            self.receiving.show_sealed,
            lambda: self.receiving.game,
            lambda: self.state.head_seq >= self.receiving.catch_up_head,
        )

    # ------------------------------------------------------------------ what the parts hold

    @property
    def state(self) -> ConnectionState:
        return self.feed.state

    @property
    def updates(self) -> asyncio.Queue[Update] | None:
        return self.feed.updates

    @property
    def changed(self) -> asyncio.Event:
        return self.feed.changed

    @property
    def on_update(self) -> Callable[[Update], None] | None:
        return self.feed.on_update

    @on_update.setter
    def on_update(self, callback: Callable[[Update], None] | None) -> None:
        self.feed.on_update = callback

    @property
    def game(self) -> VerifiedGame | None:
        """The checked copy of the game this client follows (None before one)."""
        return self.receiving.game

    @property
    def conn(self) -> bytes | None:
        """The last welcome's mark, carried by every move."""
        return self.receiving.conn

    @property
    def bytes_in(self) -> int:
        return self.receiving.bytes_in

    @property
    def address(self) -> str:
        """The host's address as the known-hosts file names it."""
        host = f"[{self.target.host}]" if ":" in self.target.host else self.target.host
        return f"{host}:{self.target.port}"

    # ------------------------------------------------------------------ connection

    async def connect(self, timeout: float = 10.0) -> ConnectionState:
        if self.known_hosts is not None and not self.accept_new_host_key:
            try:
                self.known_hosts.check(self.address, self.target.host_key)
            except HostKeyChanged as exc:
                self._release()  # nothing was opened but our context: close it too
                raise ConnectError("host_key_changed", str(exc)) from None
        live = self.receiving.live
        if live is not None and self.receiving.game is None and self.token is None:
            held = live.load()  # a restart: the game checked so far, checked again
            if held is not None and held.frames:
                self.receiving.restore(held)
        s: zmq.Socket[bytes] = zmq.Context.shadow(self.ctx.underlying).socket(zmq.DEALER)
        self.sock = s
        s.curve_serverkey = self.target.host_key_z85
        s.curve_publickey = self.keys.curve_public
        s.curve_secretkey = self.keys.curve_secret
        s.linger = 0
        s.maxmsgsize = MAX_CLIENT_FRAME
        s.rcvhwm = 100000
        s.heartbeat_ivl, s.heartbeat_timeout, s.heartbeat_ttl = 2000, 6000, 6000
        s.handshake_ivl = CLIENT_HANDSHAKE_MS
        s.reconnect_ivl, s.reconnect_ivl_max = 100, 2000
        # not ZMQ_IMMEDIATE: it would drop what arrived unread when a connection ends (the
        # host's goodbye); a move kept for the next connection carries the old `conn` instead
        if hasattr(zmq, "RECONNECT_STOP_HANDSHAKE_FAILED"):  # a wrong host key must fail, not retry
            s.setsockopt(zmq.RECONNECT_STOP, zmq.RECONNECT_STOP_HANDSHAKE_FAILED)
        # the monitor's reading end is an asyncio socket (awaited by the monitor loop)
        address = f"inproc://monitor.s-{s.FD}"
        s.monitor(
            address,
            zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_DISCONNECTED
            | zmq.EVENT_CONNECTED
            | zmq.EVENT_HANDSHAKE_SUCCEEDED,
        )
        monitor = self.ctx.socket(zmq.PAIR)
        monitor.connect(address)
        s.connect(self.target.endpoint)
        loop = self.loop = asyncio.get_running_loop()
        self.fd = cast(int, s.getsockopt(zmq.FD))  # FD is an int option
        loop.add_reader(self.fd, self.readable)
        welcome = self.receiving.expect_welcome()
        self.tasks = [
            loop.create_task(self._monitor_loop(monitor)),
            loop.create_task(self._ping_loop()),
        ]
        self.hello()
        try:
            async with asyncio.timeout(timeout):  # not wait_for: see net/clocks.wait_event
                await asyncio.shield(welcome)
        except TimeoutError:
            await self.close()
            raise ConnectError("timeout", f"no answer from {self.target.endpoint} within {timeout:g} s") from None
        except ConnectError:
            await self.close()
            raise
        return self.state

    def watcher_observation(self) -> Observation | None:
        """The game as a watcher sees it (public facts only, seat -1), or None before any."""
        game = self.receiving.game
        view = game.view if game is not None else None
        if view is None or view.pv is None:
            return None
        try:
            return view.watcher()
        except ValueError:  # a public view the checks refused: nothing sane to show
            return None

    @property
    def disclosed(self) -> bool:
        """Whether the game's seeds were disclosed and checked (and its copy saved, if it keeps one)."""
        game = self.receiving.game
        return game is not None and game.shuffle is not None and game.deck_disclosed() and not self.fair.saving

    async def close(self) -> None:
        """Say bye and close.  The socket closes even if this is cancelled half-way (a bot
        whose table the host freed meanwhile): an open socket keeps its libzmq buffers."""
        try:
            self.send_frame(bye_frame())
            self.card_clock.close()
            await self.fair.close()
            self._stop_monitor()  # before the monitor task closes its end (see _stop_monitor)
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            self.tasks = []
        finally:
            self._stop_monitor()  # again if cancelled before it (the monitor's end is still open then)
            for task in self.tasks:
                task.cancel()
            self._release()

    def _release(self) -> None:
        self._stop_reading()
        if self.sock is not None and not self.sock.closed:
            try:  # the context may be gone already (a host that shared it closed first)
                self.sock.close(linger=0)
            except zmq.ZMQError:
                pass
        self.requests.close()
        if self.own_ctx and not self.ctx.closed:
            self.ctx.destroy(linger=0)
        self.feed.set_status("closed")

    def send_frame(self, frame: dict[str, Any]) -> None:
        """Put `frame` on the socket now, or drop it (never queued while the host is away)."""
        if self.sock is None or self.sock.closed:
            return
        try:
            self.sock.send(pack(frame), _DONTWAIT)
        except zmq.Again:
            log.debug("send failed: the host is away")
        except zmq.ZMQError as exc:
            log.info("send failed: %s", exc)
        finally:
            self.look_again()

    def hello(self) -> None:
        """Say hello: this key, and the last event held (the host catches up from there)."""
        self.last_hello = time.monotonic()
        curve = self.keys.curve_public_raw
        sig = self.keys.sign(HELLO_TAG, hello_bytes(self.target.host_key, curve, self.table_id))
        game = self.receiving.game
        held = self.state.game_id is not None and game is not None
        self.send_frame(
            hello_frame(
                self.keys.vk,
                sig,
                self.state.head_seq,
                self.spectate,
                table=self.table_id,
                game=self.state.game_id if held else None,
                last_hash=game.head if held and game is not None else None,
                token=self.token,
            )
        )

    def ping(self) -> None:
        """Say we are here, and acknowledge what we hold: the last event and the last catch-up
        batch (the host sends more only as we acknowledge, net/host/flow.py)."""
        self.last_ping = time.monotonic()
        self.send_frame(ping_frame(self.state.head_seq, self.receiving.batch_nonce))

    def _welcomed(self, counter: int) -> None:
        self.counter = max(self.counter, counter)
        self.token = None  # used once: from now on the key alone names the seat

    def _connect_again(self) -> None:
        sock = self.sock
        if sock is None or sock.closed:
            return
        try:
            sock.disconnect(self.target.endpoint)
        except zmq.ZMQError:
            pass  # libzmq may have dropped the endpoint already
        sock.connect(self.target.endpoint)

    def look_again(self) -> None:
        """Read the socket once more soon (after a send, which may have taken the FD's signal)."""
        if not self.read_soon and self.fd is not None and self.loop is not None:
            self.read_soon = True
            self.loop.call_soon(self.readable)

    def readable(self) -> None:
        """Read every frame that has arrived (at most MAX_BURST: then the others get a turn
        first) and hand them on as one burst; never blocks."""
        self.read_soon = False
        sock = self.sock
        if sock is None or sock.closed or self.fd is None:
            return
        burst: list[bytes] = []
        try:
            while len(burst) < MAX_BURST:
                burst.append(sock.recv(_DONTWAIT))
        except zmq.Again:
            pass
        except zmq.ZMQError as exc:
            log.info("receive stopped: %s", exc)  # closed under us (a shared context was destroyed)
            self._stop_reading()
            self.feed.set_status("closed")
            return
        if not burst:
            return
        self.state.last_heard = time.monotonic()
        try:
            self.receiving.on_burst(burst)
            self.fair.duties(self.receiving.game)
        finally:
            if len(burst) == MAX_BURST:
                self.look_again()  # more may wait: after the other tasks' turn

    def _stop_reading(self) -> None:
        if self.fd is not None and self.loop is not None and not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
        self.fd = None

    async def _monitor_loop(self, monitor: zmq.asyncio.Socket) -> None:
        refused = 0  # handshakes the host closed in a row
        late = 0  # handshakes in a row that ran out of time
        try:
            while True:
                try:
                    event = parse_monitor_message(await monitor.recv_multipart())
                except zmq.ZMQError:
                    return  # closed under us (a shared context was destroyed): nothing to watch
                kind = event["event"]
                if kind == zmq.EVENT_DISCONNECTED:
                    if self.state.status == "connected":
                        self.feed.set_status("reconnecting")
                    continue
                if kind == zmq.EVENT_CONNECTED:
                    continue
                if kind == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                    refused = late = 0
                    continue
                if kind == zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL and int(event["value"]) not in HOST_CLOSED:
                    # our own timer (CLIENT_HANDSHAKE_MS), not the host: a host too busy to
                    # answer (hundreds of handshakes at once) or a link gone quiet; libzmq
                    # stopped retrying, so start again: connect()'s own timeout, or the
                    # reconnecting state, tells
                    log.info("the CURVE handshake ran out of time: connecting again")
                    refused = 0
                    pause = HANDSHAKE_BACKOFF[min(late, len(HANDSHAKE_BACKOFF) - 1)]
                    late += 1
                    if pause and self.loop is not None:
                        self.loop.call_later(pause * random.uniform(0.5, 1.5), self._connect_again)
                    else:
                        self._connect_again()
                    continue
                refused += 1
                allowed = PROVEN_HANDSHAKE_RETRIES if self.receiving.host_vk is not None else REFUSED_HANDSHAKES
                if refused < allowed:
                    # once may be a host that stopped, or a link that broke, mid-handshake
                    log.info("the host closed the CURVE handshake (%s): connecting again", event["value"])
                    self._connect_again()
                    continue
                message = (
                    "the CURVE handshake failed: the host does not hold the key in the join string "
                    "(wrong join string, or another program on that port)"
                )
                if not self.receiving.refuse_welcome(ConnectError("host_key_mismatch", message)):
                    self.feed.error("host_key_mismatch", message)
                    self.feed.set_status("failed")
                return
        finally:
            self._stop_monitor()
            if not monitor.closed:
                try:
                    monitor.close(linger=0)
                except zmq.ZMQError:
                    pass

    def _stop_monitor(self) -> None:
        """Stop the socket's monitor while its reading end is still open.  libzmq's I/O
        thread writes each event to that inproc PAIR with a blocking send, holding the
        lock `disable_monitor` takes: an event (the host going away) that came after the
        reading end closed blocked that thread for good, and the close, and the whole
        event loop with it (an SSH guest's client closing as its host stopped)."""
        if self.sock is not None and not self.sock.closed:
            try:
                self.sock.disable_monitor()
            except zmq.ZMQError:
                pass  # the context is gone already (a host that shared it closed first)

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if self.state.status == "failed":
                continue  # the host broke the chain of trust: say nothing more to it
            if time.monotonic() - self.last_ping >= PING_EVERY - 0.5:  # the loop turns every second
                self.ping()
            quiet = self.state.silent_for()
            status = self.state.status
            if status == "connecting" and time.monotonic() - self.last_hello >= HELLO_AGAIN:
                self.hello()  # not welcomed yet: a host busy with hellos may not have heard it
                continue
            lost = status in ("reconnecting", "host_closed") or (quiet > HOST_SILENCE and status == "connected")
            if lost:
                if status == "connected":
                    self.feed.set_status("reconnecting")
                self.feed.emit(Update("silent", int(quiet)))
                if time.monotonic() - self.last_hello > 1.0:
                    self.requests.fail_pending("connection_lost")
                    self.hello()

    @property
    def in_touch(self) -> bool:
        """Connected, and the host heard recently: a move sent now is judged against what is shown."""
        return self.state.status == "connected" and self.state.silent_for() <= HOST_SILENCE

    # ------------------------------------------------------------------ requests

    async def request(self, frame: dict[str, Any], timeout: float = REQUEST_TIMEOUT) -> Reply:
        """Send a request frame (it gets a fresh id) and wait for the host's answer."""
        return await self.requests.request(frame, timeout)

    @property
    def caught_up(self) -> bool:
        """Whether this client holds every event the host had when it last welcomed it (a
        client catching up on a slow link shows an old state: nothing is decided on it)."""
        return self.state.head_seq >= self.receiving.catch_up_head

    @property
    def hand_ready(self) -> bool:
        """Whether this seat's hand is complete (at a hidden-hands table the cards of a deal
        are readable once every other seat's shares are in: docs/fair-play.md)."""
        game = self.receiving.game
        return game is None or game.hand_ready()

    @property
    def mystery_coming(self) -> bool:
        """Whether a mystery card asked for is being turned up (hidden hands: it waits for
        every seat's share, and the table takes no move until it is up)."""
        game = self.receiving.game
        return game is not None and game.flipper is not None

    async def send_move(self, move: Move) -> Reply:
        """Sign and send `move` for this seat; the host's answer (accepted with its seq, or why not).

        A sealed bid is stored on disk, then committed (the Reply is the host's answer to the
        commitment); the client reveals it by itself once every seat has committed.
        """
        if self.state.game_id is None or self.state.seat is None:
            return Reply(False, "not_seated", "no game or no seat")
        if not self.in_touch:  # never queued: it would be judged later against another state
            return Reply(False, "out_of_touch", OUT_OF_TOUCH)
        if not self.caught_up:  # decided on an old state (a slow link after a restart): refused anyway
            return Reply(False, "catching_up", CATCHING_UP)
        if move.action == Action.SEALED_BID:
            return await self.fair.sealed_bid(move)
        if move.action == Action.SEALED_FORFEIT:
            return Reply(False, "not_allowed", "only the host forfeits a sealed bid (a failed reveal)")
        game = self.receiving.game
        wire, extra = move.to_list(), None
        if game is not None and game.deck is not None and move.action in CARD_ACTIONS:
            # a hidden-hands table: the action names the card's slot, not the card; the host
            # commits to the play (a `play` event) before the opening leaves (docs/fair-play.md)
            refused = self._hidden_card(game, move)
            if isinstance(refused, Reply):
                return refused
            wire, extra = [move.seat, int(move.action), refused], {"deck": game.deck.epoch}
        self.counter += 1
        body = encode_action_body(self.state.game_id, self.state.seat, self.counter, wire, self.state.head_seq, extra)
        sig = self.keys.sign(ACT_TAG, body)
        if game is not None:
            game.sent(body, sig, self.keys.vk)
        reply = await self.requests.request(act_frame(body, sig, self.receiving.conn))
        if not reply.ok and extra is not None and reply.code not in NO_ANSWER:
            self.fair.withdraw(body)  # refused by the host: it may never commit it later
        if reply.ok and extra is not None and game is not None:
            reply = await self._played(game, move, reply)
        if reply.code == "connection_lost":
            self.receiving.in_doubt(body)
            return Reply(
                False,
                "in_doubt",
                "no answer: lost touch with the host as the move went out; "
                "once back in touch, the log shows whether it was played",
            )
        return reply

    def _hidden_card(self, game: VerifiedGame, move: Move) -> int | Reply:
        """The slot of the hidden card `move` plays, or why it cannot be played: this client
        holds no deck key, the card is not in its hand, a play of this seat already waits for
        its opening, or another card of the hand has been shown to the host (its opening left
        this client and it was not played: it is the one to play now)."""
        deck, own = game.deck, game.own_deck
        if deck is None or own is None:
            return Reply(False, "not_your_card", "this client holds no deck key for its seat")
        if game.pending_play is not None and game.pending_play[0] == move.seat:
            return Reply(False, "play_pending", "your card play waits for its opening")
        try:
            hand = own.hand(deck)
        except DeckError as exc:
            return Reply(False, "not_your_card", str(exc))
        slots = [slot for slot, card in hand.items() if card == move.arg]
        if not slots:
            return Reply(False, "not_your_card", f"card {move.arg} is not in seat {move.seat}'s hand")
        shown = sorted(self.fair.shown & set(hand.values()))
        if shown and move.arg not in shown:
            return Reply(
                False,
                "card_shown",
                "a painting of yours was shown to the host when its play was not completed: "
                "only that painting can be played now",
                params={"card": shown[0]},
            )
        return slots[0]

    async def _played(self, game: VerifiedGame, move: Move, reply: Reply) -> Reply:
        """After the host committed to a hidden card play (its `play` event, `reply.seq`): the
        opening goes out by itself (net/client/fair_duties.py); the reply once the card is
        played (its `move` event), or why not."""

        def done(_st: ConnectionState) -> bool:
            pending = game.pending_play
            return self.state.status != "connected" or pending is None or pending[3] != reply.seq

        try:
            await self.wait_until(done, REQUEST_TIMEOUT)
        except TimeoutError:
            return Reply(False, "not_opened", "the host committed to your card play but has not played it yet")
        if game.pending_play is not None and game.pending_play[3] == reply.seq:
            return Reply(False, "in_doubt", "lost touch with the host while your card play was being opened")
        return Reply(True, None, "", self.state.head_seq)

    async def vote(self, absent: int, choice: str) -> Reply:
        """This seat's signed vote on seat `absent`, named late (docs/fair-play.md "No table
        waits for ever"): "wait" or "end"; bound to the wait this client saw named and the
        chain head it holds (net/trust/votes.py).  The host's answer; its decision, once the
        votes decide, comes as an event every client checks."""
        from modernart.net.protocol.frames import vote_frame
        from modernart.net.trust.votes import sign_vote

        game, seat = self.receiving.game, self.state.seat
        if game is None or seat is None or self.state.game_id is None:
            return Reply(False, "vote_no_seat", "no game or no seat")
        if absent not in game.late_at:
            return Reply(False, "vote_not_late", f"seat {absent} is not late")
        signed = sign_vote(self.keys, game.game_id, seat, absent, choice, game.late_at[absent], game.seq, game.head)
        return await self.requests.request(vote_frame(signed))

    async def wait_until(self, predicate: Callable[[ConnectionState], bool], timeout: float) -> ConnectionState:
        """Wait until `predicate(state)` holds (raises TimeoutError)."""
        async with asyncio.timeout(timeout):
            while not predicate(self.state):
                self.changed.clear()
                await self.changed.wait()
        return self.state

    # ------------------------------------------------------------------ lobby requests (docs/protocol.md, "Lobby")

    async def lobby_op(self, op: str, **args: Any) -> Reply:
        """Send one lobby operation and wait for the host's reply (the calls below name them)."""
        return await self.requests.request(lobby_op_frame(op, args))

    async def take_seat(self, name: str, seat: int | None = None) -> Reply:
        return await self.lobby_op("sit", name=name, seat=seat)

    async def leave(self) -> Reply:
        return await self.lobby_op("leave")

    async def ready(self, flag: bool = True) -> Reply:
        return await self.lobby_op("ready", ready=flag)

    async def chat(self, text: str) -> Reply:
        return await self.lobby_op("chat", text=text)

    async def add_bot(self, level: str = "random", seat: int | None = None) -> Reply:
        return await self.lobby_op("add_bot", level=level, seat=seat)

    async def remove_bot(self, seat: int) -> Reply:
        return await self.lobby_op("remove_bot", seat=seat)

    async def remove(self, fpr: str) -> Reply:
        """The admin removes the seated person, bot or watcher whose key has fingerprint `fpr`."""
        return await self.lobby_op("remove", fpr=fpr)

    async def lock(self, flag: bool = True) -> Reply:
        """The admin locks the table to the keys seated (False: opens it again)."""
        return await self.lobby_op("lock", lock=flag)

    async def set_options(self, options: dict[str, Any]) -> Reply:
        return await self.lobby_op("options", options=options)

    async def set_clocks(self, clocks: dict[str, Any]) -> Reply:
        return await self.lobby_op("clocks", clocks=clocks)

    async def start(self) -> Reply:
        return await self.lobby_op("start")

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self.requests.request(tables_request())
        return list(reply.data) if reply.ok and reply.data else []
