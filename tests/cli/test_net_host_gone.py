"""When the host is gone, the screen says so (real host processes, the client's real
screen in a terminal emulator): a host SIGKILLed leaves a count of its silence and what
to do, a key pressed meanwhile is refused at once and never played after `modernart host
--resume`; a host stopped on purpose (SIGTERM) says goodbye, shown with how to resume.
Neither host process writes a traceback."""

from __future__ import annotations

import asyncio
import json
import signal

import pytest

from modernart.cli.tui.net_session import NetSession
from modernart.moves import Action, Move
from modernart.net.client.client import Client, ConnectError
from modernart.net.trust.identity import Keys
from modernart.phase import Phase
from tests.e2e.screen import Screen

from tests.net_helpers import FAST, Procs, in_process_host, run, until
from tests.slowdown import scaled

QUIET = (Action.PASS, Action.DECLINE, Action.DECLINE_SECOND, Action.HAMMER)


async def until_ana_puts_up_a_painting(session: NetSession, timeout: float) -> None:
    """Play Ana's other turns (passing, declining, sealing the least) until she is to put up a
    card and can read her cards (at a hidden-hands table the other seats' shares come first)."""
    async with asyncio.timeout(scaled(timeout)):
        while True:
            obs = session.obs
            if obs is not None and obs.my_turn and session.client.in_touch:
                if obs.phase == Phase.PLAY_CARD:
                    if not session.cards_coming:  # (hidden hands: its cards are readable)
                        return
                    await asyncio.sleep(0.05)
                    continue
                moves = obs.legal_moves(amounts=False)
                if not moves:  # a sealed bid or a price to set: the least amount
                    action, least, _most = obs.amount_range()
                    moves = [Move.of(obs.seat, action, least)]
                await session.send_move(next((m for m in moves if m.action in QUIET), moves[0]))
            await asyncio.sleep(0.05)


def ana_moves(session: NetSession) -> list:
    st = session.client.state
    return [item for _seq, item in st.log if getattr(item, "seat", None) == st.seat and hasattr(item, "action")]


async def _killed_resumed_and_closed(tmp_path, procs: Procs) -> None:
    host = procs.host(
        tmp_path, "--port", "0", "--players", "3", "--bots", "2", "--bot-pace", "0", "--clocks", json.dumps(FAST)
    )
    join = procs.wait_output("host", r"join string: (\S+)", 30).group(1)
    session = NetSession(join, name="Ana", config_dir=str(tmp_path / "ana"), ready=True)
    async with Screen(session, cols=80) as screen:
        await until_ana_puts_up_a_painting(session, 60)
        await screen.wait_for(r"Your turn")
        played = len(ana_moves(session))

        host.send_signal(signal.SIGKILL)
        await asyncio.to_thread(host.wait, 10)  # the screen's loop runs on meanwhile
        await screen.wait_for(r"^ reconnecting\.\.\. host silent \d+s ", timeout=10)
        await screen.keys("enter")  # put up the selected painting: not while out of touch
        await screen.wait_for("Not sent: out of touch with the host")
        text = await screen.wait_for(r"host silent 1\ds: it may have stopped \(ask the host to resume\)", timeout=20)
        assert len(max(text.splitlines(), key=len)) <= 80
        assert any(
            e.text.startswith(
                "The host has been silent for 10 s: it may have stopped. Ask the host "
                "to resume the game (modernart host --resume JOURNAL)"
            )
            for e in session.log
        )

        journal = str(next((tmp_path / "games").glob("*.jsonl")))
        host = procs.host(tmp_path, "--resume", journal, name="host2")  # the game's own port
        await until(lambda: session.client.state.status == "connected", 30)
        await screen.wait_for("Back in touch with the host")
        # the key pressed while out of touch is not played late either: once the host has
        # answered a request sent now, it has read (and relayed) anything sent before it
        await session.client.list_tables()
        assert len(ana_moves(session)) == played and session.obs.my_turn and session.obs.phase == Phase.PLAY_CARD
        assert session.notice == ""
        await screen.keys("enter")  # in touch: played, as the screen says
        await until(lambda: len(ana_moves(session)) == played + 1, 10)

        host.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(host.wait, 15) == 0
        await screen.wait_for(r"^ the host closed the table ", timeout=10)
        assert any(
            e.text == f"The host closed the table. It can resume the game with: modernart host --resume "
            f"{journal} (this screen reconnects by itself)"
            for e in session.log
        )
    for name in ("host", "host2"):
        assert "Traceback" not in procs.errors(name), procs.errors(name)


@pytest.mark.timeout(150)
def test_a_killed_host_is_counted_silent_and_a_closed_one_says_goodbye(tmp_path):
    procs = Procs(tmp_path)
    try:
        run(_killed_resumed_and_closed(tmp_path, procs), 140)
    finally:
        procs.close()


async def _hello_after_goodbye(tmp_path) -> tuple[str, str | None, str, bool]:
    host, _table = await in_process_host(tmp_path, autostart=False)
    ana = Client(host.target("t1"), keys=Keys.generate())
    late = Client(host.target("t1"), keys=Keys.generate())
    try:
        await ana.connect()
        assert host.say_goodbye()  # the host is closing: a hello now crosses its goodbye
        await ana.wait_until(lambda s: s.status == "host_closed", 5)
        late_refused = False
        try:
            await late.connect(timeout=3)
        except ConnectError:
            late_refused = True
        answered: list[dict] = []  # the hellos the closing host answered with its goodbye again
        goodbye_again = host.goodbye_again

        def recorded(rid: bytes, msg: dict) -> None:
            answered.append(msg)
            goodbye_again(rid, msg)

        host.goodbye_again = recorded  # type: ignore[method-assign]
        ana.hello()  # as a client that had not heard the goodbye yet would
        # once the host has read that hello it has answered it (a goodbye, nothing else to come)
        await until(
            lambda: any(m.get("vk") == ana.keys.vk for m in answered), 5, what=lambda: [m.get("t") for m in answered]
        )
        return ana.state.status, late.state.status, (ana.state.goodbye or {}).get("table"), late_refused
    finally:
        await ana.close()
        await late.close()
        await host.close()


@pytest.mark.timeout(60)
def test_a_closing_host_answers_a_hello_with_its_goodbye_not_a_welcome(tmp_path):
    """Closing, the host still reads for a moment (so closing does not reset connections): a
    hello then must not seat anyone again, or the client would be welcomed by a host about
    to go, and miss that the table closed."""
    ana, late, table, late_refused = run(_hello_after_goodbye(tmp_path), 50)
    assert ana == "host_closed" and table == "t1"
    assert late_refused or late == "host_closed"
