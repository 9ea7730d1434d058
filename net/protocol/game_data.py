"""Engine values as wire data, and the client's Observation rebuilt from events.

The host sends, with every event, a public view `pv` (the public fields of the engine's
`modernart.views.observation`, without the ever-growing lists of sales and results) and
each seat's private part (hand and money).  Sales and round results arrive as engine events and are
accumulated by the client.  `ViewBuilder` turns that back into the exact `Observation`
the engine would give the seat; tests compare the two after every event.
"""

from __future__ import annotations

from typing import Any

from modernart.cards import AuctionType, deck_cards
from modernart.events import AuctionStarted, CardsDealt, GameEnded, MysteryFlipped, RoundEnded, Sale, SealedRevealed
from modernart.game import GameState
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.serialize import (
    cards_of,
    public_observation_to_dict,
    result_from_dict,
    result_to_dict,
    sale_from_dict,
    sale_to_dict,
)
from modernart.views import Observation, observation

from modernart.net.protocol import pack

WATCHER = -1  # the `seat` of a watcher's Observation (ViewBuilder.watcher)


def public_view(state: GameState) -> dict[str, Any]:
    """The public fields of the engine's `observation(state, seat)` (the same for every
    seat), as wire data: computed by modernart/views.py and written by modernart/serialize.py,
    never here."""
    return public_observation_to_dict(observation(state, 0))


def private_part(state: GameState, seat: int, engine_events: list[Any], salt: bytes) -> bytes:
    """Seat `seat`'s private part of an event: salt, hand, money, and the cards just dealt.

    The bytes are canonical (fixed key order), so anyone who knows the salt and replays the
    game can rebuild them and check the hash in the chain (the audit does).
    """
    priv: dict[str, Any] = {"salt": salt, "hand": [int(c) for c in state.hands[seat]], "money": state.money[seat]}
    dealt = [[int(c) for c in e.cards] for e in engine_events if isinstance(e, CardsDealt) and e.seat == seat]
    if dealt:
        priv["dealt"] = dealt[-1]
    return pack(priv)


def hidden_private_part(state: GameState, seat: int, salt: bytes) -> bytes:
    """Seat `seat`'s private part at a hidden-hands table: salt and money (the host knows no
    hand; docs/fair-play.md "The hidden deck").  Canonical, as `private_part`."""
    return pack({"salt": salt, "money": state.money[seat]})


def event_to_wire(event: Any) -> dict[str, Any] | None:
    """A public engine event as plain data (CardsDealt gives only the count)."""
    if isinstance(event, AuctionStarted):
        return {
            "k": "auction",
            "auction": event.auction,
            "kind": int(event.kind),
            "auctioneer": event.auctioneer,
            "cards": [int(c) for c in event.cards],
        }
    if isinstance(event, SealedRevealed):
        return {
            "k": "sealed",
            "auction": event.auction,
            "bids": list(event.bids),
            "offenders": list(event.offenders),
            "fines": list(event.fines),
        }
    if isinstance(event, Sale):
        return {"k": "sale", **sale_to_dict(event)}
    if isinstance(event, RoundEnded):
        return {"k": "round", **result_to_dict(event.result)}
    if isinstance(event, GameEnded):
        return {"k": "end", "money": list(event.money), "winners": list(event.winners)}
    if isinstance(event, CardsDealt):
        return {"k": "dealt", "round": event.round, "seat": event.seat, "count": len(event.cards)}
    if isinstance(event, MysteryFlipped):
        return {"k": "mystery", "round": event.round, "seat": event.seat, "card": int(event.card)}
    return None


def event_from_wire(data: dict[str, Any], options: RuleOptions) -> Any:
    """The engine event value for wire data (ValueError if malformed)."""
    deck = deck_cards(options.deck_table)
    kind = data.get("k")
    body = {k: v for k, v in data.items() if k != "k"}
    try:
        if kind == "auction":
            return AuctionStarted(
                body["auction"], AuctionType(body["kind"]), body["auctioneer"], tuple(deck[c] for c in body["cards"])
            )
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
        if kind == "mystery":
            if type(body["round"]) is not int or type(body["seat"]) is not int or type(body["card"]) is not int:
                raise ValueError("malformed mystery event: its fields are integers")
            return MysteryFlipped(body["round"], body["seat"], cards_of(deck, [body["card"]], "card")[0])
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed {kind} event: {exc!r}") from None
    raise ValueError(f"unknown event kind {kind!r}")


