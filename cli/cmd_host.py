"""`modernart host`: open a table on this machine, and play at it.

In a terminal, the host runs as a child process and this terminal becomes the hosting
player's own client: an ordinary seat with its own key, through the protocol, so the
host process holds no player's secrets.  `--headless` (or no terminal) runs only the
host, printing the join string and code.  `--ssh PORT` also serves the client over SSH:
friends type `ssh -p PORT NAME@HOST` and play with nothing installed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from modernart.cli.cmd_play import default_name

from modernart.cli.language_options import apply_language_arguments
from modernart.cli.screen_options import ScreenOptions, add_screen_arguments
from modernart.cli.subcommands import Subcommands
from modernart.cli.variant_args import add_variant_arguments, options_from_args
from modernart.net import user_dirs

# flags of this command that belong to the host process (passed on to the child)
_HOST_FLAGS_WITH_VALUE = (
    "--name",
    "--bind",
    "--port",
    "--advertise",
    "--players",
    "--bots",
    "--bot-level",
    "--bot-pace",
    "--resume",
    "--journal-dir",
    "--config-dir",
    "--options",
    "--variant",
    "--rule",
    "--clocks",
    "--beacon-target",
)
_HOST_SWITCHES = ("--no-beacon", "--exit-when-over")
# what a resume command does not repeat: the journal is named afresh, the rest is the child's
_NOT_REPEATED = ("resume", "headless", "admin_key", "until_stdin_closes", "func", "command", "host_defaults", "alerts")


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "host",
        help="host a table on the LAN and play at it",
        description="Open a table, announce it on the LAN, and play at it in this terminal. "
        "Others join with `modernart join` (or over SSH with --ssh).",
    )
    p.add_argument("--name", default="Modern Art", help="table name shown to players")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument(
        "--port", type=int, default=None, help="TCP port (default 47000, or the resumed game's port; 0 = any free port)"
    )
    p.add_argument("--advertise", default=None, help="address to put in the join string")
    p.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5),
        default=None,
        help="quick start: start when this many are seated and ready",
    )
    p.add_argument("--bots", type=int, default=0, help="bots the host seats itself")
    p.add_argument("--bot-level", default="medium", help="level of those bots (random, medium, hard)")
    p.add_argument("--bot-pace", type=float, default=1.0, help="scale the bots' thinking pauses (0 = instant)")
    p.add_argument("--resume", metavar="FILE", default=None, help="resume the game of this journal after a crash")
    p.add_argument(
        "--journal-dir", default=None, help=f"where journals and records are written (default {user_dirs.games_dir()})"
    )
    p.add_argument("--config-dir", default=None, help=f"where the keys live (default {user_dirs.config_dir()})")
    p.add_argument(
        "--options", default="{}", help="rule options as JSON, on top of --variant, e.g. '{\"double_split\": true}'"
    )
    add_variant_arguments(p)
    p.add_argument(
        "--clocks",
        default="{}",
        help="clocks as JSON: open_countdown (10), decision (60), grace (30) seconds; 0 = off (grace 0: a stand-in at once)",
    )
    p.add_argument("--no-beacon", action="store_true", help="do not announce the table by UDP broadcast")
    p.add_argument(
        "--beacon-target",
        action="append",
        metavar="ADDR[:PORT]",
        help="send beacons here instead of every interface's broadcast address",
    )
    p.add_argument("--exit-when-over", action="store_true", help="stop once the game is over and saved")
    p.add_argument(
        "--hidden-hands",
        dest="hidden_hands",
        action="store_true",
        default=True,
        help="hide the hands even from this host: a jointly shuffled encrypted deck (the default; docs/fair-play.md)",
    )
    p.add_argument(
        "--no-hidden-hands",
        dest="hidden_hands",
        action="store_false",
        help="let this host see the hands (a start ~1 s quicker)",
    )
    p.add_argument("--headless", action="store_true", help="run only the host (no client in this terminal)")
    p.add_argument(
        "--admin-key",
        default=None,
        metavar="KEY",
        help="with --headless: who runs the lobby (seats bots, changes the rules, removes people, "
        "locks, starts): a player's public key in hex, or their key file (e.g. ~/.config/modernart/player.key); "
        "without it the table has no admin and starts with --players",
    )
    # the host child of `modernart host` (cli/tui/launch.py): its parent stops it by closing its stdin
    p.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--player-name", default=None, help="your name at the table (default: your login name)")
    p.add_argument("--ssh", type=int, default=None, metavar="PORT", help="also serve the client over SSH on PORT")
    p.add_argument("--ssh-bind", default="", metavar="ADDR", help="address for the SSH server (default: all)")
    p.add_argument(
        "--ssh-host-key",
        default=None,
        metavar="FILE",
        help=f"SSH host key (default {user_dirs.ssh_host_key_path()}, made on first use)",
    )
    add_screen_arguments(p)
    p.set_defaults(func=run, host_defaults=None)
    p.set_defaults(host_defaults=vars(p.parse_args([])))  # what resume_flags leaves out


def run(args: argparse.Namespace) -> int:
    apply_language_arguments(args)
    try:
        options, clocks = json.loads(args.options), json.loads(args.clocks)
    except (json.JSONDecodeError, RecursionError) as exc:
        print(f"modernart host: --options/--clocks must be JSON: {exc or 'nested too deeply'}", file=sys.stderr)
        return 2
    try:
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object")
        options = options_from_args(args, options)
    except ValueError as exc:
        print(f"modernart host: {exc}", file=sys.stderr)
        return 2
    if args.headless or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return asyncio.run(_serve(args, options, clocks))
    from modernart.net.trust.identity import Keys

    from modernart.cli.tui.launch import host_and_play

    try:
        me = Keys.load_or_create(args.config_dir, "player")
    except (OSError, ValueError) as exc:
        print(f"modernart host: cannot use your player key ({exc})", file=sys.stderr)
        return 2
    return host_and_play(
        _child_args(args, me.vk.hex()),
        name=args.player_name or default_name(),
        config_dir=args.config_dir,
        screen=ScreenOptions.from_args(args),
        ssh_port=args.ssh,
        ssh_bind=args.ssh_bind,
        ssh_host_key=args.ssh_host_key,
        resume_flags=resume_flags(args),
    )


def resume_flags(args: argparse.Namespace) -> list[str]:
    """Every flag this command was started with (values other than the defaults), for the
    hint that continues the game: `modernart host --resume JOURNAL` + these.  `--port 0`
    is left out: the resumed host then takes the game's own port, the one its players'
    clients come back to."""
    defaults = args.host_defaults or {}
    out: list[str] = []
    for dest, value in vars(args).items():
        if dest in _NOT_REPEATED or dest not in defaults or value == defaults[dest] or value is None:
            continue
        if dest == "port" and value == 0:
            continue
        flag = "--" + dest.replace("_", "-")
        if value is False:  # a switch that is on by default, turned off (--no-hidden-hands)
            out.append("--no-" + dest.replace("_", "-"))
        elif value is True:
            out.append(flag)
        else:
            for item in value if isinstance(value, list) else [value]:
                out += [flag, f"{item:g}" if isinstance(item, float) else str(item)]  # 1000, not 1000.0
    return out


def admin_key(text: str) -> bytes:
    """The Ed25519 public key `--admin-key` names: 64 hex digits, or a key file (its public
    half is read; the file stays where it is).  ValueError says what is wrong."""
    import os

    from modernart.net.trust.identity import Keys

    if len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text):
        return bytes.fromhex(text)
    path = os.path.expanduser(text)
    if not os.path.isfile(path):
        raise ValueError(f"{text!r} is neither a public key (64 hex digits) nor a key file")
    try:
        with open(path, encoding="ascii") as f:
            return Keys.from_json(f.read()).vk
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"cannot read the key file {path}: {exc}") from None


def _child_args(args: argparse.Namespace, admin_hex: str) -> list[str]:
    """The command line of the host child: this command's host flags, headless."""
    out: list[str] = ["--headless", "--admin-key", admin_hex]
    for flag in _HOST_FLAGS_WITH_VALUE:
        value = getattr(args, flag[2:].replace("-", "_"))
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                out += [flag, str(item)]
    out += [flag for flag in _HOST_SWITCHES if getattr(args, flag[2:].replace("-", "_"))]
    if not args.hidden_hands:
        out.append("--no-hidden-hands")
    return out


