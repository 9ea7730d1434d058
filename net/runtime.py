"""What differs between Linux, macOS and Windows while a modernart process runs: the
event loop, the signals that stop it, and noticing that its parent has gone.

* The event loop.  pyzmq's asyncio sockets and the host's socket reader (net/host/router.py)
  watch file descriptors with `loop.add_reader`, which Windows' default (proactor) event
  loop does not have; every entry point calls `choose_event_loop()` before its first
  `asyncio.run`, which picks the selector loop there.  Linux and macOS keep the default.
* Stop signals.  `on_stop_signals` stops a server on Ctrl-C, on SIGTERM and, where the
  platform has it, on SIGHUP (its terminal closed; not when started under `nohup`, which
  ignores it) and on Ctrl-Break (SIGBREAK, Windows).  Where the loop cannot watch signals
  (Windows) the handler is set with `signal.signal` and hands over to the loop.
* The parent gone.  `when_stdin_closes` calls back once this process's stdin reaches its
  end: a parent stops its child by closing the child's stdin, which works the same on
  every platform (Windows has no SIGTERM to send: terminating a process there kills it
  before it can tell its clients or close its files).

No module here imports a platform-only module (fcntl, termios, msvcrt, winreg, ...) at
import time: tests/test_platform_imports.py imports every module with those missing.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, TextIO

if TYPE_CHECKING:  # asyncio itself only once a loop is chosen: `modernart replay` never needs it
    import asyncio

#: The signals that stop a server, by name: each one only where the platform has it
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK")


def choose_event_loop() -> None:
    """Make `asyncio.run` use an event loop that pyzmq can use (see the module docstring)."""
    if sys.platform == "win32":
        import asyncio

        asyncio.set_event_loop_policy(asyncio.WindowsSelectorEventLoopPolicy())  # type: ignore[attr-defined,unused-ignore]


def stop_signals() -> list[signal.Signals]:
    """The stop signals this platform has, less any this process was told to ignore
    (SIGHUP under `nohup`)."""
    found = []
    for name in STOP_SIGNALS:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        if name == "SIGHUP" and signal.getsignal(sig) is signal.SIG_IGN:
            continue
        found.append(sig)
    return found


def on_stop_signals(loop: asyncio.AbstractEventLoop, stop: Callable[[], Any]) -> list[signal.Signals]:
    """Call `stop` (on the loop) when a stop signal arrives; the signals handled.  Only the
    main thread can set signal handlers: elsewhere nothing is set."""
    handled = []
    for sig in stop_signals():
        try:
            loop.add_signal_handler(sig, stop)
        except NotImplementedError:  # Windows' loops: the C-level handler hands over to the loop
            try:
                signal.signal(sig, lambda _signum, _frame: loop.call_soon_threadsafe(stop))
            except (ValueError, OSError):  # not the main thread, or not settable here
                continue
        except (RuntimeError, ValueError):  # not the main thread
            continue
        handled.append(sig)
    return handled


def when_stdin_closes(
    loop: asyncio.AbstractEventLoop, closed: Callable[[], Any], stdin: TextIO | None = None
) -> threading.Thread:
    """Call `closed` (on the loop) once `stdin` (default: this process's) reaches its end.

    A daemon thread reads it, since no event loop can wait for a pipe on every platform
    (the selector loop that Windows needs for pyzmq cannot); whatever arrives is dropped."""
    stream: Any = (stdin or sys.stdin).buffer  # a BufferedReader: read1 returns what has arrived

    def read_to_the_end() -> None:
        try:
            while stream.read1(4096):
                pass
        except (OSError, ValueError):  # closed under us: the same end
            pass
        try:
            loop.call_soon_threadsafe(closed)
        except RuntimeError:  # the loop has closed meanwhile: nobody is left to tell
            pass

    thread = threading.Thread(target=read_to_the_end, name="stdin-end", daemon=True)
    thread.start()
    return thread
