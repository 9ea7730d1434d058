"""What every test must leave behind: no ZeroMQ context open.

A context left to the garbage collector with a socket still open blocks the process in
`zmq_ctx_term` wherever the collector happens to run, in a later test, where no timeout can
interrupt it (a C call) and nothing says which test left it.  So each test's contexts are
tracked (a weak set filled by `zmq.Context.__init__`), and one left open fails that test and
is destroyed at once, its sockets without linger (in a thread: see `_destroy`).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, Iterator

import pytest
import zmq

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
