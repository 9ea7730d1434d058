"""The lines printed to the shell when a screen closes: in the client's language, naming
the command as it can be run from that shell (issue 27 item 5: after the README's
`.venv/bin/modernart play`, PATH has no `modernart`), and the record the final screen named."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from modernart.cli import invocation
from modernart.cli.i18n import speaking
from modernart.cli.local_table import after_words

SCRIPT = Path(sys.executable).with_name("modernart")  # the installed entry point, beside this python


def test_the_rule_for_naming_the_program():
    assert doctest.testmod(invocation).failed == 0


def run_as(argv0: str, path: str) -> str:
    """`program()` in a process started as `argv0`, with PATH `path`."""
    code = f"import sys; sys.argv = [{argv0!r}]; from modernart.cli.invocation import program; print(program())"
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    ).stdout.strip()


def test_a_script_not_on_path_is_named_by_its_path_and_one_on_path_by_its_name(tmp_path):
    assert SCRIPT.exists()
    relative = os.path.relpath(SCRIPT)
    assert run_as(relative, "/usr/bin:/bin") == relative  # `.venv/bin/modernart play`, venv not activated
    assert run_as(str(SCRIPT), f"{SCRIPT.parent}:/usr/bin:/bin") == "modernart"  # activated: PATH finds it
    assert run_as("modernart", "/usr/bin:/bin") == "modernart"  # the shell found it by its name


def test_the_shell_lines_name_the_command_and_the_record_the_screen_named(monkeypatch):
    monkeypatch.setattr(sys, "argv", [".venv/bin/modernart", "play"])
    monkeypatch.setattr(invocation.shutil, "which", lambda name: None)
    left = SimpleNamespace(obs=object(), record_path=None)
    assert after_words(left, "/g/t1-ab.jsonl", resumable=True).endswith("Continue it with: .venv/bin/modernart resume")
    done = SimpleNamespace(obs=object(), record_path="/home/ana/.config/modernart/state/games/t1-ab.json")
    told = after_words(done, "/g/t1-ab.jsonl", resumable=True)
    assert "record is saved in /home/ana/.config/modernart/state/games/t1-ab.json" in told
    assert told.endswith(".venv/bin/modernart replay /home/ana/.config/modernart/state/games/t1-ab.json --view")
    with speaking("fa"):
        assert "ادامه با: .venv/bin/modernart resume" in after_words(left, "/g/t1-ab.jsonl", resumable=True)
    with speaking("zh"):
        assert "继续：.venv/bin/modernart resume" in after_words(left, "/g/t1-ab.jsonl", resumable=True)
