"""A table: its lobby, then its game, journal and saved record.

The `Host` owns sockets and peers; a `Table` owns what is played at it.  `start` turns
the lobby's seats (compacted to 0..n-1, in seat order) into a game: a random game id,
event 1 and the seed phase; at the deal the journal gets its header (the deck order the
seeds gave, seat keys and table settings in `meta`).  `Table.resume` rebuilds a table
from its journal and event log after a host crash, before or after the deal.

A table may have a fixed deal (net/trust/shuffle.py `FixedDeal`): only the program that
runs the host sets it, as `Table(fixed_deal=...)`; no frame can.  The lobby announces it
(`fixed_deal` in the lobby message) and event 1 repeats it, so everyone knows the cards
were chosen, not shuffled.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections import deque
from typing import Any, Sequence

from modernart.game import deck_orders_needed
from modernart.rules import OptionError

from modernart.net.clocks import ClockSettings
from modernart.net.trust.identity import Keys, fingerprint
from modernart.net.host.journal import Journal, discard_resume_files, read_journal
from modernart.net.host.lobby import Lobby, LobbyError
from modernart.net.protocol.frames import MAX_LISTED_WATCHERS, seat_description, table_info
from modernart.net.host.game import HostedGame, LoggedEvent, Player
from modernart.net.trust.shuffle import FixedDeal
from modernart.net.trust.transcript import write_transcript

log = logging.getLogger("modernart.net.host.table")


class Table:
    """One table of a host: lobby -> playing -> over."""

    def __init__(
        self,
        table_id: str,
        name: str,
        host: Keys,
        *,
        journal_dir: str | None = None,
        lobby: Lobby | None = None,
        autostart: bool | int = False,
        fsync: bool = True,
        fixed_deal: FixedDeal | None = None,
        hidden_hands: bool = False,
    ) -> None:
        self.id = table_id
        self.fixed_deal = fixed_deal  # chosen cards instead of the shuffle (see the module doc)
        self.hidden_hands = hidden_hands  # hands hidden even from this host (docs/fair-play.md)
        self.ended_at: float | None = None  # when the game's record was saved (time.monotonic())
        self.done_seats: set[int] = set()  # seats whose player left the finished game or took its copy
        self.name = name
        self.host = host
        self.journal_dir = journal_dir
        self.lobby = lobby or Lobby()
        self.autostart = autostart
        self.fsync = fsync
        self.game: HostedGame | None = None
        self.journal_path: str | None = None
        self.record_path: str | None = None
        self.delegate_tokens: dict[bytes, int] = {}
        self.extra_meta: dict[str, Any] = {}  # e.g. the host's port, so a resume can reuse it
        # events made but not sent yet: each waits for the fsync before it (one holding host-only
        # secrets, or one past UNSYNCED_MAX), and every later one waits behind it
        self.outbox: deque[tuple[LoggedEvent, tuple[bytes, dict[str, Any]] | None]] = deque()
        self.durable_seq = 0  # events up to here are written (a host crash keeps them) and sent to the seats
        self.synced_seq = 0  # events up to here are on disk (a power loss keeps them)
        self.watched_seq = 0  # events up to here are sent to watchers (only events on disk are)
        self.flusher: Any = None  # a Future, done once the journal syncs of events not on disk are over

    @property
    def phase(self) -> str:
        if self.game is None:
            return "lobby"
        return "over" if self.game.is_over else "playing"

    @property
    def clocks(self) -> ClockSettings:
        return self.game.clocks if self.game else self.lobby.clocks

    def holds_token(self, token: bytes) -> bool:
        """Whether `token` is a seat token of this table's: a stand-in's, or a lobby bot's
        reserved seat (a hello with one is the host's own bot)."""
        if token in self.delegate_tokens:
            return True
        seats = self.lobby.seats if self.game is None else []
        return any(s is not None and s.token is not None and secrets.compare_digest(s.token, token) for s in seats)

    def seat_of(self, vk: bytes) -> int | None:
        if self.game is None:
            return self.lobby.seat_of(vk)
        for i, p in enumerate(self.game.players):
            if p.vk == vk:
                return i
        return None

    def seat_names(self) -> list[str]:
        if self.game is not None:
            return [p.name for p in self.game.players]
        return [s.name if s else "" for s in self.lobby.seats]

    def info(self) -> dict[str, Any]:
        """What the beacon and the table list say about this table."""
        taken = len(self.game.players) if self.game else len(self.lobby.taken())
        free = 0 if self.game else 5 - taken
        return table_info(self.id, self.name, self.phase, taken, free, self.options_dict(), self.hidden_hands)

    def options_dict(self) -> dict[str, Any]:
        options = self.game.options if self.game else self.lobby.options
        return options.changed()

    def lobby_description(
        self, connected: set[int], join: str, code: str, also: Sequence[str] = (), watchers: Sequence[bytes] = ()
    ) -> dict[str, Any]:
        """The table as its lobby frame describes it (net/protocol/frames.py `lobby_frame`);
        `also`: the join strings of the host's other addresses; `watchers`: the keys of
        those watching (listed in the lobby, for the admin to remove)."""
        base: dict[str, Any] = {
            "table": self.id,
            "name": self.name,
            "state": self.phase,
            "join": join,
            "code": code,
            "clocks": self.clocks.to_dict(),
        }
        if also:
            base["also"] = list(also)
        fixed = self.game.fixed_deal if self.game is not None else self.fixed_deal
        if fixed is not None:
            base["fixed_deal"] = fixed.to_wire()
        if self.hidden_hands:
            base["hidden_hands"] = True
        if self.game is None:
            lob = self.lobby
            base["seats"] = [s.to_wire(i, lob.admin, i in connected) if s else None for i, s in enumerate(lob.seats)]
            base["options"] = lob.options.to_dict()
            base["admin"] = fingerprint(lob.admin) if lob.admin else None
            base["watchers"] = sorted({fingerprint(vk) for vk in watchers})[:MAX_LISTED_WATCHERS]
            if lob.locked is not None:
                base["locked"] = True
        else:
            sess = self.game
            base["seats"] = [
                seat_description(
                    i, p.name, p.bot, True, fingerprint(p.vk), False, i in connected, sess.delegates[i] is not None
                )
                for i, p in enumerate(sess.players)
            ]
            base["options"] = sess.options.to_dict()
            base["admin"] = None
            base["game"] = sess.game_id
        if self.record_path is not None:
            base["record"] = self.record_path
        return base

    # ------------------------------------------------------------------ the game

    def start(self, now: float) -> LoggedEvent:
        """Turn the lobby into a game: event 1, then the seed phase (the deal follows the seeds)."""
        lob = self.lobby
        lob.check_start(None)
        seats = [s for s in lob.seats if s is not None]
        try:
            lob.options.check_players(len(seats))
        except OptionError as exc:
            raise LobbyError("bad_options", f"these rules cannot be played now: {exc}") from None
        if self.fixed_deal is not None:
            try:
                self.fixed_deal.check(lob.options.deck_table.size, len(seats), deck_orders_needed(lob.options))
            except ValueError as exc:
                raise LobbyError("fixed_deal", f"this table's fixed deal does not fit: {exc}") from None
        players = [Player(s.name, s.vk, s.bot) for s in seats]  # type: ignore[arg-type]
        game_id = secrets.token_bytes(16)
        meta = {
            "game_id": game_id.hex(),
            "table": self.id,
            "table_name": self.name,
            "keys": [p.vk.hex() for p in players],
            "bots": [p.bot for p in players],
            "clocks": lob.clocks.to_dict(),
            "host_vk": self.host.vk.hex(),
            "fairplay": 1,
            **self.extra_meta,
        }
        if self.fixed_deal is not None:
            meta["fixed_deal"] = self.fixed_deal.to_wire()
        if self.hidden_hands:
            meta["hidden_hands"] = True
        journal = None
        if self.journal_dir is not None:
            os.makedirs(self.journal_dir, exist_ok=True)
            self.journal_path = os.path.join(self.journal_dir, f"{self.id}-{game_id.hex()[:12]}.jsonl")
            journal = Journal(self.journal_path, sync=self.fsync)  # the header follows at the deal
        self.game = HostedGame(
            game_id,
            players,
            lob.options,
            lob.clocks,
            self.host,
            journal,
            now,
            meta=meta,
            fixed_deal=self.fixed_deal,
            hidden_hands=self.hidden_hands,
        )
        log.info("game started table=%s game=%s players=%d", self.id, game_id.hex()[:12], len(players))
        return self.game.start(now)

    def save_record(self) -> str | None:
        """Once the game is over and disclosed: the record beside the journal (`modernart replay
        --check` reads it) and the public transcript beside it (`modernart audit` reads both)."""
        sess = self.game
        if sess is None or not sess.disclosed or self.journal_path is None:
            return None
        base = self.journal_path[: -len(".jsonl")]
        early = (
            {"host_vk": sess.host.vk, "ended_without": sess.ended_without} if sess.ended_without is not None else None
        )
        write_transcript(base + ".transcript", [e.frame_for(None) for e in sess.log], early)
        if sess.ended_without is not None:
            # ended by the table's vote without an absent seat, whose deck key never comes:
            # the real deck cannot be read, so the transcript is the game's record
            # (`modernart audit` checks it, the votes included: docs/fair-play.md)
            self.record_path = base + ".transcript"
            if sess.journal is not None:
                sess.journal.close()
            return self.record_path
        record = read_journal(self.journal_path)
        if sess.hidden is not None:  # the journal's deck is the stand-ins': the real one, read with every key
            record = sess.hidden.real_record(record)
        record.sync(record.replay())
        record.meta["transcript"] = os.path.basename(base + ".transcript")
        record.save(base + ".json")
        self.record_path = base + ".json"
        if sess.journal is not None:
            sess.journal.close()
        discard_resume_files(self.journal_path)  # no .events/.held/.boot beside a finished journal
        return self.record_path

    @classmethod
    def resume(cls, path: str, host: Keys, now: float, *, fsync: bool = True) -> "Table":
        """The table whose journal is `path`, exactly as it was when the host stopped."""
        game = HostedGame.resume(path, host, now, fsync=fsync)
        table = cls(
            game.meta.get("table", "t1"),
            game.meta.get("table_name", "table"),
            host,
            fsync=fsync,
            fixed_deal=game.fixed_deal,
        )
        table.game = game
        table.hidden_hands = game.hidden is not None  # the lobby and the beacon say so again
        table.durable_seq = table.synced_seq = table.watched_seq = game.seq
        table.journal_path = path
        table.journal_dir = os.path.dirname(path)
        table.lobby.options = game.options
        table.lobby.clocks = game.clocks
        return table
