"""Bot clients inside the host process: a slow bot never stalls the event loop, closing the
host with its bots (and their stand-ins) running leaves no stray task error, and the
lobby message names the record once the host has saved it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from modernart.bots.base import RandomBot
from modernart.net.client.client import Client
from modernart.net.trust.identity import Keys

from tests.net_helpers import in_process_host, run, seat_bots, until


class GatedBot(RandomBot):
    """Thinks without yielding until the test lets it go, like a searching bot that blocks
    its thread; notes the thread each decision ran on."""

    def __init__(self, seed: int, inside: threading.Event, gate: threading.Event, threads: list[int]) -> None:
        super().__init__(seed=seed)
        self.inside, self.gate, self.threads = inside, gate, threads

    def choose(self, obs):
        self.threads.append(threading.get_ident())
        self.inside.set()
        self.gate.wait(60)  # blocks this thread, as a long search does
        self.threads.append(-1)  # a decision returned
        return super().choose(obs)


async def _gated_bots(tmp):
    """A bot's decision blocks its thread until the event loop, still running, lets it go:
    (thread of the loop, threads the decisions ran on, loop turns while the bot thought)."""
    host, table = await in_process_host(tmp, autostart=3)
    inside, gate, threads = threading.Event(), threading.Event(), []
    try:
        seat_bots(host, table, 3)
        for _token, (_task, bot) in host.bots.items():
            bot.bot = GatedBot(1, inside, gate, threads)
        await until(inside.is_set, 30, what=lambda: "no bot began a decision")
        for _ in range(50):  # the loop goes on while the decision blocks its own thread
            await asyncio.sleep(0)
        blocked_while_turning = -1 not in threads
        gate.set()
        await until(
            lambda: table.game is not None and table.game.state is not None and table.game.state.move_count >= 6,
            30,
        )
        return threading.get_ident(), threads, blocked_while_turning
    finally:
        gate.set()
        await host.close()


@pytest.mark.timeout(60)
def test_a_slow_bot_thinks_off_the_event_loop(tmp_path):
    """A decision that blocks its thread never runs on the event loop's thread, and the loop
    turns while it blocks (had it run there, the loop would stand still until the gate's
    60 s ran out and the decision's thread would be the loop's)."""
    loop_thread, threads, blocked_while_turning = run(_gated_bots(tmp_path), 50)
    assert threads and loop_thread not in threads, (loop_thread, threads)
    assert blocked_while_turning  # the loop turned 50 times while a decision was blocked


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
