"""End to end in Chinese and Persian, in tmux at 80x24: a whole game by key presses in each
language (tmux does no BiDi: the Persian screen is what a terminal without BiDi support
shows, the client having shaped and reordered it), and a LAN table on 127.0.0.1 where one
player reads it in Chinese and another in Persian."""

from __future__ import annotations

import json
import re
import subprocess
import time

import pytest
from prompt_toolkit.utils import get_cwidth

from modernart.cli.bidi import reordering, visual
from modernart.cli.i18n import _, speaking

from tests.cli.test_tui_rtl import read_row, words_of
from tests.slowdown import scaled

from .player import Seen, answer, play_until_over, records_in
from .test_e2e_tmux import LOOPBACK_HOST, MODERNART, _repo, play_argv
from .tmux import Tmux
from .words import words_in


def drawn_as(lang: str, message: str, **values: object) -> str:
    with speaking(lang), reordering("client"):
        return visual(_(message).format(**values))


#: Lines every game against bots shows, read for their order (a placeholder: any words)
READ_IN_ORDER = ("Round {round}/{rounds}", "High bid: {high} by {player}", "Time left {clock} {bar} resets on bid")


def reads(lang: str, row: str, message: str) -> bool:
    """Whether `row` of a screen in `lang` reads `message` (translated, its placeholders
    any words; cut to fit, its first words at least) in the message's own order: Chinese left to right as drawn, Persian as a
    Persian reader reads it (right to left, tests/cli/test_tui_rtl.py `read_row`)."""
    with speaking(lang):
        text = _(message)
    if lang != "fa":
        pattern = ".+?".join(re.escape(part) for part in re.split(r"\{[^}]*\}", text))
        return re.search(pattern, row) is not None
    pattern = [None if re.search(r"\{", w) else w for w in text.split()]
    pattern = [None if p is None else (words_of(p) or [None])[0] for p in pattern]
    read = read_row(row)

    def match(i: int, j: int) -> bool:  # read[i:] starts with pattern[j:]
        if j == len(pattern):
            return True
        if i == len(read):  # the row ends: a sentence cut to fit its panel, read that far
            return j >= min(len(pattern), 4)
        if pattern[j] is None:  # a placeholder: one word or more
            return match(i + 1, j + 1) or match(i + 1, j)
        return read[i] == pattern[j] and match(i + 1, j + 1)

    return any(match(i, 0) for i in range(len(read)))


def check_reading_order(lang: str, rows: set[str]) -> None:
    """Each of READ_IN_ORDER is on some row seen, read in its order; and no row holding
    its first word reads it in another order (a sentence glued of pieces would)."""
    for message in READ_IN_ORDER:
        assert any(reads(lang, row, message) for row in rows), (lang, message)
    if lang == "fa":
        for row in rows:
            read = read_row(row)
            at = [i for i in range(len(read) - 1) if read[i : i + 2] == ["بالاترین", "پیشنهاد"]]
            amount = [i for i in at if any(read[j].isdigit() for j in (i - 1, i + 2) if 0 <= j < len(read))]
            if amount:  # "High bid: 14 by Bot A", or the same words in another order
                assert reads(lang, row, "High bid: {high} by {player}") or reads(
                    lang, row, "High bid: {high} by {player} (you)"
                ), row


@pytest.fixture
def term():
    t = Tmux()
    try:
        yield t
    finally:
        t.close()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["zh", "fa"])
