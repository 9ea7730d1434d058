"""Entry points for the commands: join a table, find one on the LAN, host and play, and
serve guests over SSH through a host.  Each runs the full-screen client until the person
leaves and returns an exit code.  (`modernart play` is in cli/cmd_play.py.)
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shlex
import sys
import weakref
from typing import Any, MutableSet, Sequence

from modernart.cli.i18n import _
from modernart.cli.screen_options import ScreenOptions
from modernart.cli.tui.app import run_client_async, state_dir
from modernart.cli.tui.child_process import ChildProcess


def join_table(
    join_string: str,
    *,
    name: str,
    config_dir: str | None = None,
    screen: ScreenOptions = ScreenOptions(),
    accept_new_host_key: bool = False,
) -> int:
    """`modernart join ma://...`: join that table as `name` (a free seat in its lobby)."""
    from modernart.net.lan.address import JoinStringError, parse_join_string

    from modernart.cli.tui.net_session import NetSession

    try:
        target = parse_join_string(join_string)
    except JoinStringError as exc:
        print(f"modernart join: {exc}", file=sys.stderr)
        return 2
    session = NetSession(target, name=name, config_dir=config_dir, accept_new_host_key=accept_new_host_key)
    code = asyncio.run(run_client_async(session, screen=screen))
    if session.record_path is not None:  # this client's own copy of the finished game
        from modernart.cli.local_table import record_words

        print(record_words(session.record_path))
    return code


def find_and_join(
    *,
    name: str,
    config_dir: str | None = None,
    beacon_port: int | None = None,
    code: str | None = None,
    screen: ScreenOptions = ScreenOptions(),
    accept_new_host_key: bool = False,
) -> int:
    """`modernart join [CODE]`: the join screen (tables heard on the LAN, or a typed join
    string); with a join code, the table showing that code is joined as soon as it is heard."""
    from modernart.cli.tui.net_session import NetFinder

    finder = NetFinder(
        name=name, config_dir=config_dir, port=beacon_port, code=code, accept_new_host_key=accept_new_host_key
    )
    return asyncio.run(run_client_async(finder=finder, screen=screen))


def host_and_play(
    host_args: list[str],
    *,
    name: str,
    config_dir: str | None = None,
    screen: ScreenOptions = ScreenOptions(),
    timeout: float = 30.0,
    ssh_port: int | None = None,
    ssh_bind: str = "",
    ssh_host_key: str | None = None,
    resume_flags: Sequence[str] = (),
) -> int:
    """`modernart host`: run `modernart host HOST_ARGS...` as a child process and join the
    table it prints as an ordinary player (its own key, its own seat, through the
    protocol).  With `ssh_port`, SSH guests are served from this process too, each joining
    the table as an ordinary player.  Leaving the client stops the host (which tells every
    client, the SSH guests' too, that the table closed); the host's output goes to
    host.log.  Left mid-game, it prints how to continue: `modernart host --resume JOURNAL`
    followed by `resume_flags` (every flag this command was given, cli/cmd_host.py)."""
    return asyncio.run(
        _host_and_play(
            host_args,
            name,
            config_dir,
            screen,
            timeout,
            ssh_port,
            ssh_bind,
            ssh_host_key,
            tuple(resume_flags),
        )
    )


#: Seconds the SSH guests' screens get at most to show the host's goodbye before their server stops
GUESTS_SEE_GOODBYE = 2.0


async def _host_and_play(
    host_args,
    name,
    config_dir,
    screen: ScreenOptions,
    timeout,
    ssh_port=None,
    ssh_bind="",
    ssh_host_key=None,
    resume_flags=(),
) -> int:
    from modernart.cli.tui.net_session import NetSession

    log_path = os.path.join(state_dir(), "host.log")
    log_start = os.path.getsize(log_path) if os.path.exists(log_path) else 0
    with open(log_path, "ab") as log_file:  # the child stops when its stdin closes (_stop_host)
        argv = [sys.executable, "-m", "modernart.cli.main", "host", "--until-stdin-closes", *host_args]
        proc = await ChildProcess.start(argv, stderr=log_file)
    told = _HostOutput(proc)
    session = None
    guest_sessions: weakref.WeakSet = weakref.WeakSet()  # the SSH guests' sessions (see _guests_told)
    try:
        async with asyncio.timeout(timeout):  # not wait_for: see net/clocks.wait_event
            join = await told.join_string()
        if join is None:
            await proc.wait()
            print(
                f"modernart host: the host did not start{_last_error(log_path, log_start)}; see {log_path}",
                file=sys.stderr,
            )
            return 1
        guests = None
        if ssh_port is not None:
            from modernart.net.lan.address import parse_join_string

            guests = asyncio.get_running_loop().create_task(
                serve_ssh_guests(
                    ssh_port,
                    join,
                    bind=ssh_bind,
                    config_dir=config_dir,
                    host_key_path=ssh_host_key,
                    table_code=parse_join_string(join).code,
                    sessions=guest_sessions,
                )
            )
        session = NetSession(join, name=name, config_dir=config_dir)
        session.ends_when_you_leave = True  # the host process is this command's child
        watch = asyncio.get_running_loop().create_task(
            _tell_if_host_ends(proc, told, [session], guest_sessions, resume_flags)
        )
        try:
            return await run_client_async(session, screen=screen)
        finally:
            watch.cancel()
            if guests is not None:
                # the host first: its goodbye reaches the guests' clients (in this process),
                # whose screens say the table closed; then their SSH server stops
                await _stop_host(proc)
                await _guests_told(guests, guest_sessions)
    except asyncio.TimeoutError:
        print(f"modernart host: no join string within {timeout:g} s; see {log_path}", file=sys.stderr)
        return 1
    finally:
        await _stop_host(proc)
        await told.finish()
        over = session is not None and session.obs is not None and session.obs.is_over
        from modernart.cli.invocation import program
        from modernart.cli.local_table import record_words

        # the record the final screen named: this client's own copy, else the host's
        record = (session.record_path if session is not None else None) or told.record
        if record:
            print(record_words(record))
        elif told.journal and not over:  # left mid-game: the journal holds every move so far
            again = " ".join(shlex.quote(a) for a in ("--resume", told.journal, *resume_flags))
            print(
                _(
                    "modernart: the game so far is in its journal: {path}\nContinue it with: {program} host {flags}"
                ).format(path=told.journal, program=program(), flags=again)
            )


async def _tell_if_host_ends(
    proc: ChildProcess, told: "_HostOutput", own: Sequence[Any], guests: MutableSet[Any], resume_flags: Sequence[str]
) -> None:
    """The host child ended by itself (killed, crashed: this command stops it only after its
    client has left): the hosting player is told how to continue the game, never to ask
    the host; the SSH guests that this process serves, that their session ends with it."""
    code = await proc.wait()
    await told.finish()
    resume = " ".join(shlex.quote(a) for a in ("--resume", told.journal, *resume_flags)) if told.journal else None
    for session in own:
        session.host_process_ended(code, resume)
    for session in list(guests):
        session.host_process_ended(code, None)


async def _stop_host(proc: ChildProcess) -> None:
    """Stop the host child: its stdin closes, it says goodbye to its clients and closes its
    journal (the same on every platform: net/runtime.py)."""
    if proc.returncode is None:
        proc.close_stdin()
        try:
            async with asyncio.timeout(10):
                await proc.wait()
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()


async def _guests_told(guests: asyncio.Task, sessions: MutableSet[Any]) -> None:
    """Give the SSH guests' screens a moment to show the host's goodbye (each guest's
    client hears it: the host was stopped first), then stop serving them."""
    try:
        async with asyncio.timeout(GUESTS_SEE_GOODBYE):
            while any(s.client.state.status == "connected" for s in sessions):
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # their screens redraw
    except TimeoutError:
        pass  # a guest still "connected" is told by the silence
    finally:
        guests.cancel()
        await asyncio.gather(guests, return_exceptions=True)


class _HostOutput:
    """Reads the host child's stdout: its join string, then the journal and record paths."""

    def __init__(self, proc) -> None:
        self.proc = proc
        self.journal: str | None = None
        self.record: str | None = None
        self._rest: asyncio.Task | None = None

    async def join_string(self) -> str | None:
        while line := await self.proc.readline():
            text = line.decode("utf-8", "replace").strip()
            if text.startswith("join string:"):
                self._rest = asyncio.get_running_loop().create_task(self._read_rest())
                return text.split(":", 1)[1].strip()
        return None

    async def _read_rest(self) -> None:
        while line := await self.proc.readline():
            key, _, value = line.decode("utf-8", "replace").partition(":")
            if key.strip() == "journal":
                self.journal = value.strip()
            elif key.strip() == "record":
                self.record = value.strip()

    async def finish(self) -> None:
        """Wait (briefly) for the last lines of a stopped host."""
        if self._rest is not None:
            try:
                async with asyncio.timeout(5):
                    await self._rest
            except asyncio.TimeoutError:
                self._rest.cancel()


def _last_error(log_path: str, since: int) -> str:
    """': <the last line the host wrote to its log>' (its error), or ''."""
    try:
        with open(log_path, "rb") as f:
            f.seek(since)
            lines = [ln.strip() for ln in f.read().decode("utf-8", "replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    return f": {lines[-1].removeprefix('modernart host: ')}" if lines else ""


def ssh_trust_notice(port: int) -> str:
    """What an SSH guest of `modernart host --ssh` trusts, said once as they join."""
    return _(
        "Over SSH your client runs on the host's machine: it holds your key, sees your hand and money "
        "and your sealed bids. To play without that trust, install modernart and use `modernart join`. "
        "After the game, `ssh -p {port} NAME@HOST record > game.tar` gives you your copy to audit."
    ).format(port=port)


def ssh_guest_dir(config_dir: str | None, fingerprint: str) -> str:
    """The state dir of the SSH guest with this key (`<config dir>/ssh-guests/<hash>`): its
    sealed bids and seeds until used, and its copies of finished games (`games/`)."""
    from modernart.net.trust.identity import config_dir as config_dir_path

    return str(config_dir_path(config_dir) / "ssh-guests" / _guest_tag(fingerprint))


def _guest_tag(fingerprint: str) -> str:
    return hashlib.sha256(fingerprint.encode("utf-8")).hexdigest()[:20]


#: SSH players a host keeps (a key file and a state dir each, made the first time a key logs
#: in): past this, a new SSH key is refused, those already kept still come back
MAX_SSH_PLAYERS_KEPT = 256


def ssh_sessions_through(join_string: str, *, config_dir: str | None = None, sessions: MutableSet[Any] | None = None):
    """A `session_for` for `sshserve.serve`: each SSH guest joins the host at `join_string`
    as a player whose key is derived from (and stored for) their proved SSH key's
    fingerprint, so the same SSH key always comes back to the same seat, and whose client
    keeps its state (and its copy of the finished game) in `ssh_guest_dir`.  A password
    login joins with a fresh key of its own that is kept nowhere: a new player (or a
    watcher) who cannot come back to that seat, so leaving the lobby frees it.  Each
    session is kept in `sessions` (a WeakSet, when given)."""
    from modernart.net.trust.identity import Keys
    from modernart.net.trust.identity import config_dir as config_dir_path

    from modernart.cli.tui.net_session import NetSession
    from modernart.cli.tui.session import JoinError

    async def session_for(guest) -> NetSession:
        name = guest.username[:16] or "guest"
        if guest.fingerprint is None:
            session = NetSession(join_string, name=name, keys=Keys.generate(), leaves_seat_on_close=True)
        else:
            key_name = f"ssh-{_guest_tag(guest.fingerprint)}"
            keys_dir = config_dir_path(config_dir)
            if not (keys_dir / f"{key_name}.key").exists():
                kept = len(list(keys_dir.glob("ssh-*.key")))
                if kept >= MAX_SSH_PLAYERS_KEPT:  # SSH keys are free to make: the disk is not
                    raise JoinError(
                        _(
                            "This host already keeps {kept} SSH players' keys and takes no new one. "
                            "Log in with the join code as your password to play under a new name, "
                            "or ask the host."
                        ).format(kept=kept)
                    )
            keys = Keys.load_or_create(config_dir, key_name)
            session = NetSession(
                join_string, name=name, keys=keys, state_dir=ssh_guest_dir(config_dir, guest.fingerprint)
            )
        session.ssh_guest = True  # its screen closes with the SSH session: it never reconnects by itself
        await session.open()  # raises JoinError, which the guest is told
        if sessions is not None:
            sessions.add(session)
        return session

    return session_for


def ssh_records_of(join_string: str, *, config_dir: str | None = None):
    """A `record_for` for `sshserve.serve`: the guest's own client's copy of the newest
    finished game at this table (its record and transcript), or `NoRecord` saying why not."""
    from modernart.net.lan.address import parse_join_string

    from modernart.cli.tui.sshserve import NoRecord

    table = parse_join_string(join_string).table

    def record_for(guest) -> list[str]:
        games = os.path.join(ssh_guest_dir(config_dir, guest.fingerprint), "games")
        try:
            names = os.listdir(games)
        except FileNotFoundError:
            names = []
        finished = [
            os.path.join(games, n)
            for n in names
            if n.startswith(f"{table}-") and n.endswith(".json") and f"{n.removesuffix('.json')}.transcript" in names
        ]
        if not finished:
            raise NoRecord(
                "no finished game of yours at this table yet: your client saves its copy of the "
                "record and transcript when it sees the game end"
            )
        newest = max(finished, key=os.path.getmtime)
        return [newest, newest.removesuffix(".json") + ".transcript"]

    return record_for


async def serve_ssh_guests(
    port: int,
    join_string: str,
    *,
    bind: str = "",
    config_dir: str | None = None,
    host_key_path: str | None = None,
    table_code: str | None = None,
    ready=None,
    sessions: MutableSet[Any] | None = None,
) -> None:
    """`modernart host --ssh PORT`: serve the client over SSH until cancelled; every guest
    plays at the host's table as an ordinary player, is told once what that trusts, and
    may take their copy of the finished game home (`ssh ... record`).  Run it in the
    host's event loop (or any other); `ready(port)` is called once listening."""
    from modernart.cli.tui.sshserve import serve, serve_forever

    acceptor = await serve(
        port,
        ssh_sessions_through(join_string, config_dir=config_dir, sessions=sessions),
        host=bind,
        host_key_path=host_key_path,
        table_code=table_code,
        record_for=ssh_records_of(join_string, config_dir=config_dir),
        notice=ssh_trust_notice,
    )
    if ready is not None:
        ready(acceptor.get_port())
    await serve_forever(acceptor)
