"""What every test must leave behind: no ZeroMQ context open.

A context left to the garbage collector with a socket still open blocks the process in
`zmq_ctx_term` wherever the collector happens to run, in a later test, where no timeout can
interrupt it (a C call) and nothing says which test left it.  So each test's contexts are
tracked (a weak set filled by `zmq.Context.__init__`), and one left open fails that test and
is destroyed at once, its sockets without linger (in a thread: see `_destroy`).
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any, Iterator

import pytest
import zmq

from tests import slowdown

_contexts: "weakref.WeakSet[zmq.Context[Any]]" = weakref.WeakSet()
_context_init = zmq.Context.__init__


def _tracked_init(self: zmq.Context[Any], *args: Any, **kwargs: Any) -> None:
    _context_init(self, *args, **kwargs)
    if not getattr(self, "_shadow", False):  # a shadow does not own the context it wraps
        _contexts.add(self)


zmq.Context.__init__ = _tracked_init  # type: ignore[method-assign]


#: contexts that would not terminate: kept here, away from the garbage collector, whose
#: finalizer would block on them just the same
_stuck: list[zmq.Context[Any]] = []


def _destroy(context: zmq.Context[Any]) -> None:
    """Close `context`'s sockets without linger and terminate it, in a thread of its own: a
    socket it does not track (one made through a shadow of it, as the host's router is)
    keeps `zmq_ctx_term` waiting for good, and then only that thread waits."""
    closing = threading.Thread(target=context.destroy, kwargs={"linger": 0}, name="zmq-leak", daemon=True)
    closing.start()
    closing.join(5)
    if closing.is_alive():
        _stuck.append(context)


@pytest.fixture(autouse=True)
def no_zmq_context_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    before = {id(c) for c in _contexts if not c.closed}
    yield
    left = [c for c in list(_contexts) if not c.closed and id(c) not in before]
    for context in left:
        _destroy(context)
    if left:
        pytest.fail(f"{request.node.nodeid} left {len(left)} ZeroMQ context(s) open", pytrace=False)


def pytest_report_header(config: pytest.Config) -> str:
    source = "from MODERNART_TEST_SLOWDOWN" if os.environ.get("MODERNART_TEST_SLOWDOWN") else "measured"
    return (
        f"slowdown factor {slowdown.factor():.2f} ({source}: wall-clock over CPU time of a busy loop); "
        "end-to-end waits and per-test timeouts are stretched by it"
    )


def _timeout_of(item: pytest.Item, default: float) -> float:
    mark = item.get_closest_marker("timeout")
    if mark is None:
        return default
    return float(mark.args[0] if mark.args else mark.kwargs.get("timeout", default))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's timeout (its own mark, or the suite's) stretched by the slowdown factor: the
    timeout is a backstop against a hang, and a busy machine is not a hang."""
    stretch = slowdown.factor()
    if stretch <= 1.0:
        return
    default = float(config.getini("timeout") or 0)
    for item in items:
        seconds = _timeout_of(item, default)
        if seconds:
            item.add_marker(pytest.mark.timeout(seconds * stretch), append=False)
