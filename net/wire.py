"""Engine values as wire data, and the client's Observation rebuilt from events.

The host sends, with every event, a public view `pv` (the public fields of an
Observation, without the ever-growing lists of sales and results) and each seat's
private part (hand and money).  Sales and round results arrive as engine events and are
accumulated by the client.  `ViewBuilder` turns that back into the exact `Observation`
the engine would give the seat; tests compare the two after every event.
"""

from __future__ import annotations

from typing import Any

from modernart.auctions import NO_BID
from modernart.cards import AuctionType
from modernart.events import AuctionStarted, CardsDealt, GameEnded, RoundEnded, Sale, SealedRevealed
from modernart.game import GameState, _deck
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.serialize import result_from_dict, result_to_dict, sale_from_dict, sale_to_dict
from modernart.views import Observation

_TURN_PHASES = (Phase.DOUBLE_OFFER, Phase.ONCE_AROUND, Phase.FIXED_OFFER)
_BID_PHASES = (Phase.OPEN, Phase.ONCE_AROUND)


def public_view(state: GameState) -> dict[str, Any]:
    """The public fields of `state.observation(seat)` (same for every seat)."""
    phase = state.phase
    over = phase == Phase.GAME_OVER
    return {
        "round": state.round, "phase": int(phase), "to_move": list(state.to_move()),
        "hand_sizes": [len(h) for h in state.hands], "stock_size": len(state.stock),
        "counts": list(state.counts), "tiles": [list(t) for t in state.tiles],
        "bought": [[int(c) for c in b] for b in state.bought], "auctioneer": state.auctioneer,
        "original": state.original, "turn": state.turn if phase in _TURN_PHASES else -1,
        "lot": [int(c) for c in state.lot],
        "high": state.high if phase in _BID_PHASES else 0,
        "high_seat": state.high_seat if phase in _BID_PHASES else -1,
        "bids": [list(b) for b in state.bids] if phase in _BID_PHASES + (Phase.FIXED_OFFER,) else [],
        "passed": [s for s in range(state.n) if state.passed[s]] if phase == Phase.OPEN else [],
        "sealed_done": [s for s in range(state.n) if state.sealed[s] != NO_BID] if phase == Phase.SEALED else [],
        "price": state.price if phase == Phase.FIXED_OFFER else 0,
        "auction_no": state.auction_no,
        "offenders": [list(o) for o in state.offenders],
        "final_money": list(state.money) if over else [],
        "winners": list(state.winners()),
    }


def event_to_wire(event: Any) -> dict[str, Any] | None:
    """A public engine event as plain data (CardsDealt gives only the count)."""
    if isinstance(event, AuctionStarted):
        return {"k": "auction", "auction": event.auction, "kind": int(event.kind),
                "auctioneer": event.auctioneer, "cards": [int(c) for c in event.cards]}
    if isinstance(event, SealedRevealed):
        return {"k": "sealed", "auction": event.auction, "bids": list(event.bids),
                "offenders": list(event.offenders), "fines": list(event.fines)}
    if isinstance(event, Sale):
        return {"k": "sale", **sale_to_dict(event)}
    if isinstance(event, RoundEnded):
        return {"k": "round", **result_to_dict(event.result)}
    if isinstance(event, GameEnded):
        return {"k": "end", "money": list(event.money), "winners": list(event.winners)}
    if isinstance(event, CardsDealt):
        return {"k": "dealt", "round": event.round, "seat": event.seat, "count": len(event.cards)}
    return None


def event_from_wire(data: dict[str, Any], options: RuleOptions) -> Any:
    """The engine event value for wire data (ValueError if malformed)."""
    deck = _deck(options.deck_table)
    kind = data.get("k")
    body = {k: v for k, v in data.items() if k != "k"}
    try:
        if kind == "auction":
            return AuctionStarted(body["auction"], AuctionType(body["kind"]), body["auctioneer"],
                                  tuple(deck[c] for c in body["cards"]))
        if kind == "sealed":
            return SealedRevealed(body["auction"], tuple(body["bids"]), tuple(body["offenders"]), tuple(body["fines"]))
        if kind == "sale":
            return sale_from_dict(body, deck)
        if kind == "round":
            return RoundEnded(result_from_dict(body, deck))
        if kind == "end":
            return GameEnded(tuple(body["money"]), tuple(body["winners"]))
        if kind == "dealt":
            return CardsDealt(body["round"], body["seat"], ())
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed {kind} event: {exc!r}") from None
    raise ValueError(f"unknown event kind {kind!r}")


class ViewBuilder:
    """Accumulates public events and builds Observations (or the public view for spectators)."""

    def __init__(self, players: int, options: RuleOptions) -> None:
        self.players = players
        self.options = options
        self.sales: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []
        self.pv: dict[str, Any] | None = None

    def feed(self, wire_events: list[dict[str, Any]], pv: dict[str, Any]) -> None:
        for ev in wire_events:
            if ev.get("k") == "sale":
                self.sales.append({k: v for k, v in ev.items() if k != "k"})
            elif ev.get("k") == "round":
                self.results.append({k: v for k, v in ev.items() if k != "k"})
        self.pv = pv

    def observation(self, seat: int, hand: list[int], money: int) -> Observation:
        if self.pv is None:
            raise ValueError("no public view yet")
        data = dict(self.pv, seat=seat, players=self.players, options=self.options.to_dict(),
                    hand=hand, money=money, sales=self.sales, results=self.results)
        return Observation.from_dict(data)
