"""The client's receiving side: frames from the host, bursts of events checked as they
arrive, replies, the welcome and catch-up, and the updates they make (net/client/updates.py).
It never reads the socket itself: `Client` hands it each burst it read.

A burst is every frame that has arrived by the time the client reads: a catch-up batch,
or the events of one move (a Sealed auction's settlement and the disclosure come as
several).  See `Receiving.on_burst` for what is checked when.

Every frame is checked against its kind's schema (net/protocol/frames.py) before anything
acts on it: a frame of an unknown kind, with an unknown, missing or malformed field, or
too big, is dropped with a log line and an error update carrying the refusal's stable
code (`unknown_kind`, `bad_field`, `bad_frame`, `too_big`); nothing else changes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any, Callable, Protocol

from modernart.phase import Phase

from modernart.net.client.fair_duties import FairPlay
from modernart.net.client.live_copy import FIELDS, Held, LiveCopy
from modernart.net.client.requests import Requests
from modernart.net.client.state import ConnectError, Reply, Update, with_sealed
from modernart.net.client.updates import UpdateFeed
from modernart.net.lan.known_hosts import KnownHosts
from modernart.net.protocol import ProtocolError
from modernart.net.protocol.frames import NOT_DECISIONS, decode_batch_event, decode_event_public, decode_host_frame
from modernart.net.trust.chain import ChainError
from modernart.net.trust.shuffle import FixedDeal
from modernart.net.trust.verified_game import VerifiedGame

log = logging.getLogger("modernart.net.client.client")
#: Events the client keeps as the host sent them, to give back to a host whose machine lost
#: its journal's tail (a power loss): more than the host may send beyond its last fsync
#: (net/host/fanout.py UNSYNCED_MAX)
TAIL_KEPT = 64
CLOCK_DRIFT = 0.5  # seconds a host tick may move a deadline before the screens are told


class Greeting(Protocol):
    """What receiving asks of the client's connection: say hello again (to catch up, or
    after being dropped) and acknowledge what it holds; when it last said hello."""

    last_hello: float

    def hello(self) -> None: ...
    def ping(self) -> None: ...


class HostMemo:
    """Where the client notes the host it met: its known-hosts file and the address and
    key it met the host at (None: it keeps no such file)."""

    def __init__(self, known_hosts: KnownHosts | None, address: str, host_key: bytes) -> None:
        self.known_hosts = known_hosts
        self.address = address
        self.host_key = host_key

    def remember(self, name: str) -> None:
        if self.known_hosts is not None:
            self.known_hosts.remember(self.address, self.host_key, name)


class Receiving:
    """Frames from the host (see the module docstring)."""

    def __init__(
        self,
        feed: UpdateFeed,
        requests: Requests,
        fair: FairPlay,
        greeting: Greeting,
        memo: HostMemo,
        *,
        keep_transcript: bool,
        welcomed: Callable[[int], None],
        after_burst: Callable[[], None] | None = None,
    ) -> None:
        self.feed = feed
        self.state = feed.state
        self.requests = requests
        self.fair = fair
        self.greeting = greeting
        self.memo = memo
        self.keep_transcript = keep_transcript  # the checked game keeps its frames (to save them)
        self.welcomed = welcomed  # told the action counter the host knows for this seat, at each welcome
        self.after_burst = after_burst  # looks at the state once a burst is applied and told
        self.game: VerifiedGame | None = None  # the checked copy of the game followed
        self.host_vk: bytes | None = None  # the key the host signs with (its first welcome's)
        self.welcome: asyncio.Future[dict[str, Any]] | None = None  # the first welcome, awaited by connect
        self.doubts: list[bytes] = []  # bodies of moves whose answer the lost connection took
        self.catch_up_head = 0  # the host's head at the last welcome
        self.conn: bytes | None = None  # the last welcome's mark, carried by every move
        self.ack_due = False  # a catch-up batch was applied: acknowledge it after the burst
        self.batch_nonce: bytes | None = None  # the nonce of the last catch-up batch applied (net/host/flow.py)
        self.bytes_in = 0
        self.burst_decides = False  # the burst being read holds an event whose host signature is checked at its end
        self.recent: deque[dict[str, Any]] = deque(maxlen=TAIL_KEPT)  # the last events, as signed (no `priv`)
        self.applying: dict[str, Any] | None = None  # the event being checked
        # the copy of the game on disk, as it is checked (net/client/live_copy.py), if it keeps one
        self.live: LiveCopy | None = None
        self.unsaved: list[dict[str, Any]] = []  # events of the burst being read, for the copy once checked

    def expect_welcome(self) -> asyncio.Future[dict[str, Any]]:
        """The future of the welcome `connect` waits for."""
        self.welcome = asyncio.get_running_loop().create_future()
        return self.welcome

    def refuse_welcome(self, error: ConnectError) -> bool:
        """Fail the awaited welcome with `error`; False if none is awaited any more."""
        if self.welcome is None or self.welcome.done():
            return False
        self.welcome.set_exception(error)
        return True

    def in_doubt(self, body: bytes) -> None:
        """The answer to the move `body` was lost with the connection: settle it once caught up."""
        self.doubts.append(body)

    def on_burst(self, burst: list[bytes]) -> None:
        """Handle frames that arrived together; their updates go out once the burst is checked.

        Each event's chain link, private hash and player signatures are checked as it is
        applied; the host signature only on the burst's newest head (net/trust/chain.py: it covers
        every event before it).  That check runs here, before this method returns to the
        event loop, so nothing (a bot, the UI, a fair-play duty, a reply's awaiter) can act
        on an event of the burst before its signature is verified; the updates of a burst
        whose head does not verify are withheld and the client fails.

        (Protocol 1 left the host signature of a burst of sealed-bid commitments only to
        the next burst; protocol 2 has no such events: the commitments come in their set.)
        """
        self.feed.hold()
        self.burst_decides = False
        try:
            for data in burst:
                self.bytes_in += len(data)
                try:
                    self._on_frame(decode_host_frame(data))
                except ChainError as exc:  # the host's history does not check out: stop trusting it
                    self._untrusted(exc)
                except ProtocolError as exc:  # refused by its schema before anything acted on it
                    log.warning("refused a frame from the host: code=%s reason=%s", exc.code, exc.message)
                    self.feed.error(exc.code, f"a frame from the host was refused: {exc.message}")
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("bad frame from host: %s", exc)
                    self.feed.error("bad_host_frame", str(exc))
            if self.game is not None and self.state.status != "failed" and self.burst_decides:
                try:
                    self.game.check_head()
                except ChainError as exc:
                    self._untrusted(exc)
            self._keep_copy()
        finally:
            self.unsaved = []
            held = self.feed.release()
        if self.ack_due and self.state.status != "failed":
            self.ack_due = False
            self.greeting.ping()
        if self.after_burst is not None and self.state.status != "failed":
            self.after_burst()  # before the updates go out: what it sets is in the state they tell of
        self.feed.emit_all(held)

    def _keep_copy(self) -> None:
        """Write the events of this burst, checked, to the copy on disk (net/client/live_copy.py);
        once the game is over and disclosed, the copy goes (the record is saved from memory)."""
        live, game, st = self.live, self.game, self.state
        if live is None or game is None or st.game_id is None or st.status == "failed" or not self.unsaved:
            return
        if game.shuffle is not None and game.deck_disclosed():
            live.remove()
            return
        first = self.unsaved[0]["seq"]
        if live.game != st.game_id or live.fd is None or live.written != first - 1:
            if first != 1 and not (live.game == st.game_id and live.written == first - 1):
                return  # the copy must hold the game from event 1 on: this one starts next game
            assert self.host_vk is not None
            live.begin(st.game_id, self.host_vk, st.seat, st.role, first - 1)
        live.append(self.unsaved)

    def restore(self, held: Held) -> bool:
        """Take the game a copy on disk holds (a restarted client), every event checked again
        as if the host had just sent it; the hello then asks only for what came after.  A
        copy that does not check out is dropped (it is not the host's word, only a file):
        False, and the client catches up from event 1."""
        st = self.state
        self.host_vk, st.game_id, st.seat, st.role = held.host_vk, held.game, held.seat, held.role
        self.game = self._follower(held.game)
        self.catch_up_head = len(held.frames)  # caught up once all are applied (fair-play duties)
        self.feed.hold()
        ok = False
        try:
            for frame in held.frames:
                self._on_event(frame)
            if self.game.seq:
                self.game.check_head()
            ok = self.game.seq == len(held.frames)
        except (ChainError, ProtocolError, ValueError, KeyError, TypeError) as exc:
            log.warning("the game copy on disk does not check out (asking the host from event 1): %s", exc)
        finally:
            held_updates = self.feed.release()
            self.unsaved = []  # on disk already
        if not ok:
            self.host_vk, self.game, self.catch_up_head = None, None, 0
            st.game_id, st.head_seq, st.decision_seq, st.log = None, 0, 0, []
            st.observation, st.public, st.seat, st.role = None, None, None, None
            self.recent.clear()
            if self.live is not None:
                self.live.remove()
            return False
        if self.live is not None:
            self.live.begin(held.game, held.host_vk, held.seat, held.role, len(held.frames))
        log.info("restored %d events of the game from disk", len(held.frames))
        self.feed.emit_all(held_updates)
        return True

    def _untrusted(self, exc: ChainError) -> None:
        log.warning("event refused: %s", exc)
        self.feed.withdraw_unproven()  # unproven: never shown
        self.feed.error("untrusted_host", str(exc))
        self.feed.set_status("failed")
        game, refused = self.game, self.applying
        if game is not None and game.frames is not None and self.host_vk is not None:
            # the evidence: every event checked, and the one refused, as the host signed them
            held = list(game.frames)
            if refused is not None and refused["seq"] == len(held) + 1:
                held.append({k: refused.get(k) for k in ("t", "seq", "pub", "ph", "h", "hs", "priv")})
            self.fair.save_evidence(game.game_id, held, self.host_vk, str(exc))

    def _on_frame(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "ev":
            self._on_event(msg)
        elif kind == "evs":
            self._on_batch(msg)
        elif kind == "tick":
            self._on_tick(msg)
        elif kind in ("ack", "reply"):
            self.requests.resolve(msg.get("id"), Reply(True, None, "", msg.get("seq")))
        elif kind == "tables":
            self.requests.resolve(msg.get("id"), Reply(True, None, "", None, msg.get("tables", [])))
        elif kind == "err":
            self._on_err(msg)
        elif kind == "closed":
            self._on_goodbye(msg)
        elif kind == "welcome":
            self._on_welcome(msg)
        elif kind == "seat":
            self.state.seat, self.state.role = msg.get("seat"), msg.get("role")
            self.feed.emit(Update("seat", (self.state.seat, self.state.role)))
        elif kind == "lobby":
            self._on_lobby(msg)
        elif kind == "dnext":
            self._on_relayed(msg)
        elif kind == "chat":
            line = (msg.get("seat"), str(msg.get("name")), str(msg.get("text")))
            self.state.chat.append(line)
            self.feed.emit(Update("chat", line))

    def _on_batch(self, msg: dict[str, Any]) -> None:
        """A batch of events (a catch-up): all checked before any is applied, then acknowledged."""
        events = [decode_batch_event(data) for data in msg["evs"]]
        for event in events:
            self._on_event(event)
        nonce = msg.get("n")
        if nonce is not None:
            self.batch_nonce = nonce
            self.ack_due = True  # the host sends the next batch once this one is acknowledged

    def _on_tick(self, msg: dict[str, Any]) -> None:
        """The host's heartbeat: back in touch, behind (catch up), and its current clocks."""
        if self.state.status == "failed":
            return
        if self.state.status == "reconnecting" and self.welcome and self.welcome.done():
            self.feed.set_status("connected")
        if msg.get("head", 0) > self.state.head_seq and time.monotonic() - self.greeting.last_hello > 2.0:
            self.greeting.hello()  # missed events (we lagged): catch up
        # the tick's clocks are current; an event's are as of when it was sent, which is
        # long ago for events caught up after a reconnect: correct the drift, and tell
        if "clk" in msg and self._set_deadlines(msg["clk"]):
            self.feed.emit(Update("clock", dict(self.state.deadlines)))
            self.show_sealed()

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        """The table's description (its lobby): kept, its fixed deal checked, its name remembered."""
        self.state.table = msg
        self._check_fixed_deal()
        if isinstance(msg.get("name"), str):
            self.memo.remember(msg["name"])
        self.feed.emit(Update("lobby", msg))

    def _on_relayed(self, msg: dict[str, Any]) -> None:
        """A shuffle relayed ahead of its event (hidden hands): its check starts now."""
        if self.game is not None and msg["g"] == self.game.game_id:
            self.game.relayed_shuffle(msg["seat"], msg["sh"])

    def _on_goodbye(self, msg: dict[str, Any]) -> None:
        """The host closed the table on purpose (net/host/host.py `Host.close`): say so, with where
        its journal is (the game can be resumed from it).  Hellos go on: a resumed host answers
        (a closing host answers them with its goodbye again, told once)."""
        if self.state.status in ("failed", "closed", "host_closed"):
            return

        def text(key: str) -> str | None:
            value = msg.get(key)
            return value if isinstance(value, str) and value.isprintable() and len(value) <= 1024 else None

        self.state.goodbye = {"table": text("table"), "journal": text("journal"), "record": text("record")}
        self.requests.fail_pending("host_closed")
        self.feed.set_status("host_closed")
        self.feed.emit(Update("goodbye", dict(self.state.goodbye)))

    def _settle_doubts(self) -> None:
        """Once caught up after a reconnect: a move whose answer was lost either was relayed
        (the log shows it) or never reached the host, which is said now.  It cannot arrive
        later: a copy the socket kept for the new connection carries the old welcome's mark,
        which the host refuses, as it would a move made before the last event."""
        if not self.doubts or self.game is None or self.state.head_seq < self.catch_up_head:
            return
        unplayed = [body for body in self.doubts if self.game.own_actions.pop(body, None) is not None]
        self.doubts = []
        if unplayed:
            self.feed.error("not_played", "your move was not played: it did not reach the host in time (look again)")

    def _on_err(self, msg: dict[str, Any]) -> None:
        code, text = str(msg.get("code")), str(msg.get("msg"))
        if self.requests.waits_for(msg.get("id")):
            self.requests.resolve(msg["id"], Reply(False, code, text, params=dict(msg.get("args") or {})))
        elif code in ("hello_first", "lagging"):  # dropped (lagging: until we have read our queue): again
            if time.monotonic() - self.greeting.last_hello > 0.5:
                self.requests.fail_pending("connection_lost")
                self.greeting.hello()
        elif self.welcome is not None and not self.welcome.done():
            self.welcome.set_exception(ConnectError(code, text))
        elif code in ("removed", "watchers_full"):
            # the table's admin removed this key, or its watcher's place went to a newcomer:
            # a hello would only be refused again
            if self.state.status != "failed":
                self.feed.error(code, text)
                self.requests.fail_pending(code)
                self.feed.set_status("failed")  # said once; no more hellos (the ping loop stops)
        else:
            self.feed.error(code, text)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        st = self.state
        if st.status == "failed":
            return
        if self.host_vk is not None and msg["host_vk"] != self.host_vk:
            self.feed.error("host_key_changed", "the host now signs with another key")
            self.feed.set_status("failed")
            return
        if msg.get("reset") and st.game_id is not None and msg.get("game") == st.game_id and st.head_seq > 0:
            self.feed.error(
                "forked_history",
                f"the host offers a history of this game that differs from the "
                f"{st.head_seq} events already checked: refused",
            )
            self.feed.set_status("failed")
            return
        st.seat, st.role = msg.get("seat"), msg.get("role")
        self.host_vk = msg["host_vk"]
        if msg.get("reset") or msg.get("game") != st.game_id:
            st.game_id, st.head_seq, st.decision_seq, st.log = msg.get("game"), 0, 0, []
            self.game = self._follower(st.game_id) if st.game_id else None
            st.observation, st.public = None, None
            self.recent.clear()
        tail = msg.get("tail")
        if tail is not None and st.game_id is not None and st.head_seq > tail:
            self._give_back(tail)
        self.welcomed(int(msg.get("ctr") or 0))
        st.goodbye = None
        self.catch_up_head = int(msg.get("head") or 0)
        self._hold_seat()
        self.conn = msg["conn"]
        self.memo.remember(str(st.table.get("name", "")))
        if self.game is not None and self.game.deck is not None:
            self.game.deck.withdraw(0)  # what a host relayed before may be lost with it: the events tell
        self.fair.welcome()
        self.feed.set_status("connected")
        self._settle_doubts()
        if self.welcome is not None and not self.welcome.done():
            self.welcome.set_result(msg)

    def _give_back(self, tail: int) -> None:
        """The host lost the events after `tail` (its machine restarted): give back the ones
        this client holds, exactly as signed (the host checks its signature and chain)."""
        held = [f for f in self.recent if f["seq"] > tail]
        if not held or held[0]["seq"] != tail + 1:
            self.feed.error(
                "tail_lost",
                f"the host lost events after {tail} and this client no longer holds all of them "
                f"(it keeps the last {TAIL_KEPT})",
            )
            return
        self.fair.give_back(held)

    def _check_fixed_deal(self) -> None:
        """A fixed deal (chosen cards, not shuffled) is only played if the table's lobby
        announces it: event 1 and the lobby must name the same one (or none).  Checked when
        both are known, whichever comes first (a client that sat before the start has the
        lobby first; one that arrives later gets event 1 first).  Raises ChainError."""
        game, table = self.game, self.state.table
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
        assert self.host_vk is not None
        game = VerifiedGame(game_id, self.host_vk, keep=self.keep_transcript, every_signature=False)
        game.withdrawn = self.fair.withdrawn  # this seat's refused card plays, across resets
        return game

    def _hold_seat(self) -> None:
        """Welcomed as its seat's player, this client plays the seat itself from the host's
        head at the welcome on: the host hands a stand-in's seat back before it welcomes the
        player (net/host/presence.py `player_returns`), and starts one only once the player's
        connection has gone, so a stand-in named for the seat later is refused."""
        if self.game is not None:
            self.game.held_after = self.catch_up_head if self.state.role == "player" else None

    def _set_deadlines(self, clk: dict[str, Any]) -> bool:
        """Take the host's remaining times as deadlines on this loop's clock; True when one
        appeared, ended or moved by more than CLOCK_DRIFT seconds."""
        now = asyncio.get_running_loop().time()
        deadlines = self.state.deadlines
        moved = False
        for name in ("open", "decide", "reveal", "call", "deck"):
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
        late = clk.get("late")
        deck_late = tuple(late) if type(late) is list and all(type(s) is int for s in late) else ()
        if deck_late != self.state.deck_late:
            self.state.deck_late = deck_late
            moved = True
        held = clk.get("sealed")
        sealed = tuple(held) if type(held) is list and all(type(s) is int for s in held) else ()
        if sealed != self.state.sealed:
            self.state.sealed = sealed
            moved = True
        return moved

    def show_sealed(self, seat: int | None = None, auction: int | None = None) -> None:
        """Show who has sealed in the running Sealed auction (`state.sealed`, the host's
        `clk.sealed`; `seat`: this client's own seat, whose commitment in `auction` the host
        just acknowledged) in the observation, and tell if that changed it.

        The acknowledgement is awaited by a task, which resumes after the whole burst that
        brought it: that burst may also have settled that auction and begun the next Sealed
        one, where this seat has not bid yet.  Shown there, the seat would be taken off the
        seats to move, and the player never asked for a bid the host waits for."""
        st = self.state
        obs = st.observation
        running = obs is not None and obs.phase == Phase.SEALED and obs.auction_no == auction
        if seat is not None and running and seat not in st.sealed:
            st.sealed = tuple(sorted((*st.sealed, seat)))
        shown = with_sealed(st.observation, st.sealed)
        if shown is not st.observation and shown is not None:
            st.observation = shown
            self.feed.emit(Update("observation", shown))

    def _on_event(self, msg: dict[str, Any]) -> None:
        st = self.state
        seq = msg["seq"]
        if seq <= st.head_seq or st.status == "failed":
            return  # already held (a catch-up overlapping live events), or no longer trusted
        if seq == 1 and self.game is None and self.host_vk is not None:  # the game starts now
            st.game_id = decode_event_public(msg["pub"])["g"]
            self.game = self._follower(st.game_id)
            self._hold_seat()
        if seq != st.head_seq + 1 or self.game is None:
            if time.monotonic() - self.greeting.last_hello > 1.0:
                self.greeting.hello()  # a gap: ask for the missing events
            return
        own = st.seat if st.role in ("player", "standin") else None
        self.fair.restore_deck(self.game)  # a hidden hand is read with the deck key kept on disk
        self.applying = msg  # kept as evidence if the host is caught by it
        info, observation = self.game.apply(msg, own, defer_signature=True)
        self.applying = None
        self.burst_decides = True
        self.recent.append({k: msg[k] for k in ("t", "seq", "pub", "ph", "h", "hs")})
        if self.live is not None:
            self.unsaved.append({k: msg.get(k) for k in FIELDS})
        if info.kind == "start":
            self._check_fixed_deal()
        st.head_seq = seq
        if info.kind not in NOT_DECISIONS:
            st.decision_seq = seq
        if "pv" in info.public:
            st.public = info.public["pv"]
        st.players = self.game.players
        if info.move is not None and info.kind == "move":  # a `call` only names the hammer it waits for
            st.log.append((seq, info.move))
        st.log.extend((seq, m) for m in info.moves)  # a `settle`: every seat's sealed bid
        st.log.extend((seq, e) for e in info.events)
        self._set_deadlines(info.public.get("clk") or {})
        self.feed.emit(Update("event", info))
        for warning in info.warnings:
            self.feed.error("fair_play", warning)
        self.fair.on_event(info, self.game)
        if observation is not None:
            st.observation = with_sealed(observation, st.sealed)
            self.feed.emit(Update("observation", st.observation))
        self._settle_doubts()
