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


def play_until_over(term: Tmux, timeout: float = 240.0) -> tuple[Seen, str]:
    """Answer the table by keys until GAME OVER is on screen; return what was seen."""
    seen = Seen()
    end = time.monotonic() + timeout
    answered: tuple | None = None  # what the screen said when we last pressed keys
    last_key_at = 0.0
    while True:
        screen = term.capture()
        if time.monotonic() > end:
            raise AssertionError(f"game not over after {timeout}s; screen:\n{screen}")
        if "EXITED:" in screen:
            raise AssertionError(f"the client exited during the game:\n{screen}")
        if "GAME OVER" in screen:
            seen.screens.setdefault("over", screen)
            if not seen.scorings:  # every overlay gave way to a turn: ask for the last one, as a player may
                term.send("s")
                shown = term.wait_for(r"[─-] Round 4 scoring [─-]", timeout=10)
                seen.scorings.add("4")
                seen.screens["scoring 4"] = shown
                closes = time.monotonic() + 10
                while re.search(r"[─-] Round \d scoring [─-]", screen := term.capture()):
                    assert time.monotonic() < closes, f"the scoring overlay did not close:\n{screen}"
                    if "Enter back to the table" in screen:
                        term.send("Enter")
                    time.sleep(0.3)
            if not {"OPEN auction", "FIXED PRICE"} <= seen.panels | seen.logged:
                read_the_whole_log(term, seen)
            return seen, screen
        # the scoring overlay gives way at once when this player is needed: the log tells the round
        seen.rounds_ended.update(re.findall(r"Round (\d) ends \(", screen))
        seen.rounds_ended.update(re.findall(r"Round (\d) scoring closed: you are needed", screen))
        seen.rounds_ended.update(re.findall(r"Round (\d) scored \(in the log\)", screen))
        seen.rounds_reached.update(int(n) for n in re.findall(r"^ Round (\d)/4", screen))
        for panel in PANELS:
            if panel in screen and panel not in seen.panels:
                seen.panels.add(panel)
                seen.screens[panel] = screen
        seen.logged.update(PANEL_OF[kind] for kind in LOGGED_AUCTION.findall(screen))
        rows = screen.split("\n")
        status, hints = rows[0], next((r for r in reversed(rows) if r.strip()), "")
        overlay = re.search(r"[─-] Round \d scoring [─-]", screen)  # the overlay's title, not a log line
        # answer a new question only: keys already sent may not have been drawn yet, and
        # answering the half-updated screen twice would press keys into the next question
        signature = (status, overlay.group(0) if overlay else None, hints)
        if signature == answered and time.monotonic() - last_key_at < 1.5:
            time.sleep(0.05)
            continue
        keys = answer(status, hints, screen, seen)
        if keys:
            for key in keys:
                if len(key) > 1 and key.isdigit():
                    term.type(key)
                else:
                    term.send(key)
            seen.keys += len(keys)
            answered, last_key_at = signature, time.monotonic()
        time.sleep(0.05)


def read_the_whole_log(term: Tmux, seen: Seen, timeout: float = 60.0) -> None:
    """Page the log back to its first line (PgUp), noting every auction it tells, as a
    player who looked away would: bots at full speed can put up, bid and sell a whole
    auction between two screen captures, so the live log may never have shown it."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        term.send("PageUp")
        time.sleep(0.05)
        screen = term.capture()
        seen.logged.update(PANEL_OF[kind] for kind in LOGGED_AUCTION.findall(screen))
        scrolled = re.search(r"Log and chat \(scrolled (\d+)\)", screen)
        position = scrolled.group(1) if scrolled else None
        if position is not None and position == last:
            time.sleep(0.3)  # one more look: a key not drawn yet would look like the top
            if re.search(rf"Log and chat \(scrolled {position}\)", term.capture()):
                return  # the first line is on screen
        last = position
    raise AssertionError(f"the log did not reach its first line in {timeout} s")


def answer(status: str, hints: str, screen: str, seen: Seen) -> list[str]:
    """The keys a cautious player presses for this screen (none: wait)."""
    m = re.search(r"[─-] Round (\d) scoring [─-]", screen)
    if m:  # the scoring overlay has the keys: close it once its hint bar is drawn
        if m.group(1) not in seen.scorings:
            seen.scorings.add(m.group(1))
            seen.screens[f"scoring {m.group(1)}"] = screen
        return ["Enter"] if "Enter back to the table" in hints else []
    mine = None
    for kind, pattern in (
        ("sell", "YOUR TURN: put up a painting"),
        ("double", "YOUR TURN: add a second"),
        ("open-seller", "OPEN AUCTION: (bid, p to pass, )?h to sell now"),
        ("open", "OPEN AUCTION: bid any time"),
        ("once", "YOUR TURN: bid above"),
        ("sealed", "YOUR TURN: seal a bid"),
        ("price", "YOUR TURN: set the price"),
        ("buy", "YOUR TURN: buy for"),
        ("cannot-pay", "YOUR TURN: you cannot pay"),
    ):
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
