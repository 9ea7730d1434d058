"""In-process test harness for the client: a real `ClientApp` reading a pipe input and
drawing through a real `Vt100_Output` (fixed size, changeable) into pyte, a terminal
emulator, so tests assert on exactly what a person would see.  Also builds tables of the
real host (net/host/, in this process on 127.0.0.1) with a chosen deal (an announced fixed
deal, net/trust/shuffle.py `FixedDeal`), so every auction panel can be reached on purpose.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import functools
import io
import re
from typing import Any, Callable, Sequence

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from modernart.cli.screen_options import ScreenOptions
from modernart.cli.tui.app import ClientApp
from modernart.cli.tui.in_process_host import InProcessHost, seat_people
from modernart.cli.tui.local_game import TableSettings
from modernart.cli.tui.net_session import NetFinder, NetSession
from modernart.cli.tui.session import Status, TableAd
from modernart.cards import CONSENSUS, AuctionType
from modernart.game import GameState
from modernart.moves import Move
from modernart.net.clocks import ClockSettings
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.identity import Keys
from modernart.rules import RuleOptions

from tests.idle import idle
from tests.slowdown import scaled

KEYS = {
    "enter": "\r",
    "left": "\x1b[D",
    "right": "\x1b[C",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "backspace": "\x7f",
    "esc": "\x1b",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "c-c": "\x03",
}
O, ONE, S, F, D = (
    AuctionType.OPEN,
    AuctionType.ONCE_AROUND,
    AuctionType.SEALED,
    AuctionType.FIXED_PRICE,
    AuctionType.DOUBLE,
)


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colour_codes(raw: str) -> set[str]:
    """Every colour an output selects (SGR 30-37, 40-47, 90-107, 38;5;N, 38;2;R;G;B, ...)."""
    codes: set[str] = set()
    for params in SGR.findall(raw):
        parts = params.split(";")
        i = 0
        while i < len(parts):
            p = parts[i]
            if p in ("38", "48"):
                width = 3 if i + 1 < len(parts) and parts[i + 1] == "5" else 5
                codes.add(";".join(parts[i : i + width]))
                i += width
                continue
            if p and (30 <= int(p) <= 37 or 40 <= int(p) <= 47 or 90 <= int(p) <= 107):
                codes.add(p)
            i += 1
    return codes


def squeezed(rows: Sequence[str]) -> str:
    """The text inside a panel's borders with every space taken out: a line the screen
    wrapped reads the same wherever it broke (a path's length moves the breaks)."""
    return re.sub(r"\s", "", "".join(r[1:-1] for r in rows))


def run_async(fn):
    """Run an async test function in its own event loop (no pytest plugin needed), with the
    bounded clean-up of tests.net_helpers.run; the test's pytest-timeout mark is its limit."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from tests.net_helpers import run

        async def test_then_close_tables():
            try:
                return await fn(*args, **kwargs)
            finally:
                await close_tables()

        return run(test_then_close_tables(), timeout=3600)

    return wrapper


#: The tables `table_with` built in the running test (closed when it ends)
OPEN_TABLES: list["HostTable"] = []


async def close_tables() -> None:
    """Close every table of the test: the host first (its goodbye reaches the sessions), then
    the people's sessions."""
    tables, OPEN_TABLES[:] = list(OPEN_TABLES), []
    for table in tables:
        await table.close()


class _Terminal(io.StringIO):
    """What Vt100_Output writes to: remembers everything, looks like a UTF-8 tty."""

    def __init__(self, encoding: str = "utf-8") -> None:
        super().__init__()
        self._encoding = encoding

    def isatty(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return self._encoding


class Screen:
    """A running client.  `await screen.keys("p")`, `await screen.wait_for("text")`,
    `screen.rows` (what a terminal shows), `screen.raw` (the bytes sent)."""

    def __init__(
        self,
        session=None,
        *,
        cols: int = 80,
        rows: int = 24,
        env: dict | None = None,
        ascii: bool | None = None,
        color: str = "auto",
        finder=None,
        dummy: bool = False,
        encoding: str = "utf-8",
        alerts: bool | None = None,
        settings_dir: str | None = None,
        lang: str | None = None,
        bidi: str | None = None,
    ) -> None:
        # the client's per-user settings live in a directory of the test's own (a fresh one:
        # a first game) unless it names one, never in the user's config directory
        self.alerts, self.settings_dir = alerts, settings_dir
        self.session = session
        self.lang, self.bidi = lang, bidi  # this client's language and BiDi mode (default: the process's)
        self.size = Size(rows=rows, columns=cols)
        self.env = {"TERM": "xterm-256color"} if env is None else env
        self.ascii, self.color, self.finder, self.dummy = ascii, color, finder, dummy
        self.term = _Terminal(encoding)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self._fed = 0
        self._stack = contextlib.ExitStack()
        self.result: int | None = None

    async def __aenter__(self) -> "Screen":
        inp = self._stack.enter_context(create_pipe_input())
        self.input = inp
        if self.dummy:
            output = DummyOutput()
        else:
            output = Vt100_Output(self.term, lambda: self.size, term=self.env.get("TERM"))
        self._stack.enter_context(create_app_session(input=inp, output=output))
        settings_dir = self.settings_dir or self._stack.enter_context(tempfile.TemporaryDirectory())
        self.client = ClientApp(
            self.session,
            finder=self.finder,
            screen=ScreenOptions(ascii=self.ascii, color=self.color, alerts=self.alerts),
            env=self.env,
            settings_dir=settings_dir,
            language=self.lang,
            bidi=self.bidi,
        )
        self.cs = self.client.cs
        self.task = asyncio.ensure_future(self.client.run())
        await self.settle(0.3)
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            if not self.task.done():
                self.client.exit()
            async with asyncio.timeout(5):
                self.result = await self.task
        finally:
            self._stack.close()

    async def settle(self, seconds: float = 0.08) -> None:
        await asyncio.sleep(seconds)

    async def keys(self, *keys: str, pause: float = 0.08) -> None:
        """Press keys: names from KEYS, or literal text (each character a key)."""
        for key in keys:
            self.input.send_text(KEYS.get(key, key))
            await self.settle(0.2 if key == "esc" else pause)
            await self.table_settled()

    async def table_settled(self) -> None:
        """At a test table (`table_with`), until what the key asked for has been answered and
        every person's session has seen it (a real host answers over the network)."""
        table = getattr(self.session, "table", None)
        if isinstance(table, HostTable):
            await table.quiet()

    async def type(self, text: str) -> None:
        for ch in text:
            await self.keys(ch, pause=0.02)
        await self.settle()

    # ------------------------------------------------------------------ reading the screen

    @property
    def raw(self) -> str:
        return self.term.getvalue()

    def _feed(self) -> None:
        data = self.raw
        if len(data) > self._fed:
            self.stream.feed(data[self._fed :])
            self._fed = len(data)

    @property
    def rows(self) -> list[str]:
        self._feed()
        return list(self.screen.display)

    @property
    def text(self) -> str:
        return "\n".join(self.rows)

    async def drawn(self, timeout: float = 2.0) -> None:
        """Return once the client has drawn a frame after this call: the screen shows at
        least everything its session held when it was called."""
        app = self.client.app
        done = asyncio.get_running_loop().create_future()

        def rendered(_app) -> None:
            if not done.done():
                done.set_result(None)

        app.after_render += rendered
        try:
            app.invalidate()
            async with asyncio.timeout(scaled(timeout)):
                await done
        except TimeoutError:
            pass  # not running (any more): the screen is what it is
        finally:
            app.after_render -= rendered

    async def wait_for(self, pattern: str, timeout: float = 5.0) -> str:
        """Wait until the screen matches the regular expression `pattern` (in a frame drawn
        after this call; at most `timeout` seconds, scaled); return the screen."""
        await self.drawn()
        loop = asyncio.get_running_loop()
        end = loop.time() + scaled(timeout)
        while True:
            text = self.text
            if re.search(pattern, text):
                return text
            if loop.time() > end:
                raise AssertionError(f"not within {scaled(timeout):.0f} s: {pattern!r}; screen:\n{text}")
            await asyncio.sleep(0.03)

    def resize(self, cols: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=cols)
        self.screen.resize(rows, cols)
        self.client.app._on_resize()


def quick_game(directory) -> TableSettings:
    """A game of Ana and two random bots played at full speed, journaled in `directory`."""
    return TableSettings(
        players=3,
        levels=["random", "random"],
        bot_pace=0,
        journal_dir=str(directory),
        config_dir=str(directory / "config"),
        clocks={"open_countdown": 0.05, "decision": 0},
    )


async def play_to_the_end(session, screen: "Screen", moves: int = 20000) -> None:
    """Play `session`'s seat as a random bot until the game is over (the others are the
    table's own bots), a little at a time so that `screen` keeps drawing."""
    from modernart.bots import make_bot

    me = make_bot("random", 3)
    for _ in range(moves):
        obs = session.obs
        if obs is not None and obs.is_over:
            return
        if obs is not None and obs.my_turn:  # None: not dealt yet
            move = me.choose(obs)
            if move is not None:
                await session.send_move(move)
        await screen.settle(0.002)


# ---------------------------------------------------------------------- tables with a chosen deal


def card_ids(artist: int, kind: AuctionType, used: set[int]) -> int:
    """The first unused card of `artist` with auction `kind` in the default deck."""
    for card in CONSENSUS.build():
        if card.artist == artist and card.kind == kind and int(card) not in used:
            used.add(int(card))
            return int(card)
    raise ValueError(f"no more cards of artist {artist} kind {kind!r}")


def deck_with_hands(hands: Sequence[Sequence[tuple[int, AuctionType]]], per_hand: int) -> list[int]:
    """A deck order dealing each seat the given (artist, kind) cards first, then filler."""
    used: set[int] = set()
    chosen = [[card_ids(a, k, used) for a, k in hand] for hand in hands]
    rest = [int(c) for c in CONSENSUS.build() if int(c) not in used]
    order: list[int] = []
    for hand in chosen:
        need = per_hand - len(hand)
        order += hand + rest[:need]
        rest = rest[need:]
    return order + rest


#: The clocks of a test table: a long Open countdown, no decision clock
#: (the hammer call is off: these tests press keys and see the sale at once; test_tui_hammer_call.py
#: runs the call)
TEST_CLOCKS = ClockSettings(open_countdown=60, decision=0, hammer_call=0)
#: Longest wait for a table's people to see their seats, or the game's deal
TABLE_READY = 10.0
#: Longest wait for a table to settle after a person's request (see `HostTable.settled`)
SETTLE_LIMIT = 3.0


class SettledSession(NetSession):
    """A person at a test table: each request returns once every person's session has seen
    its outcome (as at one table in one process), so a test can look at once."""

    table: "HostTable | None" = None

    async def _settled(self, request) -> None:
        table = self.table
        if table is None:
            await request
            return
        table.in_flight += 1
        try:
            await request
            await table.settled()
        finally:
            table.in_flight -= 1

    async def send_move(self, move: Move) -> None:
        await self._settled(super().send_move(move))

    async def chat(self, text: str) -> None:
        await self._settled(super().chat(text))

    async def take_seat(self, seat: int) -> None:
        await self._settled(super().take_seat(seat))

    async def set_ready(self, ready: bool) -> None:
        await self._settled(super().set_ready(ready))

    async def add_bot(self, seat: int, level: str) -> None:
        await self._settled(super().add_bot(seat, level))

    async def remove_bot(self, seat: int) -> None:
        await self._settled(super().remove_bot(seat))

    async def set_options(self, options: RuleOptions) -> None:
        await self._settled(super().set_options(options))

    async def set_clocks(self, clocks: ClockSettings) -> None:
        await self._settled(super().set_clocks(clocks))

    async def start(self) -> None:
        await self._settled(super().start())


class HostTable:
    """A table of the real host in this process, and what the tests read of it."""

    def __init__(self, here: InProcessHost) -> None:
        self.here = here
        self.host = here.host
        self.table = here.table
        self.sessions: list[NetSession] = []
        self.in_flight = 0  # requests of its sessions not yet answered and settled
        OPEN_TABLES.append(self)

    @property
    def join_string(self) -> str:
        return str(self.host.target(self.table.id))

    @property
    def join_code(self) -> str:
        return self.host.target(self.table.id).code

    @property
    def name(self) -> str:
        return self.table.name

    def announce(self, *, name: str | None = None, address: str | None = None) -> None:
        """Rename the table, or say it at another address (the join string shows it), and
        tell everyone (the lobby message)."""
        if name is not None:
            self.table.name = name
        if address is not None:
            self.host.router.advertise = address
        self.host.fanout.broadcast_lobby(self.table)

    @property
    def state(self) -> GameState:
        assert self.table.game is not None and self.table.game.state is not None
        return self.table.game.state

    @property
    def received(self) -> list[Move]:
        """Every move a person made and the host applied, in order: signed actions, and sealed
        bids once revealed (the host learns a sealed bid's amount only from its reveal)."""
        game = self.table.game
        if game is None:
            return []
        moves = []
        for e in game.log:
            pub = decode_host_inner(e.public)
            if e.move and pub.get("by") in ("player", "reveal"):
                moves.append(Move.from_list(e.move))
            if pub.get("k") == "settle":  # protocol 2: every seat's sealed bid in one event
                moves += [Move.from_list(bid["m"]) for bid in pub["bids"] if bid["by"] == "reveal"]
        return moves

    def committed(self, seat: int) -> bool:
        """The host holds `seat`'s sealed-bid commitment in the running Sealed auction."""
        game = self.table.game
        return game is not None and game.sealed is not None and game.sealed.entries[seat] is not None

    @property
    def seats(self):
        return self.table.lobby.seats

    @property
    def options(self) -> RuleOptions:
        return self.table.game.options if self.table.game is not None else self.table.lobby.options

    @property
    def clocks(self) -> ClockSettings:
        return self.table.clocks

    @property
    def status(self) -> Status:
        return {"lobby": Status.LOBBY, "playing": Status.PLAYING, "over": Status.OVER}[self.table.phase]

    async def settled(self) -> None:
        """Return once every person's session has seen all the host has done (tests/idle.py),
        or after SETTLE_LIMIT if the table keeps moving (a running clock: the test waits for
        what it needs)."""
        clients = [s.client for s in self.sessions if s.status != Status.DISCONNECTED]
        await idle(self.host, clients, limit=SETTLE_LIMIT, strict=False)

    async def quiet(self) -> None:
        """Return once no request of its people is on its way (a key's request included) and
        every session has seen the outcome."""
        try:
            async with asyncio.timeout(SETTLE_LIMIT):
                while self.in_flight:
                    await asyncio.sleep(0.005)
        except TimeoutError:
            return  # still waiting for an answer: the test waits for what it needs
        await self.settled()

    async def close(self) -> None:
        await self.here.close()
        for session in self.sessions:
            await session.close()


async def until(condition, timeout: float = TABLE_READY, what: Callable[[], Any] | None = None) -> None:
    """Wait until `condition()` holds (AssertionError after `timeout` seconds, scaled, saying
    what `what()` shows then)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + scaled(timeout)
    while not condition():
        if loop.time() > end:
            seen = f"; seen: {what()}" if what is not None else ""
            raise AssertionError(f"not within {scaled(timeout):.0f} s: {condition}{seen}")
        await asyncio.sleep(0.01)


async def table_with(
    names: Sequence[str],
    hands: Sequence[Sequence[tuple[int, AuctionType]]] = (),
    *,
    first: int = 0,
    clocks: ClockSettings | None = None,
    options: RuleOptions | None = None,
    start: bool = True,
    record_dir: str | None = None,
    clock: Any = None,
) -> tuple[HostTable, list[NetSession]]:
    """A table of people only (each a NetSession) at the real host, dealt `hands` (a fixed
    deal), `first` auctioneer; with `start`, everyone says ready and the first starts; `clock` the
    host's (a `ManualClock` moves its timers only when the test says)."""
    options = options or RuleOptions()
    per_hand = options.deal_sizes(options.hands_dealt(len(names)))[0]  # a mystery hand is dealt as a 4th
    hands = list(hands) + [[] for _ in range(len(names) - len(hands))]
    settings = TableSettings(
        levels=[],
        table_name="Test table",
        options=options.to_dict(),
        clocks=(clocks or TEST_CLOCKS).to_dict(),
        bot_pace=0.0,
        journal_dir=record_dir,
        autostart=False,
        deal=deck_with_hands(hands, per_hand),
        first=first,
    )
    table = HostTable(await InProcessHost.start(settings, keys=Keys.generate(), clock=clock))
    table.sessions = await seat_people(
        table.here, list(names), start=start, timeout=TABLE_READY, session_class=SettledSession
    )
    for session in table.sessions:
        session.table = table
    await table.settled()
    return table, table.sessions


class HostFinder(NetFinder):
    """The tables of in-process hosts, as the join screen lists them (joined through the
    protocol like any table; only hearing them on the LAN is left out)."""

    def __init__(self, tables: Sequence[HostTable], name: str = "You") -> None:
        super().__init__(name=name, keys=Keys.generate())
        self._tables = list(tables)

    async def open(self) -> None:
        infos = [(t, t.table.info()) for t in self._tables]
        self.tables = [
            TableAd(t.name, "this machine", info["taken"], info["taken"] + info["free"], t.join_string)
            for t, info in infos
        ]
        self.changed()

    async def close(self) -> None:
        pass
