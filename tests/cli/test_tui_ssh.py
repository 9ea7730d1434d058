"""The SSH-served client through a real host: asyncssh's client (a real SSH connection on
127.0.0.1, a pty of 80x24) sees the lobby of a `net.host.Host` table; the seat follows
the SSH key the guest proved (never one it merely offered before logging in with the join
code), the guest is told what it trusts, the guest's NO_COLOR reaches its screen, and the
exec request `record` answers or says why not."""

from __future__ import annotations

import asyncio
import contextlib
import re

import asyncssh
import pyte
import pytest
from asyncssh.public_key import SSHLocalKeyPair

from modernart.cli.tui.launch import ssh_records_of, ssh_sessions_through, ssh_trust_notice
from modernart.cli.tui.sshserve import MAX_COLUMNS, MAX_ROWS, SSHGuest, serve
from tests.e2e.screen import colour_codes, run_async, until
from tests.slowdown import scaled
from tests.cli.test_tui_net import start_host

pytestmark = pytest.mark.timeout(90)


class Guest:
    """One SSH connection with a pty, its output replayed into pyte."""

    def __init__(
        self,
        port: int,
        user: str,
        key,
        env: dict | None = None,
        password: str | None = None,
        size: tuple[int, int] = (80, 24),
    ) -> None:
        self.port, self.user, self.key, self.env, self.password = port, user, key, env or {}, password
        self.size = size
        # the terminal the guest claims may be huge; the client draws within MAX_COLUMNS x
        # MAX_ROWS, so a replay a little larger shows anything drawn past them (pyte keeps a
        # cursor sent further out on its last column) and reads 10x faster: reading all of
        # 1000x400 took the test's own loop 2 s a time and starved the host sharing it
        self.screen = pyte.Screen(min(size[0], MAX_COLUMNS + 20), min(size[1], MAX_ROWS + 10))
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self._text: str | None = None  # the screen as text, until more output arrives

    async def __aenter__(self) -> "Guest":
        self.conn = await connect(self.port, self.user, self.key, self.password)
        self.proc = await self.conn.create_process(term_type="xterm-256color", term_size=self.size, env=self.env)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
            self.raw += data
            self.stream.feed(data)
            self._text = None

    async def wait_for(self, pattern: str, timeout: float = 15) -> str:
        """Wait until the guest's screen matches `pattern` (at most `timeout` seconds, scaled)."""
        end = asyncio.get_running_loop().time() + scaled(timeout)
        while True:
            if self._text is None:
                self._text = "\n".join(self.screen.display)
            text = self._text
            if re.search(pattern, text):
                return text
            if asyncio.get_running_loop().time() > end:
                raise AssertionError(f"not within {scaled(timeout):.0f} s: {pattern!r}; screen:\n{text}")
            await asyncio.sleep(0.05)

    async def __aexit__(self, *exc) -> None:
        self.reader.cancel()
        self.conn.close()
        await self.conn.wait_closed()


@contextlib.asynccontextmanager
async def ssh_table(tmp_path, *, code: bool = False, records: bool = False, **options):
    """A host whose table has one bot, its client served over SSH on 127.0.0.1 (`code`: the
    join code lets a new key in; `records`: the exec request `record` answers): yields
    (host, table, target, port, the guests' config dir); all closed after."""
    host, table = await start_host(tmp_path, bots=1)
    target = host.target(table.id)
    config = tmp_path / "ssh"
    if code:
        options["table_code"] = target.code
    if records:
        options["record_for"] = ssh_records_of(str(target), config_dir=str(config))
    try:
        acceptor = await serve(
            0,
            ssh_sessions_through(str(target), config_dir=str(config)),
            host="127.0.0.1",
            host_key_path=str(tmp_path / "hostkey"),
            **options,
        )
        try:
            yield host, table, target, acceptor.get_port(), config
        finally:
            acceptor.close()
    finally:
        async with asyncio.timeout(scaled(15)):
            await host.close()


async def connect(port: int, user: str, key, password: str | None = None) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, username=user, client_keys=[key], password=password, known_hosts=None, agent_path=None
    )


