"""The lobby at 80 columns: the whole join string readable, seats in clean columns, values
stepped in order, its own help, and refusals that say what was refused."""

from __future__ import annotations

import re

import pytest

from modernart.cli.tui.screens.lobby import CLOCK_CHOICES, OPTION_CHOICES, lobby_rows
from tests.e2e.screen import Screen, run_async, table_with, until

pytestmark = pytest.mark.timeout(60)

LAN_ADDRESS = "192.168.1.23"


def unboxed(rows: list[str]) -> str:
    """The screen's rows without borders and margins, run together (text cut into pieces joins up)."""
    return "".join(row.strip().strip("│").strip() for row in rows)


@pytest.mark.parametrize("cols", [80, 100])
@run_async
async def test_the_whole_join_string_is_on_screen_and_in_the_help(cols):
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.announce(address=LAN_ADDRESS)
    JOIN = table.join_string  # a usual LAN join string: 79 characters with a 5-digit port
    await until(lambda: ana.lobby is not None and ana.lobby.join_string == JOIN)
    async with Screen(ana, cols=cols) as screen:
        await screen.wait_for("Seats")
        assert f"join code {table.join_code}" in screen.rows[0]
        assert any(JOIN in row for row in screen.rows), screen.text
        assert any("modernart join" in row for row in screen.rows)
        await screen.keys("?")
        text = await screen.wait_for("Help")
        assert JOIN in unboxed(screen.rows), text


@run_async
async def test_a_join_string_wider_than_the_terminal_is_cut_in_pieces_not_lost():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.announce(address="h" * 70)
    await until(lambda: ana.lobby is not None and ana.lobby.join_string == table.join_string)
    async with Screen(ana, cols=80) as screen:
        await screen.wait_for("Seats")
        assert table.join_string in unboxed(screen.rows)


@run_async
async def test_own_seat_name_never_runs_into_the_next_column():
    table, (ana, bea, cem) = await table_with(["Alice", "Bea", "Christopher Columbus"], start=False)
    async with Screen(ana, cols=80) as screen:
        text = await screen.wait_for("Seats")
        assert re.search(r">1 Alice \(you\) +person +not ready", text)
        assert re.search(r" 3 Christoph\S* +person +not ready", text)
        for row in screen.rows:
            assert "(youperson" not in row and "Columbusperson" not in row


def test_choices_step_in_order():
    for choices in [
        OPTION_CHOICES["start_money"],
        OPTION_CHOICES["sealed_offender_fine"],
        CLOCK_CHOICES["open_countdown"],
        CLOCK_CHOICES["decision"][1:],
        CLOCK_CHOICES["grace"],
    ]:
        assert list(choices) == sorted(choices)


@run_async
async def test_left_and_right_walk_the_open_countdown_in_order():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana, dummy=True) as screen:
        rows = lobby_rows(ana.lobby)
        for _ in range(rows.index(("clock", "open_countdown"))):
            await screen.keys("down")
        seen = []
        for _ in range(len(CLOCK_CHOICES["open_countdown"])):
            await screen.keys("right")
            seen.append(table.clocks.open_countdown)
        # from the end it wraps to the start once, otherwise each step goes up
        drops = [b < a for a, b in zip(seen, seen[1:])]
        assert drops.count(True) <= 1 and sorted(seen) == sorted(CLOCK_CHOICES["open_countdown"])
        await screen.keys("left")
        assert table.clocks.open_countdown == seen[-2]
        # the table is the real host's: a person who drops gets a stand-in, and the lobby says when
        assert ("clock", "grace") in rows


@run_async
async def test_lobby_help_lists_the_lobby_keys():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana) as screen:
        await screen.wait_for("Seats")
        await screen.keys("?")
        text = await screen.wait_for("Help")
        for words in ("r: ready", "b seats a bot", "s starts the game", "Enter on an empty seat"):
            assert words in text, words
        assert "Quick raises" not in text and "+ bids high+1" not in text


@run_async
async def test_a_guest_pressing_s_is_told_only_the_host_starts():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(bea, dummy=True) as screen:
        await screen.keys("s")
        assert screen.cs.message is not None and screen.cs.message.text == "Only the host starts the game"


@run_async
async def test_the_host_removes_a_person_or_a_watcher_after_asking_and_locks_the_table():
    """`x` on a person's seat or on a watcher asks "Remove ... from this table?" (n keeps, y
    removes, for good at this table); `l` locks the table to the players seated.  On
    a2b2fc2 `x` removed only bots ("Move to a bot's seat to remove it") and the lobby
    listed no watchers (checked: fails)."""
    from modernart.net.client.client import Client
    from modernart.net.trust.identity import Keys, fingerprint

    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    lobby = table.here.table.lobby
    watcher = Client(table.join_string, keys=Keys.generate(), spectate=True)
    await watcher.connect()
    try:
        await until(lambda: ana.lobby is not None and len(ana.lobby.watchers) == 1)
        async with Screen(ana, cols=80) as screen:
            await screen.wait_for("watching: key " + fingerprint(watcher.keys.vk))
            while lobby_rows(ana.lobby)[screen.cs.lobby_cursor] != ("seat", 1):
                await screen.keys("down")
            await screen.keys("x")
            text = await screen.wait_for("Remove Bea from this table?")
            assert "They cannot come back to this table" in text
            await screen.keys("n")  # kept
            await until(lambda: screen.cs.overlay is None)
            assert lobby.seats[1] is not None and lobby.seats[1].name == "Bea"
            await screen.keys("x")
            await screen.wait_for("Remove Bea from this table?")
            await screen.keys("y")
            await until(lambda: lobby.seats[1] is None)
            assert bea.client.keys.vk in lobby.removed
            while lobby_rows(ana.lobby)[screen.cs.lobby_cursor][0] != "watcher":
                await screen.keys("down")
            await screen.keys("x")
            await screen.wait_for("Remove this watcher from this table?")
            await screen.keys("y")
            await until(lambda: not ana.lobby.watchers)
            await screen.keys("l")
            await screen.wait_for("Locked: only the players seated may sit")
            assert lobby.locked == frozenset({ana.client.keys.vk, cem.client.keys.vk})
    finally:
        await watcher.close()
