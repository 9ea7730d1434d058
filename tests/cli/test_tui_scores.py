"""Scoring you can read (pyte, 80x24 and larger, the real host in this process): the Scores
view (`v`) shows every round so far per artist and per player at any time; the log's
newest page never begins in the middle of an entry, so a round's summary is never cut."""

from __future__ import annotations

import re

import pytest

from modernart.cli.tui.session import LogEntry
from tests.e2e.screen import Screen, run_async, table_with
from tests.cli.test_tui_keys import ANA_HAND, ROUND_END_HANDS, play_to_round_end

pytestmark = pytest.mark.timeout(60)


@run_async
async def test_the_scores_view_shows_every_round_so_far():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana) as screen:
        await screen.wait_for("Your hand")
        await screen.keys("v")  # before any round: says so
        await screen.wait_for("No round has been scored yet")
        await screen.keys("enter")
        await play_to_round_end(sessions)
        await screen.wait_for("Round 1 scoring")
        await screen.keys("enter")
        await screen.keys("v")
        text = await screen.wait_for("Scores so far")
        result = ana.obs.results[0]
        assert re.search(r"Artist +R1 +R2 +R3 +R4", text) and "its place that round" in text
        assert re.search(r"K Krypto +30/1 +\. +\. +\.", text), text  # Krypto first in round 1
        assert re.search(r"Payouts +R1 +R2 +R3 +R4 +Total", text)
        for s, name in enumerate(("Ana", "Bea", "Cem")):
            paid = result.payouts[s]
            assert re.search(rf"{name} +\+{paid} +\. +\. +\. +{paid}\b", text), text
        assert re.search(r"\* Ana", text)  # you are marked
        assert len(screen.rows) == 24
        await screen.keys("v")
        text = await screen.wait_for("Your hand")
        assert "Scores so far" not in text


@run_async
async def test_the_scores_view_at_a_larger_terminal_without_colour():
    table, sessions = await table_with(["Ana", "Bea", "Cem"], ROUND_END_HANDS)
    ana = sessions[0]
    async with Screen(ana, cols=120, rows=40, env={"NO_COLOR": "1"}) as screen:
        await play_to_round_end(sessions)
        await screen.wait_for("Round 1 scoring")
        await screen.keys("enter", "v")
        text = await screen.wait_for("Scores so far")
        assert "K Krypto" in text and "Payouts" in text


@run_async
async def test_the_log_never_begins_in_the_middle_of_an_entry():
    table, (ana, bea, cem) = await table_with(["Ana", "Bea", "Cem"], [ANA_HAND])
    async with Screen(ana) as screen:
        await screen.wait_for("Your hand")
        summary = "Round 1 scored: " + ", ".join(f"Artist{i} paid {i * 10} to Player{i}" for i in range(8))
        ana.log.append(LogEntry(summary))
        ana.log.append(LogEntry("Round 2: you receive 6 paintings"))
        ana.changed()
        text = await screen.wait_for("Round 2: you receive")
        log = text.split("Log and chat")[1].splitlines()[1:5]
        shown = [row.strip("│ ") for row in log]
        # the summary takes 3 lines at this width; with the newest line that is 4: all of it
        # or none of it, never its tail alone
        assert any(row.startswith("Round 1 scored:") for row in shown) or not any("Player7" in row for row in shown), (
            shown
        )
