"""Bad command-line values are refused with a message naming the flag, before anything
starts (no terminal needed to be told)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

MODERNART = [sys.executable, "-m", "modernart.cli.main"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "args, flag",
    [
        (["--open-seconds", "0"], "--open-seconds must be positive, not 0"),
        (["--open-seconds", "-3"], "--open-seconds must be positive, not -3"),
        (["--decision-seconds", "0"], "--decision-seconds must be positive, not 0"),
    ],
)
def test_play_names_the_bad_clock_flag(args, flag):
    done = subprocess.run(
        MODERNART + ["play", *args], capture_output=True, text=True, timeout=25, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2
    assert f"modernart play: {flag}" in done.stderr


@pytest.mark.timeout(30)
def test_host_seats_medium_bots_and_stand_ins_by_default():
    from modernart.cli.main import build_parser
    from modernart.net.clocks import ClockSettings

    args = build_parser().parse_args(["host", "--bots", "2"])
    assert args.bot_level == "medium"
    assert ClockSettings().bot_level == "medium"  # the stand-in for a dropped player


@pytest.mark.timeout(60)
def test_watch_tells_a_card_and_its_auction_in_one_line_and_stops_quietly_when_the_reader_goes():
    whole = subprocess.run(MODERNART + ["play", "--watch", "--seed", "3"], capture_output=True, text=True, timeout=50)
    assert whole.returncode == 0 and whole.stderr == ""
    lines = whole.stdout.splitlines()
    assert re.match(r"\w+ puts up .+: .+ auction$", lines[0])
    assert any(re.search(r"ends the round, unsold$", line) for line in lines)
    # a reader that has gone (like `| head -1` after its line): closed before anything is written
    proc = subprocess.Popen(
        MODERNART + ["play", "--watch", "--seed", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _out, err = proc.communicate(timeout=50)
    assert proc.returncode == 141 and b"Traceback" not in err, err
