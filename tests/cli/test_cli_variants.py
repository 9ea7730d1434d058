"""`--variant` and `--rule` on play, host and arena: the options they give, and clear errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from modernart.cli.main import build_parser
from modernart.cli.variant_args import options_from_args, rule_value
from modernart.presets import PRESETS, preset_options


@pytest.mark.parametrize("command", ["play", "host", "arena"])
@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_command_takes_every_variant(command, variant):
    args = build_parser().parse_args([command, "--variant", variant])
    assert options_from_args(args) == preset_options(variant).changed()


def test_rules_go_on_top_of_the_variant_and_host_options_on_top_of_both():
    args = build_parser().parse_args(
        ["host", "--variant", "zh_seed", "--rule", "mystery_hand=hig", "--rule", "rank_values=30,20,10,5"]
    )
    got = options_from_args(args, {"double_split": False})
    assert got == {
        "three_player_first_deal": 11,
        "open_autoclose": False,
        "mystery_hand": "hig",
        "rank_values": "30,20,10,5",
    }
    assert rule_value("off") is False and rule_value("9") == 9


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--rule", "bogus=1"], "unknown rule option"),
        (["--rule", "deal_size_fixed=99"], "deal_size_fixed"),
        (["--rule", "nothing"], "NAME=VALUE"),
        (["--players", "4", "--rule", "mystery_hand=cmon"], "three-player"),
    ],
)
def test_a_bad_rule_is_refused_with_what_is_wrong(argv, words):
    done = subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "play", "--watch", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and words in done.stderr, done.stderr


def test_watch_plays_a_whole_game_of_a_variant():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "modernart.cli.main",
            "play",
            "--watch",
            "--players",
            "3",
            "--variant",
            "fa_seed",
            "--seed",
            "4",
            "--rule",
            "mystery_hand=hig",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Game over" in done.stdout and "all hands empty" in done.stdout


def test_arena_runs_a_variant():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "modernart.cli.main",
            "arena",
            "--bots",
            "medium,random,random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--variant",
            "zh_seed",
            "--progress",
            "off",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "variant zh_seed" in done.stdout, done.stderr
