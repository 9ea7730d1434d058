"""Bot clients inside the host process: a slow bot never stalls the event loop, closing the
host with its bots (and their stand-ins) running leaves no stray task error, and the
lobby message names the record once the host has saved it."""

from __future__ import annotations

import asyncio
import time

import pytest

from modernart.bots.base import RandomBot
from modernart.net.client.client import Client
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run, seat_bots, until


class SlowBot(RandomBot):
    """Thinks for 0.4 s without yielding, like a searching bot (it blocks its thread)."""

    def choose(self, obs):
        time.sleep(0.4)
        return super().choose(obs)


async def _slow_bots(tmp):
    host, table = await in_process_host(tmp, autostart=3)
    loop = asyncio.get_running_loop()
    gaps = []

    async def ticker():
        last = loop.time()
        while True:
            await asyncio.sleep(0.01)
            now = loop.time()
            gaps.append(now - last)
            last = now

    tick = loop.create_task(ticker())
    try:
        seat_bots(host, table, 3)
        for _token, (_task, bot) in host.bots.items():
            bot.bot = SlowBot(seed=1)
        await until(
            lambda: table.game is not None and table.game.state is not None and table.game.state.move_count >= 6,
            30,
        )
        return max(gaps), len(gaps)
    finally:
        tick.cancel()
        await host.close()


@pytest.mark.timeout(60)
def test_a_slow_bot_thinks_off_the_event_loop(tmp_path):
    worst, ticks = run(_slow_bots(tmp_path), 50)
    assert ticks > 100
    assert worst < 0.2, f"the loop stalled for {worst:.2f} s"  # a decision takes 0.4 s


async def _close_with_bots(tmp):
    errors = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: errors.append(context.get("message")))
    host, table = await in_process_host(tmp, bot_pace=0.05, clocks={"grace": 0})
    seat_bots(host, table, 4)
    await until(lambda: table.game is not None and table.game.seq > 30, 30)
    bots = [bot for _task, bot in host.bots.values()]
    await host.close()
    for bot in bots:  # closing again after the host (as the UI does) is harmless
        await bot.client.close()
    await asyncio.sleep(0.5)
    import gc

    gc.collect()
    await asyncio.sleep(0.1)
    return errors, [bot.client.state.status for bot in bots]


@pytest.mark.timeout(60)
def test_closing_the_host_with_its_bots_running_is_clean(tmp_path):
    errors, statuses = run(_close_with_bots(tmp_path), 50)
    assert errors == []
    assert set(statuses) == {"closed"}


async def _record_in_lobby(tmp):
    host, table = await in_process_host(tmp)
    watcher = Client(host.target(), keys=Keys.generate(), spectate=True)
    await watcher.connect()
    try:
        seat_bots(host, table, 3)
        await watcher.wait_until(lambda s: "record" in s.table, 60)
        return watcher.state.table["record"], table.record_path
    finally:
        await watcher.close()
        await host.close()


@pytest.mark.timeout(90)
def test_the_lobby_message_names_the_saved_record(tmp_path):
    shown, saved = run(_record_in_lobby(tmp_path), 80)
    assert shown == saved and shown.endswith(".json")
