"""Writing the journal form of a game record: JSON lines written while the game runs.

Line 1 is the header (the record's fields without moves and result, plus the round-1
deal); each later line is {"m": [seat, action, arg]} for one move, and a finished game
ends with {"result": {...}}.  Writing a line is one append, so a crash can only cut the
last line short.  Reading a journal is `record.parse_journal` (with
`allow_partial_tail=True` it drops such a line), beside the record's own reader, so that
`load_record` reads either form and this module depends on record.py, never the reverse.
"""

from __future__ import annotations

import json
from typing import Any

from .moves import Move
from .record import JOURNAL_FORMAT, GameRecord


def header_line(record: GameRecord) -> str:
    data = {"format": JOURNAL_FORMAT, **record.header(), "deals": record.deals[:1]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def move_line(move: Move) -> str:
    return json.dumps({"m": move.to_list()}, separators=(",", ":")) + "\n"


def result_line(result: dict[str, Any]) -> str:
    return json.dumps({"result": result}, separators=(",", ":")) + "\n"
