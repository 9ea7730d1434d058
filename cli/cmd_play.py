"""`modernart play`: a table on this machine with bots, and the client, in one step.

With no flags: four players (you and three medium bots), the usual clocks.  The table is
hosted by a child process on 127.0.0.1 and this client joins it through the protocol,
exactly as on the LAN; `--offline` runs the same host inside this process instead (still
over 127.0.0.1, no child process, no LAN announcement; cli/tui/in_process_host.py).
`--lobby` shows the lobby first (seats, bots, rules, clocks) where you start the game
yourself.  `--seed` deals a fixed deal made from that seed (the table says so: the cards
are not shuffled by everyone's seeds).  `--ssh` serves the table to SSH guests through the
same host.  `--watch` prints the log of a game among bots instead.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import random
import sys

from modernart.cli.i18n import _
from modernart.cli.language_options import apply_language_arguments
from modernart.cli.screen_options import ScreenOptions, add_screen_arguments
from modernart.cli.local_table import run_table
from modernart.cli.subcommands import Subcommands
from modernart.cli.variant_args import add_variant_arguments, options_from_args
from modernart.net import user_dirs


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "play",
        help="play against bots on this machine",
        description="Start a table on this machine with bots and play in the terminal.",
    )
    p.add_argument("--players", type=int, default=4, choices=(3, 4, 5), help="number of seats (default 4)")
    p.add_argument(
        "--bots",
        default=None,
        metavar="LEVEL[,LEVEL...]",
        help="bot level(s): random, medium, hard; one for all or one per bot (default: medium)",
    )
    p.add_argument("--name", default=None, help="your name at the table (default: your login name)")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="deal a fixed deal made from this seed, announced as not shuffled (default: the fair shuffle)",
    )
    p.add_argument("--lobby", action="store_true", help="show the lobby first: change bots, rules and clocks")
    p.add_argument(
        "--open-seconds", type=float, default=10.0, help="Open auction countdown, restarted by each bid (default 10)"
    )
    p.add_argument(
        "--decision-seconds", type=float, default=None, help="time for every other decision (default: no limit)"
    )
    p.add_argument(
        "--bot-pace", type=float, default=1.0, help="bots' thinking time as a factor (0 = instant, default 1)"
    )
    p.add_argument(
        "--record-dir",
        default=None,
        metavar="DIR",
        help="where the host journals the game as it is played, and saves its record and transcript "
        f"once it is over (default {user_dirs.games_dir()}; `modernart resume` and `modernart stats` look there)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game without offering to continue an unfinished one",
    )
    add_screen_arguments(p)
    p.add_argument(
        "--offline",
        action="store_true",
        help="run the host inside this process instead of a child process (127.0.0.1 only, no LAN "
        "announcement; the game is journaled and can be continued as any other)",
    )
    p.add_argument(
        "--config-dir",
        default=None,
        help=f"where your player key and the host key live (default {user_dirs.config_dir()})",
    )
    p.add_argument(
        "--ssh",
        type=int,
        default=None,
        metavar="PORT",
        help="serve this table over SSH instead: guests play with `ssh -p PORT NAME@HOST`",
    )
    p.add_argument("--ssh-bind", default="", metavar="ADDR", help="address to listen on (default: all)")
    p.add_argument(
        "--ssh-host-key",
        default=None,
        metavar="FILE",
        help=f"SSH host key (default {user_dirs.ssh_host_key_path()}, made on first use)",
    )
    p.add_argument(
        "--guests", type=int, default=1, help="with --ssh: seats kept for SSH guests; bots take the others (default 1)"
    )
    p.add_argument("--watch", action="store_true", help="bots only: print the game log of a bot game")
    add_variant_arguments(p)
    p.set_defaults(func=run)


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no login name (containers): any name will do
        name = ""
    name = name if name and name != "root" else "Player"
    return name[:16].capitalize()


def bot_level_list(spec: str | None, bots: int) -> list[str]:
    from modernart.bots import bot_levels

    known = bot_levels()
    if spec is None:
        spec = "medium" if "medium" in known else "random"
    levels = [s.strip() for s in spec.split(",") if s.strip()]
    unknown = [lv for lv in levels if lv not in known]
    if unknown:
        raise SystemExit(f"modernart play: unknown bot level {unknown[0]!r}; choose from {', '.join(known)}")
    if len(levels) == 1:
        return levels * bots
    if len(levels) != bots:
        raise SystemExit(f"modernart play: {bots} bots need 1 or {bots} levels, got {len(levels)}")
    return levels


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    try:
        args.options = options_from_args(args)
        from modernart.rules import RuleOptions

        RuleOptions.from_dict(args.options).check_players(args.players)
    except ValueError as exc:
        print(f"modernart play: {exc}", file=sys.stderr)
        return 2
    if args.watch:
        return watch_bot_game(args.players, args.seed, args.options)
    if args.ssh is not None:
        return serve_over_ssh(args)
    if args.open_seconds <= 0:
        print(
            _("modernart play: --open-seconds must be positive, not {seconds}").format(
                seconds=f"{args.open_seconds:g}"
            ),
            file=sys.stderr,
        )
        return 2
    if args.decision_seconds is not None and args.decision_seconds <= 0:
        print(
            _(
                "modernart play: --decision-seconds must be positive, not {seconds} (leave it out for no decision clock)"
            ).format(seconds=f"{args.decision_seconds:g}"),
            file=sys.stderr,
        )
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(_("modernart play needs a terminal (over SSH, use: ssh -t HOST modernart play)"), file=sys.stderr)
        return 2
    levels = bot_level_list(args.bots, args.players - 1)
    name = args.name or default_name()
    settings = table_settings(args, levels, f"{name}'s table", autostart=not args.lobby)
    offer = not (args.new or args.lobby or args.seed is not None)  # an unfinished game first
    return run_table(settings, name, offline=args.offline, screen=ScreenOptions.from_args(args), offer=offer)


def seeded_deal(seed: int, players: int, options: dict | None = None) -> tuple[list[int], int]:
    """The fixed deal `--seed` gives: (deck order, first auctioneer) drawn from `seed`; with
    fresh deals every round (fa_seed), one shuffled deck per round, one after the other."""
    from modernart.game import deck_orders_needed
    from modernart.rules import RuleOptions

    rules = RuleOptions.from_dict(options or {})
    rng = random.Random(seed)
    order = list(range(rules.deck_table.size))
    rng.shuffle(order)
    first = rng.randrange(players)
    for _order in range(deck_orders_needed(rules) - 1):
        more = list(range(rules.deck_table.size))
        rng.shuffle(more)
        order += more
    return order, first


def table_settings(args: argparse.Namespace, levels: list[str], table_name: str, **more):
    """The `TableSettings` of this command's table (clocks, bots, a seeded deal)."""
    from modernart.cli.tui.local_game import TableSettings, default_record_dir

    options = getattr(args, "options", None) or {}
    deal, first = seeded_deal(args.seed, args.players, options) if args.seed is not None else (None, 0)
    return TableSettings(
        options=dict(options),
        players=args.players,
        levels=levels,
        table_name=table_name,
        clocks={"open_countdown": args.open_seconds, "decision": args.decision_seconds or 0},
        bot_pace=max(0.0, args.bot_pace),  # times the table's own bot pace (the lobby's "Bot pace")
        journal_dir=args.record_dir or default_record_dir(),
        config_dir=args.config_dir,
        deal=deal,
        first=first,
        **more,
    )


