"""A table on this machine without its host: its settings, where its files go, and how a
session hears of its saved record.

`modernart play` builds these before it knows where the host runs (in a child process, or
with --offline in this one), so they import nothing of the host (net/host/): the parent of
a child host never loads the host, and starts the child before loading its own screen
(cli/tui/child_host.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from modernart.net import user_dirs

if TYPE_CHECKING:  # imported when the host reads them (the host's process), not before
    from modernart.net.clocks import ClockSettings
    from modernart.net.trust.shuffle import FixedDeal


def default_record_dir() -> str:
    """Where `modernart play` journals its games (and saves their records) by default: the
    user's games directory, where `modernart host` journals its games too, so that
    `modernart resume` and `modernart stats` find every game in one place."""
    return str(user_dirs.games_dir())


def host_log_path() -> str:
    """Where a child host of this machine logs: host.log in the user's state dir (made if
    missing), beside the client's own client.log (cli/tui/app.py)."""
    path = user_dirs.state_dir()
    os.makedirs(path, exist_ok=True)
    return os.path.join(path, "host.log")


@dataclass
class TableSettings:
    """One table on this machine: its seats' bots, rules, clocks and where its files go.

    `levels` are the host's bots, seated from seat `first_bot_seat` on (seat 1, the first,
    is the person's).  With `autostart` the game starts as soon as `players` seats are taken
    and everyone is ready (the bots alone never start it).  `deal`/`first` give a fixed
    deal (deck order, first auctioneer).  `resume` names the journal of an unfinished game
    of this machine's host to continue instead (`modernart resume`): its seats, rules and
    clocks are the journal's, its bots come back as they were (a bot seat whose client is
    gone gets a bot of its own level at once), and the person's key takes its seat again."""

    players: int = 4
    levels: list[str] = field(default_factory=lambda: ["random"] * 3)
    table_name: str = "Modern Art"
    options: dict[str, Any] = field(default_factory=dict)
    clocks: dict[str, Any] = field(default_factory=dict)  # ClockSettings fields (0 = off)
    bot_pace: float = 1.0
    journal_dir: str | None = None
    config_dir: str | None = None
    autostart: bool = True
    first_bot_seat: int = 1
    deal: list[int] | None = None
    first: int = 0
    resume: str | None = None

    @property
    def clock_settings(self) -> ClockSettings:
        from modernart.net.clocks import ClockSettings

        return ClockSettings.from_dict(self.clocks)

    @property
    def fixed_deal(self) -> FixedDeal | None:
        from modernart.net.trust.shuffle import FixedDeal

        return None if self.deal is None else FixedDeal.of(self.deal, self.first)
