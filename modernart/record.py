"""Game records: the save file, the replay file, the bug-report file and the host's journal.

The format is documented in docs/record-format.md.  A record is one JSON document; a
journal is the same content written as JSON lines while the game runs (a header line,
then one line per move, then the result: journal_format.py writes them), so a crash loses
at most the line being written.  `load_record` reads either (`parse_journal` the
journal).  `replay` re-validates every move with the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import IllegalMove
from .game import GameState, deck_order_rule, deck_orders_needed
from .moves import Move
from .presets import PRESETS, preset_of
from .rules import OptionError, RuleOptions
from .serialize import result_to_dict

FORMAT = "modernart-record"
JOURNAL_FORMAT = "modernart-journal"
#: Version 2 added the variants: their options, the `variant` field, a deck order per
#: round when every round is dealt afresh, and moves and sales version 1 never had.
#: A version-1 record is still read (its options are the standard game's, or its own).
VERSION = 2
READABLE_VERSIONS = (1, 2)
CUSTOM_VARIANT = "custom"  # the `variant` of a record whose options are no preset's
MAX_RECORD_BYTES = 16 * 1024 * 1024


class RecordError(ValueError):
    """A record that cannot be replayed: corrupt, truncated, or holding an illegal move."""

    def __init__(self, message: str, *, index: int | None = None, rule: str | None = None) -> None:
        where = f"move {index}: " if index is not None else ""
        super().__init__(where + message)
        self.index = index
        self.rule = rule


@dataclass
class GameRecord:
    """Everything needed to replay a game exactly, and its stored result."""

    players: list[str]
    options: RuleOptions
    first_auctioneer: int
    deals: list[list[list[int]]]  # [round][seat] -> card ids dealt
    moves: list[Move] = field(default_factory=list)
    result: dict[str, Any] | None = None  # see result_of(); None while unfinished
    deck_order: list[int] | None = None  # the whole shuffled deck, when known
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ building

    @classmethod
    def start(
        cls,
        state: GameState,
        players: Iterable[str],
        meta: Mapping[str, Any] | None = None,
        *,
        keep_deck_order: bool = True,
    ) -> "GameRecord":
        """A record of a freshly started game (before any move)."""
        names = list(players)
        if len(names) != state.n:
            raise ValueError(f"{state.n} seats need {state.n} names, got {len(names)}")
        order = _deck_order(state) if keep_deck_order else None
        return cls(names, state.options, state.first_auctioneer, _deals(state), [], None, order, dict(meta or {}))

    def sync(self, state: GameState) -> None:
        """Bring deals and result up to date with `state` (after moves were appended)."""
        self.deals = _deals(state)
        self.result = result_of(state) if state.is_over() else None

    # ------------------------------------------------------------------ replaying

    def new_state(self, *, track_events: bool = False) -> GameState:
        """The game as it was before the first move."""
        order = self.deck_order if self.deck_order is not None else self._order_from_deals()
        try:
            return GameState(
                len(self.players),
                self.options,
                deck_order=order,
                first_auctioneer=self.first_auctioneer,
                track_events=track_events,
            )
        except OptionError as exc:
            raise RecordError(f"cannot set the game up: {exc}") from None

    def replay(self, *, upto: int | None = None, track_events: bool = False) -> GameState:
        """Re-play every move (or the first `upto`), checking each with the engine."""
        state = self.new_state(track_events=track_events)
        self._check_deals(state, rounds=0 if self.moves else 1)
        for index, move in enumerate(self.moves[:upto]):
            try:
                state.apply(move)
            except IllegalMove as exc:
                raise RecordError(f"{state.describe(move)} is illegal: {exc}", index=index, rule=exc.rule) from None
        self._check_deals(state, rounds=len(state.deal_log))
        return state

    def check_result(self, state: GameState) -> list[str]:
        """Differences between the stored result and the replayed `state` (empty if none)."""
        if self.result is None:
            return [] if not state.is_over() else ["the record stores no result, but the game is over"]
        if not state.is_over():
            return ["the record stores a result, but its moves do not finish the game"]
        actual = result_of(state)
        return [
            f"{key}: stored {self.result.get(key)!r}, replayed {actual[key]!r}"
            for key in ("final_money", "winners", "rounds")
            if self.result.get(key) != actual[key]
        ]

    def _order_from_deals(self) -> list[int]:
        if deck_orders_needed(self.options) > 1 or self.options.mystery_hand:
            raise RecordError("a record of this variant must carry the deck order (field 'deck_order')")
        order = [c for rnd in self.deals for hand in rnd for c in hand]
        seen = set(order)
        if len(seen) != len(order):
            raise RecordError("a card is dealt twice")
        size = self.options.deck_table.size
        if any(type(c) is not int or not 0 <= c < size for c in order):
            raise RecordError(f"deals name a card outside 0..{size - 1}")
        return order + [c for c in range(size) if c not in seen]

    def _check_deals(self, state: GameState, rounds: int) -> None:
        """The deals the engine made must match the record's, round by round."""
        actual = _deals(state)
        for r in range(min(rounds, len(self.deals), len(actual))):
            if actual[r] != self.deals[r]:
                raise RecordError(f"the cards dealt in round {r + 1} differ from the record's deals")
        if rounds == len(actual) and len(self.deals) > len(actual):
            raise RecordError(f"the record has deals for round {len(self.deals)}, which its moves never reach")

    # ------------------------------------------------------------------ JSON

    def header(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": VERSION,
            "players": self.players,
            "variant": variant_name(self.options),
            "options": self.options.to_dict(),
            "first_auctioneer": self.first_auctioneer,
        }
        if self.deck_order is not None:
            data["deck_order"] = self.deck_order
        data["meta"] = self.meta
        return data

    def to_dict(self) -> dict[str, Any]:
        data = {"format": FORMAT, **self.header()}
        data["deals"] = self.deals
        data["moves"] = [m.to_list() for m in self.moves]
        data["result"] = self.result
        return data

    def to_json(self) -> str:
        """The record as a JSON document, one move per line so that diffs stay readable."""
        data = self.to_dict()
        moves = data.pop("moves")
        parts = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
        listed = ",\n".join("  " + json.dumps(m) for m in moves)
        parts.insert(-1, ' "moves": [' + (f"\n{listed}\n ]" if moves else "]"))
        return "{\n" + ",\n".join(parts) + "\n}\n"

    def save(self, path: str) -> None:
        """Write the record atomically (write a temporary file, then rename)."""
        import os

        tmp = f"{path}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(self.to_json())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a Modern Art record (format {data.get('format')!r})")
        record = _header_from(data)
        record.deals = _deals_from(data.get("deals"))
        record.moves = _moves_from(data.get("moves"))
        result = data.get("result")
        if result is not None and not isinstance(result, Mapping):
            raise RecordError("field 'result' must be an object or null")
        record.result = dict(result) if result is not None else None
        return record


