"""One running game at a table: seeds and the deal, engine, event log, hash chain, counters,
clocks, commit-reveal, journal.

No sockets here.  The game goes: event 1 `start` (players, options, the host's seed
commitment) -> one `seed` event per player seed -> `deal` (the deck derived from every
seed, net/trust/shuffle.py) -> `move`, `call`, `delegate` events, and per Sealed auction a
`commits` event (the complete commitment set; the commitments before it are acknowledged to
their senders and kept in the held file, never published one by one) and one `settle` event
-> after the last move, `disclose` (every seed and every seat's salt key, for the audit).  Each
`submit_*` method checks a signed message from a bound key and returns the new
`LoggedEvent`s for the host to fan out; every change of state, including host defaults
when a clock runs out, is one event with the next sequence number, so every seat's
stream is gap-free.  `HostedGame.resume` rebuilds a game from its journal and event log
after a host crash; after a restart of the machine (a power loss may have cut the files'
tail) it first takes the events it lost back from its players' clients (`adopt`), checked
against its own signatures and chain, and signs nothing new until every player's client
has said what it holds (`heard`): it never signs two different events at one sequence number.
"""

from __future__ import annotations

import logging
import secrets
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from modernart.auctions import NO_BID
from modernart.errors import IllegalMove
from modernart.game import GameState, deck_orders_needed
from modernart.moves import CARD_ACTIONS, Action, Move
from modernart.phase import Phase
from modernart.record import GameRecord, RecordError, result_of
from modernart.rules import RuleOptions

from modernart.net.protocol.signed import (
    ACT_TAG,
    HOSTEV_TAG,
    VoteBody,
    chain_genesis,
    chain_link,
    decode_action_body,
    decode_commit,
    decode_vote,
    private_hash,
    private_salt,
)
from modernart.net.clocks import ClockSettings, default_moves
from modernart.net.trust.identity import Keys, verify
from modernart.net.host.deck_deadlines import DeckWait, DeckWaits, owed_steps
from modernart.net.host.journal import (
    Journal,
    drop_torn_line,
    read_events,
    read_held,
    read_journal,
    same_boot,
    truncate_events,
    truncate_moves,
)
from modernart.net.protocol import VERSION, ProtocolError, decode_host_inner, pack
from modernart.net.protocol.frames import NOT_DECISIONS, clock_view, event_frame, event_public
from modernart.net.trust.sealed import SealedRound, overlay
from modernart.net.trust.shuffle import FixedDeal, SeedRound
from modernart.net.protocol.game_data import event_to_wire, hidden_private_part, private_part, public_view

if TYPE_CHECKING:  # a table that hides hands from its host loads the hidden deck (start-up: most do not)
    from modernart.net.host.hidden_hands import HiddenHands, StepSigner

log = logging.getLogger("modernart.net.host.game")

#: a hidden deck's event kind -> the part of the `deck` frame it came from, and its field
DECK_STEPS = {"dkey": "key", "dshuffle": "shuffle", "dshares": "shares", "dsecret": "secret"}
DECK_FIELDS = {"dkey": "key", "dshuffle": "sh", "dshares": "shares", "dsecret": "x"}


@dataclass(frozen=True, slots=True)
class HammerCall:
    """The auctioneer's hammer being called ("going once, going twice"): the Open auction it
    closes, the auctioneer's seat, and when it falls unless someone outbids first."""

    auction: int
    seat: int
    end: float


def could_outbid(state: GameState, auctioneer: int) -> bool:
    """Whether anyone but `auctioneer` and the high bidder may still bid in this Open auction:
    a seat that has not passed since the last bid and holds more than the high bid.  When
    nobody may, a hammer call has nothing to wait for."""
    return any(
        s not in (auctioneer, state.high_seat) and not state.passed[s] and state.money[s] > state.high
        for s in range(state.n)
    )


#: Event kinds a host can take back from a client after a power loss (`HostedGame.adopt`):
#: everything in them is in the public part or follows from the game.  Event 1 and seeds
#: hold host-only secrets and are on disk before anyone gets them (net/host/fanout.py).
ADOPTABLE = frozenset(
    {
        "deal",
        "move",
        "call",
        "flip",
        "dlate",
        "decide",
        "commit",
        "commits",
        "settle",
        "delegate",
        "disclose",
        "dkey",
        "dshuffle",
        "dshares",
        "dsecret",
        "play",
    }
)

#: What a held entry (the held file, net/host/journal.py `Journal.write_held`) is: a
#: sealed-bid commitment the host acknowledged and holds until the complete set publishes it
#: (`HostedGame.submit_commit`)
HELD_COMMIT = "commit"


def settle_moves(public: dict[str, Any]) -> list[Move]:
    """The engine moves a `settle` event applied, in order."""
    return [Move.from_list(bid["m"]) for bid in public["bids"]]


@dataclass
class Player:
    """A seat of a running game: its name, bound Ed25519 key, and bot level (None = human)."""

    name: str
    vk: bytes
    bot: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "vk": self.vk, "bot": self.bot}


@dataclass
class LoggedEvent:
    """One event as stored and sent: public part, private parts, chain link, signature."""

    seq: int
    public: bytes
    privates: list[bytes | None]
    hashes: list[bytes]
    h: bytes
    sig: bytes
    move: list[int] | None = None  # host-only: the engine move it applied
    act: list[bytes] | None = None  # host-only: the signed action [body, signature] it came from
    hidden: dict[str, Any] | None = None  # host-only: secrets until the end (seeds), the table's meta
    moves: list[list[int]] | None = None  # host-only: the engine moves a `settle` event applied

    def frame_for(self, seat: int | None) -> dict[str, Any]:
        """The event as seat `seat` (None: a spectator) receives it."""
        return event_frame(
            self.seq, self.public, self.hashes, self.h, self.sig, self.privates[seat] if seat is not None else None
        )

    def to_entry(self) -> list[Any]:
        return [
            self.seq,
            self.public,
            self.privates,
            self.hashes,
            self.h,
            self.sig,
            self.move,
            self.act,
            self.hidden,
            self.moves,
        ]

    @classmethod
    def from_entry(cls, entry: list[Any]) -> "LoggedEvent":
        return cls(*entry)


