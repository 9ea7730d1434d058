"""The tables a host serves, by id: opened here (ids t1, t2, ... never reused) or added
(resumed from a journal by `Table.resume`), and removed once freed (net/host/presence.py)."""

from __future__ import annotations

from modernart.net.host.table import Table
from modernart.net.trust.identity import Keys


class TableRegistry:
    """The host's tables (see the module docstring)."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys  # the host's: every table's game is signed with them
        self.tables: dict[str, Table] = {}
        self.serial = 0  # tables opened without an id: t1, t2...

    def add(self, table: Table) -> Table:
        self.tables[table.id] = table
        return table

    def new_id(self, table_id: str | None = None) -> str:
        """`table_id`, or the next id of a table opened without one."""
        if table_id is None:
            self.serial += 1
            while f"t{self.serial}" in self.tables:
                self.serial += 1
            table_id = f"t{self.serial}"  # counted, not len(tables): never a freed table's id again
        return table_id

    def remove(self, table: Table) -> None:
        """Forget `table` (if it is still the one under its id)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def find(self, table_id: str | None) -> Table | None:
        """The table a hello names: `table_id`, or the only one when it names none."""
        if table_id is None and len(self.tables) == 1:
            return next(iter(self.tables.values()))
        return self.tables.get(table_id) if table_id is not None else None
