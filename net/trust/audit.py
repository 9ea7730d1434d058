"""The audit of a finished game: its record and its transcript, checked end to end.

`audit_files(record, transcript)` checks, and names exactly what fails:
  1. the transcript (net/trust/transcript.py): every event's chain link and host signature,
     every player signature and action counter, every seed commitment, every sealed-bid
     commitment, commitment set and digest D, every reveal and the host's verdict on it
     (money limit from public payments), every Sealed winner (net/trust/verified_game.py does this);
  2. the shuffle: the disclosed seeds against their commitments, the deck order and first
     auctioneer they give, against the deal event and the record (deck order, every deal);
  3. the rules: the moves replayed with the engine from that deck; after every event the
     public view and the announced outcome must equal the engine's, and every seat's
     private part (hand, money, cards dealt), rebuilt with its disclosed salt key, must hash
     to the value in the chain;
  4. the record: players, keys, options, every move and the result against the above.
A fixed deal (net/trust/shuffle.py `FixedDeal`) is checked in place of the shuffle and noted.
Notes are reported but do not fail the audit: a reveal against a different commitment set,
a sealed bid recovered after a host crash, every forfeited sealed bid (seat and why),
every period in which a stand-in bot played a seat (from which move to which), and per
seat the moves a stand-in's key signed and those the clock made.  `facts["signed_by"]`
names, move by move, who made each move: "player" (signed with the seat's own key),
"stand-in" (with its stand-in's key), "clock" (a default the host made when the time ran
out), or how else the host made it ("recovered" after a crash, "call" for a hammer
call's end, "flip" for a mystery card turned up, "offender" for a forfeited sealed bid).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from modernart.errors import IllegalMove
from modernart.game import GameState, deals_of_order, deck_orders_needed
from modernart.moves import Move
from modernart.phase import Phase
from modernart.record import GameRecord, RecordError, read_record
from modernart.rules import RuleOptions

from modernart.net.protocol.signed import EMPTY_PRIVATE, decode_commit, private_hash, private_salt
from modernart.net.trust.chain import ChainError
from modernart.net.trust.verified_game import VerifiedGame
from modernart.net.trust.identity import fingerprint
from modernart.net.protocol import ProtocolError, decode_host_inner
from modernart.net.trust.sealed import REASONS, overlay
from modernart.net.trust.shuffle import FixedDeal, derive_deal
from modernart.net.trust.transcript import (
    TranscriptError,
    read_transcript,
    read_transcript_and_header,
    read_versioned_transcript,
)
from modernart.net.protocol.game_data import event_to_wire, hidden_private_part, private_part, public_view
from modernart.net.trust.deck import DeckKey, Share, Shuffle
from modernart.net.trust.group import read_scalar
from modernart.net.trust.hidden_deck import DeckLedger, audit_deal
from modernart.net.trust.proof_cache import PROOFS


@dataclass
class AuditReport:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    unreadable: bool = False  # the record or the transcript could not be read at all

    @property
    def ok(self) -> bool:
        return not self.problems


def transcript_path_for(record_path: str, record: GameRecord | None = None) -> str:
    """Where a record's transcript is: the file `meta.transcript` names beside it, else the
    record's own name with `.transcript` (e.g. after copying both under new names)."""
    directory = os.path.dirname(record_path)
    own = os.path.join(directory, os.path.basename(record_path.removesuffix(".json")) + ".transcript")
    named = record.meta.get("transcript") if record is not None else None
    if isinstance(named, str) and os.path.basename(named) == named:
        path = os.path.join(directory, named)
        if os.path.exists(path) or not os.path.exists(own):
            return path
    return own


