"""A child process whose stdout is read line by line on any event loop, on every platform.

asyncio's own subprocesses need, on Windows, the proactor event loop, and pyzmq needs the
selector loop there (net/runtime.py); so the child is a plain `subprocess.Popen`, and two
daemon threads hand its output lines and its exit to the loop.  The same code runs on
Linux, macOS and Windows.  The child is stopped by closing its stdin (`close_stdin`),
which every platform has; `kill` is the last resort.

Where it is safe (Linux, a process with no thread yet), `fork_child` starts the child as a
fork of this process instead of a new interpreter: it runs a function of this program
with everything already imported, so the modules both processes need are loaded once, not
twice (`modernart play`'s host, cli/tui/child_host.py).  It is the same child to its
parent: its stdin and stdout are pipes, its stderr a file, and `ChildProcess` reads it and
stops it the same way.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from typing import IO, TYPE_CHECKING, Any, Callable, Protocol, Sequence

from modernart.net.durable import open_fd

if TYPE_CHECKING:  # multiprocessing only where a child is forked
    from multiprocessing.process import BaseProcess


class Process(Protocol):
    """What `ChildProcess` uses of a started process: a `subprocess.Popen` or a `ForkedProcess`."""

    @property
    def stdin(self) -> IO[bytes] | None: ...
    @property
    def stdout(self) -> IO[bytes] | None: ...
    @property
    def returncode(self) -> int | None: ...
    def poll(self) -> int | None: ...
    def wait(self) -> int: ...
    def kill(self) -> None: ...


class ChildProcess:
    """One running child: `await readline()` (b"" once its stdout ends), `await wait()`."""

    def __init__(self, proc: Process, loop: asyncio.AbstractEventLoop) -> None:
        self.proc = proc
        self._lines: asyncio.Queue[bytes] = asyncio.Queue()
        self._exited = loop.create_future()
        threading.Thread(target=self._read_lines, args=(loop,), name="child-stdout", daemon=True).start()
        threading.Thread(target=self._wait_exit, args=(loop,), name="child-exit", daemon=True).start()

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        *,
        stdin_pipe: bool = True,
        stderr: IO[Any] | int = subprocess.DEVNULL,
        cwd: str | None = None,
    ) -> "ChildProcess":
        """Start `argv` with its stdout piped to us, its stdin a pipe (else empty), its stderr
        to `stderr`."""
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE if stdin_pipe else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
        )
        return cls(proc, asyncio.get_running_loop())

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self._exited.done() else None

    async def readline(self) -> bytes:
        """The child's next output line, b"" once its stdout has ended."""
        line = await self._lines.get()
        if not line:
            self._lines.put_nowait(b"")  # every later read sees the end too
        return line

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)

    def close_stdin(self) -> None:
        """Tell the child to stop: its stdin reaches its end."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:  # it has gone already
                pass

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()

    def _read_lines(self, loop: asyncio.AbstractEventLoop) -> None:
        assert self.proc.stdout is not None
        try:
            for line in iter(self.proc.stdout.readline, b""):
                if not _hand_over(loop, self._lines.put_nowait, line):
                    return
        except (OSError, ValueError):  # closed under us
            pass
        finally:
            self.proc.stdout.close()
        _hand_over(loop, self._lines.put_nowait, b"")

    def _wait_exit(self, loop: asyncio.AbstractEventLoop) -> None:
        _hand_over(loop, self._exit, self.proc.wait())

    def _exit(self, code: int) -> None:
        if not self._exited.done():
            self._exited.set_result(code)


def _hand_over(loop: asyncio.AbstractEventLoop, call: Any, value: Any) -> bool:
    """Run `call(value)` on the loop; False if the loop has closed (nobody listens)."""
    try:
        loop.call_soon_threadsafe(call, value)
    except RuntimeError:
        return False
    return True


# ---------------------------------------------------------------------- a forked child


def can_fork() -> bool:
    """Whether a child may be forked here without starting a new interpreter: only on
    Linux (macOS's system libraries are not safe to use in a fork that does not exec, and
    Windows has no fork) and only while this process runs no other thread (a fork copies
    just the calling thread: a lock another thread held would stay locked in the child)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1


class ForkedProcess:
    """A child started by `fork_child` (a `multiprocessing` process of the "fork" start
    method, whose stdin and stdout are pipes to us), with what `ChildProcess` uses of a
    `subprocess.Popen`."""

    def __init__(self, process: BaseProcess, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.process = process
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        # one waitpid at a time: `wait` (ChildProcess's exit thread) holds it while it waits,
        # so that a `poll` meanwhile never reaps the child under it
        self._reaping = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """Its exit code once it has ended (a signal that ended it: minus its number), else None."""
        return self.poll()

    def poll(self) -> int | None:
        """Its exit code if it has ended, else None; never blocks."""
        if not self._reaping.acquire(blocking=False):
            return None  # `wait` is waiting for it: it has not been reaped yet
        try:
            return self.process.exitcode
        finally:
            self._reaping.release()

    def wait(self) -> int:
        with self._reaping:
            self.process.join()
            code = self.process.exitcode
        assert code is not None  # joined
        return code

    def kill(self) -> None:
        if self.poll() is None:
            self.process.kill()


def fork_child(run: Callable[[], int], *, stderr_path: str | None = None) -> ForkedProcess:
    """Fork a child that calls `run()` and exits with its result; its stdin and stdout are
    pipes to this process, its stderr appends to `stderr_path` (default: nowhere).  Only
    where `can_fork()`.  The child is a daemon of this process: should this process end
    without stopping it, multiprocessing ends it too."""
    import multiprocessing

    if not can_fork():
        raise RuntimeError("this process cannot fork a child safely (not Linux, or it runs threads)")
    child_in, to_child = os.pipe()  # (read end, write end): the child's stdin
    from_child, child_out = os.pipe()  # its stdout
    err = open_fd(stderr_path or os.devnull, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    ends = (child_in, child_out, err, to_child, from_child)
    process = multiprocessing.get_context("fork").Process(
        target=_forked_child, args=(run, ends), name="modernart-child", daemon=True
    )
    try:
        process.start()
    finally:
        for fd in (child_in, child_out, err):
            os.close(fd)
    return ForkedProcess(process, os.fdopen(to_child, "wb", buffering=0), os.fdopen(from_child, "rb"))


def _forked_child(run: Callable[[], int], ends: tuple[int, int, int, int, int]) -> None:
    """In the forked child: the pipes become its stdin and stdout, the log its stderr; then
    `run()`, whose result is the exit code."""
    child_in, child_out, err = ends[:3]
    for fd, target in ((child_in, 0), (child_out, 1), (err, 2)):
        os.dup2(fd, target)
    for fd in ends:
        os.close(fd)  # above all the parent's ends: our stdin must end when the parent's copy closes
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    code = run()
    sys.stdout.flush()
    sys.exit(code)
