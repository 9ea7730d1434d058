"""Per-user directories (net/user_dirs.py): the XDG paths on Linux, and the macOS and Windows
layouts platformdirs gives when `sys.platform` is made to say so in a fresh interpreter
(platformdirs picks its layout when first imported; its Windows layout takes the local
application-data folder from `WIN_PD_OVERRIDE_LOCAL_APPDATA` where that is set, instead of
asking the Windows shell, so the Windows layout can be computed here)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from modernart.net import user_dirs

from tests.net_helpers import ROOT

ASK = textwrap.dedent("""
    import json, sys
    sys.platform = {platform!r}
    from modernart.net import user_dirs
    print(json.dumps({{name: str(getattr(user_dirs, name)()) for name in
                      ("config_dir", "data_dir", "games_dir", "records_dir", "state_dir", "ssh_host_key_path")}}))
""")


def dirs_on(platform: str, env: dict[str, str]) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", ASK.format(platform=platform)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_linux_honours_the_xdg_variables(tmp_path, monkeypatch):
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MODERNART_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    if not sys.platform.startswith("linux"):
        pytest.skip("the XDG layout is Linux's")
    assert user_dirs.config_dir() == tmp_path / ".config" / "modernart"
    assert user_dirs.data_dir() == tmp_path / ".local" / "share" / "modernart"
    assert user_dirs.games_dir() == tmp_path / ".local" / "share" / "modernart" / "games"
    assert user_dirs.records_dir() == tmp_path / ".local" / "share" / "modernart" / "records"
    assert user_dirs.state_dir() == tmp_path / ".local" / "state" / "modernart"
    assert user_dirs.ssh_host_key_path() == tmp_path / ".config" / "modernart" / "ssh_host_ed25519"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "c"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "d"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "s"))
    assert user_dirs.config_dir() == tmp_path / "c" / "modernart"
    assert user_dirs.games_dir() == tmp_path / "d" / "modernart" / "games"
    assert user_dirs.state_dir() == tmp_path / "s" / "modernart"
    monkeypatch.setenv("MODERNART_CONFIG_DIR", str(tmp_path / "mine"))
    assert user_dirs.config_dir() == tmp_path / "mine"
    assert user_dirs.ssh_host_key_path() == tmp_path / "mine" / "ssh_host_ed25519"


def test_paths_are_computed_not_created(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MODERNART_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    user_dirs.config_dir(), user_dirs.games_dir(), user_dirs.state_dir()
    assert list(tmp_path.iterdir()) == []


def test_macos_layout(tmp_path):
    got = dirs_on("darwin", {"HOME": str(tmp_path)})
    support = tmp_path / "Library" / "Application Support" / "modernart"
    assert got["config_dir"] == str(support)
    assert got["data_dir"] == str(support)
    assert got["games_dir"] == str(support / "games")
    assert got["state_dir"] == str(support)
    assert got["ssh_host_key_path"] == str(support / "ssh_host_ed25519")


LOCAL_APP_DATA = "C:\\Users\\friend\\AppData\\Local"


def test_windows_layout_is_the_local_app_data_folder(tmp_path):
    got = dirs_on("win32", {"HOME": str(tmp_path), "WIN_PD_OVERRIDE_LOCAL_APPDATA": LOCAL_APP_DATA})
    # the one folder (no vendor folder above it, not the roaming profile) for keys, games and logs;
    # os.path.join here is Linux's, so the separator before "modernart" is "/", on Windows "\\"
    mine = LOCAL_APP_DATA + "/modernart"
    assert got["config_dir"] == mine and got["data_dir"] == mine and got["state_dir"] == mine
    assert got["games_dir"] == mine + "/games"


def test_the_config_dir_variable_wins_on_every_platform(tmp_path):
    for platform in ("linux", "darwin", "win32"):
        env = {"HOME": str(tmp_path), "WIN_PD_OVERRIDE_LOCAL_APPDATA": LOCAL_APP_DATA}
        env["MODERNART_CONFIG_DIR"] = str(tmp_path / "k")
        assert dirs_on(platform, env)["config_dir"] == str(tmp_path / "k")
