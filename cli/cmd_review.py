"""`modernart review RECORD`: the coach goes through one player's decisions (modernart/coach.py)
and prints the five costliest first, each with what the strongest bot would have done and the
final money it would have made, and where the player lost most."""

from __future__ import annotations

import argparse
import json
import sys
import time

from modernart.cli.i18n import _
from modernart.cli.language_options import add_language_arguments, apply_language_arguments
from modernart.cli.subcommands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "review",
        help="the coach: your decisions in a game against the strongest bot's, the costliest first",
        description="Go through one player's decisions in a record (or a journal): for each, what the strongest "
        "bot would have done from what that player saw, and the difference in final money it would have made "
        "(the mean of paired games played out from states sampled from the player's own view, with a 95% "
        "interval). The five costliest decisions come first, then where the player lost most. "
        "Exit 2 when the record is corrupt or names no such player.",
    )
    p.add_argument("file", help="record (.json) or journal (.jsonl)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help="the player to review, by seat number 1-5")
    who.add_argument("--player", default=None, help="the player to review, by name")
    p.add_argument("--samples", type=int, default=None, help="paired games per decision (default 24)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the samples and the bot's dice (default 0)")
    p.add_argument("--all", action="store_true", help="also list every decision in game order")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    add_language_arguments(p)
    p.set_defaults(func=run)


def default_seat(record) -> int:
    """The first seat the record does not name a bot (its `bots` meta), else the first."""
    bots = record.meta.get("bots")
    if isinstance(bots, list) and len(bots) == len(record.players):
        for seat, bot in enumerate(bots):
            if not bot:
                return seat
    return 0


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    from modernart import coach
    from modernart.cards import EDITIONS, deck_cards
    from modernart.record import RecordError, read_record

    from modernart.cli.coach_words import decision_line, review_heading, summary_line
    from modernart.cli.progress import Progress

    try:
        record = read_record(args.file)
        record.replay()
    except RecordError as exc:
        print(_("modernart review: {file}: {error}").format(file=args.file, error=exc), file=sys.stderr)
        return 2
    if args.player is not None:
        if args.player not in record.players:
            names = ", ".join(record.players)
            print(
                _("modernart review: no player {name} in this game ({names})").format(name=args.player, names=names),
                file=sys.stderr,
            )
            return 2
        seat = record.players.index(args.player)
    elif args.seat is not None:
        if not 1 <= args.seat <= len(record.players):
            print(_("modernart review: seats are 1 to {count}").format(count=len(record.players)), file=sys.stderr)
            return 2
        seat = args.seat - 1
    else:
        seat = default_seat(record)
    samples = coach.SAMPLES if args.samples is None else args.samples
    if samples < 2:
        print(_("modernart review: --samples must be at least 2"), file=sys.stderr)
        return 2
    total = len(coach.decisions_of(record, seat))
    bar = Progress(total, _("decisions"))
    start = time.monotonic()
    review = coach.review(record, seat, samples=samples, seed=args.seed, progress=lambda _done, _all: bar.advance(1))
    bar.close()
    seconds = time.monotonic() - start
    deck = deck_cards(record.options.deck_table)
    edition = EDITIONS[record.options.edition]
    players = record.players
    if args.json:
        print(json.dumps(review_json(review, seconds), indent=1))
        return 0
    print(review_heading(review))
    costly = review.costliest()
    if costly:
        print(_("The five costliest decisions:") if len(costly) == 5 else _("The costliest decisions:"))
        for place, d in enumerate(costly, start=1):
            print(f" {place}. " + decision_line(d, players, edition, deck))
    print(summary_line(review.summary()))
    if args.all:
        print(_("Every decision:"))
        for d in review.decisions:
            print("  " + decision_line(d, players, edition, deck))
    print(_("Reviewed in {seconds:.0f} s").format(seconds=seconds))
    return 0


def review_json(review, seconds: float) -> dict:
    """The review as plain data (for tools and the tests)."""
    summary = review.summary()

    def estimate(e) -> dict:
        return {"mean": e.mean, "low": e.low, "high": e.high, "samples": e.samples}

    return {
        "seat": review.seat,
        "player": review.players[review.seat],
        "level": review.level,
        "samples": review.samples,
        "seconds": round(seconds, 2),
        "decisions": [
            {
                "move": d.index,
                "round": d.round + 1,
                "phase": d.phase.name,
                "auction": d.kind.name if d.kind is not None else None,
                "played": d.played.to_list(),
                "advised": d.advised.to_list() if d.advised is not None else None,  # None: wait
                "cost": estimate(d.cost),
                "topic": d.topic,
            }
            for d in review.decisions
        ],
        "costliest": [d.index for d in review.costliest()],
        "summary": None
        if summary is None
        else {
            "topic": summary.topic,
            "auction": summary.kind.name if summary.kind is not None else None,
            "total": summary.total,
            "count": summary.count,
            "game_total": summary.game_total,
        },
    }