class ViewBuilder:
    """Accumulates public events and builds Observations (or the public view for spectators).

    Sales and round results are parsed once, when they arrive; the rest of an Observation
    comes from the latest public view, checked field by field (ValueError if malformed).
    """

    def __init__(self, players: int, options: RuleOptions) -> None:
        self.players = players
        self.options = options
        self.deck = deck_cards(options.deck_table)
        self.sales: list[Sale] = []
        self.results: list[Any] = []
        self.pv: dict[str, Any] | None = None
        self._public: dict[str, Any] | None = None

    def feed(self, wire_events: list[dict[str, Any]], pv: dict[str, Any]) -> None:
        for ev in wire_events:
            body = {k: v for k, v in ev.items() if k != "k"}
            if ev.get("k") == "sale":
                self.sales.append(sale_from_dict(body, self.deck))
            elif ev.get("k") == "round":
                self.results.append(result_from_dict(body, self.deck))
        self.pv = pv
        self._public = None

    def _cards(self, ids: Any, limit: int) -> tuple[Any, ...]:
        if not isinstance(ids, list) or len(ids) > limit:
            raise ValueError("a card list is malformed")
        return cards_of(self.deck, ids, "cards")

    def _public_fields(self) -> dict[str, Any]:
        if self._public is None:
            pv = self.pv
            if pv is None:
                raise ValueError("no public view yet")
            data = {k: pv[k] for k in _PV_INTS}
            for key in data:
                if type(data[key]) is not int:
                    raise ValueError(f"field {key!r} must be an integer")
            for key in _PV_LISTS:
                value = pv[key]
                if not isinstance(value, list) or len(value) > 64 or any(type(x) is not int for x in value):
                    raise ValueError(f"field {key!r} must be a list of integers")
                data[key] = tuple(value)
            data["phase"] = Phase(pv["phase"])
            data["tiles"] = tuple(tuple(self._ints(t)) for t in pv["tiles"])
            data["bought"] = tuple(self._cards(b, 70) for b in pv["bought"])
            data["lot"] = self._cards(pv["lot"], 2)
            data["bids"] = tuple(tuple(self._ints(b)) for b in pv["bids"])
            data["offenders"] = tuple(tuple(self._ints(o)) for o in pv["offenders"])
            for key in ("candidates", "responses"):
                data[key] = tuple(self._ints(pv[key]))
            data["mystery_size"] = pv["mystery_size"]
            if type(data["mystery_size"]) is not int:
                raise ValueError("field 'mystery_size' must be an integer")
            data["flipped"] = self._cards(pv["flipped"], 70)
            data["flipped_before"] = self._cards(pv["flipped_before"], 70)
            kind = pv.get("kind", -1)  # the running auction's type (absent from older hosts)
            if type(kind) is not int or not -1 <= kind <= 3:
                raise ValueError("field 'kind' must be an auction type or -1")
            data["kind"] = kind
            self._public = data
        return self._public

    @staticmethod
    def _ints(value: Any) -> list[int]:
        if not isinstance(value, list) or len(value) > 8 or any(type(x) is not int for x in value):
            raise ValueError("a row of integers is malformed")
        return value

    def observation(self, seat: int, hand: list[int], money: int) -> Observation:
        if type(money) is not int or not 0 <= seat < self.players:
            raise ValueError("private part malformed")
        return self._observation(seat, self._cards(hand, 70), money)

    def watcher(self) -> Observation:
        """The game as someone without a seat sees it: public facts only (seat `WATCHER`, no
        hand, no money, no moves), drawn by the client's panels like a player's."""
        return self._observation(WATCHER, (), 0)

    def _observation(self, seat: int, hand: tuple[Any, ...], money: int) -> Observation:
        return Observation(
            seat=seat,
            players=self.players,
            options=self.options,
            hand=hand,
            money=money,
            sales=tuple(self.sales),
            results=tuple(self.results),
            **self._public_fields(),
        )


_PV_INTS = ("round", "stock_size", "auctioneer", "original", "turn", "high", "high_seat", "price", "auction_no")
_PV_LISTS = ("to_move", "hand_sizes", "counts", "passed", "sealed_done", "final_money", "winners")
