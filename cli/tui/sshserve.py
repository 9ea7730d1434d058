"""Serve the client over SSH: a friend types `ssh -p PORT name@host` and plays, with
nothing installed.  Needs asyncssh (the `ssh` extra).

One process, one event loop, one client application per SSH channel, built inside that
channel's prompt_toolkit app session.  `serve(port, session_for)` asks `session_for(guest)`
for each newcomer's session (a `NetSession` joining the host as that player, cli/tui/launch.py
`ssh_sessions_through`), so each SSH guest is an ordinary player.

Identity: any public key is accepted, but a seat is bound only to a key whose signature
the server verified in this connection (see `_Server`), so the same key gets the same seat
back after a dropped connection and nobody else can claim it by merely offering it.  With a
`table_code`, guests without a key may log in with the code as password: such a login has
no identity (never one of a key offered earlier), so it takes a free seat as a new player
or watches, and cannot come back to that seat later.  An exec request `record`
(`ssh -p PORT NAME@HOST record > game.tar`) answers with the guest's own copy of the
finished game (`record_for`), so a guest can audit it at home.

Fixes over prompt_toolkit's contrib.ssh, found by trying it:
`line_editor=False` (asyncssh's line editor corrupts the screen), a dropped connection
closes the pipe input (else its app runs forever), `run_async(handle_sigint=False,
set_exception_handler=False)` (both are process-wide), `errors="replace"` for bad UTF-8,
and colours/borders from the *guest's* environment (`NO_COLOR`, `TERM`, `LANG`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import tarfile
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, Sequence

import asyncssh
from prompt_toolkit.contrib.ssh import PromptToolkitSSHServer, PromptToolkitSSHSession
from prompt_toolkit.data_structures import Size

from modernart.cli.i18n import _, language_from_env, use_language
from modernart.cli.screen_options import ScreenOptions
from modernart.cli.tui.app import ClientApp
from modernart.cli.tui.session import JoinError
from modernart.net import user_dirs

if TYPE_CHECKING:
    from modernart.cli.tui.net_session import NetSession

log = logging.getLogger(__name__)


RECORD_COMMAND = "record"


@dataclass(frozen=True)
class SSHGuest:
    """Who connected: login name, the fingerprint of the key they proved (None after a
    password login) and terminal."""

    username: str
    fingerprint: str | None
    term: str | None
    env: Mapping[str, str] = field(default_factory=dict)


class NoRecord(Exception):
    """Why a guest cannot take the record home (now): told to them as is."""


SessionFor = Callable[[SSHGuest], Awaitable["NetSession"]]
RecordFor = Callable[[SSHGuest], Sequence[str]]  # the files of the guest's copy, or NoRecord


def no_signed_record(guest: SSHGuest) -> Sequence[str]:
    """The `record_for` of a server that keeps no guest's copy of a game (the default)."""
    raise NoRecord("this SSH server keeps no copy of your games: there is nothing to take home")


def guest_wants_ascii(env: Mapping[str, str]) -> bool:
    """True when the guest's locale says its terminal cannot show UTF-8 box drawing."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value:
            return value in ("C", "POSIX") or "utf" not in value.lower().replace("-", "")
    return False


#: The largest terminal a guest's client draws on: the guest chooses its size, and a client
#: asked to draw 1000x500 cells many times a second fills memory and stalls the event loop
#: (the host's own, under `modernart host --ssh`).  Larger terminals get this much.
MAX_COLUMNS, MAX_ROWS = 300, 120
#: Sessions at once: over one SSH connection (a multiplexing client opens several), and in all
MAX_SESSIONS_PER_CONNECTION = 4
MAX_GUESTS = 32


#: The exit status of `ssh -T` (no terminal to draw on): a usage error, as a shell's 2
EXIT_USAGE = 2


class _Session(PromptToolkitSSHSession):
    refusal: str | None = None  # why this session is not served (too many): told, then closed
    taken_over = False  # a newer session with the same key took its seat over: it ended

    def _get_size(self) -> Size:
        size = super()._get_size()
        return Size(rows=max(1, min(size.rows, MAX_ROWS)), columns=max(1, min(size.columns, MAX_COLUMNS)))

    def live(self) -> bool:
        return self._chan is not None and not self._chan.is_closing()

    def channel(self) -> Any:
        """The SSH channel (set once the session has started)."""
        return self._chan

    def end_input(self) -> None:
        """End the client's input, as a dropped connection would: the client then stops."""
        if self._input is not None:
            self._input.close()

    def exec_requested(self, command: str) -> bool:
        return True  # interact answers it: the record, or a sentence saying why not

    def connection_lost(self, exc: Exception | None) -> None:
        # contrib.ssh never notices a dropped client: closing the pipe makes run_async end
        self.end_input()

    def eof_received(self) -> bool:
        # the guest closed its input (`ssh -T < /dev/null`): end the app, but keep the
        # channel writable so that a last message (no terminal, table full) still arrives
        self.end_input()
        return True