class ImpostorKey(SSHLocalKeyPair):
    """Someone else's public key, without its private half: asyncssh offers it (the unsigned
    query, as OpenSSH does for a .pub file) and then, when the server says it would take
    it, either cannot sign (`forge=False`: asyncssh moves on to the next method, as
    OpenSSH does) or signs with a key of its own (`forge=True`: a signature that cannot
    verify)."""

    def __init__(self, victim: asyncssh.SSHKey, forge: bool) -> None:
        super().__init__(asyncssh.generate_private_key("ssh-ed25519"), None, None, None)
        self.public_data = victim.public_data
        self.forge = forge

    def sign(self, data: bytes) -> bytes:
        if not self.forge:
            raise ValueError("no private key for this public key")
        return super().sign(data)


def seat_of_you(text: str, user: str) -> str:
    return re.search(rf"(\d) {user} \(you\)", text).group(1)


@run_async
async def test_ssh_guests_get_seats_by_key_through_the_host(tmp_path):
    async with ssh_table(tmp_path) as (host, table, target, port, config):
        eve_key, fay_key = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "eve", eve_key, {"NO_COLOR": "1"}) as eve:
            text = await eve.wait_for(r"eve \(you\) +person")
            seat = re.search(r"(\d) eve \(you\)", text).group(1)
            assert "Bot A" in text and "MODERN ART - Test table" in text
            assert not colour_codes(eve.raw)  # the guest's NO_COLOR, not ours
        async with Guest(port, "fay", fay_key) as fay:
            text = await fay.wait_for(r"fay \(you\) +person")
            assert re.search(rf"{seat} eve ", text)  # eve's seat is still hers
            assert {"32", "90"} <= colour_codes(fay.raw)
            async with Guest(port, "eve", eve_key) as eve_again:  # the same key: the same seat
                text = await eve_again.wait_for(r"eve \(you\) +person")
                assert re.search(r"(\d) eve \(you\)", text).group(1) == seat
                await eve_again.wait_for(r"fay +person")
        assert len([s for s in table.lobby.seats if s is not None]) == 3


@run_async
async def test_an_offered_key_is_not_a_proved_one(tmp_path):
    """Mallory has Eve's public key (not secret) and the join code (in every beacon): she
    offers the key, cannot sign with it, and logs in with the code.  She is a new player
    in a free seat, never Eve; Eve still gets her seat back with her key."""
    async with ssh_table(
        tmp_path, code=True, on_guest=lambda guest, what: guests.append(guest) if what == "joined" else None
    ) as (host, table, target, port, config):
        guests: list[SSHGuest] = []
        eve_key = asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "eve", eve_key) as eve:
            seat = seat_of_you(await eve.wait_for(r"eve \(you\) +person"), "eve")
        with pytest.raises(asyncssh.PermissionDenied):  # the offered key alone logs nobody in
            await connect(port, "eve", ImpostorKey(eve_key, forge=False))
        with pytest.raises(asyncssh.PermissionDenied):  # nor does a wrong code after it
            await connect(port, "eve", ImpostorKey(eve_key, forge=True), password="WRONG-CODE")
        for forge in (False, True):
            async with Guest(port, "eve", ImpostorKey(eve_key, forge), password=target.code) as mallory:
                text = await mallory.wait_for(r"eve \(you\) +person")
                mine = seat_of_you(text, "eve")
                assert mine != seat  # a free seat, as a new player
                assert re.search(rf"{seat} eve +person", text)  # Eve's seat is not Mallory's
            assert guests[-1].fingerprint is None  # no key was proved
            await until(lambda: table.lobby.seats[int(mine) - 1] is None)  # nobody can come back to it: freed
        async with Guest(port, "eve", eve_key) as eve_again:
            text = await eve_again.wait_for(r"eve \(you\) +person")
            assert seat_of_you(text, "eve") == seat  # the key's owner: her own seat
        assert [g.fingerprint for g in guests] == [eve_key.get_fingerprint(), None, None, eve_key.get_fingerprint()]


