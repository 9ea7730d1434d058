"""The journal form of a game record: JSON lines written while the game runs.

Line 1 is the header (the record's fields without moves and result, plus the round-1
deal); each later line is {"m": [seat, action, arg]} for one move, and a finished game
ends with {"result": {...}}.  Writing a line is one append, so a crash can only cut the
last line short; `parse_journal(..., allow_partial_tail=True)` drops such a line.
"""

from __future__ import annotations

import json
from typing import Any

from .moves import Move
from .record import JOURNAL_FORMAT, GameRecord, RecordError, _deals_from, _header_from, _moves_from


def header_line(record: GameRecord) -> str:
    data = {"format": JOURNAL_FORMAT, **record.header(), "deals": record.deals[:1]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def move_line(move: Move) -> str:
    return json.dumps({"m": move.to_list()}, separators=(",", ":")) + "\n"


def result_line(result: dict[str, Any]) -> str:
    return json.dumps({"result": result}, separators=(",", ":")) + "\n"


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
