"""The per-user directories modernart keeps its files in, on Linux, macOS and Windows.

This module is the one place these paths are computed; everything else asks it.  The
platform's conventions come from platformdirs, so on Linux the XDG variables are honoured
(`$XDG_CONFIG_HOME/modernart`, else `~/.config/modernart`; `$XDG_DATA_HOME/modernart`,
else `~/.local/share/modernart`; `$XDG_STATE_HOME/modernart`, else
`~/.local/state/modernart`), on macOS everything lives under
`~/Library/Application Support/modernart`, on Windows under `%LOCALAPPDATA%\\modernart`
(not the roaming profile: keys and journals belong to one machine).

`$MODERNART_CONFIG_DIR` names the config directory outright (tests and several
identities on one account use it).  The functions only compute paths; whoever writes a
file creates its directory, with the mode the file needs (keys: 0700).

    >>> games_dir() == data_dir() / "games"
    True
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

#: The application's directory name on every platform
APP_NAME = "modernart"

#: Environment variable naming the config directory, over the platform's default
CONFIG_ENV = "MODERNART_CONFIG_DIR"

#: File name of the SSH server's host key, in the config directory
SSH_HOST_KEY_NAME = "ssh_host_ed25519"


def _dirs() -> platformdirs.PlatformDirs:
    # made per call, not once at import: the environment (XDG_*, HOME, a test's tmp dir)
    # is read when a path is wanted.  appauthor=False: no vendor folder on Windows.
    return platformdirs.PlatformDirs(APP_NAME, appauthor=False, roaming=False)


def config_dir() -> Path:
    """Keys (the player's, the host's, the SSH host key) and settings: `$MODERNART_CONFIG_DIR`,
    else the platform's per-user config directory."""
    named = os.environ.get(CONFIG_ENV)
    return Path(named) if named else Path(_dirs().user_config_dir)


def data_dir() -> Path:
    """What the user keeps: the platform's per-user data directory."""
    return Path(_dirs().user_data_dir)


def games_dir() -> Path:
    """Where hosted games' journals (their saved records) go by default."""
    return data_dir() / "games"


def records_dir() -> Path:
    """Where `modernart play` keeps the journals and records of games on this machine."""
    return data_dir() / "records"


def state_dir() -> Path:
    """Logs and other files that may be thrown away: the platform's per-user state directory."""
    return Path(_dirs().user_state_dir)


def ssh_host_key_path() -> Path:
    """The SSH server's host key, kept so guests see the same key every game."""
    return config_dir() / SSH_HOST_KEY_NAME