async def _serve(args: argparse.Namespace, options: dict, clocks: dict) -> int:
    from modernart.net.host.serve import HostSettings, beacon_targets_from, serve

    try:
        admin = admin_key(args.admin_key) if args.admin_key else None
    except ValueError as exc:
        print(f"modernart host: --admin-key: {exc}", file=sys.stderr)
        return 2
    settings = HostSettings(
        name=args.name,
        bind=args.bind,
        port=args.port,
        advertise=args.advertise,
        players=args.players,
        bots=args.bots,
        bot_level=args.bot_level,
        bot_pace=args.bot_pace,
        resume=args.resume,
        journal_dir=args.journal_dir,
        config_dir=args.config_dir,
        options=options,
        clocks=clocks,
        beacon=not args.no_beacon,
        beacon_targets=beacon_targets_from(args.beacon_target),
        exit_when_over=args.exit_when_over,
        admin=admin,
        hidden_hands=args.hidden_hands,
        until_stdin_closes=args.until_stdin_closes,
        # SSH guests' screens live in this process: their objects are no host's to freeze
        quiet_gc=args.ssh is None,
    )
    if args.ssh is None:
        return await serve(settings)
    from modernart.cli.tui.launch import serve_ssh_guests

    guests: list[asyncio.Task] = []

    def start_ssh(host, table) -> None:  # runs once the table is open: SSH guests join it like anyone
        target = host.target(table.id)
        guests.append(
            asyncio.get_running_loop().create_task(
                serve_ssh_guests(
                    args.ssh,
                    str(target),
                    bind=args.ssh_bind,
                    config_dir=args.config_dir,
                    host_key_path=args.ssh_host_key,
                    table_code=target.code,
                    ready=lambda port: print(f"ssh:         ssh -p {port} NAME@THIS-HOST", flush=True),
                )
            )
        )

    try:
        return await serve(settings, ready=start_ssh)
    finally:
        for task in guests:
            task.cancel()
        if guests:  # a guest whose connection died may keep the SSH server waiting: never the host
            await asyncio.wait(guests, timeout=5)
