"""A whole networked game of every preset (and the mystery hand) through the real host: a
player's own client with its transcript and host bots at the table, the fair shuffle with
fresh deals, Sealed commit-reveal without the seller, the seller's choices; then the saved
record replays and passes `modernart audit`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from modernart.net.client.bot import BotClient
from modernart.presets import preset_options
from modernart.record import read_record

from tests.net_helpers import in_process_host, run, seat_bots, until
from tests.net.trust.test_fair_audit import audit


async def _game(tmp: Path, options, players: int, level: str, fixed_deal=None):
    host, table = await in_process_host(tmp, options=options, fixed_deal=fixed_deal)
    player = BotClient(
        host.target(), config_dir=str(tmp / "ana"), name="Ana", pace_scale=0, transcript=True, level=level
    )
    task = asyncio.get_running_loop().create_task(player.run())
    try:
        await until(lambda: bool(table.lobby.taken()), 10)
        seat_bots(host, table, players - 1, level)
        async with asyncio.timeout(120):
            await task
        await until(lambda: table.record_path is not None, 10)
        return table.record_path, player.client.state
    finally:
        task.cancel()
        await host.close()


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "name, mystery, players, level",
    [
        ("standard", "", 4, "random"),
        ("zh_seed", "", 3, "medium"),
        ("fa_seed", "", 4, "medium"),
        ("fa_seed", "hig", 3, "random"),
        ("zh_seed", "cmon", 3, "random"),
    ],
)
def test_a_networked_game_of_every_variant_replays_and_passes_the_audit(tmp_path, name, mystery, players, level):
    options = preset_options(name, mystery_hand=mystery)
    record_path, state = run(_game(tmp_path, options, players, level), 200)
    record = read_record(record_path)
    assert record.options == options and record.to_dict()["variant"] == (name if not mystery else "custom")
    replayed = record.replay()
    assert replayed.is_over() and record.check_result(replayed) == []
    assert state.observation is not None and state.observation.is_over
    code, out = audit(record_path)
    assert code == 0, out


@pytest.mark.timeout(300)
def test_a_fixed_deal_of_fresh_deals_plays_through_the_host(tmp_path):
    """`modernart play --seed` with fa_seed: four chosen deck orders, announced, checked by
    every client and by the audit, each round dealt from its own."""
    from modernart.cli.cmd_play import seeded_deal
    from modernart.game import deals_of_order
    from modernart.net.trust.shuffle import FixedDeal

    options = preset_options("fa_seed")
    order, first = seeded_deal(9, 3, options.changed())
    assert len(order) == 4 * 70
    record_path, state = run(_game(tmp_path, options, 3, "random", FixedDeal.of(order, first)), 200)
    record = read_record(record_path)
    assert record.deck_order == order and record.first_auctioneer == first
    assert record.deals == deals_of_order(options, 3, order)[: len(record.deals)] and len(record.deals) == 4
    assert record.check_result(record.replay()) == []
    code, out = audit(record_path)
    assert code == 0, out
