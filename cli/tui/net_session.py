"""`NetSession`: a table for the screens over the network client (net/client/client.py), and
`NetFinder`, the tables heard on the LAN for the join screen.

The network client keeps the latest of everything and reports each change through
`on_update`; this adapter turns that into the screens' vocabulary (a `LobbyView`, the
seat's `Observation`, log lines (worded by cli/tui/narration.py), deadlines on this process's monotonic clock)
and turns the screens' calls into signed requests.  A refusal from the host (reply not
ok) becomes an "error" entry in the log, which the message line shows.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Mapping

from modernart.bots import bot_levels
from modernart.moves import Move
from modernart.rules import OptionError, RuleOptions

from modernart.cli.i18n import _, language, speaking
from modernart.cli.refusals import refusal_text
from modernart.cli.words import distinct_names
from modernart.net.clocks import ClockSettings

from modernart.cli.tui.narration import (
    HOST_GONE,
    TableNarrator,
    fixed_deal_text,
    goodbye_text,
    host_stopped_text,
    silence_advice,
    silence_notice,
)
from modernart.cli.tui.session import (
    hidden_hands_text,
    JoinError,
    Listeners,
    LobbyView,
    LogEntry,
    SeatInfo,
    SessionBase,
    Status,
    TableAd,
    append_log,
)

if TYPE_CHECKING:
    from modernart.net.lan.beacon import Listener

log = logging.getLogger(__name__)

_STATE = {"lobby": Status.LOBBY, "playing": Status.PLAYING, "over": Status.OVER}
LEAVE_SECONDS = 1.0  # longest wait for the host to free a seat on close (the client's close waits 3 s)


def lobby_view(table: Mapping[str, Any], my_fpr: str | None) -> LobbyView:
    """The host's lobby dict (see net/host/table.py `lobby_description`) as the lobby screen reads it."""
    seats = []
    for i, raw in enumerate(table.get("seats") or []):
        if not raw:
            seats.append(SeatInfo(i))
            continue
        bot = raw.get("bot")
        seats.append(
            SeatInfo(
                i,
                str(raw.get("name", "")),
                "bot" if bot else "human",
                bot or "",
                bool(raw.get("ready")),
                bool(raw.get("connected", True)) or bool(bot),
                str(raw.get("fpr") or ""),
            )
        )
    try:
        options = RuleOptions.from_dict(table.get("options") or {})
    except (OptionError, TypeError):
        options = RuleOptions()
    clocks = ClockSettings.told(table.get("clocks"))
    return LobbyView(
        str(table.get("name", "")),
        tuple(seats),
        options,
        clocks,
        join_string=str(table.get("join", "")),
        other_joins=tuple(str(j) for j in table.get("also") or ()),
        join_code=str(table.get("code", "")),
        admin=my_fpr is not None and table.get("admin") == my_fpr,
        bot_levels=bot_levels(),
        hidden_hands=table.get("hidden_hands") is True,
        watchers=tuple(str(f) for f in table.get("watchers") or ()),
        locked=table.get("locked") is True,
    )


