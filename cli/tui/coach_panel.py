"""The coach on screen: one player's review (modernart/coach.py) worked out in a worker thread
with its progress, then shown on one screen: where the player lost most and the five
costliest decisions.  Used by the game-over screen (key `v`) and the replay viewer (`v`).

The review is pure Python and takes seconds; it runs in a daemon thread of its own (never
the loop's executor, which the program would wait for on leaving), which tells the loop of
each decision done (`call_soon_threadsafe`), and the screen redraws from the run's state.  Nothing here changes the game or the record."""

from __future__ import annotations

import asyncio
import threading
from typing import Callable

from modernart.cards import EDITIONS, deck_cards
from modernart.coach import SAMPLES, Review, review
from modernart.record import GameRecord

from modernart.cli.coach_words import decision_line, summary_line
from modernart.cli.i18n import _
from modernart.cli.tui.text import countdown_bar, wrap


class CoachRun:
    """One review of `seat` in `record`: running (`done` of `total` decisions), finished
    (`result`) or failed (`error`, in words)."""

    def __init__(self, record: GameRecord, seat: int, *, samples: int | None = None) -> None:
        self.record = record
        self.seat = seat
        self.samples = samples
        self.done = 0
        self.total = 0
        self.result: Review | None = None
        self.error: str | None = None
        self.future: asyncio.Future | None = None

    @property
    def running(self) -> bool:
        return self.future is not None and self.result is None and self.error is None

    def start(self, changed: Callable[[], None]) -> None:
        """Start the review in a thread of its own; `changed` is called (in the loop) after
        each decision and at the end.  The thread is a daemon that stops at its next decision
        once `future` is cancelled (or the program leaves meanwhile: nothing waits for it)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self.future = future
        stop = threading.Event()

        def progress(done: int, total: int) -> None:
            if stop.is_set():
                raise _Stopped

            def tell() -> None:
                self.done, self.total = done, total
                changed()

            _call(loop, tell)

        def deliver(result: Review | None, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def work() -> None:
            samples = SAMPLES if self.samples is None else self.samples
            try:
                result = review(self.record, self.seat, samples=samples, progress=progress)
            except _Stopped:
                return
            except Exception as exc:  # (told on screen: a record that does not replay, say)
                _call(loop, deliver, None, exc)
                return
            _call(loop, deliver, result, None)

        def finished(done: asyncio.Future) -> None:
            if done.cancelled():
                stop.set()
                self.error = _("The review was stopped")
            elif done.exception() is not None:
                self.error = _("The coach cannot review this game: {error}").format(error=done.exception())
            else:
                self.result = done.result()
            changed()

        future.add_done_callback(finished)
        threading.Thread(target=work, name="coach", daemon=True).start()


class _Stopped(Exception):
    """Raised in the review's thread to end it early (its future was cancelled)."""


def _call(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: object) -> None:
    """`fn(*args)` in `loop`, unless the loop has closed meanwhile (the program has left)."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:
        pass


def coach_lines(run: CoachRun, width: int, height: int) -> list[tuple[str, str]]:
    """The coach's screen as (style, text) lines of at most `width` cells (wrapped, never
    glued): whose review, its progress or its summary and the costliest decisions."""
    names = run.record.players
    player = names[run.seat] if 0 <= run.seat < len(names) else "?"
    out: list[tuple[str, str]] = [("class:title", " " + _("Coach: {player}'s decisions").format(player=player))]
    text_width = max(10, width - 3)

    def say(style: str, text: str, indent: str = " ") -> None:
        for chunk in wrap(text, text_width):
            out.append((style, indent + chunk))
            indent = " " * len(indent)

    if run.error is not None:
        say("", run.error)
        return out[:height]
    result = run.result
    if result is None:
        bar = countdown_bar(run.done, run.total or 1, 20)
        say(
            "",
            _("Reviewing against the strongest bot: {done} of {total} decisions").format(
                done=run.done, total=run.total
            ),
        )
        out.append(("", f" [{bar}]"))
        return out[:height]
    deck = deck_cards(run.record.options.deck_table)
    edition = EDITIONS[run.record.options.edition]
    say("class:title", summary_line(result.summary()))
    costly = result.costliest()
    if costly:
        say("", _("The five costliest decisions:") if len(costly) == 5 else _("The costliest decisions:"))
        for place, d in enumerate(costly, start=1):
            say("", decision_line(d, names, edition, deck), f" {place}. ")
    say("class:dim", _("modernart review FILE --all lists every decision"))
    return out[:height]
