"""A child process whose stdout is read line by line on any event loop, on every platform.

asyncio's own subprocesses need, on Windows, the proactor event loop, and pyzmq needs the
selector loop there (net/runtime.py); so the child is a plain `subprocess.Popen`, and two
daemon threads hand its output lines and its exit to the loop.  The same code runs on
Linux, macOS and Windows.  The child is stopped by closing its stdin (`close_stdin`),
which every platform has; `kill` is the last resort.
"""

from __future__ import annotations

import asyncio
import subprocess
import threading
from typing import IO, Any, Sequence


class ChildProcess:
    """One running child: `await readline()` (b"" once its stdout ends), `await wait()`."""

    def __init__(self, proc: subprocess.Popen[bytes], loop: asyncio.AbstractEventLoop) -> None:
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
