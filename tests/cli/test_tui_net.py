"""The client over the real protocol: a `net.host.Host` on 127.0.0.1 with bot clients, the
screens driven through `NetSession`; the join screen finding a table by its UDP beacon
(sent to 127.0.0.1 only) and checking the join code."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket

import pytest

from modernart.cli.tui.net_session import NetFinder, NetSession
from modernart.cli.tui.session import Status
from modernart.moves import Move
from tests.e2e.screen import Screen, run_async

pytestmark = pytest.mark.timeout(60)


async def start_host(tmp_path, bots: int = 2, name: str = "Test table", hidden_hands: bool = False):
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys

    host = Host(Keys.load_or_create(str(tmp_path / "hostcfg"), "host"), bind="127.0.0.1", port=0, bot_pace=0)
    table = host.open_table(name, journal_dir=str(tmp_path / "games"), hidden_hands=hidden_hands)
    await host.start()
    for seat in range(1, bots + 1):
        _seat, token = table.lobby.add_bot(None, "random", seat=seat)
        host.spawn_bot(table, token, "random")
    return host, table


def ana_in_seat_1(host, table, tmp_path) -> NetSession:
    return NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"), seat=0)


@contextlib.asynccontextmanager
async def beaconing(host):
    """`host`'s tables announced by beacon to 127.0.0.1 only, on a free port (yielded)."""
    port = free_udp_port()
    async with beaconing_to(host, port):
        yield port