class _Server(PromptToolkitSSHServer):
    """Authentication that binds a connection to a key only once the key is proved.

    asyncssh asks `validate_public_key` about a key both for a client's unsigned query
    ("would you take this key?", which OpenSSH sends for every key it has, and which needs
    no private key) and for the signed attempt, and in both cases *before* any signature is
    checked.  So the key named there is only this attempt's candidate.  asyncssh judges
    one attempt at a time and, once the signature checks out, calls `auth_completed`
    without awaiting anything in between; every other method that can succeed (password,
    and keyboard-interactive, which asyncssh turns into the password) goes through
    `validate_password`, which drops the candidate.  Host-based and GSS logins are off.
    So at `auth_completed` the candidate is the key whose signature was just verified, or
    None after a password: an offered key is never inherited."""

    def __init__(self, interact, table_code: str | None, guests: weakref.WeakSet[_Session] | None = None) -> None:
        super().__init__(interact, enable_cpr=False)
        self.table_code = table_code
        self.guests = guests
        self._conn: asyncssh.SSHServerConnection | None = None
        self._candidate: str | None = None  # the key of the attempt being judged
        self._sessions: weakref.WeakSet[_Session] = weakref.WeakSet()  # this connection's

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn

    def begin_auth(self, username: str) -> bool:
        return True  # require a key (or the table code)

    def public_key_auth_supported(self) -> bool:
        return True

    def host_based_auth_supported(self) -> bool:
        return False  # a method that would not drop the candidate (see the class docstring)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._candidate = key.get_fingerprint()  # not proved yet: see the class docstring
        return True

    def password_auth_supported(self) -> bool:
        return self.table_code is not None

    def validate_password(self, username: str, password: str) -> bool:
        self._candidate = None  # a password login never inherits a key offered before it
        return self.table_code is not None and password == self.table_code

    def auth_completed(self) -> None:
        assert self._conn is not None
        self._conn.set_extra_info(player_key=self._candidate)

    def session_requested(self) -> _Session:
        session = _Session(self.interact, enable_cpr=False)
        mine = [s for s in self._sessions if s.live()]
        everyone = [s for s in self.guests if s.live()] if self.guests is not None else []
        if len(mine) >= MAX_SESSIONS_PER_CONNECTION:
            session.refusal = f"at most {MAX_SESSIONS_PER_CONNECTION} sessions over one connection"
        elif len(everyone) >= MAX_GUESTS:
            session.refusal = f"this table already serves {MAX_GUESTS} SSH guests; try again later"
        else:
            self._sessions.add(session)
            if self.guests is not None:
                self.guests.add(session)  # ended by serve_forever when serving stops
        return session


def load_host_key(path: str | None) -> asyncssh.SSHKey:
    """The server's host key, created on first use so guests see the same key every game."""
    if path is None:
        path = str(user_dirs.ssh_host_key_path())
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
    record_for: RecordFor = no_signed_record,
    notice: Callable[[int], str] | None = None,
) -> asyncssh.SSHAcceptor:
    """Listen for SSH guests on `host:port` (all interfaces by default) and run the client
    for each.  `on_guest(guest, "joined"|"left")` reports arrivals; `record_for(guest)`
    names the files `ssh ... record` sends that guest; `notice(port)` is said once to
    every guest who joins (what they trust).  Returns the acceptor (`close()` it to stop
    listening; running guests are not cut: `serve_forever` ends them when it stops)."""
    key = load_host_key(host_key_path)
    guests: weakref.WeakSet[_Session] = weakref.WeakSet()  # the live ones (see serve_forever)
    playing: dict[str, _Session] = {}  # SSH key fingerprint -> the session playing with it

    async def interact(ssh: PromptToolkitSSHSession) -> None:
        chan = ssh.channel() if isinstance(ssh, _Session) else None
        assert chan is not None  # the session has started: its channel is set
        refusal = getattr(ssh, "refusal", None)
        if refusal is not None:
            _say(chan, f"modernart: {refusal}\r\n", stderr=True)
            _exit(chan, 1)
            return
        term = chan.get_terminal_type()
        guest = SSHGuest(
            chan.get_extra_info("username") or "guest",
            chan.get_extra_info("player_key"),
            term,
            dict(chan.get_environment()),
        )
        use_language(language_from_env(guest.env))  # this guest's own: this task and what it starts
        if await _served_without_screen(chan, guest, record_for):
            return
        if guest.fingerprint is not None and isinstance(ssh, _Session):
            _take_over(playing, guest.fingerprint, ssh)
        try:
            session = await session_for(guest)
        except JoinError as exc:
            if guest.fingerprint is not None and playing.get(guest.fingerprint) is ssh:
                del playing[guest.fingerprint]
            _say(chan, f"modernart: {exc}\r\n")
            _exit(chan, 1)
            return
        env = {**guest.env, "TERM": term}
        # a guest's own settings (first game, alerts) live in its own state dir, not the host user's
        guest_dir = getattr(getattr(session, "client", None), "state_dir", None)
        screen = ScreenOptions(ascii=guest_wants_ascii(guest.env) if ascii is None else ascii)
        client = ClientApp(session, env=env, screen=screen, settings_dir=guest_dir)
        if notice is not None:
            client.note_in_log(notice(chan.get_extra_info("sockname")[1]))  # the port this guest came in on
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
            if guest.fingerprint is not None and playing.get(guest.fingerprint) is ssh:
                del playing[guest.fingerprint]
            _farewell(chan, ssh, session.last_word)

    acceptor = await asyncssh.create_server(
        lambda: _Server(interact, table_code, guests),
        host,
        port,
        server_host_keys=[key],
        line_editor=False,
        errors="replace",
        encoding="utf-8",
        gss_host=None,  # no GSS logins: see _Server
    )
    acceptor.modernart_guests = guests  # type: ignore[attr-defined]  # for serve_forever
    return acceptor


