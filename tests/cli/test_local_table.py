"""A table of this machine, started in one place (cli/local_table.py `LocalTable.start`): in
this process (`play --offline`, whose player joins while the screen's modules load) or in
a child process (`play`), with the session of this machine's player in seat 1."""

from __future__ import annotations

import pytest

from modernart.cli.local_table import LocalTable
from modernart.cli.tui.local_game import TableSettings
from modernart.cli.tui.session import Status
from modernart.net.client.client import Client
from tests.e2e.screen import run_async
from tests.net_helpers import until

pytestmark = pytest.mark.timeout(120)


def a_table(tmp_path, **more) -> TableSettings:
    return TableSettings(
        players=3,
        levels=["random", "random"],
        bot_pace=0.0,
        journal_dir=str(tmp_path / "games"),
        config_dir=str(tmp_path / "config"),
        table_name="Ana's table",
        **more,
    )


def known_host_lines(tmp_path) -> list[str]:
    path = tmp_path / "config" / "state" / "known_hosts"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


@run_async
async def test_offline_joins_while_the_screen_loads_and_is_dealt(tmp_path):
    """`LocalTable.start(offline=True)` returns with this player seated and ready (the join
    ran while the screen's modules were imported in a worker thread), the game then deals
    without the screen's help, and the screen's first `open()` changes nothing."""
    table = await LocalTable.start(a_table(tmp_path), "Ana", offline=True)
    session = table.session
    try:
        assert session.seat == 0 and session.status != Status.CONNECTING, (session.seat, session.status)
        await until(lambda: session.obs is not None and session.obs.hand, 30, what=lambda: session.status)
        socket = session.client.sock
        await session.open()  # what the screen does as it attaches: already joined, nothing more
        assert session.seat == 0 and session.status == Status.PLAYING
        assert session.client.sock is socket  # the same connection, not a second one
        assert table.host.journal_path is not None and table.host.journal_path.startswith(str(tmp_path / "games"))
    finally:
        await session.close()
        await table.host.close()


@run_async
async def test_a_table_of_this_machine_adds_no_known_host_line(tmp_path):
    """Each local game's host listens on a loopback port of the moment: before, every
    `play`/`play --offline` added a known-hosts line for it (the file grew by a line per game,
    rewritten and synced on the start-up path: this test fails so when the player's session is
    made with `remembers_host=True`, as before).  Now the player's own table notes none, while
    a client joining any other table still does."""
    for _game in range(3):
        table = await LocalTable.start(a_table(tmp_path), "Ana", offline=True)
        try:
            await until(lambda: table.session.obs is not None, 30, what=lambda: table.session.status)
        finally:
            await table.session.close()
            await table.host.close()
    assert known_host_lines(tmp_path) == []
    # the same table joined as any other client would join it: remembered as before
    table = await LocalTable.start(a_table(tmp_path, autostart=False), "Ana", offline=True)
    other = Client(table.host.join_string, config_dir=str(tmp_path / "config"), identity="guest")
    try:
        await other.connect(10)
        await other.wait_until(lambda st: bool(st.table), 10)
        await until(lambda: bool(known_host_lines(tmp_path)), 10, what=lambda: known_host_lines(tmp_path))
        assert [line.split()[0] for line in known_host_lines(tmp_path)] == [other.address]
    finally:
        await other.close()
        await table.session.close()
        await table.host.close()


@run_async
async def test_a_child_host_starts_through_the_same_place(tmp_path):
    """`LocalTable.start(offline=False)`: the host in a child process (a new interpreter
    here, as on platforms without fork), joined as seat 1 by the same player session."""
    table = await LocalTable.start(a_table(tmp_path), "Ana", offline=False)
    session = table.session
    try:
        assert table.host.join_string and session.local_only and session.ends_when_you_leave
        await session.open()
        await until(lambda: session.obs is not None and session.obs.hand, 60, what=lambda: session.status)
        assert session.seat == 0
        assert known_host_lines(tmp_path) == []
    finally:
        await session.close()
        await table.host.close()
    assert table.host.proc.returncode is not None  # the child stopped with its client
