"""What a command module's `register(sub)` is handed: argparse's subcommand group, typed by the
one method the commands use (argparse names its class privately)."""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...
