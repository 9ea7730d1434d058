"""A person at the keyboard, for end-to-end tests: reads the real screen (status line,
hint bar, panels) and answers with key presses only, until the game is over.

It records which screens and auction panels it saw, so a test can assert that a whole
game went through every phase.  It bids sometimes (a quick raise, a typed price) and
otherwise passes, declines or seals 0, which keeps games short.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.slowdown import scaled

from .screen import squeezed
from .tmux import Tmux

PANELS = ("OPEN auction", "ONCE-AROUND", "SEALED auction", "FIXED PRICE", "DOUBLE")
#: the log's line for a card put up ("Bea auctions Krypto (Open): Open auction") -> its panel;
#: a long Double line may wrap between "Fixed" and "price"
LOGGED_AUCTION = re.compile(r"(Open|Once-around|Sealed|Fixed price|price) auction")
PANEL_OF = {
    "Open": "OPEN auction",
    "Once-around": "ONCE-AROUND",
    "Sealed": "SEALED auction",
    "Fixed price": "FIXED PRICE",
    "price": "FIXED PRICE",
}


@dataclass(frozen=True)
class Words:
    """What the player reads on screen, as regular expressions, in the client's language
    (English below; tests/e2e/words.py builds the others from the catalogs)."""

    game_over: str = "GAME OVER"
    scoring_title: str = r"[─-] Round (\d) scoring [─-]"  # group 1: the round
    scoring_close: str = "Enter back to the table"  # in the hint bar
    round_status: str = r"^ Round (\d)/4"  # group 1: the round, in the status line
    scrolled: str = r"Log and chat \(scrolled (\d+)\)"  # group 1: lines scrolled back
    #: the auction panel's first line, by the panel's English name
    panels: tuple[tuple[str, str], ...] = tuple((p, re.escape(p)) for p in PANELS)
    #: the log's words for an auction (group 1) -> its panel; None: the English LOGGED_AUCTION
    logged: tuple[tuple[str, str], ...] | None = None
    #: the status line's words, by the kind of turn
    turns: tuple[tuple[str, str], ...] = (
        ("sell", "YOUR TURN: put up a painting"),
        ("double", "YOUR TURN: add a second"),
        ("open-seller", "OPEN AUCTION: (bid, p to pass, )?h to sell now"),
        ("open", "OPEN AUCTION: bid any time"),
        ("once", "YOUR TURN: bid above"),
        ("sealed", "YOUR TURN: seal a bid"),
        ("price", "YOUR TURN: set the price"),
        ("buy", "YOUR TURN: buy for"),
        ("cannot-pay", "YOUR TURN: you cannot pay"),
    )
    english: bool = True


ENGLISH = Words()


@dataclass
class Seen:
    panels: set[str] = field(default_factory=set)
    logged: set[str] = field(default_factory=set)  # panels of auctions the log told (see PANEL_OF)
    my_turns: dict[str, int] = field(default_factory=dict)
    scorings: set[str] = field(default_factory=set)  # rounds whose scoring overlay was on screen
    rounds_ended: set[str] = field(default_factory=set)  # rounds whose end the log or message line told
    rounds_reached: set[int] = field(default_factory=set)  # "Round N/4" seen in the status line
    keys: int = 0
    screens: dict[str, str] = field(default_factory=dict)  # first screen of each kind, for asserts
    rows: set[str] = field(default_factory=set)  # every row seen during the game (its order is read)


def records_in(directory: Path, timeout: float = 10.0) -> list[Path]:
    """The game records (`*.json`) in `directory`, once there is one (or none after
    `timeout`): the host writes its record just after the game's last event, and the final
    screen comes with that event."""
    end = time.monotonic() + scaled(timeout)
    while not (found := sorted(directory.glob("*.json"))) and time.monotonic() < end:
        time.sleep(0.1)
    return found


def record_line_for(term: Tmux, record: Path, timeout: float = 10.0) -> str:
    """The final screen once its result panel names `record`: "Record saved to" it (one
    copy), or "the host's copy:" it after the client's own copy; the host reports its copy
    a moment after the end, so an earlier frame may not have it yet."""
    wanted = (f"Recordsavedto{record}", f"thehost'scopy:{record}")
    end = time.monotonic() + scaled(timeout)
    while True:
        screen = term.capture()
        text = squeezed(screen.split("\n")[1:16])
        if any(w in text for w in wanted):
            return screen
        assert time.monotonic() < end, screen
        time.sleep(0.2)


def play_until_over(term: Tmux, timeout: float = 240.0, words: Words = ENGLISH) -> tuple[Seen, str]:
    """Answer the table by keys until GAME OVER is on screen; return what was seen."""
    seen = Seen()
    end = time.monotonic() + scaled(timeout)
    answered: tuple | None = None  # what the screen said when we last pressed keys
    last_key_at = 0.0
    while True:
        screen = term.capture()
        seen.rows.update(screen.split("\n"))
        if time.monotonic() > end:
            raise AssertionError(f"game not over after {timeout}s; screen:\n{screen}")
        if "EXITED:" in screen:
            raise AssertionError(f"the client exited during the game:\n{screen}")
        if re.search(words.game_over, screen):
            return seen, game_over(term, seen, screen, words)
        note_screen(screen, seen, words)
        rows = screen.split("\n")
        status, hints = rows[0], next((r for r in reversed(rows) if r.strip()), "")
        overlay = re.search(words.scoring_title, screen)  # the overlay's title, not a log line
        # answer a new question only: keys already sent may not have been drawn yet, and
        # answering the half-updated screen twice would press keys into the next question
        signature = (status, overlay.group(0) if overlay else None, hints)
        if signature == answered and time.monotonic() - last_key_at < 1.5:
            time.sleep(0.05)
            continue
        keys = answer(status, hints, screen, seen, words)
        if keys:
            for key in keys:
                if len(key) > 1 and key.isdigit():
                    term.type(key)
                else:
                    term.send(key)
            seen.keys += len(keys)
            answered, last_key_at = signature, time.monotonic()
        time.sleep(0.05)


def game_over(term: Tmux, seen: Seen, screen: str, words: Words) -> str:
    """GAME OVER is on `screen`: see the last round's scoring if no overlay showed it, and
    the whole log if the live one missed an auction; the last screen captured."""
    seen.screens.setdefault("over", screen)
    if not seen.scorings:  # every overlay gave way to a turn: ask for the last one, as a player may
        term.send("s")
        shown = term.wait_for(words.scoring_title.replace(r"(\d)", "4"), timeout=10)
        seen.scorings.add("4")
        seen.screens["scoring 4"] = shown
        closes = time.monotonic() + scaled(10)
        while re.search(words.scoring_title, screen := term.capture()):
            assert time.monotonic() < closes, f"the scoring overlay did not close:\n{screen}"
            if words.scoring_close in screen:
                term.send("Enter")
            time.sleep(0.3)
    if not {"OPEN auction", "FIXED PRICE"} <= seen.panels | seen.logged:
        read_the_whole_log(term, seen, words=words)
    return screen


def note_screen(screen: str, seen: Seen, words: Words) -> None:
    """What `screen` shows of the game: the rounds ended and reached, the auction panels,
    the auctions the log tells."""
    # the scoring overlay gives way at once when this player is needed: the log tells the round
    if words.english:
        seen.rounds_ended.update(re.findall(r"Round (\d) ends \(", screen))
        seen.rounds_ended.update(re.findall(r"Round (\d) scoring closed: you are needed", screen))
        seen.rounds_ended.update(re.findall(r"Round (\d) scored \(in the log\)", screen))
    rows = screen.split("\n")
    seen.rounds_reached.update(int(n) for n in re.findall(words.round_status, rows[0] if rows else ""))
    for panel, pattern in words.panels:
        if re.search(pattern, screen) and panel not in seen.panels:
            seen.panels.add(panel)
            seen.screens[panel] = screen
    note_logged(screen, seen, words)


def note_logged(screen: str, seen: Seen, words: Words) -> None:
    """The auctions the log on `screen` tells (its rows only, in other languages: there the
    auction's name is the same word as the card's, which the hand panel shows too)."""
    if words.logged is None:
        seen.logged.update(PANEL_OF[kind] for kind in LOGGED_AUCTION.findall(screen))
        return
    log = "\n".join(screen.split("\n")[16:23])
    seen.logged.update(panel for pattern, panel in words.logged if re.search(pattern, log))


def read_the_whole_log(term: Tmux, seen: Seen, timeout: float = 60.0, words: Words = ENGLISH) -> None:
    """Page the log back to its first line (PgUp), noting every auction it tells, as a
    player who looked away would: bots at full speed can put up, bid and sell a whole
    auction between two screen captures, so the live log may never have shown it."""
    end = time.monotonic() + scaled(timeout)
    last = None
    while time.monotonic() < end:
        term.send("PageUp")
        time.sleep(0.05)
        screen = term.capture()
        note_logged(screen, seen, words)
        scrolled = re.search(words.scrolled, screen)
        position = scrolled.group(1) if scrolled else None
        if position is not None and position == last:
            time.sleep(0.3)  # one more look: a key not drawn yet would look like the top
            if re.search(words.scrolled.replace(r"(\d+)", position), term.capture()):
                return  # the first line is on screen
        last = position
    raise AssertionError(f"the log did not reach its first line in {timeout} s")


def answer(status: str, hints: str, screen: str, seen: Seen, words: Words = ENGLISH) -> list[str]:
    """The keys a cautious player presses for this screen (none: wait)."""
    m = re.search(words.scoring_title, screen)
    if m:  # the scoring overlay has the keys: close it once its hint bar is drawn
        if m.group(1) not in seen.scorings:
            seen.scorings.add(m.group(1))
            seen.screens[f"scoring {m.group(1)}"] = screen
        return ["Enter"] if words.scoring_close in hints else []
    mine = None
    for kind, pattern in words.turns:
        if re.search(pattern, status):
            mine = kind
            break
    if mine is None:
        return []
    count = seen.my_turns.get(mine, 0)
    seen.my_turns[mine] = count + 1
    if count == 0:
        seen.screens.setdefault(f"turn {mine}", screen)
    if mine == "sell":
        return ["Right", "Enter"] if count % 2 else ["Enter"]
    if mine == "double":
        return ["p"]
    if mine == "open-seller":
        return ["h"]
    if mine == "open":
        return ["+"] if count == 0 else ["p"]
    if mine == "once":
        return ["+"] if count == 0 else ["p"]
    if mine == "sealed":
        return ["1", "Enter"] if count == 0 else ["0", "Enter"]
    if mine == "price":
        lo = re.search(r"set the price (\d+)-", status)
        return [lo.group(1) if lo else "1", "Enter"]
    return ["p"]
