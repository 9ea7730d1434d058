"""One running game at a table: engine, event log, hash chain, counters, clocks, journal.

No sockets here.  `submit` takes a signed action from a bound key, checks signature,
counter, seat and game, applies the move with the engine, writes the journal and the
event log, and returns the new `LoggedEvent` for the host to fan out.  Every change of
state, including host defaults when a clock runs out and bot delegations, becomes one
event with the next sequence number, so every seat's stream is gap-free.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from modernart.errors import IllegalMove
from modernart.events import CardsDealt
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.record import result_of

from . import chain, sealed
from .clocks import ClockSettings, default_moves
from .identity import ACT_TAG, HOSTEV_TAG, Keys, verify
from .journal import Journal
from .protocol import ProtocolError, decode_action_body, pack
from .wire import event_to_wire, public_view

log = logging.getLogger("net.session")


@dataclass
class Player:
    """A seat of a running game: its name, bound Ed25519 key, and bot level (None = human)."""

    name: str
    vk: bytes
    bot: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "vk": self.vk, "bot": self.bot}


@dataclass
class LoggedEvent:
    """One event as stored and sent: public part, private parts, chain link, signature."""

    seq: int
    public: bytes
    privates: list[bytes | None]
    hashes: list[bytes]
    h: bytes
    sig: bytes
    move: list[int] | None = None     # host-only: the full engine move (sealed amount included)
    act: list[bytes] | None = None    # host-only: the signed action [body, signature] it came from

    def frame_for(self, seat: int | None) -> dict[str, Any]:
        """The event as seat `seat` (None: a spectator) receives it."""
        return {"t": "ev", "seq": self.seq, "pub": self.public, "ph": self.hashes, "h": self.h, "hs": self.sig,
                "priv": self.privates[seat] if seat is not None else None}

    def to_entry(self) -> list[Any]:
        return [self.seq, self.public, self.privates, self.hashes, self.h, self.sig, self.move, self.act]

    @classmethod
    def from_entry(cls, entry: list[Any]) -> "LoggedEvent":
        return cls(*entry)


class GameSession:
    """The game of one table, from its first event to its result."""

    def __init__(self, game_id: bytes, players: list[Player], state: GameState, clocks: ClockSettings,
                 host: Keys, journal: Journal | None, now: float) -> None:
        self.game_id = game_id
        self.players = players
        self.state = state
        self.clocks = clocks
        self.host = host
        self.journal = journal
        self.log: list[LoggedEvent] = []
        self.head = chain.genesis(game_id)
        self.counters = [0] * state.n
        self.delegates: list[bytes | None] = [None] * state.n
        self.sealed = sealed.SealedBox()
        self.open_end: float | None = None
        self.decide_end: float | None = None
        self._decision_key: Any = None
        self._events_done = len(state.events or [])
        self.now = now

    # ------------------------------------------------------------------ queries

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def n(self) -> int:
        return self.state.n

    def signer_role(self, seat: int, vk: bytes) -> int | None:
        """0 if `vk` is the seat's own key, 1 if it is the seat's current delegate, else None."""
        if self.players[seat].vk == vk:
            return 0
        if self.delegates[seat] == vk:
            return 1
        return None

    def clock_view(self, now: float) -> dict[str, float | None]:
        return {"open": None if self.open_end is None else round(max(0.0, self.open_end - now), 3),
                "decide": None if self.decide_end is None else round(max(0.0, self.decide_end - now), 3)}

    def next_deadline(self) -> float | None:
        times = [t for t in (self.open_end, self.decide_end) if t is not None]
        return min(times) if times else None

    # ------------------------------------------------------------------ building events

    def _emit(self, kind: str, now: float, extra: dict[str, Any], move: Move | None = None,
              act: list[bytes] | None = None, journal_move: bool = True) -> LoggedEvent:
        state = self.state
        engine_events = state.events[self._events_done:] if state.events is not None else []
        self._events_done = len(state.events or [])
        self._update_deadlines(now, bid=move is not None and move.action == Action.BID)
        public: dict[str, Any] = {"k": kind, "g": self.game_id, **extra,
                                  "ev": [w for w in map(event_to_wire, engine_events) if w is not None],
                                  "pv": public_view(state), "clk": self.clock_view(now)}
        revealed = self.sealed.reveal(engine_events)
        if revealed:
            public["reveal"] = revealed
        privates: list[bytes | None] = []
        for seat in range(state.n):
            priv: dict[str, Any] = {"salt": secrets.token_bytes(16), "hand": [int(c) for c in state.hands[seat]],
                                    "money": state.money[seat]}
            dealt = [[int(c) for c in e.cards] for e in engine_events
                     if isinstance(e, CardsDealt) and e.seat == seat]
            if dealt:
                priv["dealt"] = dealt[-1]
            privates.append(pack(priv))
        public_bytes = pack(public)
        hashes = [chain.private_hash(p) for p in privates]
        seq = self.seq + 1
        h = chain.link(self.head, seq, public_bytes, hashes)
        event = LoggedEvent(seq, public_bytes, privates, hashes, h, self.host.sign(HOSTEV_TAG, h),
                            move.to_list() if move is not None else None, act)
        if self.journal is not None:
            if move is not None and journal_move:
                self.journal.write_move(move)
            self.journal.write_event(event.to_entry())
            if state.is_over():
                self.journal.write_result(result_of(state))
        self.log.append(event)
        self.head = h
        return event

    def _update_deadlines(self, now: float, bid: bool) -> None:
        state = self.state
        phase = state.phase
        key: Any = (phase, state.auction_no, state.to_move() if phase not in (Phase.SEALED, Phase.OPEN) else None)
        if phase == Phase.OPEN and self.clocks.open_countdown > 0:
            if bid or key != self._decision_key or self.open_end is None:
                self.open_end = now + self.clocks.open_countdown
        else:
            self.open_end = None
        if phase in (Phase.OPEN, Phase.GAME_OVER) or self.clocks.decision <= 0:
            self.decide_end = None
        elif key != self._decision_key or self.decide_end is None:
            self.decide_end = now + self.clocks.decision
        self._decision_key = key

    def start(self, now: float, options_dict: dict[str, Any]) -> LoggedEvent:
        """Event 1: who plays, with which keys and options; each seat's first hand."""
        return self._emit("start", now, {"players": [p.to_wire() for p in self.players], "options": options_dict,
                                         "first": self.state.first_auctioneer})

    # ------------------------------------------------------------------ changing the game

    def submit(self, vk: bytes, seat: int, body: bytes, sig: bytes, now: float) -> tuple[LoggedEvent, int]:
        """Check and apply a signed action from the connection bound to (`vk`, `seat`).

        Returns (event, ctr); raises ProtocolError (code, message) and changes nothing.
        """
        role = self.signer_role(seat, vk)
        if role is None:
            raise ProtocolError("not_your_seat", f"this key may not act for seat {seat}")
        if not verify(vk, ACT_TAG, body, sig):  # bytes first, decode after
            raise ProtocolError("bad_signature", "the action's signature does not verify")
        act = decode_action_body(body)
        if act["game"] != self.game_id:
            raise ProtocolError("wrong_game", "the action names another game")
        if act["seat"] != seat or act["move"][0] != seat:
            raise ProtocolError("not_your_seat", f"this connection plays seat {seat}")
        if act["ctr"] <= self.counters[seat]:
            raise ProtocolError("replayed", f"counter {act['ctr']} is not above {self.counters[seat]}")
        try:
            move = Move.from_list(act["move"])
        except IllegalMove as exc:
            raise ProtocolError("malformed", exc.detail) from None
        try:
            self.state.apply(move)
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        self.counters[seat] = act["ctr"]
        public_act = self.sealed.public_action(move, body, sig)
        event = self._emit("move", now, {"m": sealed.public_move(move), "by": "player", "signer": role,
                                         "act": public_act}, move, [body, sig])
        return event, act["ctr"]

    def apply_defaults(self, now: float) -> list[LoggedEvent]:
        """Play the default actions whose time ran out; returns their events."""
        out: list[LoggedEvent] = []
        state = self.state
        if state.is_over():
            return out
        if self.open_end is not None and now >= self.open_end and state.phase == Phase.OPEN:
            moves = default_moves(state, state.to_move())
        elif self.decide_end is not None and now >= self.decide_end:
            moves = default_moves(state, state.to_move(), self.clocks.bot_level)
        else:
            return out
        for move in moves:
            if state.is_over() or not state.is_legal(move):
                break
            state.apply(move)
            out.append(self._emit("move", now, {"m": sealed.public_move(move), "by": "clock"}, move))
        return out

    def set_delegate(self, seat: int, vk: bytes | None, now: float) -> LoggedEvent:
        """Let key `vk` (a stand-in bot) play `seat` until the player returns (None: revoke)."""
        self.delegates[seat] = vk
        return self._emit("delegate", now, {"seat": seat, "vk": vk})
