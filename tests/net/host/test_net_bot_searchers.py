"""A table's hard bot is told which seats are hard bots, as the arena tells it (the lobby
frame shows each seat's bot level): it is the same bot as the arena's, searching rivals
included.  A real host on 127.0.0.1, in-process bot clients."""

from __future__ import annotations

import asyncio

import pytest

from modernart.bots.hard import HardBot
from modernart.net.client.bot import BotClient
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run, seat_bots, until


async def _table_with_two_hard_bots(tmp):
    host, table = await in_process_host(tmp)
    watched = BotClient(host.target(), level="hard", keys=Keys.generate(), pace_scale=0, name="Watched")
    task = asyncio.get_running_loop().create_task(watched.run())
    try:
        await until(lambda: any(s and s.name == "Watched" for s in table.lobby.seats), 20)
        seat_bots(host, table, 1, level="hard")
        seat_bots(host, table, 1, level="random")
        bot = watched.bot
        assert isinstance(bot, HardBot)
        await until(lambda: bool(bot.searching), 60, what=lambda: bot.searching)
        players = table.game.players
        hard_seats = {i for i, p in enumerate(players) if p.bot == "hard"}
        return bot.searching, hard_seats, watched.client.state.seat
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await host.close()


@pytest.mark.timeout(120)
def test_a_tables_hard_bot_knows_the_other_hard_bots(tmp_path):
    searching, hard_seats, own = run(_table_with_two_hard_bots(tmp_path), 100)
    assert searching == hard_seats and len(hard_seats) == 1  # the lobby's hard bot; the watched seat is a person's
    assert own not in searching
