"""The client's per-user settings, kept between games in `settings.json` in the user's
config directory (`user_dirs.config_dir()`): how many games this user has finished (the
first-game hint is shown until one is), and whether the client rings the bell and sets the
window title when a decision is theirs.

A missing or unreadable file is the defaults; a value of the wrong type is ignored (the
default stands), so a hand-edited file never stops the client.  Written whole, through a
temporary file renamed over the old one, so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from modernart.net import user_dirs

FILE_NAME = "settings.json"


@dataclass(frozen=True)
class UserSettings:
    games_finished: int = 0  # games this user saw to the end in this client
    alerts: bool = True  # bell and window title when a decision is yours

    @property
    def first_game(self) -> bool:
        return self.games_finished == 0


def settings_path(config_dir: str | os.PathLike | None = None) -> Path:
    return (Path(config_dir) if config_dir else user_dirs.config_dir()) / FILE_NAME


def load(config_dir: str | os.PathLike | None = None) -> UserSettings:
    """The saved settings (the defaults when there are none, or none readable)."""
    try:
        data = json.loads(settings_path(config_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return UserSettings()
    if not isinstance(data, dict):
        return UserSettings()
    defaults = UserSettings()
    kept = {
        f.name: data[f.name]
        for f in fields(UserSettings)
        if f.name in data and type(data[f.name]) is type(getattr(defaults, f.name))
    }
    return replace(defaults, **kept)


def save(settings: UserSettings, config_dir: str | os.PathLike | None = None) -> None:
    """Write `settings` (errors are the caller's: a read-only home is no reason to stop a game)."""
    path = settings_path(config_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(asdict(settings), indent=1), encoding="utf-8")
    os.replace(temporary, path)


def note_game_finished(config_dir: str | os.PathLike | None = None) -> None:
    """One more game seen to the end (the first-game hint is off from now on)."""
    settings = load(config_dir)
    try:
        save(replace(settings, games_finished=settings.games_finished + 1), config_dir)
    except OSError:
        pass


def add_alert_argument(parser) -> None:
    """`--no-alerts`, the same on every command that shows the client (play, resume, join, host)."""
    parser.add_argument(
        "--no-alerts",
        dest="alerts",
        action="store_const",
        const=False,
        default=None,
        help="no terminal bell and no window title when a decision is yours (on by default where the terminal "
        'can show them; "alerts": false in settings.json in the config directory turns them off for good)',
    )
