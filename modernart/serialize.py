"""Plain-data forms (dicts, lists, ints, strings) of the engine's values.

Used by game records and by the network layer, which both need JSON/msgpack-safe data.
Every `*_from_dict` validates types and raises `ValueError` naming the bad field.  An
`Observation`'s plain form is `observation_to_dict` / `observation_from_dict` here (views.py
does not depend on this module).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .cards import AuctionType, Card, deck_cards
from .events import Sale
from .phase import Phase
from .rules import RuleOptions
from .scoring import RoundResult
from .views import Observation


def _int(data: Mapping[str, Any], key: str, lo: int = -1, hi: int = 1 << 40) -> int:
    value = data.get(key)
    if type(value) is not int or not lo <= value <= hi:
        raise ValueError(f"field {key!r} must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _ints(data: Mapping[str, Any], key: str, max_len: int = 512) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, (list, tuple)) or len(value) > max_len or any(type(v) is not int for v in value):
        raise ValueError(f"field {key!r} must be a list of integers, got {value!r}")
    return tuple(value)


def cards_of(deck: Sequence[Card], ids: Sequence[int], key: str) -> tuple[Card, ...]:
    """The cards of `deck` with ids `ids` (ValueError naming field `key` for an unknown one)."""
    out = []
    for i in ids:
        if type(i) is not int or not 0 <= i < len(deck):
            raise ValueError(f"field {key!r}: no card {i!r} in the deck")
        out.append(deck[i])
    return tuple(out)


def sale_to_dict(sale: Sale) -> dict[str, Any]:
    return {
        "auction": sale.auction,
        "round": sale.round,
        "kind": int(sale.kind),
        "auctioneer": sale.auctioneer,
        "original": sale.original,
        "cards": [int(c) for c in sale.cards],
        "bids": [list(b) for b in sale.bids],
        "buyer": sale.buyer,
        "price": sale.price,
        "payments": [list(p) for p in sale.payments],
    }


def sale_from_dict(data: Mapping[str, Any], deck: Sequence[Card]) -> Sale:
    bids = data.get("bids")
    payments = data.get("payments")
    if not isinstance(bids, list) or not all(isinstance(b, list) and len(b) == 2 for b in bids):
        raise ValueError("field 'bids' must be a list of [seat, amount]")
    if not isinstance(payments, list) or not all(isinstance(p, list) and len(p) == 3 for p in payments):
        raise ValueError("field 'payments' must be a list of [from, to, amount]")
    if any(type(x) is not int for row in bids + payments for x in row):
        raise ValueError("bids and payments hold integers only")
    return Sale(
        _int(data, "auction", 0),
        _int(data, "round", 0, 3),
        AuctionType(_int(data, "kind", 0, 4)),
        _int(data, "auctioneer", 0, 4),
        _int(data, "original", -1, 4),
        cards_of(deck, _ints(data, "cards", 2), "cards"),
        tuple(tuple(b) for b in bids),
        _int(data, "buyer", -1, 4),  # -1: nobody bought it, discarded (unsold_discarded)
        _int(data, "price", 0),
        tuple(tuple(p) for p in payments),
    )


def result_to_dict(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.round,
        "ended_by": result.ended_by,
        "ender": result.ender,
        "ending_cards": [int(c) for c in result.ending_cards],
        "counts": list(result.counts),
        "ranking": list(result.ranking),
        "tiles": list(result.tiles),
        "values": list(result.values),
        "sold": [list(s) for s in result.sold],
        "payouts": list(result.payouts),
    }


def result_from_dict(data: Mapping[str, Any], deck: Sequence[Card]) -> RoundResult:
    ended_by = data.get("ended_by")
    if ended_by not in ("fifth", "exhausted", "early"):
        raise ValueError(f"field 'ended_by' must be 'fifth', 'exhausted' or 'early', got {ended_by!r}")
    sold = data.get("sold")
    if not isinstance(sold, list) or not all(isinstance(s, list) and len(s) == 5 for s in sold):
        raise ValueError("field 'sold' must be a list of five counts per seat")
    return RoundResult(
        _int(data, "round", 0, 3),
        ended_by,
        _int(data, "ender", 0, 4),
        cards_of(deck, _ints(data, "ending_cards", 2), "ending_cards"),
        _ints(data, "counts", 5),
        _ints(data, "ranking", 5),
        _ints(data, "tiles", 5),
        _ints(data, "values", 5),
        tuple(tuple(s) for s in sold),
        _ints(data, "payouts", 5),
    )


def public_observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The fields of `obs` that every seat sees alike, without the ever-growing lists of sales
    and results (the host's public view of each event, net/protocol/game_data.py)."""
    return {
        "round": obs.round,
        "phase": int(obs.phase),
        "to_move": list(obs.to_move),
        "hand_sizes": list(obs.hand_sizes),
        "stock_size": obs.stock_size,
        "counts": list(obs.counts),
        "tiles": [list(t) for t in obs.tiles],
        "bought": [[int(c) for c in b] for b in obs.bought],
        "auctioneer": obs.auctioneer,
        "original": obs.original,
        "turn": obs.turn,
        "lot": [int(c) for c in obs.lot],
        "high": obs.high,
        "high_seat": obs.high_seat,
        "bids": [list(b) for b in obs.bids],
        "passed": list(obs.passed),
        "sealed_done": list(obs.sealed_done),
        "price": obs.price,
        "auction_no": obs.auction_no,
        "offenders": [list(o) for o in obs.offenders],
        "final_money": list(obs.final_money),
        "winners": list(obs.winners),
        "candidates": list(obs.candidates),
        "responses": list(obs.responses),
        "mystery_size": obs.mystery_size,
        "flipped": [int(c) for c in obs.flipped],
        "flipped_before": [int(c) for c in obs.flipped_before],
        "kind": obs.kind,
    }


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    return {
        "seat": obs.seat,
        "players": obs.players,
        "options": obs.options.to_dict(),
        "hand": [int(c) for c in obs.hand],
        "money": obs.money,
        "sales": [sale_to_dict(s) for s in obs.sales],
        "results": [result_to_dict(r) for r in obs.results],
        **public_observation_to_dict(obs),
    }


