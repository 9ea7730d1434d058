"""A LAN player who leaves a hidden-hands table mid-game and comes back (docs/fair-play.md
"Absent seats"), over real sockets on 127.0.0.1: while it is away no stand-in plays its seat
(only its deck key reads its cards), the clocks' defaults play its bids, and the table waits
at its card play or at a deal whose shares it owes; its client comes back as a new client
(a restart: its key and its deck key read from its config dir) and the game goes on to the
end, and both its audit and the host's pass."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modernart.net.client.bot import BotClient
from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import Keys

from tests.net_helpers import run, seat_bots, until


def card_plays(game: Any) -> int:
    return sum(1 for e in game.log if e.move is not None and decode_host_inner(e.public).get("open") is not None)


def waits_for(game: Any, seat: int) -> bool:
    """Whether the game waits for `seat`'s owner: its card play, or its shares of a deal."""
    hidden = game.hidden
    return seat in hidden.needs_owner() or bool(hidden.ledger.shuffled and hidden.ledger.owed(seat))


def where(game: Any, seat: int) -> dict[str, Any]:
    """Where the game stands, for a failure's message: what it waits for instead."""
    blind = game.hidden.blind
    return {
        "seat": seat,
        "seq": game.seq,
        "over": game.is_over,
        "phase": blind.state.phase.name if blind is not None else None,
        "to_move": blind.state.to_move() if blind is not None else None,
        "needs_owner": game.hidden.needs_owner(),
        "owed": [game.hidden.ledger.owed(s) for s in range(len(game.players))],
        "last": {k: v for k, v in decode_host_inner(game.log[-1].public).items() if k in ("k", "m", "by", "clk")},
    }


def test_a_player_who_leaves_a_hidden_table_is_waited_for_and_plays_on_after_a_restart(tmp_path: Path) -> None:
    async def main() -> None:
        host = Host(Keys.generate(), bot_pace=0.0)
        await host.start()
        clocks = ClockSettings.from_dict({"open_countdown": 0, "decision": 0.5, "grace": 0.2, "reveal": 2})
        table = host.open_table(
            "drop",
            journal_dir=str(tmp_path / "games"),
            lobby=Lobby(clocks=clocks),
            autostart=True,
            fsync=False,
            hidden_hands=True,
        )
        seat_bots(host, table, 2)
        config = str(tmp_path / "lan")

        def player() -> BotClient:
            return BotClient(
                str(host.target()), level="random", name="Lan", pace_scale=0.0, config_dir=config, transcript=True
            )

        first = player()
        task = asyncio.ensure_future(first.run())
        try:
            await until(lambda: table.game is not None and card_plays(table.game) >= 4, 90)
            game = table.game
            seat = first.client.state.seat
            assert seat is not None and game.players[seat].bot is None
            task.cancel()  # the player leaves: its client closes
            await asyncio.gather(task, return_exceptions=True)
            await until(lambda: (table.id, seat) in host.absent, 10)
            # the table goes on without it until only its owner can go on, then waits
            await until(lambda: waits_for(game, seat), 60, what=lambda: where(game, seat))
            seq = game.seq
            await asyncio.sleep(1.5)  # well past the grace period and the decision clock
            assert game.seq == seq and waits_for(game, seat)
            assert game.delegates[seat] is None and seat not in table.delegate_tokens.values()  # no stand-in
            assert not game.is_over
            back = player()  # the client restarted: its key and deck key from disk
            assert back.keys.vk == first.keys.vk
            final = await asyncio.wait_for(back.run(), 150)
            assert final.is_over
            st = back.client.state
            await until(lambda: st.audit is not None, 30)
            assert st.audit == [], st.audit
            await until(lambda: table.record_path is not None, 30)
            report = audit_files(table.record_path)
            assert report.ok, report.problems
            assert report.facts["hidden_hands"] is True
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            await host.close()

    run(main(), 300)
