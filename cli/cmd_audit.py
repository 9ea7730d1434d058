"""`modernart audit RECORD`: check a finished network game end to end (docs/fair-play.md).

RECORD is the game's record (`….json`, saved by the host beside its journal, or by a
player's client in its config dir); its transcript (`….transcript`, named in the
record's `meta.transcript`) must lie beside it, or be given with `--transcript`.
`--compare OTHER.transcript` (repeatable) also checks that other players' copies hold
the very same events (a host that showed players different histories signed two
different events with one number).  Given the transcript of an unfinished game instead
(the evidence a client saves when it stops trusting the host), it checks its events as
far as they go and names the first that fails.  Exit 0 when every check passes, 1 with one line per
problem otherwise, 2 when the files cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from modernart.net.trust.audit import AuditReport

from modernart.cli.i18n import _
from modernart.cli.subcommands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "audit",
        help="check a finished network game end to end",
        description="Check a finished game's record and transcript: host signatures and the "
        "hash chain, every player signature and counter, every sealed-bid commitment "
        "and reveal, the seeds and the shuffle, and every rule.  Given the transcript of "
        "an unfinished game (what a client saves when it stops trusting the host), check "
        "its events as far as they go.",
    )
    p.add_argument(
        "record",
        help="the game's record (.json; its .transcript is found beside it, or given with --transcript), "
        "or an unfinished game's transcript",
    )
    p.add_argument("--transcript", default=None, help="the game's transcript (default: the one beside the record)")
    p.add_argument(
        "--host-key",
        default=None,
        metavar="HEX",
        help="the host's Ed25519 key you expect (default: the one the record names)",
    )
    p.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="TRANSCRIPT",
        help="another player's transcript of the same game: every event must be the same "
        "(a host that forks players' histories is caught); may be repeated",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def is_transcript(path: str) -> bool:
    """Whether `path` holds a transcript (a length-prefixed msgpack record naming its format),
    not a record: someone passed the wrong one of the two files."""
    from modernart.net.trust.transcript import FORMAT

    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return False
    return FORMAT.encode() in head[4:] and not head.lstrip().startswith(b"{")


def unfinished(path: str) -> bool:
    """Whether the transcript at `path` holds events of a game that did not finish (the
    evidence a client saves when it stops trusting the host), or that a vote ended early."""
    from modernart.net.protocol import decode_host_inner
    from modernart.net.trust.transcript import TranscriptError, read_transcript

    try:
        frames = read_transcript(path)
        kinds = [decode_host_inner(f["pub"]).get("k") for f in frames]
        # a game the players' vote ended without an absent seat has no deck to decrypt: its
        # transcript is its record, audited as far as it goes (net/trust/audit.py `audit_evidence`)
        return bool(frames) and ("disclose" not in kinds or "decide" in kinds)
    except (TranscriptError, ValueError, KeyError, TypeError):
        return False


def is_journal(path: str) -> bool:
    """Whether `path` is a host's journal (`….jsonl`: a header line naming the journal
    format), which the audit does not read: the record saved beside it once the game is
    over is what it checks."""
    from modernart.record import JOURNAL_FORMAT

    try:
        with open(path, "rb") as f:
            head = f.readline(4096)
    except OSError:
        return False
    try:
        header = json.loads(head)
    except (ValueError, RecursionError):
        return False
    return isinstance(header, dict) and header.get("format") == JOURNAL_FORMAT


def run(args: argparse.Namespace) -> int:
    import os

    from modernart.net.trust.audit import audit_evidence, audit_files

    if is_journal(args.record):
        base = args.record[: -len(".jsonl")] if args.record.endswith(".jsonl") else args.record
        record = base + ".json"
        there = os.path.exists(record)
        print(
            (
                _(
                    "modernart audit: {path} is the host's journal; audit the game's record beside it: modernart audit {record}"
                )
                if there
                else _(
                    "modernart audit: {path} is the host's journal of a game; its record ({record}) is saved "
                    "beside it once the game is over, and that is what the audit checks"
                )
            ).format(path=args.record, record=record),
            file=sys.stderr,
        )
        return 2
    host_vk = None
    if args.host_key:
        try:
            host_vk = bytes.fromhex(args.host_key)
        except ValueError:
            print("modernart audit: --host-key must be 64 hex digits", file=sys.stderr)
            return 2
    if is_transcript(args.record) and unfinished(args.record):
        return show(audit_evidence(args.record, host_vk), args.json)
    if is_transcript(args.record):
        print(
            _(
                "modernart audit: {path} is a transcript; pass the game's record (the .json beside it, "
                "which names its transcript): modernart audit RECORD.json"
            ).format(path=args.record),
            file=sys.stderr,
        )
        return 2
    return show(audit_files(args.record, args.transcript, host_vk, args.compare), args.json)


def show(report: "AuditReport", as_json: bool) -> int:
    """Print `report` (as JSON, or one line per note and problem); the exit code."""
    if as_json:
        print(
            json.dumps(
                {"ok": report.ok, "problems": report.problems, "notes": report.notes, "facts": report.facts}, indent=1
            )
        )
    else:
        for note in report.notes:
            print(f"note: {note}")
        for problem in report.problems:
            print(f"FAILED: {problem}")
        if report.ok and report.facts.get("finished") is False:
            print(f"ok: {report.facts.get('events')} events of an unfinished game check out as far as they go")
        elif report.ok:
            facts = report.facts
            print(
                f"ok: {facts.get('events')} events, {facts.get('moves')} moves; host signing key {facts.get('host_key_fpr')}; "
                f"signatures, chain, commitments, reveals, shuffle and rules check out"
            )
    if report.ok:
        return 0
    return 2 if report.unreadable else 1
