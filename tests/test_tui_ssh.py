"""The SSH-served client through a real host: asyncssh's client (a real SSH connection on
127.0.0.1, a pty of 80x24) sees the lobby of a `net.host.Host` table; the seat follows
the SSH key, and the guest's NO_COLOR reaches its screen."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pyte
import pytest

from cli.tui.entry import ssh_sessions_through
from cli.tui.sshserve import serve
from tests.e2e.screen import colour_codes, run_async
from tests.test_tui_net import start_host

pytestmark = pytest.mark.timeout(90)


class Guest:
    """One SSH connection with a pty, its output replayed into pyte."""

    def __init__(self, port: int, user: str, key, env: dict | None = None) -> None:
        self.port, self.user, self.key, self.env = port, user, key, env or {}
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""

    async def __aenter__(self) -> "Guest":
        self.conn = await asyncssh.connect("127.0.0.1", self.port, username=self.user, client_keys=[self.key],
                                           known_hosts=None)
        self.proc = await self.conn.create_process(term_type="xterm-256color", term_size=(80, 24), env=self.env)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
            self.raw += data
            self.stream.feed(data)

    async def wait_for(self, pattern: str, timeout: float = 15) -> str:
        end = asyncio.get_running_loop().time() + timeout
        while True:
            text = "\n".join(self.screen.display)
            if re.search(pattern, text):
                return text
            if asyncio.get_running_loop().time() > end:
                raise AssertionError(f"timed out waiting for {pattern!r}:\n{text}")
            await asyncio.sleep(0.05)

    async def __aexit__(self, *exc) -> None:
        self.reader.cancel()
        self.conn.close()
        await self.conn.wait_closed()


@run_async
async def test_ssh_guests_get_seats_by_key_through_the_host(tmp_path):
    host, table = await start_host(tmp_path, bots=1)
    acceptor = await serve(0, ssh_sessions_through(str(host.target(table.id)), config_dir=str(tmp_path / "ssh")),
                           host="127.0.0.1", host_key_path=str(tmp_path / "hostkey"))
    port = acceptor.get_port()
    eve_key, fay_key = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    try:
        async with Guest(port, "eve", eve_key, {"NO_COLOR": "1"}) as eve:
            text = await eve.wait_for(r"eve \(you\) +person")
            seat = re.search(r"(\d) eve \(you\)", text).group(1)
            assert "Bot A" in text and "MODERN ART - Test table" in text
            assert not colour_codes(eve.raw)                      # the guest's NO_COLOR, not ours
        async with Guest(port, "fay", fay_key) as fay:
            text = await fay.wait_for(r"fay \(you\) +person")
            assert re.search(rf"{seat} eve ", text)                # eve's seat is still hers
            assert {"32", "90"} <= colour_codes(fay.raw)
            async with Guest(port, "eve", eve_key) as eve_again:   # the same key: the same seat
                text = await eve_again.wait_for(r"eve \(you\) +person")
                assert re.search(r"(\d) eve \(you\)", text).group(1) == seat
                await eve_again.wait_for(r"fay +person")
        assert len([s for s in table.lobby.seats if s is not None]) == 3
    finally:
        acceptor.close()
        async with asyncio.timeout(15):
            await host.close()
