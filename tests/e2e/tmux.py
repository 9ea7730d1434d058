"""Drive a real terminal: tmux on a private socket, keys in, screen out.

Every call has a timeout; `close()` kills the private tmux server and everything in it.
The pane keeps a finished command on screen (`EXITED:<code>` then a pause), so a crash's
traceback can be read from the capture.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
import uuid

import pytest

from tests.slowdown import scaled


def need_tmux() -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (python -m tests.tools installs it)")


class Tmux:
    """One tmux server (socket `-L` unique to this object) with one session, `main`."""

    def __init__(self) -> None:
        need_tmux()
        self.socket = f"modernart-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.started = False

    def _tmux(self, *args: str, timeout: float = 10) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(
        self,
        argv: list[str],
        *,
        cols: int = 80,
        rows: int = 24,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        """Run `argv` in a fresh pane of `cols` x `rows`."""
        env_part = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        command = " ".join(shlex.quote(a) for a in argv)
        cd = f"cd {shlex.quote(cwd)} && " if cwd else ""
        shell = f"{cd}env {env_part} {command}; echo EXITED:$?; sleep 120"
        self._tmux("new-session", "-d", "-s", "main", "-x", str(cols), "-y", str(rows), shell)
        self.started = True

    def capture(self, escapes: bool = False) -> str:
        args = ["capture-pane", "-p", "-t", "main"] + (["-e"] if escapes else [])
        return self._tmux(*args)

    def rows(self) -> list[str]:
        return self.capture().split("\n")

    def send(self, *keys: str) -> None:
        """tmux key names: Enter, Escape, Left, C-c, or single characters."""
        self._tmux("send-keys", "-t", "main", *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "main", "-l", text)

    def resize(self, cols: int, rows: int) -> None:
        self._tmux("resize-window", "-t", "main", "-x", str(cols), "-y", str(rows))

    def size(self) -> str:
        return self._tmux("display", "-p", "-t", "main", "#{window_width}x#{window_height}").strip()

    def wait_for(self, pattern: str, timeout: float = 15.0) -> str:
        """Poll the screen until it matches the regular expression `pattern`."""
        end = time.monotonic() + scaled(timeout)
        while True:
            screen = self.capture()
            if re.search(pattern, screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(
                    f"timed out after {scaled(timeout):.0f}s waiting for {pattern!r}; screen:\n{screen}"
                )
            time.sleep(0.1)

    def close(self) -> None:
        if self.started:
            subprocess.run(
                ["tmux", "-L", self.socket, "-f", "/dev/null", "kill-server"], capture_output=True, timeout=10
            )
            self.started = False