@contextlib.asynccontextmanager
async def beaconing_to(host, port: int):
    """`host`'s tables announced by beacon to 127.0.0.1 `port` only."""
    from modernart.net.lan.beacon import Announcer

    announcer = Announcer(
        lambda: [t.info() for t in host.tables.values()],
        host.port,
        host.keys.curve_public_raw,
        targets=[("127.0.0.1", port)],
        every=0.2,
    )
    beacon = asyncio.get_running_loop().create_task(announcer.run())
    try:
        yield
    finally:
        beacon.cancel()


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@run_async
async def test_lobby_start_and_refusals_over_the_protocol(tmp_path):
    host, table = await start_host(tmp_path)
    try:
        session = ana_in_seat_1(host, table, tmp_path)
        async with Screen(session) as screen:
            await screen.wait_for(r"Bot B +bot random +READY")
            await screen.wait_for(r">1 Ana \(you\) +person +not ready")  # her seat's reply may come later
            assert f"join code {host.target().code}" in screen.rows[0]
            assert session.lobby.admin and " s start " in screen.rows[-1]
            await screen.keys("s")
            await screen.wait_for("Waiting for Ana to be ready")
            await screen.keys("r")
            await screen.wait_for(r"Ana \(you\) +person +READY")
            await screen.keys("s")
            await screen.wait_for(r"Round 1/4 \| Ana \$100")
            assert session.status == Status.PLAYING and session.obs is not None and session.obs.seat == 0
            assert any(e.text == "The game begins: Ana, Bot A, Bot B" for e in session.log)
            # her own deal is told with its size (the public event only counts the cards)
            dealt = [e.text for e in session.log if e.text.startswith("Round 1: you receive")]
            assert dealt == [f"Round 1: you receive {len(session.obs.hand)} paintings"] and session.obs.hand
            # a move the host refuses (a card Ana does not hold) comes back as a message; sent
            # while the table waits for Ana, when nothing else moves (a bot's move would make it
            # stale instead, and the next turn could clear the message before it is drawn)
            await screen.wait_for(r"YOUR TURN: ", timeout=30)
            stranger = next(c for c in range(70) if c not in {int(x) for x in session.obs.hand})
            await session.send_move(Move.play(0, stranger))
            await screen.wait_for(r" ! ")  # shown as an error
            assert any(e.kind == "error" for e in session.log)
            # a key at the wrong time sends nothing
            sent = len(screen.cs.sent)
            for _ in range(5):  # a bot's move may clear the message before it is read: press again
                await screen.keys("z")
                if screen.cs.message is not None and "'z'" in screen.cs.message.text:
                    break
            assert screen.cs.message is not None and "'z'" in screen.cs.message.text
            assert len(screen.cs.sent) == sent
            await screen.keys("c")
            await screen.type("hello table")
            await screen.keys("enter")
            await screen.wait_for("<Ana> hello table")
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_join_screen_hears_a_beacon_and_checks_the_code(tmp_path):
    host, table = await start_host(tmp_path, name="Bea's table")
    try:
        async with beaconing(host) as port:
            finder = NetFinder(name="Dai", config_dir=str(tmp_path / "dai"), bind="127.0.0.1", port=port)
            async with Screen(finder=finder) as screen:
                text = await screen.wait_for("Bea's table")
                assert re.search(rf"> Bea's table +127\.0\.0\.1:{host.port} +2/5", text)
                await screen.keys("enter")
                await screen.wait_for("Type the join code shown on the host's screen")
                await screen.type("AAAA-BBBB-CCCC")
                await screen.keys("enter")
                await screen.wait_for("Wrong join code")
                await screen.keys("enter")
                await screen.type(host.target().code.lower())
                await screen.keys("enter")
                text = await screen.wait_for(r"Dai \(you\)", timeout=15)
                assert "MODERN ART - Bea's table" in screen.rows[0]
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_join_screen_marks_a_table_that_hides_hands_even_from_its_host(tmp_path):
    hidden, _table = await start_host(tmp_path / "a", name="Hidden table", hidden_hands=True)
    plain, _other = await start_host(tmp_path / "b", name="Plain table")
    try:
        async with beaconing(hidden) as port:
            async with beaconing_to(plain, port):
                finder = NetFinder(name="Dai", config_dir=str(tmp_path / "dai"), bind="127.0.0.1", port=port)
                async with Screen(finder=finder) as screen:
                    text = await screen.wait_for("Plain table(.|\n)*Hidden table|Hidden table(.|\n)*Plain table")
                    rows = {name: next(r for r in screen.rows if name in r) for name in ("Hidden table", "Plain table")}
                    assert re.search(r"2/5  hidden\s*│$", rows["Hidden table"]), rows
                    assert "hidden" not in rows["Plain table"], rows
                    assert "hidden: the players' hands are hidden even from the host" in text
    finally:
        async with asyncio.timeout(15):
            await hidden.close()
            await plain.close()


@run_async
async def test_a_wrong_join_string_is_explained(tmp_path):
    finder = NetFinder(name="Dai", config_dir=str(tmp_path / "dai"), bind="127.0.0.1", port=free_udp_port())
    async with Screen(finder=finder) as screen:
        await screen.wait_for("Listening for tables")
        await screen.keys("j")
        await screen.type("not-a-join-string")
        await screen.keys("enter")
        await screen.wait_for("Not a join string")


@run_async
async def test_a_join_code_joins_the_table_as_soon_as_it_is_heard(tmp_path):
    host, table = await start_host(tmp_path, name="Cem's table")
    try:
        async with beaconing(host) as port:
            finder = NetFinder(
                name="Eli",
                config_dir=str(tmp_path / "eli"),
                bind="127.0.0.1",
                port=port,
                code=host.target().code.replace("-", " ").lower(),
            )
            async with Screen(finder=finder) as screen:
                await screen.wait_for(r"Eli \(you\)", timeout=15)
                assert "MODERN ART - Cem's table" in screen.rows[0]
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_a_closed_table_is_announced(tmp_path):
    host, table = await start_host(tmp_path)
    closed = False
    try:
        session = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"))
        async with Screen(session) as screen:
            await screen.wait_for(r"Ana \(you\)")
            async with asyncio.timeout(15):
                await host.close()  # on purpose: it says goodbye
            closed = True
            await screen.wait_for(r"the host closed the table", timeout=15)
            assert screen.rows[0].startswith(" the host closed the table  MODERN ART")
            assert any(e.text == "The host closed the table" for e in session.log)  # a lobby: nothing to resume
            assert session.client.state.status == "host_closed"
    finally:
        if not closed:
            async with asyncio.timeout(15):
                await host.close()