def compare_transcripts(
    mine: list[dict[str, Any]], other: list[dict[str, Any]], host_vk: bytes, name: str
) -> list[str]:
    """Problems if `other` (another player's copy) holds a different history than `mine`."""
    from modernart.net.protocol.signed import HOSTEV_TAG
    from modernart.net.trust.identity import verify

    for a, b in zip(mine, other):
        if a.get("seq") != b.get("seq"):
            return [f"{name}: its events are numbered differently from event {a.get('seq')} on"]
        if a.get("h") != b.get("h"):
            signed = verify(host_vk, HOSTEV_TAG, b.get("h") or b"", b.get("hs") or b"")
            return [
                f"{name}: event {a['seq']} differs from this transcript's"
                + (
                    " and the host signed both: it showed players different histories"
                    if signed
                    else " (and its host signature is invalid)"
                )
            ]
    return []


def audit_files(
    record_path: str, transcript_path: str | None = None, host_vk: bytes | None = None, compare: list[str] | None = None
) -> AuditReport:
    report = AuditReport()
    try:
        record = read_record(record_path)
    except RecordError as exc:
        report.problems.append(f"record: {exc}")
        report.unreadable = True
        return report
    try:
        protocol, frames = read_versioned_transcript(transcript_path or transcript_path_for(record_path, record))
    except TranscriptError as exc:
        report.problems.append(f"transcript: {exc}")
        report.unreadable = True
        return report
    _Audit(record, frames, host_vk, report, protocol).run()
    for path in compare or []:
        try:
            other = read_transcript(path)
        except TranscriptError as exc:
            report.problems.append(f"transcript: {exc}")
            continue
        key = host_vk or bytes.fromhex(str(record.meta.get("host_vk", "")))
        report.problems.extend(compare_transcripts(frames, other, key, os.path.basename(path)))
    return report


def audit_evidence(path: str, host_vk: bytes | None = None) -> AuditReport:
    """The audit of an unfinished game's transcript, as far as it goes: the evidence a client
    saves when it stops trusting the host (net/trust/transcript.py).  Every event is checked
    as a client checks it (chain and host signatures, every player's signature and counter,
    every deck step's signature and binding, every proof); the first that fails is named.
    `host_vk`: the host's key (default: the one the header names).  What the saving client
    found is a note: a third party can check the host's signed events, not what the
    client says it sent."""
    report = AuditReport()
    try:
        header, frames = read_transcript_and_header(path)
    except TranscriptError as exc:
        report.problems.append(f"transcript: {exc}")
        report.unreadable = True
        return report
    key = host_vk or header.get("host_vk")
    if type(key) is not bytes or len(key) != 32 or not frames:
        report.problems.append("transcript: it names no host key (pass --host-key) or holds no event")
        report.unreadable = True
        return report
    try:
        game_id = decode_host_inner(frames[0]["pub"])["g"]
    except (ProtocolError, KeyError, TypeError) as exc:
        report.problems.append(f"event 1: {exc}")
        return report
    report.facts.update(host_key_fpr=fingerprint(key), events=len(frames), finished=False)
    if isinstance(header.get("untrusted"), str):
        report.notes.append(f"the client that saved it stopped trusting the host: {header['untrusted']}")
    if isinstance(header.get("unrecorded"), str):
        report.notes.append(f"the client that saved it says the host did not record its step: {header['unrecorded']}")
    follower = VerifiedGame(game_id, key, protocol=header["version"])
    for frame in frames:
        try:
            info, _ = follower.apply(frame, None)
        except (ChainError, ProtocolError, ValueError, KeyError, TypeError) as exc:
            report.problems.append(_where(frame, exc))
            return report
        report.notes.extend(info.warnings)
    if follower.ended_without is not None:  # the table's vote ended it (docs/fair-play.md "No table waits for ever")
        seat = follower.ended_without
        report.facts.update(finished=True, ended_without=seat)
        report.notes.append(
            f"the game was ended early by the players' vote, without {follower.players[seat]['name']} (seat {seat}), "
            f"scored as it stood; that seat's deck key never came, so the deal cannot be decrypted: its "
            f"{len(frames)} events, every vote of the decision included, check out"
        )
        return report
    report.notes.append(f"the game is unfinished: its {len(frames)} events check out as far as they go")
    report.notes.extend(sent_steps(follower, frames, header.get("sent")))
    return report


