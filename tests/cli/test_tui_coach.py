"""The coach on screen (cli/tui/coach_panel.py): key v in the replay viewer and on the
game-over screen starts the review in a worker thread, shows its progress, then where the
player lost most and the five costliest decisions; v again goes back."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from prompt_toolkit.utils import get_cwidth

from modernart.cli.tui.replay_view import Replay
from tests.e2e.screen import Screen, run_async, squeezed, until
from tests.cli.test_tui_replay_view import recorded_game

pytestmark = pytest.mark.timeout(180)


def screen_text(replay: Replay, cols: int = 80, rows: int = 24) -> str:
    lines = replay.lines(cols, rows)
    assert len(lines) == rows and all(get_cwidth(text) <= cols for _style, text in lines)
    return "\n".join(text for _style, text in lines)


@run_async
async def test_the_replay_viewers_coach_for_the_player_of_the_move_shown():
    record = recorded_game(players=3, seed=4)
    replay = Replay(record, "game.json")
    replay.go(5)
    seat = record.moves[4].seat
    redraws = []
    replay.toggle_coach(lambda: redraws.append(1))
    text = screen_text(replay)
    assert f"Coach: {record.players[seat]}'s decisions" in text
    assert re.search(r"Reviewing against the strongest bot: \d+ of \d+ decisions", text)
    assert "v back to the game   1-3 another player   q leave" in text
    await until(
        lambda: replay.coach is None or replay.coach.result is not None or replay.coach.error is not None,
        120,
        what=lambda: "the review still running",
    )
    assert replay.coach is None or replay.coach.error is None, replay.coach.error
    text = screen_text(replay)
    assert "The five costliest decisions:" in text and " 1. Round " in text and " 5. Round " in text
    assert redraws  # every decision done asked for a redraw
    replay.toggle_coach(lambda: None)  # v: back to the game, where it was
    assert "Replay game.json: move 5 of" in screen_text(replay)
    replay.toggle_coach(lambda: None, (seat + 1) % 3)  # another player's review
    assert f"Coach: {record.players[(seat + 1) % 3]}'s decisions" in screen_text(replay)
    # leaving meanwhile: the review's thread is a daemon that stops at its next decision
    coach_threads = [t for t in threading.enumerate() if t.name == "coach"]
    assert coach_threads and all(t.daemon for t in coach_threads)
    replay.coach.future.cancel()
    await asyncio.sleep(0)
    assert "The review was stopped" in screen_text(replay)
    await until(lambda: not any(t.is_alive() for t in coach_threads), 60, what=lambda: "the cancelled review goes on")


@run_async
async def test_the_coach_on_the_game_over_screen(tmp_path):
    from modernart.bots import make_bot
    from modernart.cli.local_table import play_here
    from modernart.cli.tui.local_game import TableSettings

    settings = TableSettings(
        players=3,
        levels=["random", "random"],
        bot_pace=0,
        journal_dir=str(tmp_path),
        config_dir=str(tmp_path / "config"),
        clocks={"open_countdown": 0.05, "decision": 0},
    )
    host, session = await play_here(settings, "Ana")
    try:
        async with Screen(session) as screen:
            me = make_bot("random", 3)
            for _ in range(20000):
                obs = session.obs
                if obs is None:
                    await screen.settle(0.002)
                    continue
                if obs.is_over:
                    break
                if obs.my_turn:
                    move = me.choose(obs)
                    if move is not None:
                        await session.send_move(move)
                await screen.settle(0.002)
            await screen.wait_for("GAME OVER")
            await until(lambda: session.record_path is not None, 15, what=lambda: "no record saved")
            await screen.wait_for(r"v coach")
            await screen.keys("v")
            await screen.wait_for("Coach: Ana's decisions")
            text = await screen.wait_for("costliest decisions:|would not have done better", timeout=120)
            assert " 1. Round " in text or "would not have done better" in text
            assert re.search(r"about\d+offinalmoneyin\d+decisions|wouldnothavedonebetter", squeezed(screen.rows))
            await screen.keys("v")
            await screen.wait_for("GAME OVER. ")  # the result again
    finally:
        await host.close()