@run_async
async def test_a_silent_host_is_announced_and_counted(tmp_path):
    host, table = await start_host(tmp_path)
    try:
        session = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"))
        async with Screen(session) as screen:
            await screen.wait_for(r"Ana \(you\)")
            # the host hangs: its connections stay up (libzmq answers heartbeats), it says nothing
            for task in host.tasks:
                task.cancel()
            asyncio.get_running_loop().remove_reader(host.router.fd)
            await screen.wait_for(r"reconnecting\.\.\. host silent [45]s", timeout=10)
            assert screen.rows[0].startswith(" reconnecting... host silent ")
            await screen.wait_for(r"reconnecting\.\.\. host silent [67]s", timeout=5)  # it keeps counting
            assert any("Lost touch with the host" in e.text for e in session.log)
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_a_changed_host_key_is_shown_with_the_way_to_accept_it(tmp_path):
    """A host at a known address with another key: the join fails with a sentence that says
    how to trust the new key, and joining again with that choice works (never silently)."""
    from modernart.cli.tui.session import JoinError

    first, _table = await start_host(tmp_path, bots=0)
    port, config = first.port, str(tmp_path / "ana")
    session = NetSession(first.target(), name="Ana", config_dir=config)
    await session.open()
    await session.close()
    await first.close()
    from modernart.net.host.host import Host
    from modernart.net.trust.identity import Keys

    impostor = Host(Keys.generate(), bind="127.0.0.1", port=port)
    impostor.open_table("Test table")
    await impostor.start()
    try:
        with pytest.raises(JoinError, match="--accept-new-host-key"):
            await NetSession(impostor.target(), name="Ana", config_dir=config).open()
        trusted = NetSession(impostor.target(), name="Ana", config_dir=config, accept_new_host_key=True)
        await trusted.open()
        assert trusted.status == Status.LOBBY
        await trusted.close()
    finally:
        await impostor.close()


@run_async
async def test_a_late_joiner_watches_the_table_with_public_facts_only(tmp_path):
    host, table = await start_host(tmp_path)
    ana = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"), seat=0, ready=True)
    dai = NetSession(host.target(table.id), name="Dai", config_dir=str(tmp_path / "dai"))
    try:
        await ana.open()
        await ana._reply(ana.client.start())
        async with asyncio.timeout(10):
            await _until(lambda: ana.obs is not None)
        async with Screen(dai) as screen:
            text = await screen.wait_for("You are watching")
            assert dai.obs is not None and dai.obs.seat == -1 and dai.obs.hand == ()
            assert "no seat" in screen.rows[0] and "WATCHING:" in screen.rows[0]
            for name in ("Ana", "Bot A", "Bot B"):
                assert re.search(rf" [ >]{name} +\? +\d+ ", text), (name, text)  # nobody's money is shown
            assert "Lite Metal" in text and "R1 R2 R3 R4" in text
            await screen.keys("enter")
            async with asyncio.timeout(5):  # the key is handled on the client's own time
                await _until(lambda: screen.cs.message is not None)
            assert "watching" in screen.cs.message.text
            assert screen.cs.sent == []
            await screen.keys("?")  # the help says so before listing the keys
            await screen.wait_for("You are watching: every seat is taken")
    finally:
        await dai.close()
        await ana.close()
        await host.close()


async def _until(predicate) -> None:
    while not predicate():
        await asyncio.sleep(0.02)