def result_of(state: GameState) -> dict[str, Any]:
    """The result block of a finished game: per-round scoring, final money, winners."""
    return {
        "rounds": [result_to_dict(r) for r in state.results],
        "final_money": list(state.money),
        "winners": list(state.winners()),
    }


#: What a record nested deeper than Python's JSON parser goes is refused with
TOO_DEEP = "corrupt record: its JSON is nested too deeply"


def load_record(text: str) -> GameRecord:
    """Parse a record document or a journal; raises RecordError on anything malformed."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"record larger than {MAX_RECORD_BYTES} bytes")
    first_line = text.lstrip().partition("\n")[0]
    try:
        head = json.loads(first_line)
    except (json.JSONDecodeError, RecursionError):
        head = None
    if isinstance(head, dict) and head.get("format") == JOURNAL_FORMAT:
        return parse_journal(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"corrupt or truncated JSON: {exc}") from None
    except RecursionError:  # `[[[[...` 100,000 deep: Python's parser recurses per level
        raise RecordError(TOO_DEEP) from None
    return GameRecord.from_dict(data)


def read_record(path: str) -> GameRecord:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_RECORD_BYTES + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    return load_record(text)


def parse_journal(text: str, *, allow_partial_tail: bool = False) -> GameRecord:
    """Read a journal into a GameRecord (deals after round 1 are rebuilt on replay)."""
    lines = text.split("\n")
    complete = text.endswith("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise RecordError("empty journal")
    try:
        header = json.loads(lines[0])
    except RecursionError:
        raise RecordError(TOO_DEEP) from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"corrupt journal header: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != JOURNAL_FORMAT:
        raise RecordError("not a Modern Art journal")
    record = _header_from(header)
    record.deals = _deals_from(header.get("deals"))
    raw_moves = []
    for number, line in enumerate(lines[1:], start=2):
        last = number == len(lines)
        try:
            entry = json.loads(line)
        except RecursionError:
            raise RecordError(f"journal line {number}: {TOO_DEEP}") from None
        except json.JSONDecodeError as exc:
            if last and not complete and allow_partial_tail:
                break
            raise RecordError(f"journal line {number} is corrupt or truncated: {exc}") from None
        if not isinstance(entry, dict) or len(entry) != 1:
            raise RecordError(f"journal line {number} is not a move or a result")
        if "m" in entry:
            if record.result is not None:
                raise RecordError(f"journal line {number}: a move after the result")
            raw_moves.append(entry["m"])
        elif "result" in entry and isinstance(entry["result"], dict):
            record.result = entry["result"]
        else:
            raise RecordError(f"journal line {number} is not a move or a result")
    record.moves = _moves_from(raw_moves)
    if record.deck_order is None:
        raise RecordError("a journal must carry the deck order")
    return record


# ---------------------------------------------------------------------- helpers


def _deals(state: GameState) -> list[list[list[int]]]:
    return [[[int(c) for c in hand] for hand in rnd] for rnd in state.deal_log]


def variant_name(options: RuleOptions) -> str:
    """The record's `variant`: the preset the options are, or "custom"."""
    return preset_of(options) or CUSTOM_VARIANT


