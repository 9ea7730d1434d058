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
from modernart.net.host.host import Host
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.audit import audit_files

from tests.net_helpers import in_process_host, run, seat_bots, until

CLOCKS = {"open_countdown": 0.3, "decision": 0.3, "grace": 30, "reveal": 2, "hammer_call": 0}


async def idle_person_at_a_hidden_table(tmp: Path, **client: Any) -> tuple[Host, Any, Client]:
    """A hidden-hands table of two bots and a person whose client never chooses a move."""
    host, table = await in_process_host(tmp, clocks=CLOCKS, hidden_hands=True)
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
            for e in plays:  # each completes a `play` the person's client signed, none the host made
                committed = game.log[decode_host_inner(e.public)["play"] - 1]
                assert decode_host_inner(committed.public)["k"] == "play" and committed.act is not None
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


def test_the_screen_counts_down_the_clients_own_card_clock_and_says_when_it_played(tmp_path: Path) -> None:
    """Where the host's clock has stopped (it cannot play the card), the status line's
    countdown is the client's own; when it runs out the log says "Time is up"."""
    from modernart.cli.tui.net_session import NetSession
    from modernart.phase import Phase

    async def main() -> None:
        host, table = await in_process_host(
            tmp_path, clocks={**CLOCKS, "decision": 2.0}, autostart=False, hidden_hands=True
        )
        session = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"), seat=0, ready=True)
        try:
            await session.open()
            await until(lambda: session.seat == 0, 10)
            seat_bots(host, table, 2)
            table.autostart = 3
            client = session.client
            # its own clock waits longer than the host's ticks (one a second) take to say the
            # host's has stopped, so the screen is seen with only the client's clock running
            client.card_clock.grace = 3.0

            def my_card_play() -> bool:
                obs = session.obs
                return obs is not None and obs.my_turn and obs.phase == Phase.PLAY_CARD and not session.cards_coming

            await until(my_card_play, 60)
            anas = len(card_plays_of(table.game, 0))
            # the host's clock stops at its deadline; the client's own runs on, and is shown
            await until(lambda: client.state.deadlines.get("decide") is None, 10)
            assert my_card_play() and session.decision_deadline is not None
            assert client.card_clock.deadline is not None
            await until(lambda: len(card_plays_of(table.game, 0)) > anas, 10)
            await until(lambda: any(e.text == "Time is up for Ana" for e in session.log), 5)
        finally:
            await session.close()
            await host.close()

    run(main(), 100)
