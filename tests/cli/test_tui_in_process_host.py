"""The real host inside the client's process (`modernart play --offline`): its bots think in
their own threads, so the event loop that draws the screen keeps running meanwhile."""

from __future__ import annotations

import asyncio
import time

import pytest

from modernart.bots import make_bot
from modernart.cli.local_table import play_here
from modernart.cli.tui.local_game import TableSettings
from modernart.rules import RuleOptions
from tests.e2e.screen import run_async

pytestmark = pytest.mark.timeout(60)

#: How long each decision of the bots below takes (a search that never yields the GIL
#: would stall the loop this long; long enough that a busy machine's pauses, a fraction of it,
#: are not taken for one)
THINKING = 2.0


class Ponderer:
    """A bot that thinks hard: `THINKING` seconds of a busy thread per decision (the pure
    Python work a search does), then the medium bot's move."""

    def __init__(self, level: str, seed=None) -> None:
        self.bot = make_bot("medium", seed)

    def choose(self, obs):
        end = time.monotonic() + THINKING
        while time.monotonic() < end:
            pass
        return self.bot.choose(obs)

    def pace(self, obs, move) -> float:
        return 0.0


@run_async
async def test_thinking_bots_never_freeze_the_loop(tmp_path, monkeypatch):
    import modernart.net.client.bot as bot_client

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
        async with asyncio.timeout(20):
            while host.table.game is None or host.table.game.state is None:
                await asyncio.sleep(0.01)
        state = host.table.game.state
        stalls: list[float] = []
        dealt_at = time.monotonic()
        async with asyncio.timeout(30):
            while state.move_count == 0:  # the bot in seat 2 is thinking
                before = time.monotonic()
                await asyncio.sleep(0.01)
                stalls.append(time.monotonic() - before - 0.01)
        assert time.monotonic() - dealt_at >= THINKING / 2  # most of the thinking was watched
        # the thread hands the loop its turn every few milliseconds (Python's switch interval)
        assert max(stalls) < THINKING / 4, max(stalls)
    finally:
        await session.close()
        await host.close()