async def _served_without_screen(chan, guest: SSHGuest, record_for: RecordFor) -> bool:
    """Answer a guest who asked for a command (`ssh -p PORT NAME@HOST record`) or came with no
    terminal (`ssh -T`), and end the connection; False: the guest gets the client's screen."""
    command = chan.get_command()
    if command is not None:
        _exit(chan, await _answer_command(chan, command.strip(), guest, record_for))
        return True
    if guest.term is None:  # no terminal to draw on
        _say(chan, _("modernart needs a terminal: connect with ssh -t") + "\r\n", stderr=True)
        _exit(chan, EXIT_USAGE)  # OpenSSH's own 255 is for a connection that failed
        return True
    return False


def _take_over(playing: dict[str, _Session], fingerprint: str, ssh: _Session) -> None:
    """One key, one screen: the newest takes the seat over, before it joins (the earlier
    one's keys must not act on the seat once the newer one holds it)."""
    earlier = playing.get(fingerprint)
    if earlier is not None and earlier.live():
        earlier.taken_over = True
        earlier.end_input()
    playing[fingerprint] = ssh


def _farewell(chan, ssh: PromptToolkitSSHSession, last_word: str) -> None:
    """The last thing on a leaving guest's terminal (another screen took the seat over, or
    the session's last word, e.g. the host closed the table), and the exit status 0."""
    if getattr(ssh, "taken_over", False):
        _say(chan, "modernart: " + _("another SSH session with your key took this seat over") + "\r\n")
    elif last_word:
        _say(chan, f"modernart: {last_word}\r\n")
    _exit(chan, 0)


def _say(chan, text: str, *, stderr: bool = False) -> None:
    try:
        (chan.write_stderr if stderr else chan.write)(text)
    except (BrokenPipeError, OSError):
        pass


def _exit(chan, status: int) -> None:
    try:
        chan.exit(status)
    except (OSError, asyncssh.Error):
        pass  # the guest has gone already


async def _answer_command(chan, command: str, guest: SSHGuest, record_for: RecordFor) -> int:
    """Answer an exec request; its exit status.  `record` writes the guest's copy of the
    finished game as a tar archive (the record and its transcript, as `modernart audit`
    takes them) to stdout; anything else, or no copy yet, is a sentence on stderr."""
    if command != RECORD_COMMAND:
        _say(
            chan,
            f"modernart: unknown command {command[:40]!r}: the only one is `{RECORD_COMMAND}` "
            f"(your copy of the finished game, as a tar archive)\n",
            stderr=True,
        )
        return 2
    if chan.get_terminal_type() is not None:
        _say(
            chan,
            f"modernart: `{RECORD_COMMAND}` writes a tar archive: run it without -t and redirect "
            f"it, e.g. ssh -p PORT NAME@HOST {RECORD_COMMAND} > game.tar\n",
            stderr=True,
        )
        return 2
    try:
        if guest.fingerprint is None:
            raise NoRecord(
                "a password login has no key to keep a record under: ask again with the "
                "SSH key you played with (ssh -i KEY)"
            )
        paths = record_for(guest)
        archive = await asyncio.get_running_loop().run_in_executor(None, tar_of, paths)  # off the loop
    except NoRecord as exc:
        _say(chan, f"modernart: {exc}\n", stderr=True)
        return 1
    except OSError as exc:
        _say(chan, f"modernart: could not read your copy of the record: {exc.strerror or exc}\n", stderr=True)
        return 1
    log.info("ssh guest took the record user=%s key=%s bytes=%d", guest.username, guest.fingerprint, len(archive))
    chan.set_encoding(None)  # the archive is bytes, not text
    try:
        chan.write(archive)
    except (BrokenPipeError, OSError):
        return 1
    return 0


def tar_of(paths: Sequence[str]) -> bytes:
    """`paths` as an uncompressed tar archive, each under its own file name (no
    directories: `tar xf` puts them side by side, as the audit expects)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in paths:
            info = tar.gettarinfo(path, arcname=os.path.basename(path))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = 0o644
            with open(path, "rb") as f:
                tar.addfile(info, f)
    return out.getvalue()


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
            guest.end_input()
        try:
            async with asyncio.timeout(GUESTS_END):
                while any(g.live() for g in guests):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            log.info("ssh guests still running after %g s", GUESTS_END)
