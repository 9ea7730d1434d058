"""A setting of this process that one context may change for itself: the client's language
(cli/i18n.py) and its BiDi mode (cli/bidi.py).

An SSH host serves several guests in one event loop, each in their own language and mode,
so such a setting is a `ContextVar` set for the current task and the tasks it starts, over
the process's own default.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Iterator, Sequence


class ContextSetting:
    """One such setting: the `choices` it may take (anything else is a ValueError naming
    `what` it is) and the process's `default`.

    >>> colour = ContextSetting("colour", "modernart_colour", ("red", "blue"), "red")
    >>> with colour.within("blue"):
    ...     colour.get()
    'blue'
    >>> colour.get()
    'red'
    """

    def __init__(self, what: str, var_name: str, choices: Sequence[str], default: str) -> None:
        self.what = what
        self.choices = tuple(choices)
        self.process = self.checked(default)  # the process's own (for every context that did not `use` one)
        self._var: ContextVar[str | None] = ContextVar(var_name, default=None)

    def __repr__(self) -> str:
        return f"<ContextSetting {self.what} {self.get()!r} (process {self.process!r})>"

    def checked(self, value: str) -> str:
        if value not in self.choices:
            raise ValueError(f"unknown {self.what} {value!r}; choose from {', '.join(self.choices)}")
        return value

    def set_process(self, value: str) -> None:
        """The process's value, for every context that did not `use` its own."""
        self.process = self.checked(value)

    def use(self, value: str) -> None:
        """The current context's value: this task and the tasks it starts from now on."""
        self._var.set(self.checked(value))

    @contextlib.contextmanager
    def within(self, value: str | None) -> Iterator[None]:
        """Within the block, this context's value is `value` (None: as it was); restored after."""
        if value is None:
            yield
            return
        token = self._var.set(self.checked(value))
        try:
            yield
        finally:
            self._var.reset(token)

    def get(self) -> str:
        """This context's value."""
        return self._var.get() or self.process