def serve_over_ssh(args: argparse.Namespace) -> int:
    """A table on this machine for SSH guests (the first guest starts it from the lobby),
    hosted by the real host in this process; every guest joins it as an ordinary player
    (cli/tui/launch.py `serve_ssh_guests`, as `modernart host --ssh` does)."""
    import importlib.util
    import socket

    if importlib.util.find_spec("asyncssh") is None:
        print("modernart play --ssh needs asyncssh: pip install 'modernart[ssh]'", file=sys.stderr)
        return 2
    if not 1 <= args.guests <= args.players:
        print(f"modernart play: --guests must be 1..{args.players}", file=sys.stderr)
        return 2
    levels = bot_level_list(args.bots, args.players - args.guests) if args.players > args.guests else []
    settings = table_settings(
        args, levels, f"Table on {socket.gethostname()}", autostart=False, first_bot_seat=args.guests
    )

    def ready(port: int) -> None:
        print(
            _("modernart: SSH table listening on port {port}; guests connect with: ssh -p {port} NAME@HOST").format(
                port=port
            ),
            flush=True,
        )

    async def main() -> None:
        await serve_table_over_ssh(settings, args.ssh, bind=args.ssh_bind, host_key_path=args.ssh_host_key, ready=ready)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"modernart play: cannot listen on port {args.ssh}: {exc}", file=sys.stderr)
        return 1
    return 0


async def serve_table_over_ssh(
    settings, port: int, *, bind: str = "", host_key_path: str | None = None, ready=None
) -> None:
    """Host the table of `settings` in this process and serve it to SSH guests on `port`
    until cancelled (then the guests' screens end, and the host closes)."""
    from modernart.net.lan.address import parse_join_string

    from modernart.cli.tui.in_process_host import InProcessHost
    from modernart.cli.tui.launch import serve_ssh_guests

    here = await InProcessHost.start(settings)
    try:
        await serve_ssh_guests(
            port,
            here.join_string,
            bind=bind,
            config_dir=settings.config_dir,
            host_key_path=host_key_path,
            table_code=parse_join_string(here.join_string).code,
            ready=ready,
        )
    finally:
        await here.close()


def watch_bot_game(players: int, seed: int | None, options: dict | None = None) -> int:
    """Play a game of random bots and print its log."""
    from modernart.bots.random_bot import random_step
    from modernart.game import GameState
    from modernart.rules import RuleOptions

    from modernart.cli.narrate import describe_events

    rng = random.Random(seed)
    names = ["Ana", "Bea", "Cem", "Dai", "Eli"][:players]
    state = GameState(players, RuleOptions.from_dict(options or {}), seed=rng, track_events=True)
    assert state.events is not None  # track_events=True
    printed = 0
    while not state.is_over():
        state.apply(random_step(state, rng.random))
        for line in describe_events(state.events[printed:], names, state.edition, state.deck):
            print(line)
        printed = len(state.events)
    return 0