@run_async
async def test_a_guest_is_told_once_what_it_trusts(tmp_path):
    async with ssh_table(tmp_path, notice=ssh_trust_notice) as (host, table, target, port, config):
        async with Guest(port, "eve", asyncssh.generate_private_key("ssh-ed25519")) as eve:
            text = await eve.wait_for(r"modernart join`")
            rows = text.split("\n")
            top = next(i for i, row in enumerate(rows) if "Log and chat" in row)
            bottom = next(i for i in range(top, len(rows)) if rows[i].startswith("└"))
            log = " ".join(row.strip(" │") for row in rows[top + 1 : bottom])  # the log panel's text
            assert (
                "Over SSH your client runs on the host's machine: it holds your key, sees your hand and "
                "money and your sealed bids. To play without that trust, install modernart and use "
                "`modernart join`." in log
            )
            assert text.count("Over SSH your client") == 1  # said once
            assert "r ready" in rows[bottom + 1]  # the message line is free


@run_async
async def test_the_record_command_says_why_not_before_the_game_is_over(tmp_path):
    async with ssh_table(tmp_path, code=True, records=True) as (host, table, target, port, config):
        eve_key = asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "eve", eve_key) as eve:
            await eve.wait_for(r"eve \(you\) +person")
        conn = await connect(port, "eve", eve_key)
        async with conn:
            async with asyncio.timeout(scaled(15)):
                early = await conn.run("record")
                wrong = await conn.run("rm -rf /")
                on_a_terminal = await conn.run("record", term_type="xterm")
        assert early.exit_status == 1 and early.stdout == ""
        assert "no finished game of yours at this table yet" in early.stderr
        assert wrong.exit_status == 2 and "the only one is `record`" in wrong.stderr
        assert on_a_terminal.exit_status == 2 and "redirect it" in on_a_terminal.stdout + on_a_terminal.stderr
        conn = await connect(port, "eve", ImpostorKey(eve_key, forge=False), password=target.code)
        async with conn:
            async with asyncio.timeout(scaled(15)):
                impostor = await conn.run("record")
        assert impostor.exit_status == 1 and impostor.stdout == ""
        assert "a password login has no key to keep a record under" in impostor.stderr


@run_async
async def test_a_play_ssh_table_is_the_real_host_and_says_what_it_trusts(tmp_path):
    """`modernart play --ssh`: the table is the real host in the server's process (its
    guests join it as players, as under `modernart host --ssh`): a guest is told once what
    that trusts, and `record` answers from the guest's own client's copy of the game."""
    from modernart.cli.cmd_play import serve_table_over_ssh
    from modernart.cli.tui.local_game import TableSettings

    settings = TableSettings(
        players=3, levels=["random"], autostart=False, first_bot_seat=2, config_dir=str(tmp_path / "config")
    )
    listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    server = asyncio.get_running_loop().create_task(
        serve_table_over_ssh(
            settings, 0, bind="127.0.0.1", host_key_path=str(tmp_path / "hostkey"), ready=listening.set_result
        )
    )
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        async with asyncio.timeout(scaled(15)):
            port = await listening
        async with Guest(port, "eve", key) as eve:
            text = await eve.wait_for(r"`modernart join`")
            assert text.count("Over SSH your client runs on the host's machine") == 1
            await eve.wait_for(r"eve \(you\) +person")
        async with await connect(port, "eve", key) as conn:
            async with asyncio.timeout(scaled(15)):
                done = await conn.run("record")
        assert done.exit_status == 1 and done.stdout == ""
        assert "no finished game of yours at this table yet" in done.stderr
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


def _drawn_extent(screen: pyte.Screen) -> tuple[int, int]:
    """(columns, rows) of the part of the screen anything was drawn on."""
    rows = [i for i, line in enumerate(screen.display) if line.strip()]
    cols = [len(line.rstrip()) for line in screen.display]
    return max(cols, default=0), (rows[-1] + 1 if rows else 0)