def _named_before(name: object, written: Mapping[str, Any], options: RuleOptions) -> bool:
    """Whether `options`, read from a record whose options name the fields `written`, were
    preset `name` when the record was made: a preset that has gained an option since
    (fa_seed's `price_up_to_richest`) is matched on the options the record names (an
    option it does not name was not there, and took its default)."""
    if not isinstance(name, str) or name not in PRESETS:
        return False
    then = {k: v for k, v in PRESETS[name].items() if k in written}
    changed = {k: v for k, v in options.changed().items() if k not in ("edition", "deck")}
    return changed == then


def _deck_order(state: GameState) -> list[int]:
    """The deck order that reproduces `state` from its start (deals, then the stock)."""
    if state.start_order:
        return list(state.start_order)
    dealt = [int(c) for rnd in state.deal_log for hand in rnd for c in hand]
    return dealt + [int(c) for c in state.stock]


def _header_from(data: Mapping[str, Any]) -> GameRecord:
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:  # `true` is no version
        raise RecordError(
            f"unsupported record version {version!r} (this program reads {', '.join(map(str, READABLE_VERSIONS))})"
        )
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and 0 < len(p) <= 64 for p in players):
        raise RecordError("field 'players' must be a list of names (1-64 characters)")
    options = data.get("options")
    if not isinstance(options, Mapping):
        raise RecordError("field 'options' must be an object")
    try:
        opts = RuleOptions.from_dict(options)
    except (OptionError, TypeError) as exc:
        raise RecordError(f"bad rule options: {exc}") from None
    if (
        "variant" in data
        and data["variant"] != variant_name(opts)
        and not _named_before(data["variant"], options, opts)
    ):
        # the name is there for people and tools; the options decide, and must agree with it
        raise RecordError(f"field 'variant' says {data['variant']!r}, but the options are {variant_name(opts)!r}")
    first = data.get("first_auctioneer")
    if type(first) is not int or not 0 <= first < len(players):
        raise RecordError("field 'first_auctioneer' must be a seat number")
    order = data.get("deck_order")
    if order is not None:
        size = opts.deck_table.size
        rounds = deck_orders_needed(opts)
        if (
            not isinstance(order, list)
            or len(order) != size * rounds
            or any(type(c) is not int for c in order)
            or any(sorted(order[r * size : (r + 1) * size]) != list(range(size)) for r in range(rounds))
        ):
            raise RecordError(f"field 'deck_order': {deck_order_rule(opts, size)}")
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise RecordError("field 'meta' must be an object")
    return GameRecord(list(players), opts, first, [], [], None, order, dict(meta))


def _deals_from(deals: Any) -> list[list[list[int]]]:
    if not isinstance(deals, list) or not 1 <= len(deals) <= 4:
        raise RecordError("field 'deals' must list the deals of rounds 1-4")
    for rnd in deals:
        if not isinstance(rnd, list) or not all(isinstance(h, list) and all(type(c) is int for c in h) for h in rnd):
            raise RecordError("each deal is a list of card-id lists, one per seat")
    return deals


def _moves_from(moves: Any) -> list[Move]:
    if not isinstance(moves, list):
        raise RecordError("field 'moves' must be a list")
    out = []
    for index, raw in enumerate(moves):
        try:
            out.append(Move.from_list(raw))
        except IllegalMove as exc:
            raise RecordError(str(exc.detail), index=index, rule=exc.rule) from None
    return out
