"""Messages: every command's --help is complete (every option explained, no `%%` left by a
format string), and `modernart audit` given a transcript instead of the record says so."""

from __future__ import annotations

import argparse
import subprocess

import pytest

from modernart.cli.main import COMMANDS, build_parser
from modernart.net.trust.transcript import write_transcript
from tests.net_helpers import PY, ROOT, env


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_is_registered():
    assert set(subparsers()) == set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_is_explained(name):
    parser = subparsers()[name]
    assert parser.description, f"{name} has no description"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue  # an internal flag (one program passing it to another) is not shown at all
        assert action.help, f"{name} {action.option_strings or action.dest} has no help"
    text = parser.format_help()
    assert "%%" not in text and "%(" not in text, text


def test_audit_of_a_transcript_says_to_pass_the_record(tmp_path):
    path = tmp_path / "t1-abc.transcript"
    write_transcript(str(path), [])
    done = subprocess.run(
        [PY, "-m", "modernart", "audit", str(path)], capture_output=True, text=True, cwd=ROOT, env=env(), timeout=30
    )
    assert done.returncode == 2
    assert "is a transcript; pass the game's record" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
