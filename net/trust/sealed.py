"""Sealed auctions by commit-reveal: the host's round, and the checks every client repeats.

Phases of one Sealed auction (docs/fair-play.md), protocol 2: three events in all.
  0. the card: the event that puts a Sealed card up is itself the request for commitments.
  1. commit: each seat sends a signed commitment (net/protocol/signed.py); the host checks
     it, keeps it in its held file (written, a host crash keeps it) and acknowledges it to its
     sender, but publishes no event for it: the table learns who has sealed from the clocks'
     `sealed` (ticks).  It holds no amount.  A seat whose decision time runs out gets the
     host's default entry, a bid of 0.
  2. set: once every seat has an entry the host publishes the complete signed set and its
     digest D (event "commits"); this asks for the reveals, and the reveal deadline starts.
  3. reveal: each client checks the whole set (every commitment's signature) and reveals by
     itself: a signed {amount, nonce, D}.  The host checks each reveal (commitment, D,
     money) and holds them.
  4. settle: when every seat's reveal is in, or at the deadline, the engine receives one
     SEALED_BID (a valid reveal, or the default 0) or SEALED_FORFEIT (missing, mismatching,
     wrong D, over budget) per seat, in seat order, all in ONE event ("settle") that carries
     each seat's proof.
Every client re-checks every reveal, D, the money limit and the winner on its own
(`SealedVerifier`); the audit runs the same checks on the whole game.  Games of protocol 1
(a `commit` event per commitment, a `move` event per settled bid) are still checked, for
the audit of their transcripts (`SealedVerifier.commit_event`, `move_event`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from modernart.auctions import sealed_outcome
from modernart.events import BANK
from modernart.moves import Action, Move
from modernart.rules import RuleOptions

from modernart.net.protocol import ProtocolError
from modernart.net.protocol.signed import (
    COMMIT_TAG,
    REVEAL_TAG,
    Commit,
    Reveal,
    SetEntry,
    decode_commit,
    decode_reveal,
    set_digest,
)
from modernart.net.trust.identity import signed

MISSING, MISMATCH, WRONG_DIGEST, OVER_BUDGET = "missing", "mismatch", "wrong_digest", "over_budget"
REASONS = {
    MISSING: "no reveal arrived before the deadline",
    MISMATCH: "the reveal does not match the commitment",
    WRONG_DIGEST: "the reveal names a different commitment set",
    OVER_BUDGET: "the revealed bid exceeds the player's money",
}


def judge(entry: SetEntry, reveal: Reveal | None, digest: bytes, money: int) -> str | None:
    """None if `reveal` is a valid opening of `entry` under set digest `digest`, else why not."""
    if reveal is None:
        return MISSING
    if not reveal.opens(entry.c):
        return MISMATCH
    if reveal.digest != digest:
        return WRONG_DIGEST
    if reveal.amount > money:
        return OVER_BUDGET
    return None


def overlay(pv: dict[str, Any], committed: list[int], complete: bool) -> dict[str, Any]:
    """The public view during a commit-reveal: `sealed_done` lists the seats whose commitment
    the host accepted; only the others are to move, and nobody once the set is complete."""
    engine_to_move = pv["to_move"]
    pv["sealed_done"] = sorted(set(committed) | set(pv["sealed_done"]))
    pv["to_move"] = [] if complete else [s for s in engine_to_move if s not in committed]
    return pv


@dataclass
class SealedRound:
    """Host side: one Sealed auction's commitments, set digest and held reveals."""

    game: bytes
    auction: int
    n: int
    entries: list[SetEntry | None] = field(default_factory=list)
    digest: bytes | None = None
    reveal_end: float | None = None
    graced: bool = False  # a seat owing a reveal has been away: the deadline is extended by the grace period
    reveals: dict[int, tuple[Reveal, list[bytes]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.entries = self.entries or [None] * self.n

    @property
    def complete(self) -> bool:
        return self.digest is not None

    def committed(self) -> list[int]:
        return [s for s, e in enumerate(self.entries) if e is not None]

    def published(self) -> list[int]:
        """The seats whose entry the table may know from the events: every seat once the set
        is complete, before that none (who has sealed travels in the clocks, not the chain)."""
        return list(range(self.n)) if self.complete else []

    def check_commit(self, seat: int, body: bytes, sig: bytes, allowed: list[bytes]) -> Commit:
        """A seat's signed commitment, checked (ProtocolError if refused)."""
        value = signed(COMMIT_TAG, body, sig, decode_commit)
        if value.game != self.game:
            raise ProtocolError("wrong_game", "the commitment names another game")
        if value.auction != self.auction:
            raise ProtocolError(
                "wrong_auction",
                f"the commitment is for auction {value.auction}, not the running auction {self.auction}",
            )
        if value.seat != seat or value.key not in allowed:
            raise ProtocolError("not_your_seat", f"this key may not commit for seat {value.seat}")
        if self.entries[seat] is not None:
            raise ProtocolError("already_committed", f"seat {seat} has committed in auction {self.auction}")
        if any(e is not None and not e.default and e.c == value.c for e in self.entries):
            raise ProtocolError("copied_commitment", "this commitment is another seat's")
        return value

    def accept_commit(self, value: Commit, body: bytes, sig: bytes) -> None:
        self.entries[value.seat] = SetEntry(value.seat, value.key, value.c, [body, sig])

    def default(self, seat: int) -> None:
        self.entries[seat] = SetEntry(seat)

    def close_set(self) -> bytes:
        assert all(e is not None for e in self.entries)
        self.digest = set_digest(self.game, self.auction, self.entries)  # type: ignore[arg-type]
        return self.digest

    def set_wire(self) -> list[dict[str, Any]]:
        return [e.to_wire() for e in self.entries if e is not None]

    def awaits(self, key: bytes) -> bool:
        """Whether a reveal by `key` is still expected (it committed and has not revealed)."""
        return any(
            e is not None and not e.default and e.key == key and s not in self.reveals
            for s, e in enumerate(self.entries)
        )

    def revealed_all(self, pending: list[int] | None = None) -> bool:
        """Whether every seat of `pending` (default: all; a settlement made again after a crash
        may have settled some) has its default entry or a reveal held."""
        seats = range(self.n) if pending is None else pending
        return all((e := self.entries[s]) is not None and (e.default or s in self.reveals) for s in seats)

    def receive_reveal(self, body: bytes, sig: bytes, money: list[int]) -> tuple[int, str | None]:
        """Hold a reveal; returns (seat, why it fails or None).  ProtocolError if refused outright."""
        if self.digest is None:
            raise ProtocolError("too_early", "reveal only after the complete commitment set")
        value = signed(REVEAL_TAG, body, sig, decode_reveal)
        if value.game != self.game or value.auction != self.auction:
            raise ProtocolError("wrong_auction", "the reveal names another game or auction")
        entry = self.entries[value.seat]
        if entry is None or entry.default or entry.key != value.key:
            raise ProtocolError("not_your_seat", f"this key made no commitment for seat {value.seat}")
        if value.seat in self.reveals:
            raise ProtocolError("already_revealed", f"seat {value.seat} has revealed")
        self.reveals[value.seat] = (value, [body, sig])
        return value.seat, judge(entry, value, self.digest, money[value.seat])

    def settle(self, money: list[int], seats: list[int]) -> list[tuple[Move, dict[str, Any]]]:
        """The engine moves of `seats` (in order) with what the `settle` event says about each
        (its `bids` entry without `m`: how it was settled and its proof)."""
        assert self.digest is not None
        out: list[tuple[Move, dict[str, Any]]] = []
        for s in seats:
            entry = self.entries[s]
            assert entry is not None
            if entry.default:
                out.append((Move.sealed_bid(s, 0), {"by": "clock"}))
                continue
            held = self.reveals.get(s)
            why = judge(entry, held[0] if held else None, self.digest, money[s])
            proof = held[1] if held else None
            if why is None:
                out.append((Move.sealed_bid(s, held[0].amount), {"by": "reveal", "reveal": proof}))  # type: ignore[index]
            else:
                out.append((Move.sealed_forfeit(s), {"by": "offender", "why": why, "reveal": proof}))
        return out


@dataclass
class _RoundView:
    auction: int
    entries: list[SetEntry | None]
    digest: bytes | None = None
    bids: dict[int, int | None] = field(default_factory=dict)  # seat -> valid amount, None = forfeited


class SealedVerifier:
    """Client and audit side: checks commit events, the set, every reveal, verdict and winner.

    Methods raise ValueError for proof that the host broke the protocol, and return a
    list of warnings (equivocation or a misbehaving player, which the host cannot hide).
    """

    def __init__(self, game: bytes, n: int, *, every_signature: bool = True) -> None:
        self.game = game
        self.n = n
        # False (a client following its game): a relayed reveal that is a valid opening of the
        # seat's own signed commitment under this set is not checked again for its signature:
        # only the seat holds the nonce that opens it, so the opening proves the reveal is its
        # own; a failing reveal is checked (the host may not pin a forgery on a player).  The
        # audit checks every signature.
        self.every_signature = every_signature
        self.round: _RoundView | None = None
        self.digests: dict[int, bytes] = {}  # auction -> D, for own reveals
        self.own: dict[bytes, bytes] = {}  # body -> signature of the commitments this client sent

    def _round(self, auction: int) -> _RoundView:
        if self.round is None or self.round.auction != auction:
            self.round = _RoundView(auction, [None] * self.n)
        return self.round

    def own_commit(self, body: bytes, sig: bytes) -> None:
        """Note a commitment this client signed and sent: found with exactly these bytes in a
        set, its signature needs no second check (anything else is checked)."""
        if len(self.own) > 8:
            del self.own[next(iter(self.own))]
        self.own[body] = sig

    def _signed_commit(self, auction: int, seat: int, signed_commit: list[bytes], allowed: list[bytes]) -> SetEntry:
        """A seat's relayed signed commitment, checked: signature (a client's own it knows
        byte for byte), game, auction, seat, key."""
        body, sig = signed_commit
        try:
            if self.own.get(body) == sig:
                value = decode_commit(body)
            else:
                value = signed(COMMIT_TAG, body, sig, decode_commit)
        except ProtocolError as exc:
            raise ValueError(f"auction {auction}, seat {seat}: commitment refused: {exc.message}") from None
        if value.game != self.game or value.auction != auction or value.seat != seat or value.key not in allowed:
            raise ValueError(f"auction {auction}, seat {seat}: the commitment names another game, auction, seat or key")
        return SetEntry(seat, value.key, value.c, [body, sig])

    def commit_event(self, auction: int, seat: int, signed_commit: list[bytes], allowed: list[bytes]) -> SetEntry:
        """A commitment published as its own event (protocol 1)."""
        rnd = self._round(auction)
        if rnd.digest is not None or not 0 <= seat < self.n or rnd.entries[seat] is not None:
            raise ValueError(f"auction {auction}: an unexpected commitment for seat {seat}")
        entry = self._signed_commit(auction, seat, signed_commit, allowed)
        rnd.entries[seat] = entry
        return entry

    def set_event(self, auction: int, wire_entries: list[dict[str, Any]], keys: list[list[bytes]]) -> bytes:
        """The complete commitment set (`keys`: per seat, the keys that may commit for it).
        Each commitment is checked here (protocol 2 publishes them nowhere else); one that
        an earlier `commit` event published (protocol 1) must be the very same."""
        rnd = self._round(auction)
        if rnd.digest is not None or len(wire_entries) != self.n:
            raise ValueError(f"auction {auction}: a commitment set must list all {self.n} seats once")
        for seat, item in enumerate(wire_entries):
            if item.get("seat") != seat:
                raise ValueError(f"auction {auction}: the commitment set is not in seat order")
            held = rnd.entries[seat]
            if "default" in item:
                if held is not None:
                    raise ValueError(
                        f"auction {auction}, seat {seat}: the set replaces a published commitment with a default bid"
                    )
                rnd.entries[seat] = SetEntry(seat)
            elif "c" not in item:
                raise ValueError(f"auction {auction}, seat {seat}: the set gives neither a commitment nor a default")
            elif held is None:
                # every signature before anything else: a client reveals on this set, and a
                # reveal on a set whose other commitments no seat signed would show its bid
                # while the others' bids are not fixed
                rnd.entries[seat] = self._signed_commit(auction, seat, list(item["c"]), keys[seat])
            elif held.signed != list(item["c"]):
                raise ValueError(
                    f"auction {auction}, seat {seat}: the set differs from the commitment published before"
                )
        rnd.digest = set_digest(self.game, auction, rnd.entries)  # type: ignore[arg-type]
        self.digests[auction] = rnd.digest
        return rnd.digest

    def settle_event(self, auction: int, bids: list[dict[str, Any]], money: list[int]) -> list[str]:
        """Check a `settle` event's bids: each a seat not settled yet, in seat order, against
        the set and its proof (`move_event`); returns the warnings."""
        recovered = all(bid.get("by") == "recovered" for bid in bids)
        rnd = self.round if not recovered else self._round(auction)
        if rnd is None or rnd.auction != auction or (rnd.digest is None and not recovered):
            raise ValueError(f"auction {auction}: settled before the complete commitment set")
        warnings: list[str] = []
        last = -1
        for bid in bids:
            seat, action, _arg = bid["m"]
            if not last < seat < self.n:
                raise ValueError(f"auction {auction}: the settlement lists seat {seat} out of seat order or twice")
            if seat in rnd.bids:
                raise ValueError(f"auction {auction}, seat {seat}: settled twice")
            if action not in (Action.SEALED_BID, Action.SEALED_FORFEIT):
                raise ValueError(f"auction {auction}, seat {seat}: a settled bid that is not a sealed bid")
            last = seat
            warnings += self.move_event(auction, bid["m"], bid, money[seat])
        return warnings

    def entry(self, auction: int, seat: int) -> SetEntry | None:
        rnd = self.round
        return rnd.entries[seat] if rnd is not None and rnd.auction == auction else None

    def move_event(self, auction: int, move: list[int], pub: dict[str, Any], money: int) -> list[str]:
        """Check one settled sealed bid (a `settle` event's entry, or a protocol 1 `move`
        event) against the set and its proof; returns warnings."""
        seat, action, arg = move
        where = f"auction {auction}, seat {seat}"
        by = pub.get("by")
        rnd = self.round
        if by == "recovered":
            self._round(auction).bids[seat] = arg if action == Action.SEALED_BID else None
            return [f"{where}: the host lost this sealed bid's proof in a crash (recovered move)"]
        if rnd is None or rnd.auction != auction or rnd.digest is None:
            raise ValueError(f"{where}: a sealed bid settled before the complete commitment set")
        entry = rnd.entries[seat]
        assert entry is not None
        if by == "clock":
            if not entry.default or action != Action.SEALED_BID or arg != 0:
                raise ValueError(f"{where}: a default bid for a seat that committed, or not 0")
            rnd.bids[seat] = 0
            return []
        proof = pub.get("reveal")
        reveal = None if proof is None else self._relayed_reveal(where, proof, entry.key, auction, seat)
        if entry.default:
            raise ValueError(f"{where}: a settled bid for a seat the set gives the default")
        why = judge(entry, reveal, rnd.digest, money)
        if proof is not None and (self.every_signature or why is not None):
            try:
                signed(REVEAL_TAG, proof[0], proof[1], decode_reveal)
            except ProtocolError as exc:
                raise ValueError(f"{where}: the relayed reveal is not valid: {exc.message}") from None
        warnings = []
        if by == "reveal":
            if why is not None:
                raise ValueError(f"{where}: the host accepted a reveal that fails: {REASONS[why]}")
            if action != Action.SEALED_BID or reveal is None or arg != reveal.amount:
                raise ValueError(f"{where}: the settled bid is not the revealed amount")
            rnd.bids[seat] = arg
        elif by == "offender":
            warnings += _offender(where, action, why, pub.get("why"))
            rnd.bids[seat] = None
        else:
            raise ValueError(f"{where}: a sealed bid settled by {by!r}")
        return warnings

    def _relayed_reveal(self, where: str, proof: list[Any], key: Any, auction: int, seat: int) -> Any:
        """The reveal the host relayed with a settled bid, decoded and bound to the committed
        key, this game, this auction and this seat (its signature is checked by the caller)."""
        try:
            reveal = decode_reveal(proof[0])
        except ProtocolError as exc:
            raise ValueError(f"{where}: the relayed reveal is not valid: {exc.message}") from None
        if reveal.key != key or reveal.game != self.game or reveal.auction != auction or reveal.seat != seat:
            raise ValueError(f"{where}: the relayed reveal is not the committed key's for this auction")
        return reveal

    def resolution(
        self, auction: int, revealed: Any, sale: Any, auctioneer: int, options: RuleOptions, money: list[int]
    ) -> None:
        """Check the engine's SealedRevealed and Sale against the verified bids."""
        rnd = self.round
        if rnd is not None and options.sealed_excludes_seller and auctioneer not in rnd.bids:
            entry = rnd.entries[auctioneer]
            if entry is None or not entry.default:
                raise ValueError(f"auction {auction}: the seller, who makes no bid, has a commitment in the set")
            rnd.bids[auctioneer] = 0  # the seller's fist stays empty (FA-10): never settled by a move
        if rnd is None or rnd.auction != auction or len(rnd.bids) != self.n:
            raise ValueError(f"auction {auction}: resolved before every seat's bid was settled")
        bids = [rnd.bids[s] or 0 for s in range(self.n)]
        offenders = tuple(s for s in range(self.n) if rnd.bids[s] is None)
        fines = tuple(min(options.sealed_offender_fine, money[s]) for s in offenders)
        if (
            tuple(revealed.bids) != tuple(bids)
            or tuple(revealed.offenders) != offenders
            or tuple(revealed.fines) != fines
        ):
            raise ValueError(f"auction {auction}: the announced bids, offenders or fines differ from the reveals")
        buyer, price, tied = sealed_outcome(bids, auctioneer, options.sealed_tie_seller_chooses)
        if tied:  # the seller chooses next, with a signed move of its own
            if sale is not None:
                raise ValueError(f"auction {auction}: sold to seat {sale.buyer}, but the seller was to choose")
            self.round = None
            return
        if price == 0 and options.unsold_discarded:
            buyer = BANK  # nobody bought it: discarded (FA-5)
        if sale is None or (sale.buyer, sale.price) != (buyer, price):
            got = (sale.buyer, sale.price) if sale is not None else None
            raise ValueError(
                f"auction {auction}: the sale {got} differs from the reveals' winner (seat {buyer} for {price})"
            )
        self.round = None


def _offender(where: str, action: int, why: str | None, said: Any) -> list[str]:
    """A bid the host settled as an offender's: forfeited, with the fault the proof shows
    (`why`, None: the reveal is valid) and the one the host names (`said`); warnings."""
    if action != Action.SEALED_FORFEIT:
        raise ValueError(f"{where}: an offender's bid must be forfeited")
    if why is None:
        raise ValueError(
            f"{where}: the host named the seat an offender, but its reveal is valid against the commitment set it showed us"
        )
    if why != said:
        raise ValueError(f"{where}: the host says {said!r}, the proof says {why!r}")
    if why == WRONG_DIGEST:
        return [
            f"{where}: the reveal names a different commitment set: the host showed "
            f"this player other commitments, or its client misbehaved"
        ]
    return []