@run_async
async def test_a_refusal_shows_without_its_rule_reference_which_stays_in_the_log(tmp_path):
    host, table = await start_host(tmp_path)
    ana = NetSession(host.target(table.id), name="Ana", config_dir=str(tmp_path / "ana"), seat=0, ready=True)
    try:
        await ana.open()
        await ana._reply(ana.client.start())
        async with asyncio.timeout(10):
            await _until(lambda: ana.obs is not None)
        async with Screen(ana) as screen:
            await screen.wait_for("Round 1/4")
            stranger = next(c for c in range(70) if c not in {int(x) for x in ana.obs.hand})
            # the bots play on meanwhile, so a move can be refused as made on an old event:
            # look again and make it anew, as the refusal says, until the rules answer it
            for _attempt in range(20):
                await ana.client.wait_until(lambda s: s.head_seq >= table.game.seq, 10)
                errors = sum(e.kind == "error" for e in ana.log)
                await ana.send_move(Move.play(0, stranger))
                async with asyncio.timeout(10):
                    await _until(lambda: sum(e.kind == "error" for e in ana.log) > errors)
                refusal = next(e.text for e in reversed(ana.log) if e.kind == "error")
                if "moved on" not in refusal:
                    break
            await screen.wait_for(" ! ")
            assert "§" in refusal  # the log keeps the rule
            assert "§" not in screen.cs.message.text and screen.cs.message.text in refusal
            assert not any("§" in row for row in screen.rows[-3:])
    finally:
        await ana.close()
        await host.close()


@run_async
async def test_game_over_names_both_copies_of_the_record(tmp_path):
    from modernart.net.client.client import Client
    from modernart.net.clocks import ManualClock
    from modernart.net.trust.identity import Keys
    from tests.net_helpers import in_process_host, until

    clock = ManualClock()
    host, table = await in_process_host(
        tmp_path, clock=clock, clocks={"open_countdown": 10, "decision": 60}, autostart=3
    )
    ana = NetSession(host.target(), name="Ana", config_dir=str(tmp_path / "ana"), ready=True)
    others = []
    try:
        await ana.open()
        for name in ("Bea", "Cem"):
            c = Client(host.target(), keys=Keys.generate())
            await c.connect()
            assert (await c.take_seat(name)).ok and (await c.ready()).ok
            others.append(c)
        await until(lambda: ana.obs is not None, 10)
        sess = table.game
        while not sess.state.is_over():  # nobody acts: the host's clock plays the whole game
            seq = sess.seq
            clock.advance(60.5)
            await until(lambda: sess.seq > seq, 5, 0.002)
        await until(
            lambda: ana.status == Status.OVER and ana.record_path is not None and ana.host_record_path is not None, 10
        )
        async with Screen(ana) as screen:
            await screen.wait_for("GAME OVER")
            inside = "".join(r[1:-1].strip() for r in screen.rows[1:16])
            assert ana.record_path in inside
            assert ana.host_record_path in inside and ana.host_record_path != ana.record_path
            assert "re-checks it and prints its result" in inside
    finally:
        await ana.close()
        for c in others:
            await c.close()
        await host.close()


