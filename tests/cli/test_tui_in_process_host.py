"""The real host inside the client's process (`modernart play --offline`): its bots think in
their own threads, so the event loop that draws the screen keeps running meanwhile."""

from __future__ import annotations

import threading

import pytest

from modernart.bots import make_bot
from modernart.cli.local_table import play_here
from modernart.cli.tui.local_game import TableSettings
from modernart.rules import RuleOptions
from tests.e2e.screen import run_async, until

pytestmark = pytest.mark.timeout(60)


class Thinking:
    """What the test's event loop knows of the bots' thinking: `started` once a bot thinks,
    `done` once the loop lets the bots decide, and the threads they thought on."""

    def __init__(self) -> None:
        self.started, self.done = threading.Event(), threading.Event()
        self.loop_thread = threading.get_ident()
        self.threads: set[int] = set()


class Ponderer:
    """A bot that thinks hard: a busy thread (the pure Python work a search does, never
    waiting on anything) until the test's event loop says `done`, then the medium bot's
    move.  Only a loop that keeps running while it thinks can stop it."""

    thinking = Thinking()

    def __init__(self, level: str, seed=None) -> None:
        self.bot = make_bot("medium", seed)

    def choose(self, obs):
        thinking = Ponderer.thinking
        thinking.threads.add(threading.get_ident())
        if threading.get_ident() == thinking.loop_thread:  # it would spin on the loop for good
            raise AssertionError("a bot thought on the event loop's thread")
        thinking.started.set()
        x = 0
        while not thinking.done.is_set():
            x = (x * 31 + 1) & 0xFFFF
        return self.bot.choose(obs)

    def pace(self, obs, move) -> float:
        return 0.0


@run_async
async def test_thinking_bots_never_freeze_the_loop(tmp_path, monkeypatch):
    """No latency is measured: while a bot's thread is busy thinking, the loop must still
    serve the client's request to the host and draw, and only it can let the bot finish."""
    import modernart.net.client.bot as bot_client

    thinking = Thinking()
    monkeypatch.setattr(Ponderer, "thinking", thinking)
    monkeypatch.setattr(bot_client, "make_bot", Ponderer)
    settings = TableSettings(
        players=3,
        levels=["medium", "medium"],
        bot_pace=0.0,
        journal_dir=str(tmp_path),
        deal=list(range(RuleOptions().deck_table.size))[::-1],
        first=1,  # a bot sells first: it thinks as soon as the cards are dealt
    )
    host, session = await play_here(settings, "Ana")
    try:
        await session.open()
        await until(lambda: bool(thinking.threads), 20, what=lambda: "no bot began to think")
        assert thinking.loop_thread not in thinking.threads, "a bot thought on the event loop's thread"
        assert thinking.started.is_set()  # the bot in seat 2 is thinking
        await session.client.list_tables()  # the host (this loop) answers the client (this loop)
        state = host.table.game.state
        assert state.move_count == 0 and not thinking.done.is_set()  # still thinking meanwhile
        thinking.done.set()
        await until(lambda: state.move_count > 0, 20, what=lambda: "the bot never played once let")
    finally:
        thinking.done.set()  # a bot thread still spinning must not outlive the test
        await session.close()
        await host.close()