def test_whole_game_by_key_presses_in_chinese_and_persian(term, tmp_path, lang):
    words = words_in(lang)
    term.start(
        play_argv(str(tmp_path), "--lang", lang),
        env={"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path / "state"), "LANG": "C.UTF-8"},
        cwd=str(_repo()),
    )
    title = re.escape(drawn_as(lang, "Log and chat"))
    first = term.wait_for(title, timeout=20)
    first = term.wait_for(re.escape(drawn_as(lang, "Your hand")), timeout=5)
    rows = first.split("\n")
    assert term.size() == "80x24" and all(get_cwidth(r) <= 80 for r in rows)
    assert re.search(words.round_status.replace(r"(\d)", "1"), rows[0]) and "Ana $100" in rows[0], rows[0]
    for message in ("Artists", "Auction", "Players", "Your hand"):
        assert drawn_as(lang, message) in first, message
    if lang == "zh":
        for artist in ("轻金属", "针织风", "天启印象", "玻璃砖", "隐晦主义"):  # the Chinese sheet's names
            assert artist in first, artist
    else:
        assert drawn_as("fa", "لایت متال").strip() in first and " L│" in first  # the initials stay Latin, at the right
        assert "English" not in first and not re.search(r"\bYOUR TURN\b|\bRound\b", first)
    seen, final = play_until_over(term, words=words)
    check_reading_order(lang, seen.rows)
    records = records_in(tmp_path)
    final = term.wait_for(re.escape(drawn_as(lang, "Final result")))  # the final screen, drawn
    assert {"ONCE-AROUND", "SEALED auction"} <= seen.panels, seen.panels
    assert {"OPEN auction", "FIXED PRICE"} <= seen.panels | seen.logged, (seen.panels, seen.logged)
    assert seen.my_turns.get("sell", 0) >= 3 and seen.keys >= 10, seen.my_turns
    assert seen.rounds_reached == {1, 2, 3, 4}, seen.rounds_reached
    assert seen.scorings, "no scoring overlay was ever on screen"
    for message in ("Final money", "WINNER", "Final result"):
        assert drawn_as(lang, message) in final, (message, final)
    assert len(records) == 1
    replay = subprocess.run(
        MODERNART + ["replay", "--check", str(records[0])], capture_output=True, text=True, timeout=60, cwd=str(_repo())
    )
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["finished"]
    term.send("q")
    term.wait_for("EXITED:0", timeout=10)


def _step(term: Tmux, words, seen: Seen, last: dict) -> bool:
    """One look at a player's screen and the keys it asks for; True once the game is over."""
    screen = term.capture()
    assert "EXITED:" not in screen, screen
    if re.search(words.game_over, screen):
        return True
    rows = screen.split("\n")
    status, hints = rows[0], next((r for r in reversed(rows) if r.strip()), "")
    signature = (status, hints)
    if signature == last.get("answered") and time.monotonic() - last.get("at", 0.0) < 1.5:
        return False
    keys = answer(status, hints, screen, seen, words)
    for key in keys:
        term.send(key)
    if keys:
        last["answered"], last["at"] = signature, time.monotonic()
        seen.keys += len(keys)
    return False


@pytest.mark.timeout(300)
def test_a_lan_table_read_in_chinese_and_in_persian(tmp_path):
    """A real host on 127.0.0.1 (`modernart host`, its own client in Chinese) and a second
    player joining it with `modernart join` in Persian: both play the game to its end."""
    ana, bea = Tmux(), Tmux()
    try:
        env = {"TERM": "xterm-256color", "XDG_STATE_HOME": str(tmp_path), "LANG": "C.UTF-8"}
        ana.start(
            LOOPBACK_HOST
            + ["--players", "3", "--bots", "1", "--bot-level", "random", "--bot-pace", "0"]
            + ["--clocks", '{"open_countdown": 1}']
            + ["--journal-dir", str(tmp_path / "games"), "--config-dir", str(tmp_path / "ana")]
            + ["--player-name", "Ana", "--lang", "zh"],
            env=env,
            cwd=str(_repo()),
        )
        lobby = ana.wait_for(r"ma://127\.0\.0\.1:\d+/\S+", timeout=30)
        assert drawn_as("zh", "Seats") in lobby and drawn_as("zh", "Rules and clocks") in lobby
        join = re.search(r"ma://127\.0\.0\.1:\d+/\S+", lobby).group(0)
        bea.start(
            MODERNART + ["join", join, "--name", "Bea", "--config-dir", str(tmp_path / "bea"), "--lang", "fa"],
            env=env,
            cwd=str(_repo()),
        )
        bea.wait_for(re.escape(drawn_as("fa", "Seats")), timeout=30)
        seated = bea.wait_for(r"Bea", timeout=10)
        assert drawn_as("fa", "Rules and clocks") in seated and drawn_as("fa", "Seats") in seated
        ana.wait_for("Bea", timeout=10)  # Bea's seat, in Ana's lobby
        bea.send("r")
        ana.send("r")  # the host's --players 3: everyone ready starts it
        for who, lang in ((ana, "zh"), (bea, "fa")):
            # the whole table, not a frame caught half drawn: every panel's title in one capture
            titles = [re.escape(drawn_as(lang, t)) for t in ("Your hand", "Log and chat", "Artists")]
            who.wait_for(r"(?s)\A" + "".join(f"(?=.*{t})" for t in titles), timeout=30)
        players = {ana: (words_in("zh"), Seen(), {}), bea: (words_in("fa"), Seen(), {})}
        over: set = set()
        end = time.monotonic() + scaled(240)
        while len(over) < 2:
            assert time.monotonic() < end, (f"not both over within {scaled(240):.0f} s", ana.capture(), bea.capture())
            for who, (words, seen, last) in players.items():
                if who not in over and _step(who, words, seen, last):
                    over.add(who)
            time.sleep(0.05)
        for who, lang in ((ana, "zh"), (bea, "fa")):
            final = who.wait_for(re.escape(drawn_as(lang, "Final money")), timeout=10)
            assert drawn_as(lang, "WINNER") in final
            assert "Ana" in final and "Bea" in final
        assert players[ana][1].keys >= 3 and players[bea][1].keys >= 3  # each played by keys
        bea.send("q")
        bea.wait_for("EXITED:0", timeout=10)
        ana.send("q")
        ana.wait_for("EXITED:0", timeout=20)
    finally:
        ana.close()
        bea.close()
