"""Deadlines of a hidden-hands table's deck steps: who owes one now, since when, and who
has let the deadline pass (docs/fair-play.md "No table waits for ever").

At a table that hides hands only a seat's own client can make its deck steps: its deck
key, its shuffle, its shares of the cards dealt to the others (and of a mystery card asked
for), a card play from its hand, its deck key after the game.  A seat that never makes one
would stall the table for ever.  `owed_steps` says which seat owes which step now (from the
ledger and the engine, which everyone can read: nothing secret); `DeckWaits` keeps, on the
host's clock, since when each seat has owed its step, and names the seats whose deadline
(the table's `deck_step` clock) has passed, once per step: the host then logs it and
publishes the event `dlate`, so that every screen, the log and the audit name the seat.
A seat that makes its step is no longer late.

    >>> waits = DeckWaits()
    >>> waits.update({1: "shuffle"}, now=10.0, limit=60.0)
    >>> waits.next_deadline()
    70.0
    >>> waits.missed(69.0), waits.missed(70.0), waits.missed(80.0)
    ([], [(1, 'shuffle', 60.0)], [])
    >>> waits.update({}, now=81.0, limit=60.0)  # seat 1 shuffled: nobody owes anything
    >>> waits.late, waits.next_deadline()
    ({}, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from modernart.net.trust.deck_owed import owed_steps as owed_by_record

if TYPE_CHECKING:
    from modernart.game import GameState

    from modernart.net.host.hidden_hands import HiddenHands

#: The deck steps a seat can owe, as `dlate` names them
STEPS = ("key", "shuffle", "shares", "card", "secret")


def owed_steps(hidden: HiddenHands, state: GameState | None, over: bool) -> dict[int, str]:
    """seat -> the deck step it owes now (only the first one, in the order the game needs
    them): net/trust/deck_owed.py, the rule every client checks a `dlate` by."""
    return owed_by_record(hidden.ledger, hidden.secrets, state, over)


@dataclass
class DeckWait:
    """One seat's wait: the step, since when, until when (host clock)."""

    step: str
    since: float
    due: float
    told: bool = False  # `dlate` published for it


class DeckWaits:
    """Since when each seat has owed its deck step, and whose deadline has passed."""

    def __init__(self) -> None:
        self.waits: dict[int, DeckWait] = {}

    def update(self, owed: dict[int, str], now: float, limit: float) -> None:
        """The steps owed now (`owed_steps`): a new one's clock starts now; one made is forgotten."""
        for seat in [s for s in self.waits if owed.get(s) != self.waits[s].step]:
            del self.waits[seat]
        if limit <= 0:  # no deadline at this table
            self.waits.clear()
            return
        for seat, step in owed.items():
            if seat not in self.waits:
                self.waits[seat] = DeckWait(step, now, now + limit)

    def missed(self, now: float) -> list[tuple[int, str, float]]:
        """(seat, step, seconds waited) of every wait whose deadline has come and that was
        not told yet (each is told once)."""
        out = []
        for seat, wait in sorted(self.waits.items()):
            if not wait.told and now >= wait.due:
                wait.told = True
                out.append((seat, wait.step, round(now - wait.since, 3)))
        return out

    @property
    def late(self) -> dict[int, str]:
        """seat -> the step it is late with (its deadline passed, not made yet)."""
        return {seat: wait.step for seat, wait in self.waits.items() if wait.told}

    def next_deadline(self) -> float | None:
        return min((w.due for w in self.waits.values() if not w.told), default=None)

    def left(self, now: float) -> dict[int, float]:
        """seat -> seconds left before its step is late (0: late already)."""
        return {seat: round(max(0.0, wait.due - now), 3) for seat, wait in self.waits.items()}