@run_async
async def test_a_guest_cannot_make_its_client_draw_a_huge_terminal_or_open_sessions_without_end(tmp_path, monkeypatch):
    """The guest chooses its terminal's size: a client drawing 1000x400 cells on every change
    filled the host process's memory and stalled its event loop.  The screen is drawn on at
    most MAX_COLUMNS x MAX_ROWS, also after a resize; and one connection holds at most
    MAX_SESSIONS_PER_CONNECTION sessions (the next is told so and closed)."""
    from modernart.cli.tui import sshserve

    monkeypatch.setattr(sshserve, "MAX_SESSIONS_PER_CONNECTION", 1)
    async with ssh_table(tmp_path) as (host, table, target, port, config):
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "gus", key, size=(1000, 400)) as gus:
            await gus.wait_for(r"gus \(you\) +person")
            # a whole frame drawn: as wide as the cap (a wider one would show past it)
            await until(
                lambda: _drawn_extent(gus.screen)[0] >= sshserve.MAX_COLUMNS, what=lambda: _drawn_extent(gus.screen)
            )
            cols, rows = _drawn_extent(gus.screen)
            assert cols == sshserve.MAX_COLUMNS and rows <= sshserve.MAX_ROWS, (cols, rows)
            gus.screen.reset()  # what follows is drawn after the resize
            gus.proc.change_terminal_size(1200, 500)  # a resize is capped the same way
            await until(
                lambda: _drawn_extent(gus.screen)[0] >= sshserve.MAX_COLUMNS, what=lambda: _drawn_extent(gus.screen)
            )
            assert _drawn_extent(gus.screen)[0] == sshserve.MAX_COLUMNS
            peers = len(host.peers)  # the bot and gus
            second = await gus.conn.create_process(term_type="xterm", term_size=(80, 24))
            out = await _all(second)
            assert "at most 1 sessions over one connection" in out and second.exit_status == 1, out
            assert len(host.peers) == peers  # the refused session never joined the table


async def _all(proc) -> str:
    async with asyncio.timeout(scaled(10)):
        err = await proc.stderr.read()
        await proc.wait()
    return err


@run_async
async def test_a_host_keeps_a_bounded_number_of_ssh_players(tmp_path, monkeypatch):
    """Each new SSH key makes a key file and a state dir on the host: past the limit a new key
    is told why it cannot join, a key already kept still comes back, and the join code still
    lets the newcomer play under a new name (kept nowhere)."""
    from modernart.cli.tui import launch as entry

    monkeypatch.setattr(entry, "MAX_SSH_PLAYERS_KEPT", 1)
    async with ssh_table(tmp_path, code=True) as (host, table, target, port, config):
        ana, bob = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "ana", ana) as guest:
            await guest.wait_for(r"ana \(you\) +person")
        kept = sorted(p.name for p in config.glob("ssh-*.key"))
        async with Guest(port, "bob", bob) as guest:
            await guest.wait_for(r"takes no new one")
        assert sorted(p.name for p in config.glob("ssh-*.key")) == kept  # nothing written for bob
        async with Guest(port, "ana", ana) as guest:  # ana is kept: she comes back
            await guest.wait_for(r"ana \(you\) +person")
        async with Guest(port, "bob", ImpostorKey(bob, False), password=target.code) as guest:
            await guest.wait_for(r"bob \(you\) +person")  # the code: a new player, kept nowhere
        assert sorted(p.name for p in config.glob("ssh-*.key")) == kept


@run_async
async def test_each_ssh_guest_reads_the_table_in_the_language_its_ssh_sends(tmp_path):
    """One SSH server process, two guests: LANG=zh_CN sends a Chinese client, LANG=fa_IR a
    Persian one (shaped and reordered for a terminal without BiDi), at the same time."""
    from modernart.cli.bidi import reordering, visual
    from modernart.cli.i18n import _, speaking

    async with ssh_table(tmp_path) as (host, table, target, port, config):
        with speaking("fa"), reordering("client"):
            seats_fa = visual(_("Seats"))
        zh_key, fa_key = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
        async with Guest(port, "wen", zh_key, {"LANG": "zh_CN.UTF-8"}) as wen:
            async with Guest(port, "dara", fa_key, {"LANG": "fa_IR.UTF-8"}) as dara:
                text = await wen.wait_for(r"wen （你）")
                assert "座位" in text and "真人" in text and "Seats" not in text
                await dara.wait_for(re.escape(seats_fa))
                text = await dara.wait_for(r"dara")
                assert "Seats" not in text and seats_fa in text
                await wen.wait_for(r"dara")  # the other guest's seat, in the Chinese lobby
