"""`python -m benchmarks tablebots`: how long bots at a host's table keep the table waiting
in a Sealed auction, every seat deciding at once (five hard bots by default), or in an Open
auction (`--auction open`: the table's own countdown, the bots bidding at their pace).

A real host on 127.0.0.1 with five bot clients playing through the protocol at their
natural pace (`--pace`, 1 = as at a table); a fixed deal gives the first auctioneer only
Sealed paintings, so the first auction is Sealed.  Measured per game: from the card put up
to the complete commitment set (every bot has sealed its bid) and to the sale.  The bots
think in their worker threads at once where the rules allow it, so the auction should take
about as long as its slowest bot, not the sum of them (docs/bots.md).  With `--auction open`
(and `--countdown`, default the table's 10 s) the first auction is Open and the figure is
from the card put up to the sale: the bots jump towards their limits, so it should be
about as long as a few bids, well within the countdown (issue 27).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from modernart.cards import AuctionType
from modernart.phase import Phase
from modernart.rules import RuleOptions
from modernart.game import GameState

from modernart.net.clocks import ClockSettings
from modernart.net.host.game import HostedGame
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys
from modernart.net.trust.shuffle import FixedDeal

from modernart.cli.machine import machine


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", default="hard", help="the bots' level (default hard)")
    p.add_argument("--players", type=int, default=5, choices=(3, 4, 5), help="bots at the table (default 5)")
    p.add_argument("--pace", type=float, default=1.0, help="the bots' pace factor (default 1: as at a table)")
    p.add_argument("--repeat", type=int, default=3, help="games, one auction each (default 3)")
    p.add_argument("--auction", choices=("sealed", "open"), default="sealed", help="the first auction's type")
    p.add_argument("--countdown", type=float, default=10.0, help="the Open countdown in seconds (default 10)")


def sealed_first_deal(players: int, first: int, kind: AuctionType = AuctionType.SEALED) -> FixedDeal:
    """A deal whose first auctioneer holds only paintings of one auction type (Sealed by
    default; the rest in deck order)."""
    options = RuleOptions()
    deck = options.deck_table.build()
    size = options.deal_sizes(players)[0]
    sealed = [int(c) for c in deck if c.kind == kind][:size]
    rest = [int(c) for c in deck if int(c) not in sealed]
    hands: list[list[int]] = []
    for seat in range(players):
        hands.append(sealed if seat == first else [rest.pop(0) for _ in range(size)])
    return FixedDeal.of([c for hand in hands for c in hand] + rest, first)


async def _bots_playing(host: Host, table: Table, level: str, players: int) -> tuple[HostedGame, GameState]:
    """Start `host`, seat `players` of its own `level` bots at `table` and wait for their
    game to begin; the game and its state."""
    await host.start()
    for _ in range(players):
        _seat, token = table.lobby.add_bot(None, level)
        host.spawn_bot(table, token, level)
    while table.game is None or table.game.state is None:
        await asyncio.sleep(0.005)
    return table.game, table.game.state


async def one_open_auction(level: str, players: int, pace: float, countdown: float) -> float:
    """Seconds from the Open card put up to its sale, at a table with the given countdown."""
    host = Host(Keys.generate(), bind="127.0.0.1", port=0, bot_pace=pace)
    lobby = Lobby(clocks=ClockSettings(decision=0, open_countdown=countdown))
    deal = sealed_first_deal(players, 0, AuctionType.OPEN)
    table = host.open_table("bench", lobby=lobby, autostart=players, fixed_deal=deal)
    try:
        _game, state = await _bots_playing(host, table, level, players)
        while state.phase != Phase.OPEN:
            await asyncio.sleep(0.002)
        put_up = time.perf_counter()
        auction = state.auction_no
        while state.phase == Phase.OPEN and state.auction_no == auction:
            await asyncio.sleep(0.002)
        return time.perf_counter() - put_up
    finally:
        await host.close()


async def one_auction(level: str, players: int, pace: float) -> tuple[float, float]:
    """(seconds from the card put up to the complete commitment set, to the sale) of one game."""
    host = Host(Keys.generate(), bind="127.0.0.1", port=0, bot_pace=pace)
    lobby = Lobby(clocks=ClockSettings(decision=0, open_countdown=0))
    table = host.open_table("bench", lobby=lobby, autostart=players, fixed_deal=sealed_first_deal(players, 0))
    try:
        game, state = await _bots_playing(host, table, level, players)
        while state.phase != Phase.SEALED:
            await asyncio.sleep(0.002)
        put_up = time.perf_counter()
        while game.sealed is None or not game.sealed.complete:
            await asyncio.sleep(0.002)
        committed = time.perf_counter()
        while state.phase == Phase.SEALED:
            await asyncio.sleep(0.002)
        return committed - put_up, time.perf_counter() - put_up
    finally:
        await host.close()


def run_open(args: argparse.Namespace) -> int:
    sales = [
        asyncio.run(one_open_auction(args.level, args.players, args.pace, args.countdown)) for _ in range(args.repeat)
    ]
    figures = {
        "level": args.level,
        "players": args.players,
        "pace": args.pace,
        "countdown_s": args.countdown,
        "put_up_to_sale_s": [round(s, 2) for s in sales],
        "median_to_sale_s": round(statistics.median(sales), 2),
        "machine": machine(),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{args.players} {args.level} bots, pace {args.pace:g}, one Open auction per game "
            f"(countdown {args.countdown:g} s), {args.repeat} games"
        )
        print(f"  card put up -> sold: {', '.join(f'{s:.2f}' for s in sales)} s")
        print(f"  median to the sale: {figures['median_to_sale_s']} s   ({figures['machine']})")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.auction == "open":
        return run_open(args)
    commits, sales = [], []
    for _ in range(args.repeat):
        commit, sale = asyncio.run(one_auction(args.level, args.players, args.pace))
        commits.append(commit)
        sales.append(sale)
    figures = {
        "level": args.level,
        "players": args.players,
        "pace": args.pace,
        "put_up_to_all_sealed_s": [round(c, 2) for c in commits],
        "put_up_to_sale_s": [round(s, 2) for s in sales],
        "median_to_sale_s": round(statistics.median(sales), 2),
        "machine": machine(),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.players} {args.level} bots, pace {args.pace:g}, one Sealed auction per game, {args.repeat} games")
        print(f"  card put up -> every bid sealed: {', '.join(f'{c:.2f}' for c in commits)} s")
        print(f"  card put up -> sold:             {', '.join(f'{s:.2f}' for s in sales)} s")
        print(f"  median to the sale: {figures['median_to_sale_s']} s   ({figures['machine']})")
    return 0
