"""`modernart replay FILE`: re-validate every move of a record and print the result as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from modernart.record import RecordError, read_record

from modernart.cli.subcommands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "replay",
        help="re-check a game record and print its payouts as JSON",
        description="Replay a record (or a host journal) move by move with the rules engine. "
        "Exit 0 when it replays, 1 with --check when the stored result disagrees, "
        "2 when the record is corrupt, truncated or holds an illegal move.",
    )
    p.add_argument("file", help="record (.json) or journal (.jsonl)")
    p.add_argument("--check", action="store_true", help="exit 1 if the stored result disagrees with the replay")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
        state = record.replay()
    except RecordError as exc:
        rule = f" [rule: {exc.rule}]" if exc.rule else ""
        print(f"modernart replay: {args.file}: {exc}{rule}", file=sys.stderr)
        return 2
    out = {
        "players": record.players,
        "moves": len(record.moves),
        "finished": state.is_over(),
        "rounds": [
            {
                "round": r.round + 1,
                "ended_by": r.ended_by,
                "ranking": list(r.ranking),
                "values": list(r.values),
                "payouts": list(r.payouts),
            }
            for r in state.results
        ],
        "final_money": list(state.money) if state.is_over() else None,
        "winners": list(state.winners()),
    }
    print(json.dumps(out, indent=1))
    if args.check:
        problems = record.check_result(state)
        if problems:
            for line in problems:
                print(f"modernart replay: result mismatch: {line}", file=sys.stderr)
            return 1
        if state.is_over() and record.result is None:
            print("modernart replay: the record stores no result to check", file=sys.stderr)
            return 1
    return 0