class NetSession(SessionBase):
    """One person at a table on a host, through `net.client.Client`."""

    def __init__(
        self,
        target,
        *,
        name: str,
        config_dir: str | None = None,
        identity: str = "player",
        keys=None,
        sit: bool = True,
        seat: int | None = None,
        ready: bool = False,
        connect_timeout: float = 10.0,
        accept_new_host_key: bool = False,
        state_dir: str | None = None,
        leaves_seat_on_close: bool = False,
        remembers_host: bool = True,
    ) -> None:
        super().__init__(name, _("connecting to the host"))
        from modernart.net.client.client import Client

        self.client = Client(
            target,
            keys=keys,
            config_dir=config_dir,
            identity=identity,
            updates=False,
            accept_new_host_key=accept_new_host_key,
            state_dir=state_dir,
            remembers_host=remembers_host,
        )
        self.client.on_update = self._on_update
        self._presence_seen = False  # a picture of who is away has been taken (see _note_presence)
        self._told_fixed_deal = False  # the lobby's fixed deal has been told (once)
        self._told_hidden = False  # the lobby's hidden hands have been told (once)
        self._silent = 0  # seconds the host has been silent (0: heard)
        self.sit, self.wanted_seat, self.ready_at_once = sit, seat, ready
        # a key that is kept nowhere (a password SSH guest's) can never come back to its lobby
        # seat: closing gives the seat up rather than leave it taken for good
        self.leaves_seat_on_close = leaves_seat_on_close
        self.ssh_guest = False  # served over SSH by the host's machine: its screen closes with it
        self.host_stopped = ""  # what the log said when the host process ended by itself ("": it has not)
        self.connect_timeout = connect_timeout
        self.my_fpr = self.client.keys.fingerprint
        self.narrator = TableNarrator(self.log)  # the game's events in the log
        self._vote_seq = 0  # the last event told by _narrate_vote
        self._votes: dict[tuple[int, int], str] = {}  # (late seat, its `dlate` event) -> this person's vote
        self.host_record_path: str | None = None  # the host's copy of the record, when not ours
        # the language of this person's log and messages: the one spoken where the session
        # was made (an SSH guest's own), also in the network client's tasks that narrate
        self.language = language()

    def __repr__(self) -> str:
        return f"<NetSession {self.name!r} seat={self.seat} {self.status.value}>"

    def host_process_ended(self, code: int | None, resume: str | None) -> None:
        """The host process this client's command started (`modernart host`) ended by itself:
        say so, and how the game goes on, instead of asking someone to resume it."""
        with speaking(self.language):
            self.host_stopped = self.last_word = host_stopped_text(code, resume, self.ssh_guest)
            append_log(self.log, LogEntry(self.host_stopped, "system"))
        self._copy()
        self.changed()

    # ------------------------------------------------------------------ from the client

    def _on_update(self, update) -> None:
        with speaking(self.language):
            self._take_update(update)

    def _take_update(self, update) -> None:
        kind, data = update
        if kind == "event":
            self.narrator.event(data, self.client.state, self.client.hand_ready)
            self._narrate_vote(data)
        elif kind == "observation":
            self.narrator.sealed(data, self.client.state.sealed, self.client.state.players)
        elif kind == "chat":
            seat, name, text = data
            append_log(self.log, LogEntry(text, "chat", name))
        elif kind == "error":
            code, message = data
            append_log(self.log, LogEntry(_sentence(refusal_text(code, None, message)), "error"))
        elif kind == "status" and data == "reconnecting":
            append_log(self.log, LogEntry(_("Lost touch with the host: reconnecting..."), "system"))
        elif kind == "status" and data == "connected" and self.notice:
            append_log(self.log, LogEntry(_("Back in touch with the host"), "system"))
        elif kind == "silent":
            if (
                self.client.state.status == "reconnecting"
                and self._silent < HOST_GONE <= data
                and not self.host_stopped
            ):
                append_log(self.log, LogEntry(silence_advice(data), "system"))
            self._silent = data
        elif kind == "lobby" and data.get("fixed_deal") is not None and not self._told_fixed_deal:
            self._told_fixed_deal = True
            append_log(self.log, LogEntry(fixed_deal_text(), "system"))
        elif kind == "lobby" and data.get("hidden_hands") and not self._told_hidden:
            self._told_hidden = True
            append_log(self.log, LogEntry(hidden_hands_text(), "system"))
        elif kind == "clock_played" and self.seat is not None and 0 <= self.seat < len(self.names):
            # a hidden-hands table: this client plays the default card (net/client/card_clock.py)
            append_log(self.log, LogEntry(_("Time is up for {player}").format(player=self.names[self.seat]), "event"))
        elif kind == "evidence":  # this client stopped trusting the host and kept what it saw
            text = _("The evidence against the host is kept in {path}: modernart audit {path} checks it")
            append_log(self.log, LogEntry(text.format(path=data), "system"))
        elif kind == "goodbye":
            self.last_word = goodbye_text(data, self.ssh_guest)
            append_log(self.log, LogEntry(self.last_word, "system"))
        if kind == "status" and data == "connected":
            self._silent, self.last_word = 0, ""
        self._copy()
        self.changed()

    def _note_presence(self, table: dict) -> None:
        """Track (and tell) the people of a running game who are away: lost touch with the
        table, or played by a stand-in meanwhile.  The first picture after connecting is
        taken as it is (its changes happened before this client looked)."""
        seats = table.get("seats") if table.get("game") is not None else None
        if not seats or not self.names:
            self.away, self._presence_seen = frozenset(), False
            return
        people = [
            raw
            for raw in seats
            if isinstance(raw, dict)
            and not raw.get("bot")
            and isinstance(raw.get("seat"), int)
            and 0 <= raw["seat"] < len(self.names)
        ]
        away = frozenset(raw["seat"] for raw in people if raw.get("standin") or not raw.get("connected", True))
        if self._presence_seen:
            for seat in sorted(away - self.away):
                if seat != self.seat:
                    text = _("{player} lost touch with the table").format(player=self.names[seat])
                    append_log(self.log, LogEntry(text, "system"))
            for seat in sorted(self.away - away):
                if seat != self.seat:
                    text = _("{player} is back at the table").format(player=self.names[seat])
                    append_log(self.log, LogEntry(text, "system"))
        self.away, self._presence_seen = away, True

    def _narrate_vote(self, info) -> None:
        """The vote's lines (docs/fair-play.md "No table waits for ever"): whom this person
        may vote on is this session's state, the sentences are the narrator's."""
        if info.seq <= self._vote_seq or info.kind not in ("decide", "dlate"):
            return
        self._vote_seq = info.seq
        if info.kind == "dlate":
            self._copy_vote()
        st = self.client.state
        names = list(distinct_names([p["name"] for p in st.players])) if st.players else []
        self.narrator.vote(info, names, self.vote_on)

    def _copy(self) -> None:
        """Take the client's latest state into the attributes the screens read."""
        st = self.client.state
        table = st.table or {}
        if st.status in ("closed", "failed"):
            self.status = Status.DISCONNECTED
            # what made it stop trusting the host, if that is what ended it (later errors say less)
            caught = [(code, m) for code, m in st.errors if code == "untrusted_host"][:1]
            errors = [refusal_text(code, None, m) for code, m in caught or st.errors]
            self.detail = _sentence(errors[-1]) if st.status == "failed" and errors else _("the connection was closed")
        elif st.status == "connecting":
            self.status = Status.CONNECTING
        else:
            self.status = _STATE.get(str(table.get("state")), Status.CONNECTING)
            self.detail = ""
        if st.status == "host_closed":
            self.notice = _("the host closed the table")
        elif st.status == "reconnecting" and self.host_stopped:
            self.notice = _("the host stopped (see the log)")
        elif st.status == "reconnecting":
            self.notice = silence_notice(self._silent)
        elif st.game_id is not None and not self.client.caught_up:  # a slow link after a restart
            self.notice = _("catching up: event {held} of {head}").format(
                held=st.head_seq, head=self.client.receiving.catch_up_head
            )
        else:
            self.notice = ""
        if table:
            self.lobby = lobby_view(table, self.my_fpr)
        self.names = distinct_names([p["name"] for p in st.players]) if st.players else ()
        self._note_presence(table)
        self.obs = st.observation
        self.cards_coming = st.role in ("player", "standin") and not self.client.hand_ready
        self.mystery_coming = self.client.mystery_coming
        if not self.cards_coming:
            self.narrator.cards_readable()
        self.last_reveal = self.narrator.last_reveal
        if self.obs is None and st.role == "spectator":  # no seat: the table from its public facts alone
            self.obs = self.client.watcher_observation()
        if self.status == Status.PLAYING and self.obs is not None and self.obs.is_over:
            # the event that ends the game comes first; the table's state says "over" only once
            # the host has saved the record (at a hidden-hands table, after every deck key)
            self.status = Status.OVER
        if self.status == Status.LOBBY and self.lobby is not None:
            self.seat = next(
                (
                    s.seat
                    for s, raw in zip(self.lobby.seats, table.get("seats") or [])
                    if raw and raw.get("fpr") == self.my_fpr
                ),
                None,
            )
        else:
            self.seat = st.seat
        if self.status in (Status.PLAYING, Status.OVER) and st.role == "spectator":
            self.detail = _("every seat is taken: you are watching")
        now_loop = asyncio.get_running_loop().time()
        now = time.monotonic()
        open_at, decide_at = st.deadlines.get("open"), st.deadlines.get("decide")
        if decide_at is None:  # a hidden-hands table whose host's clock stopped: this client's own
            decide_at = self.client.card_clock.deadline
        self.open_deadline = None if open_at is None else now + (open_at - now_loop)
        self.decision_deadline = None if decide_at is None else now + (decide_at - now_loop)
        call_at = st.deadlines.get("call")
        self.call_deadline = None if call_at is None else now + (call_at - now_loop)
        deck_at = st.deadlines.get("deck")
        self.deck_deadline = None if deck_at is None else now + (deck_at - now_loop)
        self.deck_late = st.deck_late
        self._copy_vote()
        self.hidden_hands = table.get("hidden_hands") is True
        self.reveals_owed = st.reveals_owed
        # this client's own saved copy first: the lobby's path is on the host's machine
        record = st.saved_record or table.get("record")
        if isinstance(record, str):
            self.record_path = record
        host_copy = table.get("record")  # a path on the host's machine (this one, for `play`)
        self.host_record_path = host_copy if isinstance(host_copy, str) and host_copy != record else None

    # ------------------------------------------------------------------ the screens' calls

    async def open(self) -> None:
        from modernart.net.client.client import ConnectError

        with speaking(self.language):
            if self.status != Status.CONNECTING:
                return
            try:
                await self.client.connect(self.connect_timeout)
            except ConnectError as exc:
                message = _sentence(refusal_text(exc.code, None, exc.message))
                if exc.code == "host_key_changed":  # never silently: the person decides to trust the new key
                    message = _(
                        "{problem} If you trust the host's new key, join again with --accept-new-host-key."
                    ).format(problem=_sentence(refusal_text(exc.code, None, exc.message)))
                self.status, self.detail = Status.DISCONNECTED, message
                self.changed()
                raise JoinError(message) from None
            try:  # the table's description follows the welcome
                await self.client.wait_until(lambda st: bool(st.table), self.connect_timeout)
            except asyncio.TimeoutError:
                pass
            self._copy()
            if self.sit and self.status == Status.LOBBY and self.seat is None:
                await self._reply(self.client.take_seat(self.name, self.wanted_seat))
                if self.ready_at_once:
                    await self._reply(self.client.ready(True))
            self._copy()
            self.changed()

    async def close(self) -> None:
        try:
            if self.leaves_seat_on_close and self.status == Status.LOBBY and self.seat is not None:
                try:
                    async with asyncio.timeout(LEAVE_SECONDS):
                        await self.client.leave()
                except TimeoutError:
                    log.info("the host did not free the seat in time")
        finally:
            await self.client.close()
        with speaking(self.language):
            self.status, self.detail = Status.DISCONNECTED, _("you left the table")

    async def _reply(self, request) -> None:
        reply = await request
        with speaking(self.language):
            self._refused(reply)

    def _refused(self, reply) -> None:
        if not reply.ok:
            text = refusal_text(reply.code, reply.params, reply.message) or reply.code or _("refused")
            append_log(self.log, LogEntry(_sentence(text), "error"))
            self.changed()

    async def send_move(self, move: Move) -> None:
        await self._reply(self.client.send_move(move))

    def _copy_vote(self) -> None:
        """The late seat this person may vote on (docs/fair-play.md "No table waits for
        ever"): a seat this client's own checked record names late, at a table that hides
        hands, if this seat is a person's; and what this person voted in that wait."""
        game, seat = self.client.game, self.seat
        self.vote_on = self.my_vote = None
        self.ended_without = game.ended_without if game is not None else None
        if game is None or seat is None or game.deck is None or game.game_over or not 0 <= seat < len(game.players):
            return
        if game.players[seat].get("bot") is not None:
            return
        late = sorted(s for s in game.late_at if s != seat) if seat not in game.late_at else []
        if late:
            self.vote_on = late[0]
            self.my_vote = self._votes.get((late[0], game.late_at[late[0]]))

    async def vote(self, choice: str) -> None:
        absent, game = self.vote_on, self.client.game
        if absent is None or game is None:
            return
        wait = (absent, game.late_at.get(absent, 0))
        reply = await self.client.vote(absent, choice)
        with speaking(self.language):
            if reply.ok:
                self._votes[wait] = choice
                self._copy_vote()
                self.changed()
            self._refused(reply)

    async def chat(self, text: str) -> None:
        await self._reply(self.client.chat(text))

    async def take_seat(self, seat: int) -> None:
        await self._reply(self.client.take_seat(self.name, seat))

    async def leave(self) -> None:
        await self._reply(self.client.leave())

    async def set_ready(self, ready: bool) -> None:
        await self._reply(self.client.ready(ready))

    async def add_bot(self, seat: int, level: str) -> None:
        lobby = self.lobby
        if lobby is not None and 0 <= seat < len(lobby.seats) and lobby.seats[seat].kind == "bot":
            await self._reply(self.client.remove_bot(seat))  # another level: replace the bot
        await self._reply(self.client.add_bot(level, seat))

    async def remove_bot(self, seat: int) -> None:
        await self._reply(self.client.remove_bot(seat))

    async def remove(self, fpr: str) -> None:
        await self._reply(self.client.remove(fpr))

    async def lock(self, flag: bool) -> None:
        await self._reply(self.client.lock(flag))

    async def set_options(self, options: RuleOptions) -> None:
        await self._reply(self.client.set_options(options.to_dict()))

    async def set_clocks(self, clocks: ClockSettings) -> None:
        await self._reply(self.client.set_clocks(clocks.to_dict()))

    async def start(self) -> None:
        await self._reply(self.client.start())


