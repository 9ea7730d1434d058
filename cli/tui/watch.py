"""A watcher's view of a game: an `Observation` for no seat, built from public facts only.

Someone who joins a full table watches it.  The host sends every client the public view
of the game (net/wire.py `public_view`) and every public event; this module turns those
into an `Observation` whose `seat` is `WATCHER` (-1): no hand, no money, no moves, so the
table's panels draw it as they would for a player, with nobody marked as "you".
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from modernart.events import RoundEnded, Sale
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.views import Observation

WATCHER = -1  # the `seat` of a watcher's Observation


def watcher_observation(pv: Mapping[str, Any], options: RuleOptions, players: int, deck: Sequence,
                        log: Iterable[object]) -> Observation | None:
    """The public view `pv` and the public events so far as a watcher's Observation;
    None when `pv` does not describe a game of `players` seats (nothing sane to show)."""
    try:
        cards = lambda ids: tuple(deck[int(i)] for i in ids)  # noqa: E731
        history = list(log)
        return Observation(
            seat=WATCHER, players=players, options=options, round=int(pv["round"]), phase=Phase(int(pv["phase"])),
            to_move=tuple(int(s) for s in pv["to_move"]), hand=(), money=0,
            hand_sizes=tuple(int(n) for n in pv["hand_sizes"]), stock_size=int(pv["stock_size"]),
            counts=tuple(int(n) for n in pv["counts"]), tiles=tuple(tuple(int(t) for t in row) for row in pv["tiles"]),
            bought=tuple(cards(b) for b in pv["bought"]), auctioneer=int(pv["auctioneer"]),
            original=int(pv["original"]), turn=int(pv["turn"]), lot=cards(pv["lot"]), high=int(pv["high"]),
            high_seat=int(pv["high_seat"]), bids=tuple((int(s), int(a)) for s, a in pv["bids"]),
            passed=tuple(int(s) for s in pv["passed"]), sealed_done=tuple(int(s) for s in pv["sealed_done"]),
            price=int(pv["price"]), auction_no=int(pv["auction_no"]),
            sales=tuple(e for e in history if isinstance(e, Sale)),
            results=tuple(e.result for e in history if isinstance(e, RoundEnded)),
            offenders=tuple(tuple(int(x) for x in o) for o in pv["offenders"]),  # type: ignore[misc]
            final_money=tuple(int(m) for m in pv["final_money"]), winners=tuple(int(s) for s in pv["winners"]),
        ) if len(pv["hand_sizes"]) == players else None
    except (KeyError, TypeError, ValueError, IndexError):
        return None
