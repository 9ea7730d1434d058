"""A table: its lobby, then its game session, journal and saved record.

The `Host` owns sockets and peers; a `Table` owns what is played at it.  `start` turns
the lobby's seats (compacted to 0..n-1, in seat order) into a game: a fresh shuffle, a
random game id, the journal header (deck order, seat keys and table settings in `meta`),
and event 1.  `Table.resume` rebuilds a table from its journal after a host crash.
"""

from __future__ import annotations

import logging
import os
import secrets
from typing import Any

from modernart.game import GameState
from modernart.record import GameRecord, result_of

from . import sealed
from .clocks import ClockSettings
from .identity import Keys, fingerprint
from .journal import Journal, drop_torn_line, read_events, read_journal, truncate_events
from .lobby import Lobby
from .protocol import decode_action_body, decode_host_inner
from .session import GameSession, LoggedEvent, Player

log = logging.getLogger("net.table")


class Table:
    """One table of a host: lobby -> playing -> over."""

    def __init__(self, table_id: str, name: str, host: Keys, *, journal_dir: str | None = None,
                 lobby: Lobby | None = None, autostart: bool | int = False, fsync: bool = True) -> None:
        self.id = table_id
        self.name = name
        self.host = host
        self.journal_dir = journal_dir
        self.lobby = lobby or Lobby()
        self.autostart = autostart
        self.fsync = fsync
        self.session: GameSession | None = None
        self.journal_path: str | None = None
        self.record_path: str | None = None
        self.delegate_tokens: dict[bytes, int] = {}
        self.extra_meta: dict[str, Any] = {}  # e.g. the host's port, so a resume can reuse it
        self.outbox: list[tuple[LoggedEvent, tuple[bytes, dict[str, Any]] | None]] = []
        self.durable_seq = 0            # events up to here are on disk and may be sent
        self.flusher: Any = None

    @property
    def phase(self) -> str:
        if self.session is None:
            return "lobby"
        return "over" if self.session.state.is_over() else "playing"

    @property
    def clocks(self) -> ClockSettings:
        return self.session.clocks if self.session else self.lobby.clocks

    def seat_of(self, vk: bytes) -> int | None:
        if self.session is None:
            return self.lobby.seat_of(vk)
        for i, p in enumerate(self.session.players):
            if p.vk == vk:
                return i
        return None

    def seat_names(self) -> list[str]:
        if self.session is not None:
            return [p.name for p in self.session.players]
        return [s.name if s else "" for s in self.lobby.seats]

    def is_bot_seat(self, seat: int) -> bool:
        if self.session is not None:
            return self.session.players[seat].bot is not None
        s = self.lobby.seats[seat]
        return s is not None and s.bot is not None

    def info(self) -> dict[str, Any]:
        """What the beacon and the table list say about this table."""
        taken = len(self.session.players) if self.session else len(self.lobby.taken())
        return {"id": self.id, "name": self.name, "state": self.phase, "taken": taken,
                "free": 0 if self.session else 5 - taken, "options": self.options_dict()}

    def options_dict(self) -> dict[str, Any]:
        options = self.session.state.options if self.session else self.lobby.options
        return options.changed()

    def lobby_wire(self, connected: set[int], join: str, code: str) -> dict[str, Any]:
        base: dict[str, Any] = {"t": "lobby", "table": self.id, "name": self.name, "state": self.phase,
                                "join": join, "code": code, "clocks": self.clocks.to_dict()}
        if self.session is None:
            lob = self.lobby
            base["seats"] = [s.to_wire(i, lob.admin, i in connected) if s else None for i, s in enumerate(lob.seats)]
            base["options"] = lob.options.to_dict()
            base["admin"] = fingerprint(lob.admin) if lob.admin else None
        else:
            sess = self.session
            base["seats"] = [{"seat": i, "name": p.name, "bot": p.bot, "ready": True, "fpr": fingerprint(p.vk),
                              "admin": False, "connected": i in connected,
                              "standin": sess.delegates[i] is not None} for i, p in enumerate(sess.players)]
            base["options"] = sess.state.options.to_dict()
            base["admin"] = None
            base["game"] = sess.game_id
        return base

    # ------------------------------------------------------------------ the game

    def start(self, now: float, seed: int | None = None) -> LoggedEvent:
        lob = self.lobby
        lob.check_start(None)
        seats = [s for s in lob.seats if s is not None]
        players = [Player(s.name, s.vk, s.bot) for s in seats]  # type: ignore[arg-type]
        state = GameState(len(players), lob.options, seed=seed if seed is not None else secrets.randbits(64),
                          track_events=True)
        game_id = secrets.token_bytes(16)
        journal = None
        if self.journal_dir is not None:
            os.makedirs(self.journal_dir, exist_ok=True)
            self.journal_path = os.path.join(self.journal_dir, f"{self.id}-{game_id.hex()[:12]}.jsonl")
            journal = Journal(self.journal_path, sync=self.fsync)
            meta = {"game_id": game_id.hex(), "table": self.id, "table_name": self.name,
                    "keys": [p.vk.hex() for p in players], "bots": [p.bot for p in players],
                    "clocks": lob.clocks.to_dict(), "host_vk": self.host.vk.hex(), **self.extra_meta}
            journal.write_header(GameRecord.start(state, [p.name for p in players], meta))
        self.session = GameSession(game_id, players, state, lob.clocks, self.host, journal, now)
        log.info("game started table=%s game=%s players=%d", self.id, game_id.hex()[:12], len(players))
        return self.session.start(now, lob.options.to_dict())

    def save_record(self) -> str | None:
        """Once the game is over: the record beside the journal (`modernart replay --check` reads it)."""
        if self.session is None or not self.session.state.is_over() or self.journal_path is None:
            return None
        record = read_journal(self.journal_path)
        record.sync(record.replay())
        path = self.journal_path[: -len(".jsonl")] + ".json"
        record.save(path)
        self.record_path = path
        if self.session.journal is not None:
            self.session.journal.close()
        return path

    @classmethod
    def resume(cls, path: str, host: Keys, now: float, *, fsync: bool = True) -> "Table":
        """The table whose journal is `path`, exactly as it was when the host stopped."""
        drop_torn_line(path)
        record = read_journal(path)
        meta = record.meta
        if meta.get("host_vk") != host.vk.hex():
            raise ValueError("this journal was written by a host with another key")
        players = [Player(name, bytes.fromhex(k), b) for name, k, b in zip(record.players, meta["keys"], meta["bots"])]
        clocks = ClockSettings.from_dict(meta.get("clocks", {}))
        state = record.new_state(track_events=True)
        session = GameSession(bytes.fromhex(meta["game_id"]), players, state, clocks, host, None, now)
        moves = record.moves
        used = kept = 0
        for entry in read_events(path):
            event = LoggedEvent.from_entry(entry)
            if event.move is not None:
                if used >= len(moves) or moves[used].to_list() != event.move:
                    break  # logged but never journaled: it was never announced
                state.apply(moves[used])
                used += 1
            _restore(session, event)
            kept += 1
        truncate_events(path, kept)
        session.journal = Journal(path, sync=fsync)
        session._events_done = len(state.events or [])
        session._decision_key = None
        session._update_deadlines(now, bid=False)
        for move in moves[used:]:  # journaled, but its event was lost in the crash
            state.apply(move)
            session._emit("move", now, {"m": sealed.public_move(move), "by": "recovered"}, move, journal_move=False)
        if state.is_over() and record.result is None and used == len(moves):
            session.journal.write_result(result_of(state))
        session.journal.sync()
        table = cls(meta.get("table", "t1"), meta.get("table_name", "table"), host, fsync=fsync)
        table.session = session
        table.durable_seq = session.seq
        table.journal_path = path
        table.journal_dir = os.path.dirname(path)
        table.lobby.options = state.options
        table.lobby.clocks = clocks
        return table


def _restore(session: GameSession, event: LoggedEvent) -> None:
    """Re-apply the bookkeeping of one logged event (counters, delegates, withheld bids)."""
    public = decode_host_inner(event.public)
    kind = public.get("k")
    if kind == "delegate":
        session.delegates[public["seat"]] = public["vk"]
    elif kind == "move" and event.act is not None:
        body, sig = event.act
        act = decode_action_body(body)
        session.counters[act["seat"]] = max(session.counters[act["seat"]], act["ctr"])
        if "sealed" in public.get("act", {}):
            session.sealed.withheld.append([body, sig])
    if public.get("reveal"):
        session.sealed.withheld = []
    session.log.append(event)
    session.head = event.h