def observation_from_dict(data: Mapping[str, Any]) -> Observation:
    if not isinstance(data, Mapping):
        raise ValueError("an observation is a mapping")
    options_data = data.get("options")
    if not isinstance(options_data, Mapping):
        raise ValueError("field 'options' must be a mapping")
    options = RuleOptions.from_dict(options_data)
    deck = deck_cards(options.deck_table)
    for key in ("tiles", "bought", "bids", "sales", "results", "offenders"):
        if not isinstance(data.get(key), list):
            raise ValueError(f"field {key!r} must be a list")
    bids = data["bids"]
    if not all(isinstance(b, list) and len(b) == 2 and all(type(x) is int for x in b) for b in bids):
        raise ValueError("field 'bids' must be a list of [seat, amount]")
    offenders = data["offenders"]
    if not all(isinstance(o, list) and len(o) == 3 and all(type(x) is int for x in o) for o in offenders):
        raise ValueError("field 'offenders' must be a list of [seat, auction, fine]")
    return Observation(
        seat=_int(data, "seat", 0, 4),
        players=_int(data, "players", 3, 5),
        options=options,
        round=_int(data, "round", 0, 3),
        phase=Phase(_int(data, "phase", 0, len(Phase) - 1)),
        to_move=_ints(data, "to_move", 5),
        hand=cards_of(deck, _ints(data, "hand", 70), "hand"),
        money=_int(data, "money", 0),
        hand_sizes=_ints(data, "hand_sizes", 5),
        stock_size=_int(data, "stock_size", 0, 70),
        counts=_ints(data, "counts", 5),
        tiles=tuple(tuple(_ints({"t": t}, "t", 5)) for t in data["tiles"]),
        bought=tuple(cards_of(deck, _ints({"b": b}, "b", 70), "bought") for b in data["bought"]),
        auctioneer=_int(data, "auctioneer", -1, 4),
        original=_int(data, "original", -1, 4),
        turn=_int(data, "turn", -1, 4),
        lot=cards_of(deck, _ints(data, "lot", 2), "lot"),
        high=_int(data, "high", 0),
        high_seat=_int(data, "high_seat", -1, 4),
        bids=tuple(tuple(b) for b in bids),
        passed=_ints(data, "passed", 5),
        sealed_done=_ints(data, "sealed_done", 5),
        price=_int(data, "price", 0),
        auction_no=_int(data, "auction_no", 0),
        sales=tuple(sale_from_dict(s, deck) for s in data["sales"]),
        results=tuple(result_from_dict(r, deck) for r in data["results"]),
        offenders=tuple(tuple(o) for o in offenders),
        final_money=_ints(data, "final_money", 5),
        winners=_ints(data, "winners", 5),
        # the variants' fields (absent from the standard game's older peers: empty)
        candidates=_ints(data, "candidates", 5) if "candidates" in data else (),
        responses=_ints(data, "responses", 5) if "responses" in data else (),
        mystery_size=_int(data, "mystery_size", 0, 70) if "mystery_size" in data else 0,
        flipped=cards_of(deck, _ints(data, "flipped", 70), "flipped") if "flipped" in data else (),
        flipped_before=(
            cards_of(deck, _ints(data, "flipped_before", 70), "flipped_before") if "flipped_before" in data else ()
        ),
        kind=_int(data, "kind", -1, 3) if "kind" in data else -1,
    )
