"""A client's verified copy of one game: the hash chain, the roster and stand-ins, the view.

`GameFollower.apply(frame, own_seat)` checks an event (chain link, host signature, the
seat's own private part, every relayed player signature) before it changes anything, then
returns what the event means: the move, the engine events and the seat's new Observation.
A failed check raises ChainError (the host lied or the data was damaged).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modernart.moves import Move
from modernart.rules import RuleOptions
from modernart.views import Observation

from .chain import ChainError, ChainVerifier
from .identity import ACT_TAG, verify
from .protocol import decode_action_body, decode_host_inner
from .wire import ViewBuilder, event_from_wire


@dataclass(frozen=True)
class EventInfo:
    seq: int
    kind: str                 # "start", "move", "delegate"
    move: Move | None         # sealed amounts are -1 until revealed
    by: str | None            # "player", "clock" (default action), "recovered"
    events: tuple[Any, ...]   # modernart.events values
    public: dict[str, Any]


class GameFollower:
    """Follows one game from event 1, checking every event."""

    def __init__(self, game_id: bytes, host_vk: bytes) -> None:
        self.game_id = game_id
        self.chain = ChainVerifier(game_id, host_vk)
        self.players: list[dict[str, Any]] = []
        self.delegates: dict[int, bytes] = {}
        self.view: ViewBuilder | None = None

    @property
    def head(self) -> bytes:
        return self.chain.head

    def apply(self, msg: dict[str, Any], own: int | None) -> tuple[EventInfo, Observation | None]:
        """Check and apply event frame `msg`; `own` is this client's seat (None: watching)."""
        seq = msg["seq"]
        priv_bytes = msg.get("priv") if own is not None else None
        self.chain.accept(seq, msg["pub"], list(msg["ph"]), msg["h"], msg["hs"], own, priv_bytes)
        pub = decode_host_inner(msg["pub"])
        kind = pub["k"]
        if kind == "start":
            self.players = pub["players"]
            self.view = ViewBuilder(len(self.players), RuleOptions.from_dict(pub["options"]))
            self.delegates = {}
        elif kind == "delegate":
            if pub.get("vk") is None:
                self.delegates.pop(pub["seat"], None)
            else:
                self.delegates[pub["seat"]] = pub["vk"]
        if self.view is None:
            raise ChainError(f"event {seq} comes before the game's start")
        move = self._check_action(pub) if kind == "move" else None
        events = tuple(event_from_wire(e, self.view.options) for e in pub.get("ev", []))
        self.view.feed(pub.get("ev", []), pub["pv"])
        observation = None
        if own is not None and priv_bytes is not None:
            priv = decode_host_inner(priv_bytes)
            observation = self.view.observation(own, priv["hand"], priv["money"])
        return EventInfo(seq, kind, move, pub.get("by"), events, pub), observation

    def _check_action(self, pub: dict[str, Any]) -> Move:
        """Verify the player's signature on a relayed action (and on revealed sealed bids)."""
        seat, action, arg = pub["m"]
        move = Move.of(seat, action, arg) if arg >= 0 else Move(seat, action, -1)  # type: ignore[arg-type]
        act = pub.get("act") or {}
        if "b" in act:
            key = self.players[seat]["vk"] if pub.get("signer", 0) == 0 else self.delegates.get(seat)
            if key is None or not verify(key, ACT_TAG, act["b"], act["s"]):
                raise ChainError(f"the action of seat {seat} carries a bad signature")
            body = decode_action_body(act["b"])
            if body["move"] != list(pub["m"]) or body["game"] != self.game_id:
                raise ChainError(f"the host relayed seat {seat}'s action with a different move")
        for body_bytes, sig in pub.get("reveal") or []:
            s = decode_action_body(body_bytes)["seat"]
            keys = [self.players[s]["vk"]] + ([self.delegates[s]] if s in self.delegates else [])
            if not any(verify(k, ACT_TAG, body_bytes, sig) for k in keys):
                raise ChainError(f"a revealed sealed bid of seat {s} carries a bad signature")
        return move
