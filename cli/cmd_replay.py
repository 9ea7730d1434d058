"""`modernart replay FILE`: re-validate every move of a record and print the result as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from modernart.record import RecordError, read_record

from modernart.cli.i18n import _
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
    p.add_argument(
        "--view",
        action="store_true",
        help="step through the game full screen instead: move by move and round by round, forwards and "
        "back, every hand visible, each round's scoring (needs a terminal)",
    )
    p.add_argument("--no-color", action="store_true", help="with --view: no colours (NO_COLOR does the same)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
        state = record.replay()
    except RecordError as exc:
        rule = f" [rule: {exc.rule}]" if exc.rule else ""
        print(f"modernart replay: {args.file}: {exc}{rule}", file=sys.stderr)
        return 2
    if args.view:
        return view_record(record, args)
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


def view_record(record, args: argparse.Namespace) -> int:
    """`--view`: the full-screen replay viewer (cli/tui/replay_view.py)."""
    import os

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            _("modernart replay --view needs a terminal (over SSH: ssh -t HOST modernart replay FILE --view)"),
            file=sys.stderr,
        )
        return 2
    from modernart.cli.tui.replay_view import view

    color = not (args.no_color or os.environ.get("NO_COLOR"))
    return view(record, os.path.basename(args.file), color=color)