class HostedGame:
    """The game of one table, from its first event to its disclosure."""

    def __init__(
        self,
        game_id: bytes,
        players: list[Player],
        options: RuleOptions,
        clocks: ClockSettings,
        host: Keys,
        journal: Journal | None,
        now: float,
        *,
        meta: dict[str, Any] | None = None,
        host_seed: bytes | None = None,
        salt_keys: list[bytes] | None = None,
        fixed_deal: FixedDeal | None = None,
        hidden_hands: bool = False,
    ) -> None:
        if hidden_hands and fixed_deal is not None:
            raise ValueError("a fixed deal is known to the host: it cannot hide hands")
        self.game_id = game_id
        self.players = players
        self.options = options
        self.clocks = clocks
        self.host = host
        self.journal = journal
        self.meta = dict(meta or {})
        self.state: GameState | None = None  # None until the deal
        self.log: list[LoggedEvent] = []
        self.head = chain_genesis(game_id)
        self.counters = [0] * len(players)
        self.delegates: list[bytes | None] = [None] * len(players)
        if fixed_deal is not None:
            fixed_deal.check(options.deck_table.size, len(players), deck_orders_needed(options))
        self.fixed_deal = fixed_deal  # set by the program running the host, never by a frame
        # hands hidden even from this host (docs/fair-play.md "The hidden deck")
        self.hidden: HiddenHands | None = None
        if hidden_hands:
            from modernart.net.host.hidden_hands import HiddenHands

            self.hidden = HiddenHands(game_id, len(players), options)
        self.deck_waits = DeckWaits()  # since when each seat owes its deck step (hidden hands)
        # the seats named late (event `dlate`) and not back since: seat -> that event's seq;
        # the seated people's votes on each (net/trust/votes.py): seat -> voter -> (choice, [body, sig])
        self.late_since: dict[int, int] = {}
        self.votes: dict[int, dict[int, tuple[str, list[bytes]]]] = {}
        self.ended_without: int | None = None  # the absent seat a vote ended the game without
        self.seeding = SeedRound(game_id, host.vk, len(players), host_seed, fixed_deal)
        self.salt_keys = salt_keys or [secrets.token_bytes(32) for _ in players]  # secret until the end
        self.seed_end: float | None = None
        self.sealed: SealedRound | None = None
        self.disclosed = False
        self.open_end: float | None = None
        self.decide_end: float | None = None
        # when the host passes for the seats away in a hidden-hands table's Open auction without
        # a countdown (no stand-in plays them there); not in `clk`: it plays nobody who is here
        self.away_end: float | None = None
        self.call: HammerCall | None = None  # the hammer being called (Open auctions)
        self._decision_key: Any = None
        self._events_done = 0
        self.decision_seq = 0  # the last event that changed what a player decides on (see NOT_DECISIONS)
        self.now = now
        # after a power loss: the seats whose player's client has not said yet what it holds
        # (None: not recovering); meanwhile the game signs nothing new (see `recover`)
        self.recovering: set[int] | None = None
        self._journaled: list[Move] = []  # recovering: moves journaled beyond the event log
        self._result_journaled = False  # the journal has its result line

    # ------------------------------------------------------------------ queries

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.is_over()

    def signer_role(self, seat: int, vk: bytes) -> int | None:
        """0 if `vk` is the seat's own key, 1 if it is the seat's current delegate, else None."""
        if self.players[seat].vk == vk:
            return 0
        if self.delegates[seat] == vk:
            return 1
        return None

    def note_logged(self, kind: str, event: LoggedEvent) -> None:
        """Append `event` (of `kind`) to the log: the one place the head and the decision seq move."""
        self.log.append(event)
        self.head = event.h
        if kind not in NOT_DECISIONS:
            self.decision_seq = event.seq

    def _check_fresh(self, ref: int) -> None:
        """Refuse a move decided against a state that no longer exists (`ref` is the last event
        the player had applied; docs/protocol.md "Stale moves")."""
        if ref > self.seq:
            raise ProtocolError("bad_action", f"the move refers to event {ref}; the game has {self.seq}")
        if ref < self.decision_seq:
            raise ProtocolError(
                "stale",
                f"the game moved on before this move arrived (it was made at event "
                f"{ref}, the table is at {self.decision_seq}): look again",
            )

    def _check_live(self) -> None:
        """Refuse every request while the game recovers from a power loss (see `recover`)."""
        if self.recovering is not None:
            raise ProtocolError(
                "recovering",
                f"the host lost the end of its journal (the machine restarted) and waits for "
                f"{len(self.recovering)} player(s) to reconnect and give it back: try again then",
            )

    def _signer(self, seat: int, vk: bytes) -> int:
        """`signer_role(seat, vk)`, refused with `not_your_seat` when the key may not act for it."""
        role = self.signer_role(seat, vk)
        if role is None:
            raise ProtocolError("not_your_seat", f"this key may not act for seat {seat}")
        return role

    def clock_view(self, now: float) -> dict[str, Any]:
        """Seconds left on each clock, and while reveals are awaited, whose ("owe": seats)."""

        def left(t: float | None) -> float | None:
            return None if t is None else round(max(0.0, t - now), 3)

        rnd = self.sealed
        return clock_view(
            left(self.open_end),
            left(self.decide_end),
            left(rnd.reveal_end if rnd is not None and rnd.complete else None),
            self.reveals_owed() if rnd is not None and rnd.complete else None,
            left(self.call.end) if self.call is not None else None,
            rnd.committed() if rnd is not None and not rnd.complete else None,
            left(self.deck_waits.next_deadline()),
            sorted(self.deck_waits.late),
        )

    def reveals_owed(self) -> list[int]:
        """The seats whose reveal the host still waits for (who, never how much: the amounts
        of the reveals it holds stay with it until every reveal is in)."""
        rnd = self.sealed
        if rnd is None or not rnd.complete:
            return []
        return [
            s for s in self._unsettled() if (e := rnd.entries[s]) is not None and not e.default and s not in rnd.reveals
        ]

    def _reveal_deadline(self, absent: set[int] | frozenset[int]) -> float | None:
        """The reveal deadline, extended by the grace period once a seat that owes a reveal
        has been away: the extension stays when the player is back, so that its client,
        catching up, has the time to send its reveal (the deadline it came back to may
        have passed already)."""
        rnd = self.sealed
        if rnd is None or not rnd.complete or rnd.reveal_end is None:
            return None
        if not rnd.graced and any(s in absent for s in self.reveals_owed()):
            rnd.graced = True
        return rnd.reveal_end + (self.clocks.grace if rnd.graced else 0.0)

    def _away_to_move(self, absent: set[int] | frozenset[int]) -> list[int]:
        """The seats away that an Open auction without a countdown waits for (hidden hands)."""
        state = self.state
        if state is None or state.phase != Phase.OPEN or self.away_end is None:
            return []
        return [s for s in state.to_move() if s in absent]

    def next_deadline(self, absent: set[int] | frozenset[int] = frozenset()) -> float | None:
        if self.recovering is not None:
            return None  # no clock runs while the game waits for what its players hold
        call_end = self.call.end if self.call is not None else None
        times = [
            t
            for t in (self.open_end, self.decide_end, self.seed_end, self._reveal_deadline(absent), call_end)
            if t is not None
        ]
        if self.away_end is not None and self._away_to_move(absent):
            times.append(self.away_end)
        deck_due = self.deck_waits.next_deadline()
        if deck_due is not None:
            times.append(deck_due)
        return min(times) if times else None

    # ------------------------------------------------------------------ building events

    def _emit(
        self,
        kind: str,
        now: float,
        extra: dict[str, Any],
        move: Move | None = None,
        act: list[bytes] | None = None,
        journal_move: bool = True,
        hidden: dict[str, Any] | None = None,
        moves: list[Move] | None = None,
    ) -> LoggedEvent:
        """One event of `kind`: after `move` (a `move` event) or `moves` (a `settle`), just
        applied to the engine; journaled (written, not synced) before it is returned."""
        state = self.state
        public = event_public(kind, self.game_id, extra)
        privates: list[bytes | None] = [None] * self.n
        if state is not None:
            engine_events = state.events[self._events_done :] if state.events is not None else []
            self._events_done = len(state.events or [])
            self._update_deadlines(now, bid=move is not None and move.action == Action.BID)
            pv = public_view(state)
            rnd = self.sealed
            if rnd is not None and state.phase == Phase.SEALED and rnd.auction == state.auction_no:
                overlay(pv, rnd.published(), rnd.complete)
            public.update(
                {
                    "ev": [w for w in map(event_to_wire, engine_events) if w is not None],
                    "pv": pv,
                    "clk": self.clock_view(now),
                }
            )
            if kind != "disclose" and self.hidden is not None:
                privates = [
                    hidden_private_part(state, seat, private_salt(self.salt_keys[seat], self.seq + 1))
                    for seat in range(self.n)
                ]
            elif kind != "disclose":
                privates = [
                    private_part(state, seat, engine_events, private_salt(self.salt_keys[seat], self.seq + 1))
                    for seat in range(self.n)
                ]
        public_bytes = pack(public)
        hashes = [private_hash(p) for p in privates]
        seq = self.seq + 1
        h = chain_link(self.head, seq, public_bytes, hashes)
        event = LoggedEvent(
            seq,
            public_bytes,
            privates,
            hashes,
            h,
            self.host.sign(HOSTEV_TAG, h),
            move.to_list() if move is not None else None,
            act,
            hidden,
            [m.to_list() for m in moves] if moves else None,
        )
        applied = [move] if move is not None else list(moves or [])
        if self.journal is not None:
            if journal_move:
                for one in applied:
                    self.journal.write_move(one)
            self.journal.write_event(event.to_entry())
            if applied and state is not None and state.is_over():
                self._journal_result(state)
        self.note_logged(kind, event)
        return event

    def _journal_result(self, state: GameState) -> None:
        if self.journal is not None and not self._result_journaled:
            self.journal.write_result(result_of(state))
            self._result_journaled = True

    def _update_deadlines(self, now: float, bid: bool) -> None:
        state = self.state
        assert state is not None
        phase = state.phase
        call = self.call
        if call is not None and (bid or phase != Phase.OPEN or state.auction_no != call.auction):
            self.call = None  # outbid (the call is off), or the auction is over
        key: Any = (phase, state.auction_no, state.to_move() if phase not in (Phase.SEALED, Phase.OPEN) else None)
        if phase == Phase.OPEN and self.clocks.open_countdown > 0:
            if bid or key != self._decision_key or self.open_end is None:
                self.open_end = now + self.clocks.open_countdown
        else:
            self.open_end = None
        rnd = self.sealed
        revealing = phase == Phase.SEALED and rnd is not None and rnd.complete
        if phase in (Phase.OPEN, Phase.GAME_OVER) or self.clocks.decision <= 0 or revealing:
            self.decide_end = None
        elif key != self._decision_key or self.decide_end is None:
            self.decide_end = now + self.clocks.decision
        # without a countdown only bids and passes end an Open auction: at an open table a
        # stand-in makes them for a seat away, at a hidden-hands table nobody does (its hand
        # cannot be opened to one), so the decision clock passes for it; restarted by every move
        unclocked_open = phase == Phase.OPEN and self.clocks.open_countdown <= 0 and self.hidden is not None
        self.away_end = now + self.clocks.decision if unclocked_open and self.clocks.decision > 0 else None
        self._decision_key = key

    def _sync_round(self) -> None:
        """Open a commit-reveal round when the engine enters a Sealed auction."""
        state = self.state
        assert state is not None
        if state.phase != Phase.SEALED:
            self.sealed = None
        elif self.sealed is None or self.sealed.auction != state.auction_no:
            self.sealed = SealedRound(self.game_id, state.auction_no, self.n)
            if self.options.sealed_excludes_seller:  # the seller seals nothing: its entry is the default 0
                self.sealed.default(state.auctioneer)

    def move_events(
        self, move: Move, now: float, extra: dict[str, Any], act: list[bytes] | None = None, journal_move: bool = True
    ) -> list[LoggedEvent]:
        """Events for `move`, just applied to the engine (and the disclosure if it ended the game)."""
        if self.hidden is not None:
            self.hidden.after_move()
        self._sync_round()
        out = [self._emit("move", now, extra, move, act, journal_move)]
        if self.is_over and not self.disclosed:
            out.append(self._disclose(now))
        return out

    def _disclose(self, now: float) -> LoggedEvent:
        """The last event: every seed and every seat's salt key (the chain can now be checked)."""
        self.disclosed = True
        return self._emit("disclose", now, {**self.seeding.disclosure(), "salt_keys": list(self.salt_keys)})

    # ------------------------------------------------------------------ seeds and the deal

    def start(self, now: float) -> LoggedEvent:
        """Event 1: who plays, with which keys and options, the host's seed commitment, and a
        fixed deal if the table has one (announced, so that every client checks the deal
        against it and says the cards were not shuffled)."""
        self.seed_end = now + self.clocks.reveal if self.clocks.reveal > 0 else None
        facts: dict[str, Any] = {
            "v": VERSION,  # signed with the rest: the audit reads the protocol here, not in a file's header
            "players": [p.to_wire() for p in self.players],
            "options": self.options.to_dict(),
            "hseed": self.seeding.host_commitment,
        }
        if self.fixed_deal is not None:
            facts["fixed"] = self.fixed_deal.to_wire()
        if self.hidden is not None:
            facts["hidden"] = True
        return self._emit(
            "start",
            now,
            facts,
            hidden={"seed": self.seeding.host_seed, "salt_keys": self.salt_keys, "meta": self.meta},
        )

    def submit_seed(self, vk: bytes, seat: int, body: bytes, sig: bytes, seed: bytes, now: float) -> list[LoggedEvent]:
        self._check_live()
        self._signer(seat, vk)
        self.seeding.check(seat, body, sig, seed, [vk])
        self.seeding.accept(seat, body, sig, seed)
        events = [self._emit("seed", now, {"seat": seat, "c": [body, sig]}, hidden={"seed": seed})]
        if self.seeding.complete and self.deck_ready:
            events += self.deal(now)
        return events

    @property
    def deck_disclosed(self) -> bool:
        """Whether every seat has disclosed its deck key (always, unless hands are hidden):
        the record needs them for the real deck order.  A game the table's vote ended
        without an absent seat waits for every other seat's only: that one never comes."""
        return self.hidden is None or all(
            x is not None for s, x in enumerate(self.hidden.secrets) if s != self.ended_without
        )

    @property
    def deck_ready(self) -> bool:
        """Whether the deck can be dealt: always, unless hands are hidden and not every seat
        has shuffled yet."""
        return self.hidden is None or self.hidden.ready

    def _deck_sender(self, vk: bytes, seat: int) -> HiddenHands:
        """The table's deck, if `vk` may send seat `seat`'s deck steps (its own key only: a
        stand-in holds no deck key); ProtocolError if not."""
        self._check_live()
        if self.hidden is None:
            raise ProtocolError("not_hidden", "this table does not hide hands")
        if self._signer(seat, vk) != 0:
            raise ProtocolError("not_your_seat", "only the seat's own player holds its deck key")
        return self.hidden

    def propose_shuffle(self, vk: bytes, seat: int, msg: dict[str, Any]) -> Future[bool] | None:
        """A seat's shuffle, to relay at once while its proof is checked (net/host/shuffle_relay.py);
        `submit_deck` records it afterwards.  Returns its proof's check; ProtocolError if
        refused: nothing changes."""
        return self._deck_sender(vk, seat).propose(seat, msg, self._step_signer(seat))

    def _step_signer(self, seat: int) -> StepSigner:
        """What seat `seat`'s signed deck step is checked against: its own key, this chain."""
        from modernart.net.host.hidden_hands import StepSigner

        log = self.log

        def head_at(seq: int) -> bytes | None:
            return log[seq - 1].h if 1 <= seq <= len(log) else None

        return StepSigner(self.players[seat].vk, head_at, self.seq + 1)

    def submit_deck(self, vk: bytes, seat: int, msg: dict[str, Any], now: float) -> list[LoggedEvent]:
        """A seat's step of the hidden deck, checked (its signature too) and recorded: its events."""
        kind, fields = self._deck_sender(vk, seat).submit(seat, msg, self.is_over, self._step_signer(seat))
        self._back(seat, now)
        events = [self._emit(kind, now, fields)]
        if kind == "dshares":
            events += self._flip_when_shared(now)
        if kind == "dshuffle" and self.state is None and self.seeding.complete and self.deck_ready:
            events += self.deal(now)
        return events

    def deal(self, now: float, *, write_header: bool = True) -> list[LoggedEvent]:
        """Derive the deck from the seeds in (missing ones count as empty) and deal round 1."""
        first = self._deal_state(write_header)
        missing = [s for s, seed in enumerate(self.seeding.seeds) if seed is None]
        if missing:
            log.info("dealt without seeds game=%s seats=%s", self.game_id.hex()[:12], missing)
        return [self._emit("deal", now, {"first": first, "missing": missing})]

    def _deal_state(self, write_header: bool) -> int:
        """The engine dealt from the seeds in (and the journal's header); the first auctioneer."""
        order, first = self.seeding.derive(self.options.deck_table.size, deck_orders_needed(self.options))
        self.seeding.dealt = True
        self.seed_end = None
        if self.hidden is not None:  # the engine runs blind: stand-ins in slot order
            self.state = self.hidden.begin(first)
        else:
            self.state = GameState(self.n, self.options, deck_order=order, first_auctioneer=first, track_events=True)
        self._events_done = 0
        if self.journal is not None and write_header:
            self.journal.write_header(GameRecord.start(self.state, [p.name for p in self.players], self.meta))
        return first

    # ------------------------------------------------------------------ changing the game

    def _dealt_state(self) -> GameState:
        if self.state is None:
            raise ProtocolError("not_dealt", "the cards are not dealt yet")
        return self.state

    def submit(
        self, vk: bytes, seat: int, body: bytes, sig: bytes, now: float, opening: dict[str, Any] | None = None
    ) -> tuple[list[LoggedEvent], int]:
        """Check and apply a signed action from the connection bound to (`vk`, `seat`);
        `opening`: a card's opening, at a hidden-hands table.

        Returns (events, ctr); raises ProtocolError (code, message) and changes nothing.
        """
        self._check_live()
        role = self._signer(seat, vk)
        if not verify(vk, ACT_TAG, body, sig):  # bytes first, decode after
            raise ProtocolError("bad_signature", "the action's signature does not verify")
        act = decode_action_body(body)
        if act["game"] != self.game_id:
            raise ProtocolError("wrong_game", "the action names another game")
        if act["seat"] != seat or act["move"][0] != seat:
            raise ProtocolError("not_your_seat", f"this connection plays seat {seat}")
        if act["ctr"] <= self.counters[seat]:
            raise ProtocolError("replayed", f"counter {act['ctr']} is not above {self.counters[seat]}")
        try:
            move = Move.from_list(act["move"])
        except IllegalMove as exc:
            raise ProtocolError("malformed", exc.detail) from None
        if move.action in (Action.SEALED_BID, Action.SEALED_FORFEIT):
            raise ProtocolError("use_commit", "a sealed bid is sent as a commitment (commit-reveal)")
        state = self._dealt_state()
        self._check_fresh(act["ref"])
        if self.hidden is not None and self.hidden.ledger.flipping is not None:
            raise ProtocolError(
                "flipping", "the mystery card asked for is turned up first, once every seat's share is in"
            )
        signed = {"signer": role, "act": {"b": body, "s": sig}}
        if move.action == Action.HAMMER and self.clocks.hammer_call > 0 and state.phase == Phase.OPEN:
            return self._call_hammer(move, signed, [body, sig], act["ctr"], now), act["ctr"]
        if self.hidden is not None and move.action == Action.FLIP_MYSTERY:
            return self._ask_flip(move, signed, [body, sig], act["ctr"], now), act["ctr"]
        if self.hidden is not None and move.action in CARD_ACTIONS:
            # the action names the card's slot, not the card: the host commits to the play
            # (its `play` event) before anything about the card leaves its owner
            if opening is not None:
                raise ProtocolError(
                    "open_later", "a hidden card is opened only once the host has committed to its play"
                )
            if role != 0:
                raise ProtocolError("not_your_seat", "only the seat's own player holds its cards")
            self.hidden.commit_play(move, act["extra"].get("deck"))
            self.counters[seat] = act["ctr"]
            event = self._emit(
                "play", now, {"m": move.to_list(), "deck": act["extra"]["deck"], **signed}, act=[body, sig]
            )
            self.hidden.commit(move, event.seq)
            return [event], act["ctr"]
        else:
            try:
                state.apply(move)
            except IllegalMove as exc:
                raise ProtocolError(exc.code, str(exc)) from None
        self.counters[seat] = act["ctr"]
        events = self.move_events(move, now, {"m": move.to_list(), "by": "player", **signed}, [body, sig])
        return events + self._call_falls(now, early=True), act["ctr"]

    def submit_opening(self, vk: bytes, seat: int, opening: dict[str, Any], now: float) -> list[LoggedEvent]:
        """The opening of seat `seat`'s card play that the host committed to: the card is
        played (its `move` event names the `play` event it completes).  ProtocolError, and
        nothing changes, if there is no such play or the opening fails."""
        self._check_live()
        if self._signer(seat, vk) != 0:
            raise ProtocolError("not_your_seat", "only the seat's own player holds its cards")
        if self.hidden is None:
            raise ProtocolError("not_hidden", "this table does not hide hands")
        move, pending = self.hidden.open_play(seat, opening)
        self._back(seat, now)
        extra = {"m": move.to_list(), "by": "player", "open": opening, "play": pending.seq}
        return self.move_events(move, now, extra) + self._call_falls(now, early=True)

    def _ask_flip(
        self, move: Move, signed: dict[str, Any], act: list[bytes], ctr: int, now: float
    ) -> list[LoggedEvent]:
        """At a hidden-hands table the mystery hand's top card (§10.3) is read only with every
        seat's share: the player's signed FLIP_MYSTERY is the event `flip`, naming the slot
        (nothing is turned up yet); every seat's client then publishes its share of that slot
        (`dshares`), and the last one turns the card up (`_flip_when_shared`)."""
        state = self._dealt_state()
        hidden = self.hidden
        assert hidden is not None
        try:
            state.check(move)
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        slot = hidden.start_flip()
        self.counters[move.seat] = ctr
        return [self._emit("flip", now, {"m": move.to_list(), "slot": slot, **signed}, act=act)]

    def _flip_when_shared(self, now: float) -> list[LoggedEvent]:
        """The mystery card being turned up, once every seat's share of it is in: the
        FLIP_MYSTERY of the player who asked, `by` "flip" (its card in the engine's event)."""
        hidden = self.hidden
        if hidden is None or not hidden.flip_ready:
            return []
        move = Move.flip_mystery(self._dealt_state().to_move()[0])
        hidden.flip(move)
        return self.move_events(move, now, {"m": move.to_list(), "by": "flip"})

    def _call_hammer(
        self, move: Move, signed: dict[str, Any], act: list[bytes], ctr: int, now: float
    ) -> list[LoggedEvent]:
        """The auctioneer's signed hammer starts the call: event `call` (the signed request;
        the lot is not sold yet), and the hammer falls `hammer_call` seconds later unless
        someone outbids first (docs/protocol.md "Hammer call").  With nobody left who could
        outbid it falls at once, as a plain move."""
        state = self._dealt_state()
        call = self.call
        if call is not None and call.auction == state.auction_no:
            raise ProtocolError(
                "hammer_called",
                f"the hammer is already being called: it falls in {max(0.0, call.end - now):.0f} s unless someone bids",
            )
        try:
            state.check(move)
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        self.counters[move.seat] = ctr
        if not could_outbid(state, move.seat):
            state.apply(move)
            return self.move_events(move, now, {"m": move.to_list(), "by": "player", **signed}, act)
        self.call = HammerCall(state.auction_no, move.seat, now + self.clocks.hammer_call)
        log.info("hammer called game=%s auction=%d", self.game_id.hex()[:12], state.auction_no)
        return [self._emit("call", now, {"m": move.to_list(), **signed}, act=act)]

    def _call_falls(self, now: float, *, early: bool = False) -> list[LoggedEvent]:
        """The hammer of a call whose time is up (or, `early`, that nobody could outbid any
        more): the auctioneer's HAMMER, recorded now, as a move `by` "call"."""
        state, call = self.state, self.call
        if call is None or state is None or state.phase != Phase.OPEN or state.auction_no != call.auction:
            return []
        if now < call.end and not (early and not could_outbid(state, call.seat)):
            return []
        move = Move.hammer(call.seat)
        state.apply(move)
        return self.move_events(move, now, {"m": move.to_list(), "by": "call"})

    def _sealed_round(self) -> SealedRound:
        state = self._dealt_state()
        if state.phase != Phase.SEALED or self.sealed is None:
            raise ProtocolError("wrong_phase", "no Sealed auction is running")
        return self.sealed

    def submit_commit(self, vk: bytes, seat: int, body: bytes, sig: bytes, now: float) -> list[LoggedEvent]:
        """A seat's signed sealed-bid commitment (the host learns no amount from it).

        No event: the commitment is written to the held file (a host crash keeps it; after a
        power loss the seat's client sends it again, docs/protocol.md "Journal and resume")
        before it is acknowledged, and published in the complete set.  Returns the set's
        events when this commitment completes it, else none."""
        self._check_live()
        self._signer(seat, vk)
        rnd = self._sealed_round()
        value = rnd.check_commit(seat, body, sig, [vk])
        rnd.accept_commit(value, body, sig)
        if self.journal is not None:
            self.journal.write_held({"held": HELD_COMMIT, "auction": rnd.auction, "seat": seat, "c": [body, sig]})
        return self._close_set(now)

    def _close_set(self, now: float) -> list[LoggedEvent]:
        rnd = self.sealed
        if rnd is None or not all(e is not None for e in rnd.entries):
            return []
        digest = rnd.close_set()
        rnd.reveal_end = now + self.clocks.reveal if self.clocks.reveal > 0 else None
        events = [self._emit("commits", now, {"auction": rnd.auction, "set": rnd.set_wire(), "d": digest})]
        log.info("commitment set game=%s auction=%d", self.game_id.hex()[:12], rnd.auction)
        return events + (self.settle(now) if rnd.revealed_all(self._unsettled()) else [])

    def submit_reveal(self, body: bytes, sig: bytes, now: float) -> tuple[list[LoggedEvent], int, str | None]:
        """A signed reveal (from any connection: it proves itself).  Returns (events, seat, failure)."""
        self._check_live()
        if self.state is None or self.sealed is None:
            raise ProtocolError("no_reveal", "no Sealed auction awaits a reveal")
        rnd = self.sealed
        seat, why = rnd.receive_reveal(body, sig, self.state.money)
        log.info(
            "reveal held game=%s auction=%d seat=%d ok=%s", self.game_id.hex()[:12], rnd.auction, seat, why is None
        )
        return (self.settle(now) if rnd.revealed_all(self._unsettled()) else []), seat, why

    def _unsettled(self) -> list[int]:
        """The seats of the running Sealed auction whose bid the engine has not received yet."""
        state = self._dealt_state()
        return [s for s in range(self.n) if state.sealed[s] == NO_BID]

    def settle(self, now: float) -> list[LoggedEvent]:
        """Give the engine every seat's sealed bid or forfeit (seat order), all in one `settle`
        event with every seat's proof (and the disclosure if that ended the game)."""
        state, rnd = self.state, self.sealed
        assert state is not None and rnd is not None
        settled = rnd.settle(list(state.money), self._unsettled())  # one made again may have settled some
        if not settled:
            return []
        auction = rnd.auction
        for move, _extra in settled:
            state.apply(move)
            if self.hidden is not None:
                self.hidden.after_move()
        self._sync_round()
        bids = [{"m": move.to_list(), **extra} for move, extra in settled]
        out = [self._emit("settle", now, {"auction": auction, "bids": bids}, moves=[m for m, _ in settled])]
        if self.is_over and not self.disclosed:
            out.append(self._disclose(now))
        return out

    def _settled_again(self, moves: list[Move], now: float) -> list[LoggedEvent]:
        """A settlement whose moves the journal holds but whose event a crash lost: the moves
        again, in one `settle` event `by` "recovered" (the reveals, held in memory, are gone:
        clients and the audit note that this auction's proof was lost)."""
        state = self._dealt_state()
        auction = state.auction_no
        for move in moves:
            state.apply(move)
            if self.hidden is not None:
                self.hidden.after_move()
        self._sync_round()
        bids = [{"m": move.to_list(), "by": "recovered"} for move in moves]
        fields = {"auction": auction, "by": "recovered", "bids": bids}
        out = [self._emit("settle", now, fields, journal_move=False, moves=moves)]
        if self.is_over and not self.disclosed:
            out.append(self._disclose(now))
        return out

    def apply_defaults(self, now: float, absent: set[int] | frozenset[int] = frozenset()) -> list[LoggedEvent]:
        """Play the default actions whose time ran out, and name the seats late with a deck
        step; returns their events."""
        if self.recovering is not None:
            return []
        return self._deck_late(now) + self._clock_defaults(now, absent)

    def _deck_late(self, now: float) -> list[LoggedEvent]:
        """At a hidden-hands table: the seats whose deck step (net/host/deck_deadlines.py)
        is owed longer than the `deck_step` clock, each named once in the log and in an
        event `dlate` (no clock can make the step for it: only its player's client can)."""
        if self.hidden is None:
            return []
        self.deck_waits.update(owed_steps(self.hidden, self.state, self.is_over), now, self.clocks.deck_step)
        out = []
        for seat, step, waited in self.deck_waits.missed(now):
            log.warning(
                "deck step late game=%s seat=%d player=%s step=%s waited=%.0fs",
                self.game_id.hex()[:12],
                seat,
                self.players[seat].name,
                step,
                waited,
            )
            event = self._emit("dlate", now, {"seat": seat, "step": step, "waited": waited})
            self.late_since[seat] = event.seq
            self.votes.pop(seat, None)  # a vote answers one wait: this is a new one
            out.append(event)
        return out

    def _back(self, seat: int, now: float) -> None:
        """Seat `seat` made a deck step (or opened its card), or the table voted to wait for
        it: it is not late any more, and the votes on it are void; a step it still owes gets
        a new deadline from `now`."""
        if self.late_since.pop(seat, None) is not None:
            self.votes.pop(seat, None)
            wait = self.deck_waits.waits.get(seat)
            if wait is not None:  # (a step made is forgotten at the next look at the deadlines)
                self.deck_waits.waits[seat] = DeckWait(wait.step, now, now + self.clocks.deck_step)

    def submit_vote(self, vk: bytes, seat: int, signed: Any, now: float) -> list[LoggedEvent]:
        """A seated person's vote on a late seat (net/trust/votes.py), checked as every client
        will check it; its decision's event once the votes decide (`decide`).  A voter may
        change its vote.  ProtocolError (a code of VOTE_CODES), and nothing changes, if the
        vote is refused."""
        self._check_live()
        if self.hidden is None:
            raise ProtocolError("not_hidden", "this table does not hide hands: a stand-in plays for a seat away")
        if self.is_over:
            raise ProtocolError("game_over", "the game is over")
        if self._signer(seat, vk) != 0:
            raise ProtocolError("vote_no_seat", "only a seat's own player votes for it")
        body = self._check_vote(signed, seat)
        if body.choice == "end" and self.state is None:
            raise ProtocolError("vote_not_dealt", "nothing is dealt yet: there is no game to end")
        self.votes.setdefault(body.absent, {})[body.voter] = (body.choice, list(signed))
        log.info(
            "vote game=%s voter=%d absent=%d choice=%s", self.game_id.hex()[:12], body.voter, body.absent, body.choice
        )
        return self._decide(body.absent, now)

    def _end_by_vote(self, absent: int) -> None:
        """The table's vote ends the game without `absent`, scored as it stands (docs/rules.md
        §12.9); a card play committed to and never opened is void.  Once only (a resumed
        host's event log, or events taken back after a power loss, may hold it)."""
        state = self._dealt_state()
        if state.is_over():
            return
        state.end_early()
        self.ended_without = absent
        if self.hidden is not None:
            self.hidden.pending = None
        self.late_since.clear()
        self.votes.clear()
        self._sync_round()

    def _check_vote(self, signed: Any, seat: int) -> VoteBody:
        from modernart.net.trust.votes import check_vote

        try:
            absent = decode_vote(signed[0]).absent if isinstance(signed, (list, tuple)) and signed else -1
        except (ProtocolError, TypeError):
            absent = -1
        body = check_vote(
            signed,
            game=self.game_id,
            players=[p.to_wire() for p in self.players],
            absent=absent,
            late=self.late_since,
            head_at=lambda seq: self.log[seq - 1].h if 1 <= seq <= len(self.log) else None,
            before=self.seq + 1,
        )
        if body.voter != seat:
            raise ProtocolError("vote_bad_signature", f"this connection votes for seat {seat}, not {body.voter}")
        return body

    def _decide(self, absent: int, now: float) -> list[LoggedEvent]:
        """The decision on `absent` if its votes reach the rule's count: `wait` (one more
        deadline: the seat is no longer late, and is named again if it misses it) or `end`
        (the game ends now, scored as it stands, and its disclosure follows)."""
        from modernart.net.trust.votes import required, voters

        eligible = voters([p.to_wire() for p in self.players], self.late_since)
        ballots = self.votes.get(absent, {})
        for choice in ("end", "wait"):
            signed = [ballot for voter, (c, ballot) in sorted(ballots.items()) if c == choice and voter in eligible]
            need = required(len(eligible), choice)
            if need is not None and len(signed) >= need:
                break
        else:
            return []
        fields = {"seat": absent, "choice": choice, "late": self.late_since[absent], "votes": signed}
        log.warning(
            "table decided game=%s absent=%d player=%s choice=%s votes=%d",
            self.game_id.hex()[:12],
            absent,
            self.players[absent].name,
            choice,
            len(signed),
        )
        if choice == "wait":
            self._back(absent, now)
            return [self._emit("decide", now, fields)]
        state = self._dealt_state()
        self._end_by_vote(absent)
        out = [self._emit("decide", now, fields)]
        self._journal_result(state)
        if not self.disclosed:
            out.append(self._disclose(now))
        return out

    def _moves_due(
        self, now: float, absent: set[int] | frozenset[int], state: GameState, rnd: Any
    ) -> tuple[list[Move], list[LoggedEvent]]:
        """The default moves whose clock ran out now (the Open countdown, the away seats'
        passes, the decision's clock), or the events of a Sealed set closed on its clock."""
        away = self._away_to_move(absent)
        if self.open_end is not None and now >= self.open_end and state.phase == Phase.OPEN:
            return default_moves(state, state.to_move()), []
        if away and self.away_end is not None and now >= self.away_end:
            return [Move.pass_(seat) for seat in away], []
        if self.decide_end is None or now < self.decide_end:
            return [], []
        if rnd is not None:  # Sealed: the seats that did not commit in time bid 0
            for seat in range(self.n):
                if rnd.entries[seat] is None:
                    rnd.default(seat)
            return [], self._close_set(now)
        if self.hidden is not None and self.hidden.needs_owner():
            self.decide_end = None  # only the seat's owner can play its card: the seat waits
            return [], []
        return default_moves(state, state.to_move(), self.clocks.bot_level), []

    def _clock_defaults(self, now: float, absent: set[int] | frozenset[int]) -> list[LoggedEvent]:
        """The default actions whose time ran out (`apply_defaults`)."""
        state = self.state
        if state is None:
            seeds_due = self.seed_end is not None and now >= self.seed_end
            return self.deal(now) if seeds_due and self.deck_ready else []
        if state.is_over():
            return []
        if self.hidden is not None and self.hidden.pending is not None:
            # a card play committed to: only its owner's opening goes on from here, and no
            # clock runs out for it (the next move's clock starts with the move)
            if self.decide_end is not None and now >= self.decide_end:
                self.decide_end = None
            return []
        rnd = self.sealed
        if rnd is not None and rnd.complete:
            deadline = self._reveal_deadline(absent)
            return self.settle(now) if deadline is not None and now >= deadline else []
        falls = self._call_falls(now)
        if falls:
            return falls
        moves, events = self._moves_due(now, absent, state, rnd)
        if events or not moves:
            return events
        out: list[LoggedEvent] = []
        for move in moves:
            if state.is_over() or not state.is_legal(move):
                break
            state.apply(move)
            out += self.move_events(move, now, {"m": move.to_list(), "by": "clock"})
        return out

    def set_delegate(self, seat: int, vk: bytes | None, now: float) -> LoggedEvent:
        """Let key `vk` (a stand-in bot) play `seat` until the player returns (None: revoke)."""
        self.delegates[seat] = vk
        return self._emit("delegate", now, {"seat": seat, "vk": vk})

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(cls, path: str, host: Keys, now: float, *, fsync: bool = True) -> "HostedGame":
        """The game whose journal is `path`, rebuilt from its event log and journal exactly as
        it was when the host stopped (before or after the deal).  What the crash cut off is
        dropped or redone: a torn line, events logged but never journaled (never announced),
        moves journaled whose events were lost (their events are made again), a missing
        result or disclosure."""
        drop_torn_line(path)
        entries = [LoggedEvent.from_entry(e) for e in read_events(path)]
        if not entries or not entries[0].hidden:
            raise ValueError(f"{path}: no game to resume (its event log is empty or from an older host)")
        first = entries[0]
        meta = (first.hidden or {})["meta"]
        start = decode_host_inner(first.public)
        if meta.get("host_vk") != host.vk.hex():
            raise ValueError("this journal was written by a host with another key")
        players = [Player(p["name"], p["vk"], p["bot"]) for p in start["players"]]
        clocks = ClockSettings.from_dict(meta.get("clocks", {}))
        game = cls(
            bytes.fromhex(meta["game_id"]),
            players,
            RuleOptions.from_dict(start["options"]),
            clocks,
            host,
            None,
            now,
            meta=meta,
            host_seed=(first.hidden or {})["seed"],
            salt_keys=(first.hidden or {})["salt_keys"],
            fixed_deal=FixedDeal.from_wire(start["fixed"]) if "fixed" in start else None,
            hidden_hands=start.get("hidden") is True,
        )
        game.recover(path, entries, now, fsync=fsync)
        return game

    def recover(self, path: str, entries: list[LoggedEvent], now: float, *, fsync: bool) -> None:
        """`resume`'s second half: replay `entries` (the event log at `path`, its first
        event this game's start), the journal and the commitments held for a Sealed auction
        still running into this fresh game, then journal on.

        If the machine restarted since the journal was written (journal.py `same_boot`), a
        power loss may have taken a tail of events that the players' clients hold: the game
        then recovers (`recovering`) and signs nothing new (no regenerated move, no
        disclosure, no clock's default, no request) until every player's client has said
        hello and given back what it holds past the log (`adopt`, `heard`)."""
        lost_tail = not same_boot(path)
        try:
            record: GameRecord | None = read_journal(path)
        except RecordError:
            record = None  # no header yet: the crash came before the deal
        moves = record.moves if record is not None else []
        used = kept = 0
        for event in entries:
            public = decode_host_inner(event.public)
            if public["k"] == "deal":
                if record is None:
                    break  # dealt but the journal header was lost: deal again (same seeds, same deck)
                self.seeding.dealt = True
                if self.hidden is not None:  # the blind engine again, on the deck its events rebuilt
                    self.state = self.hidden.begin(public["first"])
                else:
                    self.state = record.new_state(track_events=True)
            applied = [event.move] if event.move is not None else list(event.moves or [])
            if [m.to_list() for m in moves[used : used + len(applied)]] != applied:
                break  # logged but never journaled: it was never announced (or a power loss took it)
            for one in moves[used : used + len(applied)]:
                self._replay_move(one, public)
            used += len(applied)
            self._restore(event, public)
            kept += 1
        truncate_events(path, kept)
        for held in read_held(path):  # commitments acknowledged and not published yet
            self._restore_held(held)
        if record is not None and self.state is None:
            with open(path, "r+b") as f:  # a header without its deal event: written again at the deal
                f.truncate(0)
            record = None
        if self.hidden is not None:
            unannounced = [i for i, move in enumerate(moves[used:]) if move.action in CARD_ACTIONS]
            if unannounced:
                # a card play journaled without its event (a crash between the two writes):
                # never announced, and its opening was only in that event, so it is forgotten;
                # the `play` event it completed is in the log: the play waits again for its
                # opening, which the player's client sends again
                truncate_moves(path, used + unannounced[0])
                moves = moves[: used + unannounced[0]]
        self._result_journaled = record is not None and record.result is not None
        self.journal = Journal(path, sync=fsync)
        if self.state is not None:
            self._events_done = len(self.state.events or [])
        self._journaled = list(moves[used:])
        players = {seat for seat, p in enumerate(self.players) if p.bot is None}
        if lost_tail and players:
            self.recovering = players  # in-process bots lost their memory with the host: not asked
            log.warning(
                "game=%s resumed after a restart of the machine: waiting for seats %s to give back "
                "the events a power loss may have taken (%d events on disk)",
                self.game_id.hex()[:12],
                sorted(players),
                self.seq,
            )
        else:
            self._carry_on(now)
        self.journal.sync()

    def _replay_move(self, move: Move, public: dict[str, Any]) -> None:
        """Apply a logged move again (at a hidden-hands table a card with its logged opening)."""
        state = self._dealt_state()
        if self.hidden is not None and move.action in CARD_ACTIONS:
            self.hidden.play(move, public.get("open"))
        elif self.hidden is not None and move.action == Action.FLIP_MYSTERY and public.get("by") == "flip":
            self.hidden.flip(move)  # every seat's share is in the log before it
        else:
            state.apply(move)
            if self.hidden is not None:
                self.hidden.after_move()

    def _carry_on(self, now: float) -> list[LoggedEvent]:
        """Play on from the recovered log: the clocks restart, moves journaled after the last
        logged event get their events again (`by = recovered`), a missing result or
        disclosure is added; the new events.  The stand-ins the stopped host ran stopped
        with it (they are its own in-process bots): their delegations are revoked, one event
        each, so that the seats they played are played again (a new stand-in, the host's
        own bot, the clock) and their keys sign nothing more."""
        clocks = self.clocks
        state = self.state
        out: list[LoggedEvent] = [self.set_delegate(seat, None, now) for seat, vk in enumerate(self.delegates) if vk]
        if state is None:
            self.seed_end = now + clocks.reveal if clocks.reveal > 0 else None
            if self.seeding.complete and self.deck_ready:
                out += self.deal(now)
            return out
        self._decision_key = None
        self._update_deadlines(now, bid=False)
        journaled, self._journaled = self._journaled, []
        while journaled:  # journaled, but its event was lost in the crash
            move = journaled.pop(0)
            if self.hidden is not None and move.action == Action.FLIP_MYSTERY:  # every share was logged
                self.hidden.flip(move)
                out += self.move_events(move, now, {"m": move.to_list(), "by": "flip"}, journal_move=False)
                continue
            if self.hidden is not None and move.action in CARD_ACTIONS:
                # its opening was in the lost event only (`recover` forgets such a play)
                raise ValueError("a card play was journaled without its event: its opening is lost")
            if move.action in (Action.SEALED_BID, Action.SEALED_FORFEIT):  # a settlement: one event again
                sealed = [move]
                while journaled and journaled[0].action in (Action.SEALED_BID, Action.SEALED_FORFEIT):
                    sealed.append(journaled.pop(0))
                out += self._settled_again(sealed, now)
                continue
            state.apply(move)
            out += self.move_events(move, now, {"m": move.to_list(), "by": "recovered"}, journal_move=False)
        out += self._flip_when_shared(now)  # the last share logged, the card not turned up yet
        if state.is_over():
            self._journal_result(state)
            if not self.disclosed:
                out.append(self._disclose(now))
        rnd = self.sealed
        if rnd is not None and rnd.complete:
            rnd.reveal_end = now + clocks.reveal if clocks.reveal > 0 else None  # reveals come again
        if self.call is not None:  # a hammer being called: the call starts again
            self.call = HammerCall(self.call.auction, self.call.seat, now + clocks.hammer_call)
        return out

    # ------------------------------------------------------------------ recovering a lost tail

    def heard(self, seat: int, now: float) -> list[LoggedEvent]:
        """The player of `seat` has said hello and holds nothing past the log (any more):
        once every player has, the game plays on (the events that makes, to send)."""
        if self.recovering is None:
            return []
        self.recovering.discard(seat)
        if self.recovering:
            return []
        self.recovering = None
        log.info("game=%s recovered: %d events, playing on", self.game_id.hex()[:12], self.seq)
        return self._carry_on(now)

    def adopt(self, frames: list[dict[str, Any]]) -> int:
        """Take back events a power loss took from the log, as a client holds them (`ev`
        frames, oldest first); how many were new.  Each must carry this host's signature
        over a chain link from the log's head, in order: anything else (forged, altered,
        reordered, of another game, a gap) is refused with `bad_tail` before anything
        changes.  The host re-applies each event as its own and writes it, with the very
        bytes and signature it sent: it never signs another event at that number."""
        if self.recovering is None:
            raise ProtocolError("not_recovering", "this host has lost no events: it takes none from clients")
        head, seq = self.head, self.seq
        fresh: list[tuple[dict[str, Any], dict[str, Any]]] = []
        journaled = list(self._journaled)
        for frame in frames:
            at = frame["seq"]
            if at <= seq and not fresh:
                if self.log[at - 1].h != frame["h"]:
                    raise ProtocolError("bad_tail", f"event {at} differs from the one this host holds")
                continue
            if at != seq + 1:
                raise ProtocolError("bad_tail", f"event {at} does not follow event {seq}")
            if chain_link(head, at, frame["pub"], frame["ph"]) != frame["h"]:
                raise ProtocolError("bad_tail", f"event {at} does not link to the chain this host holds")
            if not verify(self.host.vk, HOSTEV_TAG, frame["h"], frame["hs"]):
                raise ProtocolError("bad_tail", f"event {at} does not carry this host's signature")
            public = decode_host_inner(frame["pub"])
            if public.get("g") != self.game_id or public.get("k") not in ADOPTABLE:
                raise ProtocolError("bad_tail", f"event {at} is not one this host can take back")
            applied = [public.get("m")] if public["k"] == "move" else []
            if public["k"] == "settle":
                applied = [bid.get("m") for bid in public.get("bids", [])]
            for one in applied:
                if journaled and journaled.pop(0).to_list() != one:
                    raise ProtocolError("bad_tail", f"event {at} is not the move the journal holds")
            fresh.append((frame, public))
            head, seq = frame["h"], at
        for frame, public in fresh:
            self._adopt_one(frame, public)
        return len(fresh)

    def _adopt_one(self, frame: dict[str, Any], public: dict[str, Any]) -> None:
        """Re-apply one event this host signed (checked by `adopt`) and journal it."""
        kind, at = public["k"], frame["seq"]
        move: Move | None = None
        applied: list[Move] = []
        if kind == "deal":
            self._deal_state(write_header=True)
        elif kind == "move":
            move = Move.from_list(public["m"])
            applied = [move]
        elif kind == "settle":
            applied = settle_moves(public)
        elif kind == "decide" and public["choice"] == "end":
            self._end_by_vote(public["seat"])  # before its private parts: the round it scored pays
        for one in applied:
            self._replay_move(one, public)  # at a hidden-hands table a card with its opening, checked
            if self._journaled:
                self._journaled.pop(0)  # the journal holds it already
            elif self.journal is not None:
                self.journal.write_move(one)
        state = self.state
        privates: list[bytes | None] = [None] * self.n
        if state is not None:
            engine_events = state.events[self._events_done :] if state.events is not None else []
            self._events_done = len(state.events or [])
            if kind != "disclose" and self.hidden is not None:
                privates = [
                    hidden_private_part(state, seat, private_salt(self.salt_keys[seat], at)) for seat in range(self.n)
                ]
            elif kind != "disclose":
                privates = [
                    private_part(state, seat, engine_events, private_salt(self.salt_keys[seat], at))
                    for seat in range(self.n)
                ]
        if [private_hash(p) for p in privates] != list(frame["ph"]):
            # the host's own signature over other private parts: its state differs from the one it signed
            raise RuntimeError(f"event {at} taken back does not match this host's state: the journal is damaged")
        signed_act = public.get("act")
        event = LoggedEvent(
            at,
            frame["pub"],
            privates,
            list(frame["ph"]),
            frame["h"],
            frame["hs"],
            move.to_list() if move is not None else None,
            [signed_act["b"], signed_act["s"]] if isinstance(signed_act, dict) else None,
            None,
            [m.to_list() for m in applied] if kind == "settle" else None,
        )
        if self.journal is not None:
            self.journal.write_event(event.to_entry())
            if applied and state is not None and state.is_over():
                self._journal_result(state)
        self._restore(event, public)

    def _restore_held(self, entry: dict[str, Any]) -> None:
        """A commitment the event log holds (this host's own file: checked when it came, and
        only taken if it is of the running auction and its seat has none yet)."""
        rnd = self.sealed
        if entry.get("held") != HELD_COMMIT or rnd is None or rnd.complete or rnd.auction != entry.get("auction"):
            return
        body, sig = entry["c"]
        value = decode_commit(body)
        if value.seat == entry.get("seat") and rnd.entries[value.seat] is None:
            rnd.accept_commit(value, body, sig)

    def _restore(self, event: LoggedEvent, public: dict[str, Any]) -> None:
        """Re-apply the bookkeeping of one logged event (counters, delegates, seeds, commitments)."""
        kind = public.get("k")
        if self.state is not None:
            self._sync_round()
        if kind == "flip" and self.hidden is not None:  # the mystery card asked for: its shares come
            self.hidden.start_flip()
        if kind == "delegate":
            self.delegates[public["seat"]] = public["vk"]
        elif kind in ("move", "call", "play", "flip") and event.act is not None:
            act = decode_action_body(event.act[0])
            self.counters[act["seat"]] = max(self.counters[act["seat"]], act["ctr"])
            if kind == "play" and self.hidden is not None:  # committed to: it waits for its opening
                self.hidden.commit(Move.from_list(public["m"]), event.seq)
        elif kind == "seed":
            body, sig = public["c"]
            self.seeding.accept(public["seat"], body, sig, (event.hidden or {})["seed"])
        elif kind in ("commit", "commits"):
            self._restore_commitments(kind, public)
        elif kind == "disclose":
            self.disclosed = True
        elif kind in DECK_STEPS and self.hidden is not None:
            self.hidden.submit(public["seat"], {DECK_STEPS[kind]: public[DECK_FIELDS[kind]]}, self.is_over)
            self._back(public["seat"], self.now)
        elif kind == "dlate":
            self.late_since[public["seat"]] = event.seq
        elif kind == "move" and "open" in public:  # a card opened by its owner: back
            self._back(public["m"][0], self.now)
        elif kind == "decide" and public["choice"] == "wait":
            self._back(public["seat"], self.now)
        elif kind == "decide":
            self._end_by_vote(public["seat"])
        self._restore_call(str(kind), public)
        self.note_logged(str(kind), event)

    def _restore_commitments(self, kind: str, public: dict[str, Any]) -> None:
        """A logged commitment (protocol 1 published each) or complete set, taken again."""
        rnd = self.sealed
        if rnd is None:
            return
        if kind == "commit":
            body, sig = public["c"]
            rnd.accept_commit(decode_commit(body), body, sig)
            return
        for item in public["set"]:  # the set is what counts (a commitment held before it, or not)
            if "default" in item:
                rnd.default(item["seat"])
            else:
                body, sig = item["c"]
                rnd.accept_commit(decode_commit(body), body, sig)
        rnd.close_set()

    def _restore_call(self, kind: str, public: dict[str, Any]) -> None:
        """Follow the hammer call through the event log: a `call` starts one (its end is set
        again once the game is rebuilt), a bid or the auction's end stops it."""
        state = self.state
        if state is None:
            return
        if kind == "call":
            self.call = HammerCall(state.auction_no, public["m"][0], 0.0)
        elif kind == "move" and self.call is not None:
            outbid = public["m"][1] == Action.BID
            if outbid or state.phase != Phase.OPEN or state.auction_no != self.call.auction:
                self.call = None
