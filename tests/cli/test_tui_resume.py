"""Every game saved, every game resumable (headless, the real host in this process): a game
of `modernart play` left mid-game is journaled in the games directory, `modernart resume`
lists it as this player's, and continuing it hosts it again with its bots, the person back
in their seat with the hand they had; the shell is told where the game is."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from modernart.cli.local_table import after_words
from modernart.cli.cmd_resume import listing, pick
from modernart.cli.local_table import settings_for, your_unfinished_games
from modernart.cli.local_table import play_here
from modernart.cli.tui.local_game import TableSettings
from modernart.cli.tui.session import Status
from tests.e2e.screen import run_async
from tests.net_helpers import PY, ROOT, env
from tests.slowdown import scaled

pytestmark = pytest.mark.timeout(90)


async def _start_and_leave(tmp_path, moves: int = 3):
    """A game of Ana and three bots, left once `moves` moves are played; its journal."""
    settings = TableSettings(
        players=4,
        levels=["medium"] * 3,
        bot_pace=0.0,
        clocks={"decision": 0},
        journal_dir=str(tmp_path / "games"),
        config_dir=str(tmp_path / "config"),
        first=1,
        table_name="Ana's table",
    )
    host, session = await play_here(settings, "Ana")
    try:
        await session.open()
        async with asyncio.timeout(30):
            while host.table.game is None or host.table.game.state is None:
                await asyncio.sleep(0.01)
            state = host.table.game.state
            while session.obs is None or not (session.obs.my_turn or state.move_count >= moves):
                await asyncio.sleep(0.01)  # the bots play until Ana's turn (or a few moves), and she leaves
        hand = session.obs.hand
        seen = state.move_count
    finally:
        await session.close()
        await host.close()
    return host.journal_path, hand, seen, session


@run_async
async def test_a_game_left_mid_game_is_listed_and_continues_with_its_bots(tmp_path):
    journal, hand, seen, left = await _start_and_leave(tmp_path)
    assert journal is not None and journal.startswith(str(tmp_path / "games"))
    words = after_words(left, journal, resumable=True)
    assert "Continue it with: modernart resume" in words and journal in words
    games = your_unfinished_games(str(tmp_path / "games"), str(tmp_path / "config"))
    assert [g.path for g in games] == [journal]
    game = games[0]
    assert game.local and game.seat_of(left.client.keys.vk.hex()) == 0 and not game.finished
    text = "\n".join(listing(games, str(tmp_path / "config")))
    assert " 1. Ana's table: you, " in text and "(medium bot)" in text and "round 1 of 4" in text
    assert pick(games, "1") is game and pick(games, journal) is game and pick(games, "2") is None
    # someone else's key finds nothing to continue
    assert your_unfinished_games(str(tmp_path / "games"), str(tmp_path / "other")) == []

    host, session = await play_here(settings_for(game, str(tmp_path / "config")), "Ana")
    try:
        await session.open()
        async with asyncio.timeout(30):
            while session.obs is None or session.status != Status.PLAYING:
                await asyncio.sleep(0.01)
        assert session.seat == 0 and session.client.state.role == "player"
        assert session.obs.hand == hand  # the same hand: the same game, from where it was
        state = host.table.game.state
        assert state.move_count >= seen
        async with asyncio.timeout(30):  # the bots play on (stand-ins of their own level) until Ana's turn
            while not session.obs.my_turn:
                await asyncio.sleep(0.01)
        assert host.table.game.players[1].bot == "medium" and not state.is_over()
    finally:
        await session.close()
        await host.close()


def test_resume_without_games_and_with_a_wrong_number(tmp_path):
    base = [PY, "-m", "modernart", "resume", "--record-dir", str(tmp_path / "games"), "--config-dir", str(tmp_path)]
    done = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, env=env(), timeout=30)
    assert done.returncode == 0 and "no unfinished game of yours in" in done.stdout
    done = subprocess.run(base + ["3"], capture_output=True, text=True, cwd=ROOT, env=env(), timeout=30)
    assert done.returncode == 2 and "'3' is not one of your unfinished games" in done.stderr


async def _continue_and_leave(tmp_path, to_the_end: bool) -> tuple[int, str | None]:
    """Continue this machine's unfinished game (as `modernart resume` does, its bots at full
    speed), Ana playing random moves, and leave it once the bots have moved on (or play it
    to its end); the moves played then, and the record once it is over."""
    from dataclasses import replace

    from modernart.bots import make_bot

    game = your_unfinished_games(str(tmp_path / "games"), str(tmp_path / "config"))[0]
    settings = replace(settings_for(game, str(tmp_path / "config")), bot_pace=0.0)
    host, session = await play_here(settings, "Ana")
    bot = make_bot("random", 5)
    try:
        await session.open()
        state = host.table.game.state
        start = state.move_count
        async with asyncio.timeout(scaled(60)):  # on a2b2fc2: never, from the second continue
            while not state.is_over() and (to_the_end or state.move_count < start + 8):
                obs = session.obs
                if session.status == Status.PLAYING and obs is not None and obs.my_turn:
                    reply = await session.client.send_move(bot.choose(obs))
                    if reply.ok:
                        await session.client.wait_until(lambda s: s.head_seq >= (reply.seq or 0), 20)
                        continue
                await asyncio.sleep(0.01)  # the bots (stand-ins again) play on, or Ana's view catches up
            if to_the_end:
                while host.table.record_path is None:
                    await asyncio.sleep(0.01)
        return state.move_count, host.table.record_path
    finally:
        await session.close()
        await host.close()


@pytest.mark.timeout(300)
@run_async
async def test_a_game_continued_five_times_is_played_to_a_passing_audit(tmp_path):
    """`play`, quit, `modernart resume`, quit, `modernart resume` ...: after every continue
    the bots play again (stand-ins of their own level: the table of `play` shows the host
    the hands); the game ends and its record passes the audit.  On a2b2fc2 the second
    continue never moved again: the journalled delegations of the stand-ins the first
    continue ran were restored, and no stand-in was seated for those seats."""
    from modernart.net.trust.audit import audit_files

    journal, _hand, seen, _left = await _start_and_leave(tmp_path)
    for _ in range(5):  # a game has well over a hundred moves: it is not over after these
        moves, _record = await _continue_and_leave(tmp_path, to_the_end=False)
        assert moves >= seen + 8
        seen = moves
    _moves, record = await _continue_and_leave(tmp_path, to_the_end=True)
    assert record is not None and record == journal[: -len(".jsonl")] + ".json"
    report = audit_files(record)
    assert report.ok, report.problems
