"""Cancellation reaches what it cancels: a cancelled request, wait or bot really stops.

On Python 3.11 asyncio.wait_for returns the result instead of raising when the
cancellation and the result arrive in the same turn of the loop; a bot cancelled by a
closing host then played on and the host never finished closing (a suite once hung so).
"""

from __future__ import annotations

import asyncio

import pytest

from modernart.net.lan.address import JoinTarget
from modernart.net.client.client import Client
from modernart.net.client.state import Reply
from modernart.net.clocks import cancel_and_wait, wait_event
from modernart.net.trust.identity import Keys

from tests.net_helpers import run

NOWHERE = JoinTarget("127.0.0.1", 9, bytes(32))  # never connected: no traffic at all


async def _outcome(task: asyncio.Task) -> str:
    try:
        await task
    except asyncio.CancelledError:
        return "cancelled"
    return "swallowed"


async def _request_cancelled_as_the_reply_arrives() -> str:
    client = Client(NOWHERE, keys=Keys.generate())
    try:
        task = asyncio.get_running_loop().create_task(client.request({"t": "ping"}, 5.0))
        await asyncio.sleep(0)  # the request now waits for its reply
        (reply,) = client.requests.pending.values()
        reply.set_result(Reply(True))  # the reply and the cancellation in the same turn
        task.cancel()
        return await _outcome(task)
    finally:
        await client.close()


@pytest.mark.timeout(20)
def test_a_request_cancelled_as_its_reply_arrives_is_cancelled():
    assert run(_request_cancelled_as_the_reply_arrives(), 10) == "cancelled"


async def _wait_cancelled_as_the_event_is_set() -> str:
    """wait_event never had the fault (it was written around it); this keeps it so."""
    event = asyncio.Event()
    task = asyncio.get_running_loop().create_task(wait_event(event, 5.0))
    await asyncio.sleep(0)
    event.set()
    task.cancel()
    return await _outcome(task)


@pytest.mark.timeout(20)
def test_a_wait_cancelled_as_its_event_is_set_is_cancelled():
    assert run(_wait_cancelled_as_the_event_is_set(), 10) == "cancelled"


async def _stubborn(swallowed: list[int]) -> None:
    """Waits for ever; swallows its first cancellation (as one did through wait_for), not
    the second; `swallowed` counts them."""
    while True:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            swallowed[0] += 1
            if swallowed[0] > 1:
                raise


async def _stubborn_task_is_stopped() -> tuple[int, bool]:
    swallowed = [0]
    task = asyncio.get_running_loop().create_task(_stubborn(swallowed))
    await asyncio.sleep(0)
    await cancel_and_wait([task], retry=0.05)
    return swallowed[0], task.cancelled()


@pytest.mark.timeout(20)
def test_cancel_and_wait_cancels_again_a_task_that_swallowed_the_first_cancellation():
    assert run(_stubborn_task_is_stopped(), 10) == (2, True)


async def _endless() -> None:
    await asyncio.Event().wait()


@pytest.mark.timeout(20)
def test_run_fails_a_coroutine_that_does_not_finish_in_time():
    with pytest.raises(TimeoutError, match=r"not done within \d+ s"):  # 0.2 s, stretched by the slowdown factor
        run(_endless(), 0.2)


class _StubbornBot:
    """A bot client whose run swallows its first cancellation (see _stubborn)."""

    made: list[_StubbornBot] = []

    def __init__(self, *args, **kwargs) -> None:
        self.keys = Keys.generate()
        self.cancellations = [0]
        _StubbornBot.made.append(self)

    async def run(self) -> None:
        await _stubborn(self.cancellations)


async def _close_with_stubborn_bots(tmp) -> tuple[int, int, bool]:
    from modernart.net.host.host import Host
    from modernart.net.host.lobby import Lobby

    host = Host(Keys.generate(), bot_factory=_StubbornBot)
    await host.start()
    table = host.open_table("t", journal_dir=str(tmp / "games"), lobby=Lobby(), fsync=False)
    for _ in range(2):
        _seat, token = table.lobby.add_bot(None, "random")
        host.spawn_bot(table, token, "random")
    await asyncio.sleep(0)
    stopped = next(iter(host.bots))
    host.stop_bot(stopped)  # a stand-in told to stop (its player came back), not yet ended
    await asyncio.sleep(0)
    left = len(host.bots)
    await host.close()
    ended = sum(bot.cancellations[0] == 2 for bot in _StubbornBot.made)  # cancelled again, then gone
    return left, ended, bool(host.bots or host.stopping)


@pytest.mark.timeout(30)
def test_host_close_waits_for_every_bot_even_one_that_swallowed_its_cancellation(tmp_path):
    left, ended, still_known = run(_close_with_stubborn_bots(tmp_path), 20)
    assert left == 1  # the stopped one is no longer a seat's bot...
    assert ended == 2  # ...but close waited for it as for the other
    assert not still_known
