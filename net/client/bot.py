"""A bot that plays through the protocol: a `Client` plus a `modernart.bots` brain.

It sees only its own Observation, signs its moves with its own key, and honours the
bot's `pace()` (scaled by `pace_scale`; 0 in benchmarks and tests).  With a `token` it
claims a seat the host reserved for it (a lobby bot or a stand-in for a dropped player);
without one it takes a free seat by name and says ready, like a person would.

Run as a process:  python -m modernart.net.client.bot JOINSTRING [--level random] [--name NAME]
                   [--config-dir DIR] [--pace 1.0] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import zmq.asyncio

from modernart.bots import make_bot
from modernart.bots.hard import HardBot
from modernart.moves import MAX_SEATS, Action

from modernart.net.lan.address import JoinTarget
from modernart.net.client.client import Client, ConnectError
from modernart.net.clocks import wait_event
from modernart.net.runtime import choose_event_loop
from modernart.net.trust.identity import Keys

log = logging.getLogger("modernart.net.client.bot")

#: Where bots think: worker threads shared by every bot client of the process, so a slow
#: decision (a hard bot takes 0.2-1 s) never stalls the event loop that the host's clocks
#: and the other clients run on.  One per seat of a table, so that the bots of one table
#: deciding at once (a Sealed auction) each start at once: a hard bot's budget is wall
#: time, so they finish together, in the time of the slowest.  Safe because a bot is pure
#: (`choose` reads only its Observation, which is immutable) and each BotClient asks its
#: own bot one thing at a time.  The threads start on first use.
THINKERS = ThreadPoolExecutor(max_workers=MAX_SEATS, thread_name_prefix="bot-think")
#: Refusals that say nothing about the move (the host did not judge it): no fallback for them
UNANSWERED = ("connection_lost", "in_doubt", "out_of_touch", "catching_up", "host_closed", "timeout", "closed")


class BotClient:
    """Plays one seat until the game is over (or it is cancelled)."""

    def __init__(
        self,
        target: JoinTarget | str,
        *,
        level: str = "random",
        keys: Keys | None = None,
        token: bytes | None = None,
        name: str | None = None,
        seed: int | None = None,
        pace_scale: float = 1.0,
        ctx: zmq.asyncio.Context | None = None,
        config_dir: str | None = None,
        seat: int | None = None,
        transcript: bool = False,
        state_dir: str | None = None,
    ) -> None:
        self.level = level
        self.bot = make_bot(level, seed)
        self.keys = keys or Keys.load_or_create(config_dir, "bot")
        # a bot with a key from a config dir keeps its sealed bids there (like a person's client)
        self.client = Client(
            target,
            keys=self.keys,
            token=token,
            ctx=ctx,
            updates=False,
            config_dir=config_dir if keys is None else None,
            transcript=transcript,
            state_dir=state_dir,  # a host's own bot at a hidden-hands table: its deck key on the host's disk
            keeps_card_clock=False,  # it plays its own cards, in its own time
        )
        self.name = name or f"{level} bot"
        self.pace_scale = pace_scale
        self.wanted_seat = seat

    async def run(self, connect_timeout: float = 15.0) -> Any:
        """Connect, take a seat if needed, play until the game ends; returns the final observation."""
        client = self.client
        try:
            await client.connect(connect_timeout)
            if client.state.seat is None and client.token is None:
                reply = await client.take_seat(self.name, self.wanted_seat)
                if not reply.ok:
                    raise ConnectError(reply.code or "sit", reply.message)
            if client.token is None and client.state.game_id is None:
                await client.ready()  # also after a restart in the lobby: the seat is ours already
            final = await self._play()
            try:  # the disclosure follows the last move: check the shuffle (and save) before leaving
                await client.wait_until(lambda st: client.disclosed or st.status != "connected", 5.0)
            except asyncio.TimeoutError:
                log.info("no disclosure within 5 s of the end")
            return final
        finally:
            await client.close()

    async def _play(self) -> Any:
        client = self.client
        st = client.state
        loop = asyncio.get_running_loop()
        failures = 0
        #: the move this bot is pausing before, and when the pause ends: when the table moves
        #: on meanwhile (another seat passes) and the bot, thinking again, makes the same move,
        #: it sends it when that first pause ends instead of starting it over (a person about
        #: to bid 18 still bids 18 after someone else passes); a different move gets its own pause
        pending: tuple[Any, float] | None = None
        while True:
            obs = st.observation
            if obs is not None and obs.is_over:
                return obs
            # cards or a mystery card on their way, or events (catching up: what it shows is old)
            waits = not client.hand_ready or client.mystery_coming or not client.caught_up
            if obs is None or not obs.my_turn or st.status != "connected" or waits:
                client.changed.clear()
                await client.changed.wait()
                continue
            # what the decision rests on: another seat's sealed commitment or a stand-in
            # changes nothing of it (NOT_DECISIONS), so the bots of a Sealed auction all
            # think and commit at once instead of starting again after each other's commit
            seen = st.decision_seq
            self._tell_searching()
            move = await asyncio.get_running_loop().run_in_executor(THINKERS, self.bot.choose, obs)
            if st.decision_seq != seen:
                continue  # the table moved on while we were thinking: think again
            if move is None or (move.action == Action.HAMMER and st.deadlines.get("call") is not None):
                client.changed.clear()  # nothing to do (or our hammer is being called): wait
                await client.changed.wait()
                continue
            if pending is not None and pending[0] == move:
                due = pending[1]
            else:
                due = loop.time() + self.bot.pace(obs, move) * self.pace_scale
                pending = (move, due)
            moved_on = False
            while loop.time() < due:  # the pause, cut short when the table moves on
                client.changed.clear()
                await wait_event(client.changed, due - loop.time())
                if st.decision_seq != seen:
                    moved_on = True
                    break
            if moved_on:
                continue  # think again (the same move keeps its pause's end)
            pending = None
            reply = await client.send_move(move)
            if reply.ok:
                failures = 0
                while st.head_seq < (reply.seq or 0) and st.status == "connected":
                    await self._wait_change(1.0)  # act on the state our move produced
                continue
            log.debug("move refused seat=%s move=%r code=%s", st.seat, move, reply.code)
            if st.decision_seq == seen:
                failures += 1
                await self._wait_change(0.05 * min(failures, 20))
                if failures >= 5 and reply.code not in UNANSWERED:
                    fallback = obs.legal_moves(amounts=False)
                    if fallback:
                        await client.send_move(fallback[-1])

    def _tell_searching(self) -> None:
        """Tell a searching bot which seats are hard bots (the table's lobby frame shows each
        seat's bot level, in game seat order once the game runs), as the arena tells it from
        its seating: its rollouts play those seats as searchers (modernart/bots/searchers.py)."""
        if not isinstance(self.bot, HardBot):
            return
        seats = self.client.state.table.get("seats")
        if not isinstance(seats, list) or self.client.state.table.get("game") is None:
            return
        self.bot.searching = frozenset(
            i for i, raw in enumerate(seats) if isinstance(raw, dict) and raw.get("bot") == "hard"
        )

    async def _wait_change(self, seconds: float) -> None:
        self.client.changed.clear()
        await wait_event(self.client.changed, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m modernart.net.client.bot", description="Play a seat with a bot.")
    parser.add_argument("join", help="join string ma://HOST:PORT/KEY[/TABLE]")
    parser.add_argument("--level", default="random")
    parser.add_argument("--name", default=None)
    parser.add_argument("--seat", type=int, default=None)
    parser.add_argument("--config-dir", default=None, help="where the bot's key lives")
    parser.add_argument("--pace", type=float, default=1.0, help="scale of the bot's thinking pauses")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )

    async def go() -> int:
        bot = BotClient(
            args.join,
            level=args.level,
            name=args.name,
            seed=args.seed,
            pace_scale=args.pace,
            config_dir=args.config_dir,
            seat=args.seat,
        )
        try:
            obs = await bot.run()
        except ConnectError as exc:
            print(f"modernart bot: {exc}", file=sys.stderr)
            return 2
        print(f"game over: seat {obs.seat} final money {list(obs.final_money)} winners {list(obs.winners)}", flush=True)
        return 0

    choose_event_loop()
    return asyncio.run(go())


if __name__ == "__main__":
    raise SystemExit(main())
