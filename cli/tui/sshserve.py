"""Serve the client over SSH: a friend types `ssh -p PORT name@host` and plays, with
nothing installed.  Needs asyncssh (the `ssh` extra).

One process, one event loop, one client application per SSH channel, built inside that
channel's prompt_toolkit app session.  `serve(port, session_for)` asks `session_for(guest)`
for each newcomer's `Session` (a `NetSession` joining the host as that player, or a
`LocalSession` on an in-process table), so each SSH guest is an ordinary player.

Identity: any public key is accepted (asyncssh checks that the client holds it) and its
fingerprint binds the guest to a seat, so the same key gets the same seat back after a
dropped connection.  With a `table_code`, guests without a key may log in with the code as
password.  Fixes over prompt_toolkit's contrib.ssh (see shared notes, terminal-ui §3.3):
`line_editor=False` (asyncssh's line editor corrupts the screen), a dropped connection
closes the pipe input (else its app runs forever), `run_async(handle_sigint=False,
set_exception_handler=False)` (both are process-wide), `errors="replace"` for bad UTF-8,
and colours/borders from the *guest's* environment (`NO_COLOR`, `TERM`, `LANG`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Mapping

import asyncssh
from prompt_toolkit.contrib.ssh import PromptToolkitSSHServer, PromptToolkitSSHSession

from .app import ClientApp
from .session import JoinError, Session

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SSHGuest:
    """Who connected: login name, key fingerprint (None with a password) and terminal."""

    username: str
    fingerprint: str | None
    term: str | None
    env: Mapping[str, str] = field(default_factory=dict)

    @property
    def identity(self) -> str:
        """The stable identity a seat is bound to."""
        return self.fingerprint or f"password:{self.username}"


SessionFor = Callable[[SSHGuest], Awaitable[Session]]


def guest_wants_ascii(env: Mapping[str, str]) -> bool:
    """True when the guest's locale says its terminal cannot show UTF-8 box drawing."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value:
            return value in ("C", "POSIX") or "utf" not in value.lower().replace("-", "")
    return False


class _Session(PromptToolkitSSHSession):
    def connection_lost(self, exc: Exception | None) -> None:
        # contrib.ssh never notices a dropped client: closing the pipe makes run_async end
        if self._input is not None:
            self._input.close()

    def eof_received(self) -> bool:
        # the guest closed its input (`ssh -T < /dev/null`): end the app, but keep the
        # channel writable so that a last message (no terminal, table full) still arrives
        if self._input is not None:
            self._input.close()
        return True


class _Server(PromptToolkitSSHServer):
    def __init__(self, interact, table_code: str | None, guests: weakref.WeakSet[_Session] | None = None) -> None:
        super().__init__(interact, enable_cpr=False)
        self.table_code = table_code
        self.guests = guests
        self._conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn

    def begin_auth(self, username: str) -> bool:
        return True  # require a key (or the table code)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        assert self._conn is not None
        self._conn.set_extra_info(player_key=key.get_fingerprint())
        return True

    def password_auth_supported(self) -> bool:
        return self.table_code is not None

    def validate_password(self, username: str, password: str) -> bool:
        return self.table_code is not None and password == self.table_code

    def session_requested(self) -> _Session:
        session = _Session(self.interact, enable_cpr=False)
        if self.guests is not None:
            self.guests.add(session)  # ended by serve_forever when serving stops
        return session


def load_host_key(path: str | None) -> asyncssh.SSHKey:
    """The server's host key, created on first use so guests see the same key every game."""
    if path is None:
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        path = os.path.join(base, "modernart", "ssh_host_ed25519")
    if os.path.exists(path):
        return asyncssh.read_private_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    key.write_private_key(path)
    os.chmod(path, 0o600)
    return key


