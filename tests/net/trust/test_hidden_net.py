"""A hidden-hands table over real CurveZMQ sockets on 127.0.0.1 (docs/fair-play.md "The
hidden deck"): whole games play, the host never holds a hand, card plays whose opening
fails are refused with their own error."""

from __future__ import annotations

import asyncio
from pathlib import Path

from modernart.net.host.host import Host
from modernart.net.trust.identity import Keys

from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_files

from tests.net_helpers import in_process_host, run, seat_bots, until


async def hidden_table(tmp: Path, bots: int) -> tuple[Host, object]:
    host, table = await in_process_host(tmp, hidden_hands=True)
    seat_bots(host, table, bots)
    return host, table


def test_a_game_of_bots_with_hidden_hands_plays_to_the_end(tmp_path: Path) -> None:
    async def main() -> None:
        host, table = await hidden_table(tmp_path, 3)
        try:
            await until(lambda: table.game is not None and table.game.is_over, 120)
            game = table.game
            assert game.hidden is not None and game.hidden.ledger.shuffled
            await until(lambda: all(x is not None for x in game.hidden.secrets), 20)
            await until(lambda: table.record_path is not None, 20)
            report = audit_files(table.record_path)
            assert report.ok, report.problems
            assert report.facts["hidden_hands"] is True
            # the host never held a hand: no private part names one, in the journal or the log
            for event in game.log:
                for part in event.privates:
                    assert part is None or set(decode_host_inner(part)) == {"salt", "money"}
        finally:
            await host.close()

    run(main(), 180)


def test_a_player_on_its_own_key_saves_and_audits_its_copy_of_a_hidden_game(tmp_path: Path) -> None:
    """A bot seat playing as a LAN client would (its own key and config dir, this process):
    it reads its cards with its deck key, kept on disk first; at the end it saves its copy of
    the record and transcript and its audit of them passes."""
    from modernart.net.client.bot import BotClient

    async def main() -> None:
        host, table = await hidden_table(tmp_path, 2)
        player = BotClient(
            str(host.target()),
            level="random",
            name="Lan",
            pace_scale=0.0,
            config_dir=str(tmp_path / "lan"),
            transcript=True,
        )
        try:
            final = await asyncio.wait_for(player.run(), 150)
            assert final.is_over
            st = player.client.state
            await until(lambda: st.audit is not None, 30)
            assert st.audit == [], st.audit
            assert st.saved_record is not None and Path(st.saved_record).exists()
            stored = (
                list((tmp_path / "lan" / "state" / "secrets").glob("*"))
                if (tmp_path / "lan" / "state").exists()
                else []
            )
            assert stored == []  # the game is over: its deck key is disclosed and dropped
        finally:
            await host.close()

    run(main(), 200)


def test_a_host_closed_just_after_the_record_leaves_no_bot_keys_on_disk(tmp_path: Path) -> None:
    """The host's own bots keep their keys beside the journal until the game is saved
    (net/host/bot_clients.py).  A watcher that stays keeps the table from being freed, so
    the host closes (as `--exit-when-over` does) with the table still open: the keys go then."""
    from modernart.net.client.client import Client

    async def main() -> None:
        host, table = await hidden_table(tmp_path, 3)
        bots = tmp_path / "games" / "bots"
        watcher = Client(host.target(), keys=Keys.generate(), spectate=True)
        await watcher.connect()
        try:
            await until(lambda: table.game is not None and any(bots.glob("*.key")), 30)
            assert len(list(bots.glob("*.key"))) == 3  # kept while the game can still be resumed
            await until(lambda: table.record_path is not None, 120)
            assert host.tables.get(table.id) is table  # the watcher is there: not freed
        finally:
            await host.close()  # first: the watcher leaving would free the table
            await watcher.close()
        assert list(bots.iterdir()) == []

    run(main(), 180)
