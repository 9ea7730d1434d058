"""The lobby at 80 columns: the whole join string readable, seats in clean columns, values
stepped in order, its own help, and refusals that say what was refused."""

from __future__ import annotations

import re

import pytest

from modernart.cli.tui.screens.lobby import CLOCK_CHOICES, OPTION_CHOICES, lobby_rows
from tests.e2e.screen import Screen, run_async, table_with

pytestmark = pytest.mark.timeout(60)

JOIN = "ma://192.168.1.23:47000/" + "A" * 52 + "/t1"  # 79 characters, a usual LAN join string


def unboxed(rows: list[str]) -> str:
    """The screen's rows without borders and margins, run together (text cut into pieces joins up)."""
    return "".join(row.strip().strip("│").strip() for row in rows)


@pytest.mark.parametrize("cols", [80, 100])
@run_async
async def test_the_whole_join_string_is_on_screen_and_in_the_help(cols):
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.join_string, table.join_code = JOIN, "H5UG-FHHK-UGAF"
    table._refresh()
    async with Screen(ana, cols=cols) as screen:
        await screen.wait_for("Seats")
        assert "join code H5UG-FHHK-UGAF" in screen.rows[0]
        assert any(JOIN in row for row in screen.rows), screen.text
        assert any("modernart join" in row for row in screen.rows)
        await screen.keys("?")
        text = await screen.wait_for("Help")
        assert JOIN in unboxed(screen.rows), text


@run_async
async def test_a_join_string_wider_than_the_terminal_is_cut_in_pieces_not_lost():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    table.join_string = "ma://" + "h" * 70 + ":47000/" + "A" * 52
    table._refresh()
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
        CLOCK_CHOICES["open_seconds"],
        CLOCK_CHOICES["decision_seconds"][1:],
        CLOCK_CHOICES["grace_seconds"],
    ]:
        assert list(choices) == sorted(choices)


@run_async
async def test_left_and_right_walk_the_open_countdown_in_order():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], start=False)
    async with Screen(ana, dummy=True) as screen:
        rows = lobby_rows(ana.lobby)
        for _ in range(rows.index(("clock", "open_seconds"))):
            await screen.keys("down")
        seen = []
        for _ in range(len(CLOCK_CHOICES["open_seconds"])):
            await screen.keys("right")
            seen.append(table.clocks.open_seconds)
        # from the end it wraps to the start once, otherwise each step goes up
        drops = [b < a for a, b in zip(seen, seen[1:])]
        assert drops.count(True) <= 1 and sorted(seen) == sorted(CLOCK_CHOICES["open_seconds"])
        await screen.keys("left")
        assert table.clocks.open_seconds == seen[-2]
        # nobody can drop from a table in this process: no stand-in row
        assert ("clock", "grace_seconds") not in rows and "Stand-in after" not in screen.text


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