def sent_steps(follower: VerifiedGame, frames: list[dict[str, Any]], sent: Any) -> list[str]:
    """What an evidence transcript's `sent` deck frames (the steps its client says it sent
    and the host did not record) show, checked against the transcript's own events: each
    one's seat signature and binding to this game, deck and chain, and whether any event
    records it.  A third party learns that the seat made the step, signed, in answer to
    that history; not whether the host or the network lost it."""
    from modernart.net.protocol.signed import decode_deck_step
    from modernart.net.trust.deck_steps import check_step
    from modernart.net.trust.group import read_scalar as scalar

    notes: list[str] = []
    deck = follower.deck
    if deck is None or not isinstance(sent, list):
        return notes
    for frame in sent[:8]:
        try:
            body = decode_deck_step(frame["signed"][0])
            seat, kind = body.seat, body.kind
            value: Any = {
                "key": lambda: DeckKey.from_wire(frame["key"]),
                "shuffle": lambda: Shuffle.from_wire(frame["shuffle"], deck.size),
                "shares": lambda: [Share.from_wire(w) for w in frame["shares"]],
                "secret": lambda: scalar(frame["secret"]),
            }[kind]()
            check_step(
                frame["signed"],
                game=follower.game_id,
                seat=seat,
                kind=kind,
                epoch=body.epoch,
                value=value,
                vk=follower.players[seat]["vk"],
                head_at=follower.head_at,
                before=follower.seq + 1,
            )
        except (ProtocolError, ValueError, KeyError, TypeError, IndexError) as exc:
            notes.append(f"a step the client says it sent does not check out: {exc}")
            continue
        held = any((p.get("signed") or [None])[0] == frame["signed"][0] for p in _deck_pubs(frames))
        notes.append(
            f"{_seat_name([p['name'] for p in follower.players], seat)} signed its {kind} step of deck "
            f"{body.epoch} in answer to event {body.ref_seq} of this history"
            + (": the host recorded it" if held else f"; none of the {follower.seq} events records it")
        )
    return notes


