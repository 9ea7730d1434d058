"""In-process test harness for the client: a real `ClientApp` reading a pipe input and
drawing through a real `Vt100_Output` (fixed size, changeable) into pyte, a terminal
emulator, so tests assert on exactly what a person would see.  Also builds tables with a
chosen deal, so every auction panel can be reached on purpose.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import re
import tempfile
from typing import Sequence

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from modernart.cli.tui.app import ClientApp
from modernart.cli.tui.local_session import LocalSession
from modernart.cli.tui.local_table import LocalTable
from modernart.cli.tui.session import Clocks, Status
from modernart.cards import CONSENSUS, AuctionType
from modernart.rules import RuleOptions

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


def run_async(fn):
    """Run an async test function in its own event loop (no pytest plugin needed), with the
    bounded clean-up of tests.net_helpers.run; the test's pytest-timeout mark is its limit."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from tests.net_helpers import run

        return run(fn(*args, **kwargs), timeout=3600)

    return wrapper


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
    ) -> None:
        self.session = session
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
        self.client = ClientApp(self.session, finder=self.finder, ascii=self.ascii, color=self.color, env=self.env)
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

    async def wait_for(self, pattern: str, timeout: float = 5.0) -> str:
        """Wait until the screen matches the regular expression `pattern`; return the screen."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            text = self.text
            if re.search(pattern, text):
                return text
            if loop.time() > end:
                raise AssertionError(f"timed out waiting for {pattern!r}; screen:\n{text}")
            await asyncio.sleep(0.03)

    def resize(self, cols: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=cols)
        self.screen.resize(rows, cols)
        self.client.app._on_resize()


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


async def table_with(
    names: Sequence[str],
    hands: Sequence[Sequence[tuple[int, AuctionType]]] = (),
    *,
    first: int = 0,
    clocks: Clocks | None = None,
    options: RuleOptions | None = None,
    start: bool = True,
    record_dir: str | None = None,
    seats: int | None = None,
) -> tuple[LocalTable, list[LocalSession]]:
    """A table of people only (each a LocalSession), dealt `hands`, `first` auctioneer."""
    options = options or RuleOptions()
    per_hand = options.deal_sizes(len(names))[0]
    hands = list(hands) + [[] for _ in range(len(names) - len(hands))]
    table = LocalTable(
        seats or len(names),
        options=options,
        clocks=clocks or Clocks(open_seconds=60),
        deck_order=deck_with_hands(hands, per_hand),
        first_auctioneer=first,
        record_dir=record_dir or tempfile.mkdtemp(prefix="modernart-test-"),
    )
    sessions = [LocalSession(table, name) for name in names]
    for s in sessions:
        await s.open()
    if start:
        assert table.start(force=True) is None
        assert all(s.status == Status.PLAYING for s in sessions)
    return table, sessions