@run_async
async def test_the_lan_lobby_shows_and_sets_the_grace_period(tmp_path):
    from modernart.cli.tui.screens.lobby import lobby_rows

    host, table = await start_host(tmp_path)
    try:
        session = ana_in_seat_1(host, table, tmp_path)
        async with Screen(session) as screen:
            await screen.wait_for(r">1 Ana \(you\)")
            text = await screen.wait_for(r"Stand-in after +30s")
            rows = lobby_rows(session.lobby)
            for _ in range(rows.index(("clock", "grace"))):
                await screen.keys("down")
            await screen.keys("right")
            await screen.wait_for(r">Stand-in after +60s")
            assert table.lobby.clocks.grace == 60.0
            await screen.keys("left", "left")
            await screen.wait_for(r">Stand-in after +15s")
            assert table.lobby.clocks.grace == 15.0
            assert "Decision clock" in text and table.lobby.clocks.open_countdown == 10.0  # the others kept
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_a_join_code_no_table_shows_is_said_with_the_tables_heard(tmp_path):
    """`modernart join WRONG-CODE`: after a few seconds of beacons, the screen says that no
    table with that code was heard, and the tables that were heard are listed."""
    host, table = await start_host(tmp_path, bots=1, name="Bea's table")
    try:
        async with beaconing(host) as port:
            finder = NetFinder(
                name="Dai", config_dir=str(tmp_path / "dai"), bind="127.0.0.1", port=port, code="zzzz-zzzz-zzzz"
            )
            async with Screen(finder=finder) as screen:
                await screen.wait_for("Bea's table")
                assert "No table with join code" not in "\n".join(screen.rows)  # not before it listened a while
                text = await screen.wait_for("No table with join code ZZZZ-ZZZZ-ZZZZ was heard", timeout=10)
                assert "The tables heard are" in text and re.search(r"> Bea's table +127\.0\.0\.1:", text)
                assert screen.cs.session is None  # nothing was joined
    finally:
        async with asyncio.timeout(15):
            await host.close()


@run_async
async def test_the_game_over_screen_comes_with_the_last_event_not_after_the_tables_state(tmp_path):
    """The event that ends a game reaches the client before the table's state says "over":
    at a hidden-hands table the host saves the record, and only then says so, once every
    seat's deck key has come back after that event. From the event on, the session stands at
    OVER, so `q` quits, where the table's `q` would ask whether to leave a game already over
    (a CI run hit it in tests/e2e/test_e2e_i18n.py)."""
    from tests.net_helpers import in_process_host, seat_bots, until

    host, table = await in_process_host(tmp_path, clocks={"grace": 30, "reveal": 2}, hidden_hands=True)
    ana = NetSession(host.target(), name="Ana", config_dir=str(tmp_path / "ana"), sit=False)
    seen: list[tuple[bool, Status, str]] = []
    ana.changed = lambda: seen.append(  # type: ignore[method-assign]
        (ana.obs is not None and ana.obs.is_over, ana.status, str((ana.client.state.table or {}).get("state")))
    )
    try:
        await ana.open()
        seat_bots(host, table, 3)
        await until(lambda: any(state == "over" for _, _, state in seen), 120)
        ended = [(status, state) for over, status, state in seen if over]
        # the window this test is about: the game over in the observation, the table's state
        # not yet; the host now says "over" with the last move, so the two often come in one
        # burst and the window is not seen (then only the status is checked)
        assert ended, seen
        assert all(status == Status.OVER for status, _ in ended), ended[:3]
    finally:
        await ana.close()
        await host.close()


@run_async
async def test_the_hosts_record_coming_after_the_clients_own_copy_does_not_hide_it(tmp_path):
    """The final screen names the client's own audited copy first and the host's beside it,
    whichever the client heard of first: the lobby frame's record (the host's) alone names
    the host's; once the client's copy is saved, that one. `modernart play` once also took
    the host's word from the host it started and put it over the client's copy, and the
    screen named the host's path twice; the lobby frame is now the only word of it."""
    host, table = await start_host(tmp_path)
    session = NetSession(host.target(), name="Ana", config_dir=str(tmp_path / "ana"))
    try:
        own, hosts = str(tmp_path / "ana-copy.json"), str(tmp_path / "games" / "t1.json")
        session.client.state.table = {"state": "over", "record": hosts}
        session._copy()  # the host's record first
        assert (session.record_path, session.host_record_path) == (hosts, None)
        session.client.state.saved_record = own
        session._copy()  # then the client's own copy
        assert (session.record_path, session.host_record_path) == (own, hosts)
        session._copy()  # the host's word again (another lobby frame)
        assert (session.record_path, session.host_record_path) == (own, hosts)
    finally:
        await session.close()
        await host.close()