def _sentence(text: str) -> str:
    text = str(text).strip()
    return text[:1].upper() + text[1:] if text else text


#: How long the join screen listens for the table of a join code given on the command line
#: before it says that none was heard (hosts announce their tables every second).
CODE_PATIENCE = 3.0


class NetFinder(Listeners):
    """Tables heard on the LAN (UDP beacons, net/lan/beacon.py), and joining one."""

    def __init__(
        self,
        *,
        name: str,
        config_dir: str | None = None,
        bind: str = "0.0.0.0",
        port: int | None = None,
        code: str | None = None,
        accept_new_host_key: bool = False,
        keys=None,
    ) -> None:
        super().__init__()
        self.name, self.config_dir, self.bind, self.port = name, config_dir, bind, port
        self.keys = keys  # the player's key (None: the one kept in `config_dir`)
        self.accept_new_host_key = accept_new_host_key
        self.code = code  # join the table with this code as soon as it is heard
        self.autojoin: tuple[str, str] | None = None  # (join string, code) for the join screen
        self.missing_code: str | None = None  # `code` once CODE_PATIENCE passed with no table showing it
        self._code_found = False
        self._listening_since = 0.0
        self.tables: list[TableAd] = []
        self._listener: Listener | None = None
        self._task: asyncio.Task | None = None

    async def open(self) -> None:
        from modernart.net.lan.beacon import PORT, Listener

        try:
            self._listener = await Listener.open(self.bind, self.port or PORT)
        except OSError as exc:  # the port is busy: join strings still work
            log.info("cannot listen for beacons: %s", exc)
            return
        self._listening_since = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        from modernart.net.trust.identity import normalise_code

        while True:
            heard = self._listener.tables() if self._listener is not None else []
            ads = [
                TableAd(
                    h.name or "Modern Art",
                    f"{h.target.host}:{h.target.port}",
                    h.taken,
                    h.taken + h.free,
                    str(h.target),
                    needs_code=True,
                    hidden_hands=h.hidden,
                )
                for h in heard
            ]
            changed = ads != self.tables
            self.tables = ads
            if self.code and not self._code_found:
                match = [h for h in heard if h.code == normalise_code(self.code)]
                if match:
                    self._code_found, self.missing_code = True, None
                    self.autojoin = (str(match[0].target), self.code)
                    changed = True
                elif self.missing_code is None and time.monotonic() - self._listening_since >= CODE_PATIENCE:
                    self.missing_code = normalise_code(self.code)  # tables beacon every second: say so
                    changed = True
            if changed:
                self.changed()
            await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._listener is not None:
            self._listener.close()

    async def connect(self, join_string: str, code: str = "") -> NetSession:
        from modernart.net.lan.address import JoinStringError, parse_join_string
        from modernart.net.trust.identity import normalise_code

        try:
            target = parse_join_string(join_string)
        except JoinStringError as exc:
            raise JoinError(_sentence(str(exc))) from None
        if code and target.table is not None and normalise_code(code) != target.code:
            raise JoinError(_("Wrong join code: check the code on the host's screen"))
        session = NetSession(
            target,
            name=self.name,
            config_dir=self.config_dir,
            keys=self.keys,
            accept_new_host_key=self.accept_new_host_key,
        )
        await session.open()
        return session
