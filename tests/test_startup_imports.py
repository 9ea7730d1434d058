"""What a command loads before it does anything (issue 27, start-up): the engine only when
a command needs it."""

from __future__ import annotations

import subprocess
import sys


def test_the_command_starts_without_the_engine():
    """`import modernart.cli.main` (every command's start, `modernart --help`) loads no engine
    module: the package's names come on first use (issue 27, start-up); they are all there."""
    code = (
        "import sys, modernart.cli.main, modernart\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('modernart.') and m.split('.')[1] in "
        "('game', 'state', 'auctions', 'cards', 'rules', 'bots', 'views'))\n"
        "assert not loaded, loaded\n"
        "assert sorted(modernart.__all__) == sorted(modernart._EXPORTS)\n"
        "assert all(getattr(modernart, name) is not None for name in modernart.__all__)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