async def serve(
    port: int,
    session_for: SessionFor,
    *,
    host: str = "",
    host_key_path: str | None = None,
    table_code: str | None = None,
    ascii: bool | None = None,
    on_guest: Callable[[SSHGuest, str], None] | None = None,
) -> asyncssh.SSHAcceptor:
    """Listen for SSH guests on `host:port` (all interfaces by default) and run the client
    for each.  `on_guest(guest, "joined"|"left")` reports arrivals; returns the acceptor
    (`close()` it to stop listening; running guests are not cut: `serve_forever` ends them
    when it stops)."""
    key = load_host_key(host_key_path)
    guests: weakref.WeakSet[_Session] = weakref.WeakSet()  # the live ones (see serve_forever)

    async def interact(ssh: PromptToolkitSSHSession) -> None:
        chan = ssh._chan
        assert chan is not None  # the session has started: its channel is set
        term = chan.get_terminal_type()
        guest = SSHGuest(chan.get_extra_info("username") or "guest", chan.get_extra_info("player_key"),
                         term, dict(chan.get_environment()))
        if term is None:  # `ssh -T` or a command: no terminal to draw on
            _say(chan, "modernart needs a terminal: connect with ssh -t\r\n")
            return
        try:
            session = await session_for(guest)
        except JoinError as exc:
            _say(chan, f"modernart: {exc}\r\n")
            return
        env = {**guest.env, "TERM": term}
        client = ClientApp(session, env=env, ascii=guest_wants_ascii(guest.env) if ascii is None else ascii)
        log.info("ssh guest joined user=%s key=%s term=%s", guest.username, guest.fingerprint, term)
        if on_guest:
            on_guest(guest, "joined")
        try:
            await client.run(shared_loop=True)
        except EOFError:
            pass  # the guest's connection dropped
        finally:
            log.info("ssh guest left user=%s", guest.username)
            if on_guest:
                on_guest(guest, "left")
            if session.last_word:  # e.g. the host closed the table: the last thing on the guest's terminal
                _say(chan, f"modernart: {session.last_word}\r\n")
            try:
                chan.exit(0)
            except (OSError, asyncssh.Error):
                pass

    acceptor = await asyncssh.create_server(
        lambda: _Server(interact, table_code, guests), host, port, server_host_keys=[key],
        line_editor=False, errors="replace", encoding="utf-8",
    )
    acceptor.modernart_guests = guests  # type: ignore[attr-defined]  # for serve_forever
    return acceptor


def _say(chan, text: str) -> None:
    try:
        chan.write(text)
    except (BrokenPipeError, OSError):
        pass


#: Seconds the guests' clients get to end when serving stops
GUESTS_END = 3.0


async def serve_forever(acceptor: asyncssh.SSHAcceptor) -> None:
    """Serve until cancelled; then end every guest's client as a dropped connection
    would (their input closes), rather than leave them to be cancelled mid-draw."""
    try:
        await asyncio.Event().wait()
    finally:
        acceptor.close()
        guests = getattr(acceptor, "modernart_guests", ())
        for guest in list(guests):
            if guest._input is not None:
                guest._input.close()
        try:
            async with asyncio.timeout(GUESTS_END):
                while any(g._chan is not None and not g._chan.is_closing() for g in guests):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            log.info("ssh guests still running after %g s", GUESTS_END)


async def serve_local_table(port: int, table, *, host: str = "", host_key_path: str | None = None,
                            table_code: str | None = None, ready: Callable[[int], None] | None = None) -> None:
    """Serve an in-process `LocalTable` to SSH guests until cancelled: each guest takes a
    free seat (the first one is the table's host in the lobby); a guest coming back with
    the same key gets their seat back."""
    from .local_session import LocalSession

    async def session_for(guest: SSHGuest) -> Session:
        return LocalSession(table, guest.username[:16], identity=guest.identity)

    acceptor = await serve(port, session_for, host=host, host_key_path=host_key_path, table_code=table_code)
    table.join_string = f"ssh -p {acceptor.get_port()} NAME@HOST"
    if ready is not None:
        ready(acceptor.get_port())
    try:
        await serve_forever(acceptor)
    finally:
        table.close()