def _deck_pubs(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public parts of the deck step events among `frames`."""
    pubs = [decode_host_inner(f["pub"]) for f in frames]
    return [p for p in pubs if p.get("k") in ("dkey", "dshuffle", "dshares", "dsecret")]


class _Audit:
    def __init__(
        self,
        record: GameRecord,
        frames: list[dict[str, Any]],
        host_vk: bytes | None,
        report: AuditReport,
        protocol: int,
    ) -> None:
        self.record, self.frames, self.report = record, frames, report
        # the transcript's version: the protocol the game was played in, if event 1 agrees
        self.protocol = protocol
        self.pinned = host_vk
        self.problems = report.problems

    def run(self) -> None:
        meta = self.record.meta
        try:
            game_id = bytes.fromhex(meta["game_id"])
            host_vk = self.pinned or bytes.fromhex(meta["host_vk"])
        except (KeyError, ValueError, TypeError):
            self.problems.append("record: meta lacks the game id or the host key (not a network game?)")
            return
        if self.pinned is not None and meta.get("host_vk") != self.pinned.hex():
            self.problems.append("record: the host key differs from the one given")
        self.report.facts["host_key_fpr"] = fingerprint(host_vk)
        self.report.facts["events"] = len(self.frames)
        follower = VerifiedGame(game_id, host_vk, check_deck=False, protocol=self.protocol)
        for frame in self.frames:
            try:
                info, _ = follower.apply(frame, None)
            except (ChainError, ProtocolError, ValueError, KeyError, TypeError) as exc:
                self.problems.append(_where(frame, exc))
                return
            self.report.notes.extend(info.warnings)
        self.protocol = follower.protocol  # as event 1, signed by the host, says (`signed_protocol`)
        if follower.shuffle is None:
            self.problems.append(f"event {len(self.frames)}: the transcript ends before the seeds are disclosed")
            return
        if follower.deck is not None:  # hands hidden from the host: the deal, with every disclosed deck key
            self.report.facts["hidden_hands"] = True
            with PROOFS.afresh():  # the audit checks every proof itself
                problems = audit_deal(follower.deck, follower.deck_secrets)
            if problems:
                self.problems.extend(f"the hidden deck: {p}" for p in problems)
                return
            order = follower.deck.card_order([x for x in follower.deck_secrets if x is not None])
            follower.shuffle = ([int(c) for c in order if c is not None], follower.shuffle[1])
        self.report.facts["fixed_deal"] = follower.fixed_deal is not None
        if follower.fixed_deal is not None:
            self.report.notes.append(
                "fixed deal, not shuffled: the cards were chosen by the program that ran the host "
                "(announced in the lobby and in event 1); the deal is checked against it, not against the seeds"
            )
        self._check_record_header(follower)
        self._replay(follower)

    def _check_record_header(self, follower: VerifiedGame) -> None:
        record = self.record
        order, first = follower.shuffle  # type: ignore[misc]
        names = [p["name"] for p in follower.players]
        if record.players != names:
            self.problems.append(f"record: players {record.players} differ from the transcript's {names}")
        keys = [p["vk"].hex() for p in follower.players]
        if record.meta.get("keys") not in (None, keys):
            self.problems.append("record: the seat keys differ from the transcript's")
        assert follower.view is not None
        if record.options != follower.view.options:
            self.problems.append("record: the rule options differ from the transcript's")
        if record.deck_order is not None and record.deck_order != order:
            self.problems.append("record: the deck order differs from the shuffle of the disclosed seeds")
        if record.first_auctioneer != first:
            self.problems.append(
                f"record: the first auctioneer is seat {record.first_auctioneer}, the shuffle says seat {first}"
            )
        n = len(names)
        deals = deals_of_order(follower.view.options, n, order)
        for rnd in range(len(deals)):
            for seat in range(n):
                expected = deals[rnd][seat]
                got = record.deals[rnd][seat] if rnd < len(record.deals) and seat < len(record.deals[rnd]) else None
                if got is not None and got != expected:
                    self.problems.append(f"round {rnd + 1} deal for seat {seat} differs from the shuffle")

    def _replay(self, follower: VerifiedGame) -> None:
        """The moves with the engine; public views, outcomes and private parts after every event."""
        order, first = follower.shuffle  # type: ignore[misc]
        assert follower.view is not None
        options: RuleOptions = follower.view.options
        n = len(follower.players)
        pubs = [decode_host_inner(frame["pub"]) for frame in self.frames]
        disclosure: dict[str, Any] = next((p for p in pubs if p.get("k") == "disclose"), {})
        salt_keys = disclosure.get("salt_keys", [])
        if len(salt_keys) != n or any(type(k) is not bytes or len(k) != 32 for k in salt_keys):
            self.problems.append(f"event {len(self.frames)}: the disclosure does not list one salt key per seat")
            return
        hidden = follower.deck is not None
        state: GameState | None = None
        done = 0
        committed: list[int] = []
        complete = False
        auction = -1
        moves: list[Move] = []
        standins = _StandIns(self.record.players)
        signers = _Signers([p["vk"] for p in follower.players])
        for frame in self.frames:
            seq = frame["seq"]
            pub = decode_host_inner(frame["pub"])
            kind = pub["k"]
            if kind == "delegate":
                standins.change(pub["seat"], pub.get("vk") is not None, len(moves))
            signers.follow(kind, pub)
            self._note_forfeits(seq, kind, pub)
            if kind == "deal":
                state = GameState(n, options, deck_order=order, first_auctioneer=first, track_events=True)
            if state is not None and not self._apply_moves(seq, kind, pub, state, moves):
                return
            if state is None:
                if any(h != EMPTY_PRIVATE for h in frame["ph"]):
                    self.problems.append(f"event {seq}: a private part before the deal")
                continue
            if state.phase == Phase.SEALED and state.auction_no != auction:
                auction, committed, complete = state.auction_no, [], False
            if kind == "commit":
                committed.append(pub["seat"])
            elif kind == "commits":
                committed, complete = list(range(n)), True
            engine_events = state.events[done:] if state.events is not None else []
            done = len(state.events or [])
            pv = public_view(state)
            if state.phase == Phase.SEALED and state.auction_no == auction:
                overlay(pv, committed, complete)
            self._check_public(seq, pub, pv, engine_events)
            self._privates(seq, frame, state, engine_events, salt_keys, kind, hidden)
        self.report.notes.extend(standins.notes(len(moves)))
        self.report.notes.extend(signers.notes(self.record.players))
        self.report.facts["signed_by"] = signers.by
        self._check_moves(moves, state)

    def _note_forfeits(self, seq: int, kind: str, pub: dict[str, Any]) -> None:
        """A note for each sealed bid an event forfeits (a `settle`'s bids, or one `move`)."""
        bids: list[Any] = pub.get("bids", []) if kind == "settle" else [pub] if kind == "move" else []
        for settled in bids:
            if settled.get("by") == "offender":
                self.report.notes.append(
                    f"event {seq}: {_seat_name(self.record.players, settled['m'][0])}'s sealed bid "
                    f"was forfeited: {REASONS.get(settled.get('why'), settled.get('why'))}"
                )

    def _apply_moves(self, seq: int, kind: str, pub: dict[str, Any], state: GameState, moves: list[Move]) -> bool:
        """Apply an event's moves to `state` and keep them in `moves`; False (a problem noted)
        at the first illegal one.  A `call` names the hammer it waits to bring down (nothing
        is applied); a `settle` applies every seat's sealed bid."""
        applied = [pub["m"]] if kind == "move" else [bid["m"] for bid in pub["bids"]] if kind == "settle" else []
        for one in applied:
            move = Move.from_list(one)
            try:
                state.apply(move)
            except IllegalMove as exc:
                self.problems.append(f"event {seq}: {state.describe(move)} is illegal: {exc}")
                return False
            moves.append(move)
        return True

    def _check_public(self, seq: int, pub: dict[str, Any], pv: dict[str, Any], engine_events: list[Any]) -> None:
        """The event's public view and announced outcome against the rules' (`pv`, `engine_events`)."""
        if self.protocol < 3 and "kind" not in pub.get("pv", {}):
            pv.pop("kind", None)  # the running auction's type came with protocol 3's hosts
        if pub.get("pv") != pv:
            fields = sorted(k for k in pv if pub.get("pv", {}).get(k) != pv[k])
            self.problems.append(f"event {seq}: the public view differs from the rules' ({', '.join(fields)})")
        if pub.get("ev") != [w for w in map(event_to_wire, engine_events) if w is not None]:
            self.problems.append(f"event {seq}: the announced outcome differs from the rules'")

    def _privates(
        self,
        seq: int,
        frame: dict[str, Any],
        state: GameState,
        engine_events: list[Any],
        salt_keys: list[bytes],
        kind: str,
        hidden: bool,
    ) -> None:
        for seat, h in enumerate(frame["ph"]):
            if kind == "disclose":
                if h != EMPTY_PRIVATE:
                    self.problems.append(f"event {seq}: a private part in the disclosure")
                continue
            salt = private_salt(salt_keys[seat], seq) if seat < len(salt_keys) else b""
            part = hidden_private_part(state, seat, salt) if hidden else private_part(state, seat, engine_events, salt)
            if private_hash(part) != h:
                what = "money" if hidden else "hand, money, cards dealt"
                self.problems.append(f"event {seq}: seat {seat}'s private part ({what}) differs from the rules'")

    def _check_moves(self, moves: list[Move], state: GameState | None) -> None:
        record = self.record
        self.report.facts["moves"] = len(moves)
        for i, (mine, theirs) in enumerate(zip(moves, record.moves)):
            if list(mine) != list(theirs):
                self.problems.append(f"move {i}: the record says {theirs.to_list()}, the transcript {mine.to_list()}")
                break
        if len(moves) != len(record.moves):
            self.problems.append(f"record: {len(record.moves)} moves, the transcript {len(moves)}")
        if state is None or not state.is_over():
            self.problems.append("the transcript's moves do not finish the game")
            return
        try:
            replayed = record.replay()
        except RecordError as exc:
            self.problems.append(f"record: {exc}")
            return
        self.problems.extend(f"result: {d}" for d in record.check_result(replayed))
        if replayed.money != state.money:
            self.problems.append(f"record: final money {replayed.money}, the transcript {state.money}")


def _seat_name(players: list[str], seat: int) -> str:
    name = players[seat] if 0 <= seat < len(players) else "?"
    return f"seat {seat} ({name})"


class _StandIns:
    """The periods in which a stand-in bot played a seat, counted in moves of the game.

    A period runs from the number of moves made when the stand-in took the seat to the
    number made when the player came back (or the game ended), so "from move 12 to move
    30" means the stand-in may have made moves 13 to 30.
    """

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.since: dict[int, int] = {}
        self.periods: list[tuple[int, int, int | None]] = []  # (seat, from, to or None: to the end)

    def change(self, seat: int, standing_in: bool, moves: int) -> None:
        if standing_in:
            self.since.setdefault(seat, moves)
        elif seat in self.since:
            self.periods.append((seat, self.since.pop(seat), moves))

    def notes(self, moves: int) -> list[str]:
        periods = self.periods + [(seat, start, None) for seat, start in sorted(self.since.items())]
        return [
            f"{_seat_name(self.players, seat)} was played by a stand-in bot from move {start} to "
            + (f"move {end}" if end is not None else f"the end of the game (move {moves})")
            for seat, start, end in periods
        ]


class _Signers:
    """Who made each move of the game, in order (see the module docstring): a seat's own key,
    its stand-in's, the clock, or the host otherwise; a sealed bid revealed is signed by the
    key of its commitment."""

    def __init__(self, keys: list[bytes]) -> None:
        self.keys = keys  # each seat's own key
        self.committed: dict[int, bytes] = {}  # seat -> the key of its commitment in the running auction
        self.by: list[str] = []  # per move
        self.seats: list[int] = []  # per move: the seat it is of

    def follow(self, kind: str, pub: dict[str, Any]) -> None:
        if kind == "commit":  # protocol 1: one commitment per event
            self.committed[pub["seat"]] = decode_commit(pub["c"][0]).key
        elif kind == "commits":
            self.committed = {item["seat"]: decode_commit(item["c"][0]).key for item in pub["set"] if "c" in item}
        elif kind == "move":  # protocol 1 settled a sealed bid as a move `by` "reveal"
            self._add(pub["m"][0], pub.get("by"), pub.get("signer", 0))
        elif kind == "settle":
            for bid in pub["bids"]:
                self._add(bid["m"][0], bid.get("by"), 0)

    def _add(self, seat: int, by: Any, signer: Any) -> None:
        if by == "reveal":  # signed by the key of its commitment
            by = "player" if self.committed.get(seat) == self.keys[seat] else "stand-in"
        elif by == "player":
            by = "stand-in" if signer else "player"
        self.seats.append(seat)
        self.by.append(str(by))

    def notes(self, players: list[str]) -> list[str]:
        """Per seat, the moves (numbered from 1) its stand-in's key signed, and those the clock made."""
        out = []
        for who, words in (("stand-in", "signed by a stand-in bot's key"), ("clock", "made by the clock")):
            for seat in range(len(self.keys)):
                numbers = [i + 1 for i, (s, by) in enumerate(zip(self.seats, self.by)) if by == who and s == seat]
                if numbers:
                    out.append(f"{_seat_name(players, seat)}: moves {_runs(numbers)} {words}")
        return out


def _runs(numbers: list[int]) -> str:
    """`[3, 4, 5, 9]` as "3-5, 9"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _where(frame: dict[str, Any], exc: Exception) -> str:
    text = str(exc.message if isinstance(exc, ProtocolError) else exc)
    seq = frame.get("seq") if isinstance(frame, dict) else None
    return text if text.startswith("event ") else f"event {seq}: {text}"


def record_from_frames(frames: list[dict[str, Any]], transcript_name: str, host_vk: bytes) -> GameRecord:
    """A record rebuilt from a finished game's transcript (no checks: audit it afterwards)."""
    pubs = [decode_host_inner(f["pub"]) for f in frames]
    start = pubs[0]
    disclose = next((p for p in pubs if p.get("k") == "disclose"), None)
    if start.get("k") != "start" or disclose is None:
        raise ValueError("the transcript is not a finished game")
    players = start["players"]
    options = RuleOptions.from_dict(start["options"])
    game_id = start["g"]
    if start.get("hidden"):  # hands hidden from the host: the deck read with every disclosed deck key
        order, first = (
            _hidden_deal(pubs, game_id, len(players), options),
            derive_deal(game_id, disclose["host"], disclose["seeds"], options.deck_table.size)[1],
        )
    elif "fixed" in start:  # chosen cards, announced in event 1: not derived from the seeds
        fixed = FixedDeal.from_wire(start["fixed"])
        order, first = list(fixed.order), fixed.first
    else:
        order, first = derive_deal(
            game_id, disclose["host"], disclose["seeds"], options.deck_table.size, deck_orders_needed(options)
        )
    state = GameState(len(players), options, deck_order=order, first_auctioneer=first)
    meta = {
        "game_id": game_id.hex(),
        "host_vk": host_vk.hex(),
        "keys": [p["vk"].hex() for p in players],
        "bots": [p["bot"] for p in players],
        "transcript": transcript_name,
        "fairplay": 1,
    }
    record = GameRecord.start(state, [p["name"] for p in players], meta)
    record.moves = [
        Move.from_list(m)
        for p in pubs
        for m in ([p["m"]] if p.get("k") == "move" else [b["m"] for b in p["bids"]] if p.get("k") == "settle" else [])
    ]
    record.sync(record.replay())
    return record


def _hidden_deal(pubs: list[dict[str, Any]], game_id: bytes, n: int, options: RuleOptions) -> list[int]:
    """The real deck order of a hidden-hands game: its keys and shuffles, decrypted with every
    disclosed deck key (ValueError if a key is missing or a slot holds no card)."""
    fresh = options.fresh_deal_each_round
    deck = DeckLedger(game_id, n, options.deck_table.size, checking=False, fresh=fresh)
    secrets: list[int | None] = [None] * n
    for pub in pubs:
        if pub.get("k") == "dkey":
            deck.add_key(DeckKey.from_wire(pub["key"]))
        elif pub.get("k") == "dshuffle":
            if fresh and deck.shuffled:  # a later round's deck (FA-2)
                deck.new_deck()
            deck.add_shuffle(Shuffle.from_wire(pub["sh"], deck.size))
        elif pub.get("k") == "dsecret":
            secrets[pub["seat"]] = read_scalar(pub["x"])
    if any(x is None for x in secrets) or not deck.shuffled:
        raise ValueError("the transcript lacks a deck key or a shuffle")
    order = deck.card_order([x for x in secrets if x is not None])
    if any(card is None for card in order):
        raise ValueError("the shuffled deck does not decrypt to the game's cards")
    return [int(card) for card in order if card is not None]
