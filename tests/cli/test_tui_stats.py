"""`modernart stats` and the game-over comparison (cli/stats.py): games played, won and the
average final money, by player count, variant and opponent, from the saved games of this
player's key; each game once; a game-over line says how a game compares."""

from __future__ import annotations

import json
import random
import subprocess

from modernart.bots.random_bot import random_step
from modernart.game import GameState
from modernart.record import GameRecord
from modernart.presets import preset_options
from modernart.rules import RuleOptions
from modernart.net.trust.identity import Keys

from modernart.cli.saved_games import saved_games
from modernart.cli.stats import comparison, compare_with_earlier, my_finished_games, report, tally, variant_of
from tests.net_helpers import PY, ROOT, env


def save_game(folder, me: str, seed: int, players: int = 3, bots=("medium", "medium"), options=None) -> GameRecord:
    rng = random.Random(seed)
    state = GameState(players, options, seed=rng)
    others = [Keys.generate().vk.hex() for _ in range(players - 1)]
    meta = {"game_id": f"{seed:032x}", "keys": [me, *others], "bots": [None, *bots], "table_name": "t"}
    record = GameRecord.start(state, ["Ana", "Bea", "Cem", "Dai", "Eli"][:players], meta)
    while not state.is_over():
        move = random_step(state, rng.random)
        state.apply(move)
        record.moves.append(move)
    record.sync(state)
    folder.mkdir(parents=True, exist_ok=True)
    record.save(str(folder / f"t1-{seed}.json"))
    return record


def test_counts_by_players_variant_and_opponent(tmp_path):
    me = Keys.generate().vk.hex()
    games = tmp_path / "games"
    records = [save_game(games, me, 1), save_game(games, me, 2, players=4, bots=("hard", None, "medium"))]
    records.append(save_game(games, me, 3, options=RuleOptions(double_split=True)))
    save_game(games, Keys.generate().vk.hex(), 4)  # someone else's game: not counted
    copy = tmp_path / "copies"
    copy.mkdir()
    (copy / "same.json").write_text((games / "t1-1.json").read_text())  # the same game twice: once
    stats = tally(my_finished_games(saved_games([games, copy]), me))
    assert stats.total.played == 3
    won = sum(0 in r.result["winners"] for r in records)
    assert stats.total.won == won
    money = [r.result["final_money"][0] for r in records]
    assert stats.total.average == sum(money) / 3
    assert {n: t.played for n, t in stats.by_players.items()} == {3: 2, 4: 1}
    assert {k: t.played for k, t in stats.by_opponent.items()} == {"medium": 3, "hard": 1, "person": 1}
    assert stats.by_variant[variant_of(RuleOptions(double_split=True).to_dict())].played == 1
    assert variant_of(RuleOptions().to_dict()) == "standard"  # grouped by the variant's own name
    assert variant_of(preset_options("fa_seed").to_dict()) == "fa_seed"
    assert variant_of(RuleOptions(double_split=True).to_dict()) == "double_split=True"
    assert variant_of(RuleOptions(edition="cmon2017").to_dict()) == "standard, edition cmon2017"
    text = "\n".join(report(stats))
    assert "all games" in text and "3 players" in text and "a person" in text and "hard bot" in text


def test_the_game_over_line(tmp_path):
    me = Keys.generate().vk.hex()
    games = tmp_path / "games"
    earlier = [save_game(games, me, seed) for seed in (5, 6)]
    best = max(r.result["final_money"][0] for r in earlier)
    line = compare_with_earlier(best + 1, True, 3, me, "ff" * 16, [games])
    assert line.startswith(f"Final money {best + 1}: your best of 3 3-player games") and "before)" in line
    assert "below your average" in compare_with_earlier(0, False, 3, me, "ff" * 16, [games])
    assert "Your first 5-player game here" in compare_with_earlier(10, False, 5, me, "ff" * 16, [games])
    own = earlier[0].meta["game_id"]  # the game itself is never compared with itself
    assert compare_with_earlier(1, False, 3, me, own, [games]) != compare_with_earlier(1, False, 3, me, "", [games])
    assert "first" in comparison(1, False, 3, tally([]))


def test_the_stats_command(tmp_path):
    config = tmp_path / "config"
    me = Keys.load_or_create(str(config), "player").vk.hex()
    save_game(tmp_path / "games", me, 7)
    base = [PY, "-m", "modernart", "stats", "--record-dir", str(tmp_path / "games"), "--config-dir", str(config)]
    done = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, env=env(), timeout=30)
    assert done.returncode == 0 and "all games" in done.stdout and "3 players" in done.stdout, done.stderr
    done = subprocess.run(base + ["--json"], capture_output=True, text=True, cwd=ROOT, env=env(), timeout=30)
    figures = json.loads(done.stdout)
    assert figures["all"]["played"] == 1 and figures["by_players"]["3"]["played"] == 1
    empty = subprocess.run(
        [PY, "-m", "modernart", "stats", "--record-dir", str(tmp_path / "none"), "--config-dir", str(tmp_path / "c2")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env(),
        timeout=30,
    )
    assert empty.returncode == 0 and "No finished game of yours yet." in empty.stdout


def test_the_game_over_screen_says_how_the_game_compares(tmp_path, monkeypatch):
    """The line is worked out in a worker thread from this player's saved games, then shown
    on the game-over screen."""
    import asyncio
    from types import SimpleNamespace

    from modernart.cli.tui.screens.game_over import game_over_panel
    from modernart.cli.tui.session import SessionBase
    from modernart.cli.tui.state import ClientState

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    keys = Keys.generate()
    me = keys.vk.hex()
    state_dir = tmp_path / "state"
    save_game(state_dir / "games", me, 8)  # an earlier game, in the client's own copies
    record = save_game(tmp_path / "this", me, 9)
    final = record.replay()

    async def go() -> str:
        session = SessionBase("Ana")
        session.client = SimpleNamespace(state_dir=str(state_dir), keys=keys, state=SimpleNamespace(game_id=bytes(16)))
        session.obs = final.observation(0)
        session.record_path = str(tmp_path / "this" / "t1-9.json")
        cs = ClientState(session)
        changed = asyncio.Event()
        session.add_listener(changed.set)
        game_over_panel(cs, 78, 24)  # starts the work
        await asyncio.wait_for(changed.wait(), 10)
        return "\n".join("".join(t for _s, t in line) for line in game_over_panel(cs, 78, 24))

    text = asyncio.run(go())
    assert f"Final money {final.money[0]}:" in text and "won " in text
