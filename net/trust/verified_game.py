"""A client's verified copy of one game: the chain, the roster and stand-ins, the view, and
every fair-play proof.

`VerifiedGame.apply(frame, own_seat)` checks an event before it changes anything: the
chain link, the host signature, the seat's own private part, every relayed player
signature and counter, every seed and sealed-bid commitment, the commitment set and its
digest, every reveal, the host's verdict on it (money limit included, from public
payments) and the winner; at the end the disclosed seeds against their commitments and
the deal they give (a disclosure before the game is over is the host's lie).  At a table
that hides hands (protocol 3) also every deck step's signature and binding
(net/trust/deck_steps.py; a step of this client's own seat must be one it sent, byte for
byte), and every card play: the `play` event the host commits to (the owner's signed
action naming the slot), then the `move` that opens that very slot and nothing else in
between.  At every table it runs the rules itself (net/trust/blind_game.py: `BlindGame` on
its own checked deck ledger where hands are hidden, `StandInGame` where the host sees
them): every event's public view, announced outcome and deals, and this seat's money, must
be its own run's, and the game is over when that run says so, never on the host's word.
It returns what the event means: the move, the engine events and
the seat's new Observation.  Proof that the host broke the protocol raises ChainError;
what the host cannot hide but may not be its fault (a reveal against a different
commitment set) comes back as warnings in `EventInfo.warnings`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from modernart.errors import IllegalMove
from modernart.events import CardsDealt, Sale, SealedRevealed
from modernart.game import GameState, deals_of_order, deck_orders_needed
from modernart.moves import CARD_ACTIONS, Action, Move
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.views import Observation, public_money

from modernart.net.clocks import fixed_default
from modernart.net.trust.chain import ChainError, ChainVerifier
from modernart.net.protocol import VERSION, ProtocolError
from modernart.net.protocol.frames import decode_event_private, decode_event_public
from modernart.net.protocol.game_data import ViewBuilder, event_from_wire, event_to_wire, public_view
from modernart.net.protocol.signed import ACT_TAG, decode_action_body
from modernart.net.trust.identity import verify
from modernart.net.trust.blind_game import BlindGame, StandInGame
from modernart.net.trust.sealed import SealedVerifier, overlay
from modernart.net.trust.deck import DeckError, DeckKey, Share, Shuffle, key_of
from modernart.net.trust.deck_steps import STEP_OF_EVENT, StepValue, check_step
from modernart.net.trust.deck_owed import owed_steps
from modernart.net.trust.group import read_scalar
from modernart.net.trust.hidden_deck import DeckLedger, DeckStepError, SeatDeck
from modernart.net.trust.shuffle import FixedDeal, SeedVerifier
from modernart.net.trust.shuffle_checks import ShuffleChecks
from modernart.net.trust.votes import check_decision

_SEALED = (Action.SEALED_BID, Action.SEALED_FORFEIT)
log = logging.getLogger("modernart.net.trust.verified_game")

#: the first protocol whose event 1 (`start`) names it (`v`), signed by the host with the rest
SIGNED_VERSION = 3


def signed_protocol(start: dict[str, Any], claimed: int) -> int:
    """The protocol a game was played in, from its event 1 (`start`, signed by the host):
    its `v`, which `claimed` (a transcript's header, or the protocol a client speaks) must
    equal; a start that names none is of protocol 1 or 2 (theirs did not), which `claimed`
    chooses between.  Deck steps are signed from protocol 3 on, so a table that hides hands
    at a lower one is refused (ValueError).

    >>> signed_protocol({"v": 3}, 3), signed_protocol({}, 1), signed_protocol({}, 3)
    (3, 1, 2)
    >>> signed_protocol({"v": 3}, 2)
    Traceback (most recent call last):
    ValueError: the host signed it as protocol 3; the transcript's header (or the client) says version 2
    """
    version = start.get("v")
    if version is not None and version != claimed:
        raise ValueError(
            f"the host signed it as protocol {version}; the transcript's header (or the client) says version {claimed}"
        )
    protocol = version if version is not None else min(claimed, SIGNED_VERSION - 1)
    if start.get("hidden") and protocol < SIGNED_VERSION:
        raise ValueError(
            f"a table that hides hands at protocol {protocol} (event 1 names no version): deck steps unsigned"
        )
    return int(protocol)


#: the hidden deck's events (net/host/hidden_hands.py)
DECK_EVENTS = ("dkey", "dshuffle", "dshares", "dsecret")
#: what each deck step a seat can be late with is (event `dlate`, net/host/deck_deadlines.py)
DECK_STEP_WORDS = {
    "key": "its deck key",
    "shuffle": "its shuffle",
    "shares": "its shares of the cards dealt to the others",
    "card": "the card it puts up (only its owner can open it)",
    "secret": "its deck key after the game",
}


@dataclass(frozen=True)
class EventInfo:
    seq: int
    kind: str  # "start", "seed", "deal", "move", "call", "delegate", "commits", "settle", "disclose", ...
    move: Move | None  # for "call": the auctioneer's HAMMER being called (not applied yet)
    by: str | None  # "player", "clock" (default action), "reveal", "offender", "recovered", "call"
    events: tuple[Any, ...]  # modernart.events values
    public: dict[str, Any]
    warnings: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()  # "settle": every seat's settled sealed bid, in seat order


def deal_counts(wire_events: list[Any], n: int) -> list[tuple[int, list[int]]]:
    """The deals an announced outcome (wire events) makes: (round, cards per seat), in order.

    >>> deal_counts([{"k": "dealt", "round": 1, "seat": 1, "count": 3}, {"k": "sale"}], 2)
    [(1, [0, 3])]
    """
    rounds: dict[int, list[int]] = {}
    for e in wire_events:
        if isinstance(e, dict) and e.get("k") == "dealt":
            seat, rnd, count = e.get("seat"), e.get("round"), e.get("count")
            if type(seat) is not int or not 0 <= seat < n or type(rnd) is not int or type(count) is not int:
                raise ValueError(f"a deal to seat {seat!r} in round {rnd!r}: the table has seats 0..{n - 1}")
            rounds.setdefault(rnd, [0] * n)[seat] = count
    return list(rounds.items())


def _said(deals: list[tuple[int, list[int]]]) -> str:
    return "; ".join(f"{counts} cards in round {rnd + 1}" for rnd, counts in deals) or "nothing now"


class VerifiedGame:
    """Follows one game from event 1, checking every event (`keep` keeps the frames, for a transcript)."""

    def __init__(
        self,
        game_id: bytes,
        host_vk: bytes,
        *,
        keep: bool = False,
        every_signature: bool = True,
        check_deck: bool = True,
        protocol: int = VERSION,
    ) -> None:
        self.game_id = game_id
        # the protocol the game was played in (as event 1 says, `signed_protocol`): 1 published
        # each commitment as an event and settled a Sealed auction in one move event per seat
        # (old transcripts, for the audit); 2 publishes the commitments in the complete set only
        # and settles in one event; 3 (this one) also signs the hidden deck's steps
        self.protocol = protocol
        self.every_signature = every_signature  # False: a client (net/trust/sealed.py `SealedVerifier`)
        self.host_vk = host_vk
        self.chain = ChainVerifier(game_id, host_vk)
        self.players: list[dict[str, Any]] = []
        self.delegates: dict[int, bytes] = {}
        # the event after which this client's own seat is played by this client itself (its
        # player welcomed by the host, which hands a stand-in's seat back before it welcomes):
        # a stand-in named for the seat later is the host's lie.  None: not known (a stand-in,
        # a watcher, the audit)
        self.held_after: int | None = None
        # (auction, seat) -> stand-in keys that spoke for the seat during that Sealed auction's
        # commitments and have gone since: a commitment in the set may be signed by one
        self.sealed_keys: dict[tuple[int, int], list[bytes]] = {}
        self.view: ViewBuilder | None = None
        self.seeds: SeedVerifier | None = None
        self.sealed: SealedVerifier | None = None
        self.counters: dict[int, int] = {}
        self.own_deals: dict[tuple[int, int], list[int]] = {}  # (seat, round) -> the cards it was dealt
        self.shuffle: tuple[list[int], int] | None = None  # (deck order, first) once disclosed
        self.fixed_deal: FixedDeal | None = None  # the chosen deal event 1 announces (not shuffled)
        self.frames: list[dict[str, Any]] | None = [] if keep else None
        self.own_actions: dict[bytes, tuple[bytes, bytes]] = {}  # body -> (signature, key) of actions sent
        self.call: tuple[int, int] | None = None  # (auction, seat) of the hammer being called
        self.flipper: int | None = None  # the seat whose turning up of the mystery card waits for shares
        self.late: dict[int, str] = {}  # seat -> the deck step it is late with (event `dlate`)
        self.late_at: dict[int, int] = {}  # seat -> the `dlate` event that named it late (the votes answer it)
        self.ended_without: int | None = None  # the absent seat the table's vote ended the game without
        # a hidden-hands table (docs/fair-play.md "The hidden deck"): the deck's public record,
        # checked step by step, and this seat's own part (its secret deck key), if it has a seat
        self.deck: DeckLedger | None = None
        self.check_deck = check_deck  # False: the audit, which checks the whole deal at the end (audit_deal)
        self.own_deck: SeatDeck | None = None
        self.deck_secrets: list[int | None] = []
        # (protocol 3) the deck steps this client signed and sent, by (kind, deck): the host
        # must record one of exactly these for this seat (`sent_step`)
        self.own_steps: dict[tuple[str, int], list[bytes]] = {}
        # (protocol 3) the card play the host committed to (its `play` event) and that waits
        # for its owner's opening: (seat, action, slot, seq of the play event)
        self.pending_play: tuple[int, int, int, int] | None = None
        # (protocol 3) bodies of this client's card plays that the host refused: withdrawn,
        # never to be committed (net/client/fair_duties.py `withdraw`)
        self.withdrawn: dict[bytes, None] = {}
        self.heads: list[bytes] = []  # the chain head after each event, oldest first
        # (a table that hides hands) this client's own run of the rules on its checked ledger
        # (net/trust/blind_game.py), from the deal on: every event's public view, announced
        # outcome and deal must be its own (`_check_public`), and the game is over when it says
        self.rules: BlindGame | None = None
        # (a table whose host sees the hands) the same check on stand-ins (`StandInGame`)
        self.open_rules: StandInGame | None = None
        self._rules_events = 0  # how many of its engine events the events so far announced
        self._engine_pv: dict[str, Any] | None = None  # the engine's public view after the last move
        self._sealing: tuple[int, list[int], bool] = (-1, [], False)  # (auction, committed, complete)
        self.own_shuffles: list[Shuffle] = []  # the shuffles this client made for its seat (this run)

    @property
    def head(self) -> bytes:
        return self.chain.head

    @property
    def seq(self) -> int:
        """The last event applied."""
        return len(self.heads)

    def head_at(self, seq: int) -> bytes | None:
        """The chain head after event `seq` (None: not held)."""
        return self.heads[seq - 1] if 1 <= seq <= len(self.heads) else None

    @property
    def game_over(self) -> bool:
        """Whether this client's own checked record shows the game over (its last round
        scored): its own run of the rules says so, never the host's view."""
        rules = self.rules if self.deck is not None else self.open_rules
        return rules is not None and rules.state.is_over()

    def sent_step(self, kind: str, epoch: int, body: bytes) -> None:
        """Note a deck step this client signed and sent for its seat (see `own_steps`)."""
        self.own_steps.setdefault((kind, epoch), []).append(body)

    def check_head(self) -> None:
        """Verify the host signature on the newest event applied with `defer_signature`."""
        self.chain.check_head()

    def sent(self, body: bytes, sig: bytes, key: bytes) -> None:
        """Note an action this client signed with `key` and sent: relayed with exactly these
        bytes, for that key, its signature needs no second check (anything else is checked)."""
        if len(self.own_actions) > 64:  # refused or lost actions are never relayed: forget the oldest
            del self.own_actions[next(iter(self.own_actions))]
        self.own_actions[body] = (sig, key)

    def keys(self, seat: int) -> list[bytes]:
        """The keys that may speak for `seat` now: its own, and its stand-in's."""
        if not 0 <= seat < len(self.players):
            return []
        return [self.players[seat]["vk"]] + ([self.delegates[seat]] if seat in self.delegates else [])

    def apply(
        self, msg: dict[str, Any], own: int | None, *, defer_signature: bool = False
    ) -> tuple[EventInfo, Observation | None]:
        """Check and apply event frame `msg`; `own` is this client's seat (None: watching).

        With `defer_signature` the host signature is left to `check_head()`, which the
        caller runs at the end of the burst of events it received, before it acts on any
        of them (net/trust/chain.py says why one signature on the newest head is enough).
        """
        seq = msg["seq"]
        priv_bytes = msg.get("priv") if own is not None else None
        pub = decode_event_public(msg["pub"])  # its schema first: a malformed part changes nothing
        priv = decode_event_private(priv_bytes) if priv_bytes is not None else None
        self.chain.accept(
            seq, msg["pub"], list(msg["ph"]), msg["h"], msg["hs"], own, priv_bytes, defer_signature=defer_signature
        )
        self.heads.append(msg["h"])
        if priv is not None and "hand" not in priv and self.deck is None:
            raise ChainError(f"event {seq}: the private part names no hand")
        if pub.get("g") != self.game_id:
            raise ChainError(f"event {seq} names another game")
        try:
            info = self._apply(seq, pub, own, priv_bytes)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            if isinstance(exc, ChainError):
                raise
            raise ChainError(f"event {seq}: {exc}") from None
        if self.frames is not None:
            self.frames.append({k: msg.get(k) for k in ("t", "seq", "pub", "ph", "h", "hs", "priv")})
        observation = None
        if own is not None and priv is not None and self.view is not None and self.view.pv is not None:
            self._check_own_part(seq, own, priv)
            if self.deck is not None:  # the host knows no hand: this seat reads its own
                return info, self.view.observation(own, self.hidden_hand(), priv["money"])
            if "dealt" in priv:
                rounds = [e.round for e in info.events if isinstance(e, CardsDealt) and e.seat == own]
                if rounds:
                    self.own_deals[(own, rounds[-1])] = list(priv["dealt"])
                    # the public event only counts the cards; this seat's copy names them
                    info = replace(
                        info,
                        events=tuple(
                            CardsDealt(e.round, e.seat, tuple(priv["dealt"]))
                            if isinstance(e, CardsDealt) and e.seat == own
                            else e
                            for e in info.events
                        ),
                    )
            observation = self.view.observation(own, priv["hand"], priv["money"])
        return info, observation

    def _check_own_part(self, seq: int, own: int, priv: dict[str, Any]) -> None:
        """This seat's private part against its own run of the rules: its money, and (the
        host sees the hands) as many cards in its hand as the rules leave it."""
        rules = self.rules if self.deck is not None else self.open_rules
        if rules is None or not 0 <= own < len(rules.state.money):
            return
        money, hand = rules.state.money[own], priv.get("hand")
        if priv.get("money") != money:
            raise ChainError(f"event {seq}: the host says this seat has {priv.get('money')}, the rules {money}")
        if self.deck is None and (not isinstance(hand, list) or len(hand) != len(rules.state.hands[own])):
            raise ChainError(f"event {seq}: the host shows this seat a hand of another size than the rules deal")

    def _apply(self, seq: int, pub: dict[str, Any], own: int | None, priv: bytes | None) -> EventInfo:
        kind = pub["k"]
        warnings: list[str] = []
        if kind == "start":
            self._start(pub)
        if self.view is None or self.seeds is None or self.sealed is None:
            raise ChainError(f"event {seq} comes before the game's start")
        events = tuple(event_from_wire(e, self.view.options) for e in pub.get("ev", []))
        move, moves = self._step(seq, kind, pub, own, events, warnings)
        self._check_nothing_passes_a_pending_play(seq, kind, move)
        if self.deck is not None:
            self._follow_deck(seq, kind, pub, move if kind == "move" else None, moves)
        else:
            self._follow_open(seq, kind, pub, move if kind == "move" else None, moves)
        if "pv" in pub:
            self.view.feed(pub.get("ev", []), pub["pv"])
        return EventInfo(seq, kind, move, pub.get("by"), events, pub, tuple(warnings), moves)

    def _step(
        self, seq: int, kind: str, pub: dict[str, Any], own: int | None, events: tuple[Any, ...], warnings: list[str]
    ) -> tuple[Move | None, tuple[Move, ...]]:
        """One event's own checks, by its kind: the move it makes (a `move`, a `call`) or the
        sealed bids it settles; warnings are added to `warnings`."""
        if kind in ("commit", "commits", "settle"):
            moves, settled = self._sealed_step(kind, pub, events)
            warnings += settled
            return None, moves
        if kind == "move":
            return self._move(pub, events, warnings), ()
        if kind == "call":
            return self._check_call(pub), ()
        self._table_step(seq, kind, pub, own, warnings)
        return None, ()

    def _table_step(self, seq: int, kind: str, pub: dict[str, Any], own: int | None, warnings: list[str]) -> None:
        """An event that makes no move of the game: a stand-in's change, a seed, the deal, a
        mystery flip, a late seat, the players' decision, the disclosure, a deck step, a card
        play committed to."""
        assert self.seeds is not None  # checked by _apply
        if kind == "delegate":
            self._delegate(seq, pub["seat"], pub.get("vk"), own)
        elif kind == "seed":
            self.seeds.seed_event(pub["seat"], pub["c"], self.keys(pub["seat"]))
        elif kind == "deal":
            self._deal(seq, pub)
        elif kind == "flip":
            self._check_flip(pub)
        elif kind == "dlate":
            warnings.append(self._late(seq, pub))
            self.late_at[pub["seat"]] = seq
        elif kind == "decide":
            self._decide(seq, pub)
        elif kind == "disclose":
            if not self.game_over:  # a host after the players' deck keys (or the seeds, early)
                raise ChainError(f"event {seq}: the host disclosed the seeds before the game is over")
            self._check_disclosure(pub)
        elif kind in DECK_EVENTS:
            self._deck_step(kind, pub, seq, own)
            self._back(pub["seat"])
        elif kind == "play":
            self._check_play(pub, own)
        elif kind != "start":
            raise ValueError(f"unknown event kind {kind!r}")

    def _deal(self, seq: int, pub: dict[str, Any]) -> None:
        """The deal event: the seeds it used, and the rules started on the deck's ledger (or,
        at an open table, on stand-ins); a second deal is the host's lie."""
        assert self.seeds is not None and self.view is not None  # checked by _apply
        self.seeds.deal_event(pub["first"], pub["missing"])
        if self.deck is not None:
            self._begin_rules(seq, pub["first"])
        elif self.open_rules is None:
            self.open_rules = StandInGame.dealt(len(self.players), self.view.options, pub["first"])
        else:
            raise ChainError(f"event {seq}: the host dealt the game a second time")

    def _start(self, pub: dict[str, Any]) -> None:
        """Event 1: the players, the rules, the fixed deal if any, the host's seed commitment,
        and at a table that hides hands the deck's ledger; the protocol, from event 1 itself."""
        self.protocol = signed_protocol(pub, self.protocol)
        self.players = pub["players"]
        options = RuleOptions.from_dict(pub["options"])
        self.view = ViewBuilder(len(self.players), options)
        self.delegates = {}
        self.fixed_deal = FixedDeal.from_wire(pub["fixed"]) if "fixed" in pub else None
        self.seeds = SeedVerifier(self.game_id, self.host_vk, pub["hseed"], len(self.players), self.fixed_deal)
        self.sealed = SealedVerifier(self.game_id, len(self.players), every_signature=self.every_signature)
        if pub.get("hidden"):
            self.deck = DeckLedger(
                self.game_id,
                len(self.players),
                options.deck_table.size,
                checking=self.check_deck,
                checks=ShuffleChecks() if self.check_deck else None,
                fresh=options.fresh_deal_each_round,
                mystery=bool(options.mystery_hand),
            )
            self.deck_secrets = [None] * len(self.players)

    def _move(self, pub: dict[str, Any], events: tuple[Any, ...], warnings: list[str]) -> Move:
        """A `move` event: its action checked, a late card now played, a hammer call followed,
        a sealed bid (protocol 1 only, or recovered) checked against its commitment."""
        move = self._check_action(pub)
        if "open" in pub:  # a card its owner opened: back
            self._back(move.seat)
        self._follow_call(move, pub.get("by"))
        if move.action in _SEALED:
            if self.protocol >= 2 and pub.get("by") != "recovered":
                raise ValueError(f"seat {move.seat}'s sealed bid settled in a move of its own (protocol 1)")
            warnings += self._check_sealed(move, pub, events)
        return move

    def _check_nothing_passes_a_pending_play(self, seq: int, kind: str, move: Move | None) -> None:
        """While a committed card play waits for its opening, only that play's own events may
        come (the play, shares, a stand-in's change): the host may not move on without it."""
        card_play = kind == "move" and move is not None and move.action in CARD_ACTIONS
        if self.pending_play is not None and kind not in ("play", "dshares", "delegate", "decide") and not card_play:
            raise ChainError(
                f"event {seq}: the host moved on before seat {self.pending_play[0]}'s card play was opened"
            )

    def _delegate(self, seq: int, seat: int, vk: bytes | None, own: int | None) -> None:
        """A stand-in takes `seat` (`vk`), or gives it back (None).  A stand-in key that goes
        while a Sealed auction's commitments come in may still have signed the seat's
        commitment in its set: it is kept for that set.

        No stand-in is ever started at a table that hides hands (it would hold no deck key: the
        clocks' defaults play for a seat away), nor for this client's own seat while its
        player is connected (`held_after`): either is a key of the host's own speaking for
        a seated player."""
        assert self.view is not None
        if self.deck is not None:
            raise ChainError(f"event {seq}: the host named a stand-in for seat {seat} at a table that hides hands")
        if vk is not None and seat == own and self.held_after is not None and seq > self.held_after:
            raise ChainError(
                f"event {seq}: the host named a stand-in for seat {seat}, this client's own, while its player is connected"
            )
        gone = self.delegates.get(seat)
        pv = self.view.pv or {}
        if gone is not None and pv.get("phase") == Phase.SEALED:
            self.sealed_keys.setdefault((pv["auction_no"], seat), []).append(gone)
        if vk is None:
            self.delegates.pop(seat, None)
        else:
            self.delegates[seat] = vk

    def _sealed_step(
        self, kind: str, pub: dict[str, Any], events: tuple[Any, ...]
    ) -> tuple[tuple[Move, ...], list[str]]:
        """A Sealed auction's complete commitment set, or its settlement (or, protocol 1, a
        commitment of its own): checked; the moves it settles and the warnings."""
        assert self.sealed is not None
        if kind == "commit":
            if self.protocol >= 2:
                raise ValueError(f"seat {pub['seat']}'s commitment published as an event of its own (protocol 1)")
            self.sealed.commit_event(pub["auction"], pub["seat"], pub["c"], self.keys(pub["seat"]))
            return (), []
        if kind == "settle":
            return self._check_settle(pub, events)
        auction = pub["auction"]
        self._check_auction(auction)
        keys = [self.keys(s) + self.sealed_keys.pop((auction, s), []) for s in range(len(self.players))]
        if self.sealed.set_event(auction, pub["set"], keys) != pub["d"]:
            raise ValueError(f"auction {auction}: the host's set digest differs from the set's")
        return (), []

    def hand_ready(self) -> bool:
        """Whether this seat can read every card dealt to it (always, unless hands are hidden
        and another seat's shares of a deal are still on their way)."""
        deck, own = self.deck, self.own_deck
        if deck is None:
            return True
        if deck.waiting:  # a new deck's deal (FA-2) waits for its shuffles: the hand is not dealt yet
            return False
        return own is not None and all(deck.readable(k) for k in deck.slots_of(own.seat))

    def deck_disclosed(self) -> bool:
        """Whether every seat has disclosed its deck key (always true unless hands are hidden);
        of a game the table's vote ended, every seat but the absent one (whose never comes)."""
        return self.deck is None or all(
            x is not None for s, x in enumerate(self.deck_secrets) if s != self.ended_without
        )

    def hidden_hand(self) -> list[int]:
        """This seat's cards at a hidden-hands table, read with its own deck key."""
        if self.deck is None or self.own_deck is None:
            return []
        return sorted(self.own_deck.hand(self.deck).values())

    def relayed_shuffle(self, seat: int, wire: dict[str, Any] | None) -> None:
        """A shuffle the host relayed ahead of its event (a `dnext` frame): taken as the next
        one if it fits (its proof's check starts now; the event waits for its verdict), or
        with None, the relayed shuffles from `seat` on are withdrawn.  One that does not fit
        (this client is behind, or the frame is malformed) is left: its event will come."""
        deck = self.deck
        if deck is None:
            return
        if wire is None:
            deck.withdraw(seat)
            return
        try:
            shuffle = Shuffle.from_wire(wire, deck.size)
            if self.own_deck is not None and seat == self.own_deck.seat and shuffle not in self.own_shuffles:
                # this seat's shuffle is the one it makes: a host that relays another in its
                # place would have it skip its own (the event that records one is checked too)
                log.warning("the host relayed a shuffle for this seat that it did not make: left")
                return
            if shuffle.seat == seat and deck.next_proposer == seat:
                deck.propose(shuffle)
        except DeckError as exc:
            log.info("a relayed shuffle was left: %s", exc)

    def _deck_step(self, kind: str, pub: dict[str, Any], seq: int, own: int | None) -> None:
        """A step of the hidden deck, checked as the host checked it (DeckError: ValueError),
        and (protocol 3) its seat's signature (`_check_step_signature`)."""
        deck = self.deck
        if deck is None:
            raise ValueError(f"a {kind} event at a table that does not hide hands")
        seat = pub["seat"]
        if not 0 <= seat < len(self.players):
            raise ValueError(f"a {kind} event names seat {seat}, the table has seats 0..{len(self.players) - 1}")
        if kind == "dkey":
            key = DeckKey.from_wire(pub["key"])
            if key.seat != seat:
                raise ValueError(f"the deck key of seat {seat} names seat {key.seat}")
            self._check_step_signature(kind, pub, seq, own, key)
            deck.add_key(key)
        elif kind == "dshuffle":
            shuffle = Shuffle.from_wire(pub["sh"], deck.size)
            if shuffle.seat != seat:
                raise ValueError(f"the shuffle of seat {seat} names seat {shuffle.seat}")
            self._check_step_signature(kind, pub, seq, own, shuffle)
            deck.add_shuffle(shuffle)
        elif kind == "dshares":
            shares = [Share.from_wire(s) for s in pub["shares"]]
            if any(s.seat != seat for s in shares):
                raise ValueError(f"the shares of seat {seat} name another seat")
            self._check_step_signature(kind, pub, seq, own, shares)
            deck.add_shares(shares)
        else:
            if not self.game_over:
                raise ChainError(f"event {seq}: the host relayed seat {seat}'s deck key before the game is over")
            secret = read_scalar(pub["x"])
            self._check_step_signature(kind, pub, seq, own, secret)
            if self.check_deck and key_of(secret) != deck.key(seat).h:
                raise ValueError(f"seat {seat}'s disclosed deck key does not match its published key")
            self.deck_secrets[seat] = secret

    def _check_step_signature(
        self, kind: str, pub: dict[str, Any], seq: int, own: int | None, value: StepValue
    ) -> None:
        """(protocol 3) The seat's own signature over its step, bound to this game, seat and
        deck and answering an event of this client's own chain (net/trust/deck_steps.py); a
        step of this client's own seat must be byte for byte one it sent.  ChainError (the
        host relayed what the seat did not send) otherwise."""
        if self.protocol < 3:
            return
        assert self.deck is not None
        seat, step = pub["seat"], STEP_OF_EVENT[kind]
        epoch = self.deck.epoch
        signed = pub.get("signed")
        sent = self.own_steps.get((step, epoch)) if seat == own else None
        mine = sent is not None and isinstance(signed, list) and bool(signed) and signed[0] in sent
        if sent is not None and not mine:
            raise ChainError(
                f"event {seq}: the host recorded a {step} for this seat (seat {seat}) that differs from the one it sent"
            )
        try:
            check_step(
                signed,
                game=self.game_id,
                seat=seat,
                kind=step,
                epoch=epoch,
                value=value,
                vk=self.players[seat]["vk"],
                head_at=self.head_at,
                before=seq,
                signature_known=mine,
            )
        except DeckStepError as exc:
            if mine:  # exactly what this client signed, carrying another value
                raise ChainError(
                    f"event {seq}: the host recorded a {step} for this seat (seat {seat}) that differs from "
                    f"the one it sent ({exc.code})"
                ) from None
            raise ChainError(f"event {seq}: {exc.message} ({exc.code})") from None

    def _check_play(self, pub: dict[str, Any], own: int | None) -> None:
        """(protocol 3) The host commits to a card play: the owner's own signed action names a
        slot dealt to it, unplayed and readable, of the deck in hand, at its turn to play a
        card, and (checked by the owner's client, `own`) not one the host refused before;
        only then does the owner open the card (net/client/fair_duties.py)."""
        deck, view = self.deck, self.view
        if deck is None or view is None or self.protocol < 3:
            raise ValueError("a card play committed to at a table that does not hide hands")
        seat, action, slot = pub["m"]
        if pub.get("signer") != 0:
            raise ChainError(f"the host committed to a card play of seat {seat} that another key signed")
        if self.pending_play is not None:
            raise ChainError(f"the host committed to a second card play while seat {self.pending_play[0]}'s waits")
        if seat == own and pub["act"]["b"] in self.withdrawn:
            raise ChainError(
                f"the host committed to a card play of this seat (seat {seat}) that it had refused: "
                "that play was withdrawn"
            )
        self._check_signed(pub, seat)
        body = decode_action_body(pub["act"]["b"])
        if body["extra"].get("deck") != pub["deck"] or pub["deck"] != deck.epoch or deck.waiting:
            raise ChainError(f"seat {seat}'s card play names deck {pub['deck']}, not the deck in hand")
        pv = view.pv or {}
        phase = Phase.PLAY_CARD if action == Action.PLAY else Phase.DOUBLE_OFFER
        if action not in CARD_ACTIONS or pv.get("phase") != phase or seat not in pv.get("to_move", []):
            raise ChainError(f"the host committed to a card play of seat {seat} that it could not make now")
        if not 0 <= slot < deck.dealt or deck.owner[slot] != seat or slot in deck.opened or not deck.readable(slot):
            raise ChainError(f"the host committed to a card play of seat {seat} from slot {slot}, not a card it holds")
        self.pending_play = (seat, action, slot, self.seq)

    def _begin_rules(self, seq: int, first: int) -> None:
        """The deal (a table that hides hands): this client's own blind game starts on its
        checked ledger, which must be shuffled by every seat, and deals round 1 in it."""
        assert self.deck is not None and self.view is not None
        if self.rules is not None:
            raise ChainError(f"event {seq}: the host dealt the game a second time")
        try:
            self.rules = BlindGame(self.deck, self.view.options, first)
        except DeckStepError as exc:
            raise ChainError(f"event {seq}: the host dealt before the deck was shuffled by every seat ({exc.code})")
        except ValueError as exc:
            raise ChainError(f"event {seq}: the host's deal is not one the rules make: {exc}") from None

    def _follow_deck(
        self, seq: int, kind: str, pub: dict[str, Any], move: Move | None, settled: tuple[Move, ...]
    ) -> None:
        """(A table that hides hands) the event's moves (`move`, a `move` event's; `settled`,
        a settlement's) made in this client's own blind game, a card played opened on its
        ledger, what the rules deal then dealt in it (with FA-2 from a new deck); then the
        host's public view, outcome and deal must be the rules' (`_check_public`)."""
        deck, rules = self.deck, self.rules
        assert deck is not None and self.view is not None
        if rules is None:
            if move is not None or settled or "pv" in pub:
                raise ChainError(f"event {seq}: the host shows a game that is not dealt yet")
            return
        try:
            if move is not None and (move.action == Action.FLIP_MYSTERY or self.flipper is not None):
                self._follow_flip(pub, move)
            elif move is not None and move.action in CARD_ACTIONS and pub.get("by") == "player":
                if "open" not in pub:
                    raise ValueError(f"seat {move.seat} played card {move.arg} without opening it")
                share = Share.from_wire(pub["open"])
                if self.protocol >= 3:  # the card play the host committed to, and only that one
                    pending = self.pending_play
                    if (
                        pending is None
                        or pending[:3] != (move.seat, move.action, share.slot)
                        or pub.get("play") != pending[3]
                    ):
                        raise ChainError(f"seat {move.seat}'s card was played without the play the host committed to")
                    self.pending_play = None
                rules.play(move, share)
            elif move is not None and move.action in CARD_ACTIONS:
                raise ValueError(f"a card of seat {move.seat} was played by {pub.get('by')!r}: only its owner can")
            elif move is not None:
                rules.apply(move)
            for one in settled:
                rules.apply(one)
        except IllegalMove as exc:
            raise ChainError(f"event {seq}: the host made a move the rules refuse: {exc}") from None
        self._check_public(seq, kind, pub, rules.state, move is not None or bool(settled) or kind == "decide")

    def _follow_open(
        self, seq: int, kind: str, pub: dict[str, Any], move: Move | None, settled: tuple[Move, ...]
    ) -> None:
        """(A table whose host sees the hands) the event's moves made in this client's own
        run of the rules on stand-ins (a mystery card turned up as the host announces it),
        then the host's public view and outcome checked against it (`_check_public`)."""
        rules = self.open_rules
        if rules is None:
            if move is not None or settled or "pv" in pub:
                raise ChainError(f"event {seq}: the host shows a game that is not dealt yet")
            return
        try:
            if move is not None:
                turned = [e.get("card") for e in pub.get("ev", []) if isinstance(e, dict) and e.get("k") == "mystery"]
                flipped = turned[0] if move.action == Action.FLIP_MYSTERY and turned else None
                rules.apply(move, flipped if type(flipped) is int else None)
            for one in settled:
                rules.apply(one)
        except IllegalMove as exc:
            raise ChainError(f"event {seq}: the host made a move the rules refuse: {exc}") from None
        self._check_public(seq, kind, pub, rules.state, move is not None or bool(settled) or kind == "decide")

    def _check_public(self, seq: int, kind: str, pub: dict[str, Any], state: GameState, moved: bool) -> None:
        """The host's public view (`pv`) and announced outcome (`ev`: sales, scores, deals)
        must be this client's own run of the rules' (as the audit checks them afterwards):
        ChainError, naming the fields or the deal, otherwise.  `moved`: the event made a
        move (otherwise the engine's view is the one of the event before, not built again)."""
        assert self.view is not None
        engine_events = state.events[self._rules_events :] if state.events is not None else []
        self._rules_events = len(state.events or [])
        auction, committed, complete = self._sealing
        if state.phase == Phase.SEALED and state.auction_no != auction:
            auction, committed, complete = state.auction_no, [], False
        if kind == "commit":
            committed = committed + [pub["seat"]]
        elif kind == "commits":
            committed, complete = list(range(len(self.players))), True
        self._sealing = (auction, committed, complete)
        if moved or self._engine_pv is None:
            self._engine_pv = public_view(state)
        pv = dict(self._engine_pv)  # `overlay` sets its fields anew, never changes them in place
        if state.phase == Phase.SEALED and state.auction_no == auction:
            overlay(pv, committed, complete)
        if self.protocol < 3 and "kind" not in (pub.get("pv") or {}):
            pv.pop("kind", None)  # the running auction's type came with protocol 3's hosts
        outcome = [w for w in map(event_to_wire, engine_events) if w is not None]
        theirs = pub.get("ev", [])
        if theirs != outcome:
            n = len(self.players)
            if deal_counts(theirs, n) != deal_counts(outcome, n):
                raise ChainError(
                    f"event {seq}: the host deals {_said(deal_counts(theirs, n))}; "
                    f"the rules deal {_said(deal_counts(outcome, n))}"
                )
            raise ChainError(f"event {seq}: the host's announced outcome differs from the rules'")
        if pub.get("pv") != pv:
            shown = pub.get("pv")
            theirs_pv: dict[str, Any] = shown if isinstance(shown, dict) else {}
            fields = sorted(k for k in pv if theirs_pv.get(k) != pv[k])
            raise ChainError(f"event {seq}: the host's public view differs from the rules' ({', '.join(fields)})")

    def _late(self, seq: int, pub: dict[str, Any]) -> str:
        """A seat late with a deck step: what to say (on screen, in the audit's notes).  The
        seat must owe that step now by this client's own ledger and run of the rules
        (net/trust/deck_owed.py): a host that names a present seat late would leave it out
        of the vote on an absent one."""
        if self.deck is None:
            raise ValueError("a late deck step at a table that does not hide hands")
        seat, step = pub["seat"], pub["step"]
        rules = self.rules.state if self.rules is not None else None
        owes = owed_steps(self.deck, self.deck_secrets, rules, self.game_over).get(seat)
        if owes != step:
            raise ChainError(
                f"event {seq}: the host names seat {seat} late with its {step}, which it does not owe "
                f"({'it owes its ' + owes if owes else 'it owes nothing'} by this client's own record)"
            )
        self.late[seat] = step
        what = DECK_STEP_WORDS.get(step, step)
        return (
            f"{self.players[seat]['name']} (seat {seat}) has not sent {what} for {pub['waited']:.0f} s, "
            "by the host's record: only that player's client can, and the table waits for it "
            "(a client that did send it says on its own screen that the host has not recorded it)"
        )

    def _back(self, seat: int) -> None:
        """Seat `seat` made a deck step or opened its card: not late any more (as the host
        counts it, net/host/game.py `_back`)."""
        self.late.pop(seat, None)
        self.late_at.pop(seat, None)

    def _decide(self, seq: int, pub: dict[str, Any]) -> None:
        """The table's decision on a late seat (net/trust/votes.py), checked and followed."""
        if self.deck is None:
            raise ValueError("a decision on an absent seat at a table that does not hide hands")
        seat, choice = pub["seat"], pub["choice"]
        try:  # backed by the signed votes the rule requires, of this game, this wait, this history
            check_decision(
                pub, game=self.game_id, players=self.players, late=self.late_at, head_at=self.head_at, before=seq
            )
        except ProtocolError as exc:
            raise ChainError(
                f"event {seq}: the host's decision is not the table's ({exc.code}): {exc.message}"
            ) from None
        if choice == "end" and (pub.get("pv") or {}).get("phase") != Phase.GAME_OVER:
            raise ChainError(f"event {seq}: the table voted to end the game, and the host's view goes on")
        if choice == "wait":
            self._back(seat)
            return
        rules = self.rules if self.deck is not None else self.open_rules
        if rules is None or rules.state.is_over():
            raise ChainError(
                f"event {seq}: the host's decision ends a game that is not dealt yet, or over (vote_not_dealt)"
            )
        rules.state.end_early()  # this client's own run of the rules ends it, scored as it stands
        self.ended_without = seat
        self.late.clear()
        self.late_at.clear()
        self.pending_play = None  # a play committed to and never opened is void

    def _check_flip(self, pub: dict[str, Any]) -> None:
        """A request to turn up the mystery hand's top card (a hidden-hands table): the
        signed FLIP_MYSTERY of the seat that decides it now, naming the top card's slot.
        From now on every seat owes its share of that slot, and of no other mystery slot."""
        assert self.view is not None
        pv = self.view.pv or {}
        deck = self.deck
        seat, action, _arg = pub["m"]
        if deck is None or action != Action.FLIP_MYSTERY:
            raise ValueError("a request to turn up the mystery card at a table that does not hide hands, or of no flip")
        if pv.get("phase") != Phase.MYSTERY_FLIP or pv.get("turn") != seat:
            raise ValueError(f"the host asked for the mystery card's shares, but seat {seat} does not decide on it now")
        self._check_signed(pub, seat)
        if deck.mystery_top() != pub["slot"]:
            raise ValueError(
                f"the host named slot {pub['slot']} as the mystery hand's top card: it is slot {deck.mystery_top()}"
            )
        deck.start_flip()
        self.flipper = seat

    def _follow_flip(self, pub: dict[str, Any], move: Move) -> None:
        """The mystery card turned up (a hidden-hands table): only after its player's request
        and every seat's share, and it must be the card those shares read."""
        deck = self.deck
        assert deck is not None
        if pub.get("by") != "flip" or self.flipper != move.seat or deck.flipping is None:
            raise ValueError(f"the host turned up the mystery card for seat {move.seat} without every seat's share")
        claimed = [e.get("card") for e in pub.get("ev", []) if e.get("k") == "mystery"]
        card = deck.mystery_card()  # every share is in (DeckStepError, a ValueError, if not)
        if claimed != [card]:
            raise ValueError(
                f"the host turned up card {claimed} from the mystery hand's slot {deck.flipping}: it holds card {card}"
            )
        assert self.rules is not None
        self.rules.flip(move)  # exchanged in for its stand-in, turned up, the slot committed
        self.flipper = None

    def _check_call(self, pub: dict[str, Any]) -> Move:
        """A hammer call starts: the auctioneer's own signed HAMMER, in an Open auction
        (the lot is sold only by the `move` by "call" that follows, if nobody outbids)."""
        assert self.view is not None
        pv = self.view.pv
        seat, action, arg = pub["m"]
        if action != Action.HAMMER or pv is None or pv.get("phase") != Phase.OPEN or pv.get("auctioneer") != seat:
            raise ValueError(f"the host called a hammer that seat {seat} could not bring down")
        self._check_signed(pub, seat)
        self.call = (pv["auction_no"], seat)
        return Move.of(seat, action, arg)

    def _follow_call(self, move: Move, by: str | None) -> None:
        """A move `by` "call" must close the hammer call the auctioneer signed for; a bid
        (or the auction's end) stops the call."""
        assert self.view is not None
        pv = self.view.pv or {}
        if by == "call":
            if move.action != Action.HAMMER or self.call != (pv.get("auction_no"), move.seat):
                raise ChainError(f"the host brought the hammer down for seat {move.seat} without its call")
        if move.action != Action.PASS:
            self.call = None

    def _check_action(self, pub: dict[str, Any]) -> Move:
        """Verify the player's signature and counter on a relayed action."""
        seat, action, arg = pub["m"]
        move = Move.of(seat, action, arg)
        by = pub.get("by")
        if by == "player":
            if action in _SEALED:
                raise ValueError(f"the host applied a sealed bid of seat {seat} without commit-reveal")
            if self.deck is not None and self.protocol >= 3 and action in CARD_ACTIONS:
                return move  # its signed action came in the `play` event it completes (`_follow_deck`)
            self._check_signed(pub, seat)
        elif by not in ("clock", "recovered", "reveal", "offender", "call", "flip"):
            raise ValueError(f"a move made by {by!r}")
        elif by in ("reveal", "offender") and action not in _SEALED:
            raise ValueError(f"a move of seat {seat} settled as a sealed bid, but it is not one")
        elif by == "clock" and self.deck is not None:
            self._check_clock_default(move)
        return move

    def _check_clock_default(self, move: Move) -> None:
        """A move `by` "clock" at a table that hides hands, where no stand-in plays for a seat
        away: only the default the rules fix for that seat's step (net/clocks.py
        `fixed_default`: a pass, a decline, the lowest price...), or in an Open auction a
        seat's pass or its auctioneer's hammer; never a bid, a card or a choice of the host's.
        (At an open table a stand-in's or the clock's bot may choose a card: not checked.)"""
        assert self.view is not None
        seat = move.seat
        pv = self.view.watcher()
        if pv.phase == Phase.OPEN:
            fixed = move == Move.hammer(pv.auctioneer) or (move == Move.pass_(seat) and seat in pv.to_move)
        else:
            obs = self.view.observation(seat, [], self._money()[seat])
            fixed = seat in pv.to_move and move == fixed_default(obs)
        if not fixed:
            raise ValueError(
                f"the host made {move.to_list()} by the clock for seat {seat}: not the rules' default for its step"
            )

    def _check_signed(self, pub: dict[str, Any], seat: int) -> None:
        """Verify the player's signature and counter on the action an event relays."""
        act = pub.get("act") or {}
        key = self.players[seat]["vk"] if pub.get("signer", 0) == 0 else self.delegates.get(seat)
        if key is None or "b" not in act:
            raise ChainError(f"the action of seat {seat} carries a bad signature")
        mine = self.own_actions.pop(act["b"], None) if type(act["b"]) is bytes else None
        if mine != (act.get("s"), key):  # not exactly what this client signed with this key: check it
            if not verify(key, ACT_TAG, act["b"], act["s"]):
                raise ChainError(f"the action of seat {seat} carries a bad signature")
        body = decode_action_body(act["b"])
        if body["move"] != list(pub["m"]) or body["game"] != self.game_id or body["seat"] != seat:
            raise ChainError(f"the host relayed seat {seat}'s action with a different move")
        if body["ctr"] <= self.counters.get(seat, 0):
            raise ChainError(f"seat {seat}'s action counter {body['ctr']} does not increase (a replay)")
        self.counters[seat] = body["ctr"]

    def _money(self) -> tuple[int, ...]:
        assert self.view is not None
        return public_money(self.view.watcher())

    def _check_sealed(self, move: Move, pub: dict[str, Any], events: tuple[Any, ...]) -> list[str]:
        assert self.view is not None and self.view.pv is not None and self.sealed is not None
        auction = self.view.pv["auction_no"]
        money = self._money()
        warnings = self.sealed.move_event(auction, move.to_list(), pub, money[move.seat])
        revealed = next((e for e in events if isinstance(e, SealedRevealed)), None)
        if revealed is not None:
            sale = next((e for e in events if isinstance(e, Sale) and e.auction == auction), None)
            self.sealed.resolution(auction, revealed, sale, self.view.pv["auctioneer"], self.view.options, list(money))
        return warnings

    def _check_auction(self, auction: int) -> None:
        """A commitment set or settlement must name the Sealed auction that is running."""
        assert self.view is not None
        pv = self.view.pv or {}
        if pv.get("phase") != Phase.SEALED or pv.get("auction_no") != auction:
            raise ValueError(f"auction {auction}: no such Sealed auction is running")

    def _check_settle(self, pub: dict[str, Any], events: tuple[Any, ...]) -> tuple[tuple[Move, ...], list[str]]:
        """One event settles a Sealed auction: every bid checked against the set and its proof,
        then the announced bids, offenders, fines and winner (the money from before it)."""
        assert self.view is not None and self.view.pv is not None and self.sealed is not None
        auction = pub["auction"]
        self._check_auction(auction)
        money = list(self._money())
        recovered = pub.get("by") == "recovered"
        if any((bid["by"] == "recovered") != recovered for bid in pub["bids"]):
            raise ValueError(f"auction {auction}: a settlement made again after a crash names only recovered bids")
        warnings = self.sealed.settle_event(auction, pub["bids"], money)
        revealed = next((e for e in events if isinstance(e, SealedRevealed)), None)
        if revealed is None and pub.get("by") == "recovered":  # a crash kept only part of the moves
            return tuple(Move.of(*bid["m"]) for bid in pub["bids"]), warnings
        if revealed is None or revealed.auction != auction:
            raise ValueError(f"auction {auction}: the settlement does not resolve the auction")
        sale = next((e for e in events if isinstance(e, Sale) and e.auction == auction), None)
        self.sealed.resolution(auction, revealed, sale, self.view.pv["auctioneer"], self.view.options, money)
        return tuple(Move.of(*bid["m"]) for bid in pub["bids"]), warnings

    def _check_disclosure(self, pub: dict[str, Any]) -> None:
        assert self.seeds is not None and self.view is not None
        options = self.view.options
        order, first = self.seeds.disclose(
            pub["host"], pub["seeds"], options.deck_table.size, deck_orders_needed(options)
        )
        deals = deals_of_order(options, len(self.players), order)
        for (seat, rnd), cards in self.own_deals.items():
            if cards != deals[rnd][seat]:
                source = "the fixed deal" if self.fixed_deal is not None else "the shuffle"
                raise ValueError(f"round {rnd + 1} deal for seat {seat} differs from {source}")
        self.shuffle = (order, first)
