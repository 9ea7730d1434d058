"""Bad command-line values are refused with a message naming the flag, before anything
starts (no terminal needed to be told)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MODERNART = [sys.executable, "-m", "cli.main"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("args, flag", [
    (["--open-seconds", "0"], "--open-seconds must be positive, not 0"),
    (["--open-seconds", "-3"], "--open-seconds must be positive, not -3"),
    (["--decision-seconds", "0"], "--decision-seconds must be positive, not 0"),
])
def test_play_names_the_bad_clock_flag(args, flag):
    done = subprocess.run(MODERNART + ["play", *args], capture_output=True, text=True, timeout=25,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert f"modernart play: {flag}" in done.stderr


@pytest.mark.timeout(30)
def test_host_seats_medium_bots_and_stand_ins_by_default():
    from cli.main import build_parser
    from net.clocks import ClockSettings

    args = build_parser().parse_args(["host", "--bots", "2"])
    assert args.bot_level == "medium"
    assert ClockSettings().bot_level == "medium"  # the stand-in for a dropped player
