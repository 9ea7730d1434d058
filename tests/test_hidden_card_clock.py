"""A person who lets the decision clock run out at a hidden-hands table, over real sockets on
127.0.0.1 (docs/fair-play.md "Absent seats"): the host cannot play one of their cards, so
their own connected client plays the clock's default card (net/client/card_clock.py) and
the game goes on to the end; a client that does not keep the clock only makes its own seat
wait, and the host never plays a card it cannot read."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from modernart.moves import CARD_ACTIONS, Action
from modernart.net.client.client import Client
from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.trust.audit import audit_files
from modernart.net.trust.identity import Keys

from .net_helpers import run, seat_bots, until

CLOCKS = {"open_countdown": 0.3, "decision": 0.3, "grace": 30, "reveal": 2, "hammer_call": 0}


async def idle_person_at_a_hidden_table(tmp: Path, **client: Any) -> tuple[Host, Any, Client]:
    """A hidden-hands table of two bots and a person whose client never chooses a move."""
    host = Host(Keys.generate(), bot_pace=0.0)
    await host.start()
    table = host.open_table(
        "idle",
        journal_dir=str(tmp / "games"),
        lobby=Lobby(clocks=ClockSettings.from_dict(CLOCKS)),
        autostart=True,
        fsync=False,
        hidden_hands=True,
    )
    person = Client(host.target(), config_dir=str(tmp / "ana"), **client)
    await person.connect()
    assert (await person.take_seat("Ana")).ok
    assert (await person.ready()).ok
    seat_bots(host, table, 2)
    return host, table, person


def card_plays_of(game: Any, seat: int) -> list[Any]:
    """The events of `seat`'s card plays (`move` is the engine move, [seat, action, arg])."""
    return [e for e in game.log if e.move is not None and e.move[0] == seat and Action(e.move[1]) in CARD_ACTIONS]


def moves_in(game: Any) -> int:
    """The engine moves played so far (the deck's own events, shares and keys, are not moves)."""
    return sum(1 for e in game.log if e.move is not None)


def test_an_idle_persons_client_plays_their_card_when_the_clock_runs_out(tmp_path: Path) -> None:
    async def main() -> None:
        host, table, person = await idle_person_at_a_hidden_table(tmp_path)
        try:
            await until(lambda: table.game is not None and table.game.is_over, 150)
            game = table.game
            seat = person.state.seat
            plays = card_plays_of(game, seat)
            assert len(plays) >= 4  # every round, the person put up paintings without a key pressed
            assert all(e.act is not None for e in plays)  # each signed by the person's client, none by the host
            told: list[Any] = []
            while not person.updates.empty():
                update = person.updates.get_nowait()
                if update.kind == "clock_played":
                    told.append(update.data)
            assert [m.to_list() for m in told] == [e.move for e in plays]  # each told, as played
            await until(lambda: table.record_path is not None, 30)
            report = audit_files(table.record_path)
            assert report.ok, report.problems
        finally:
            await person.close()
            await host.close()

    run(main(), 200)


def test_a_client_that_does_not_keep_the_clock_only_makes_its_own_seat_wait(tmp_path: Path) -> None:
    async def main() -> None:
        host, table, person = await idle_person_at_a_hidden_table(tmp_path, keeps_card_clock=False)
        try:
            await until(lambda: table.game is not None and person.state.seat in table.game.hidden.needs_owner(), 60)
            moves = moves_in(table.game)
            await asyncio.sleep(3 * CLOCKS["decision"] + 1.0)  # far past the deadline and the client's grace
            assert moves_in(table.game) == moves and person.state.seat in table.game.hidden.needs_owner()
            assert not card_plays_of(table.game, person.state.seat)  # the host played no card for it
        finally:
            await person.close()
            await host.close()

    run(main(), 100)
