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


def test_a_named_command_registers_its_own_parser_only():
    """`modernart play ...` builds the `play` parser alone: no other command module is
    imported (issue 27, start-up), and it parses every command line as the full parser does."""
    code = (
        "import sys\n"
        "from modernart.cli.main import COMMANDS, build_parser, named_command\n"
        "argv = ['-v', 'play', '--offline', '--players', '3', '--ascii']\n"
        "only = build_parser(only=named_command(argv)).parse_args(argv)\n"
        "others = sorted(m for m in sys.modules if m.startswith('modernart.cli.cmd_') and m != 'modernart.cli.cmd_play')\n"
        "assert not others, others\n"
        "full = build_parser().parse_args(argv)\n"
        "assert vars(only) == vars(full), (vars(only), vars(full))\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_the_program_help_lists_every_command_whatever_follows():
    """`modernart -h play` and a mistyped command are the program's help and error, which
    name every command (the parser of one command is built only when its name comes first)."""
    from modernart.cli.main import COMMANDS, named_command

    assert named_command(["-h", "play"]) is None
    assert named_command(["--verbose", "pley"]) is None
    assert named_command([]) is None
    assert all(named_command([name, "--help"]) == name for name in COMMANDS)
    done = subprocess.run(
        [sys.executable, "-m", "modernart.cli.main", "-h", "play"], capture_output=True, text=True, timeout=60
    )
    assert all(name in done.stdout for name in COMMANDS), done.stdout


def test_building_the_screen_makes_no_stand_in_application():
    """The client's layout is built before its application runs; asking the terminal's size
    then must not build prompt_toolkit's stand-in application (its default key bindings, about
    20 ms each time, on the start-up path: issue 27): it is the stand-in's size, 80x40."""
    code = (
        "import prompt_toolkit.application.dummy as dummy\n"
        "made = []\n"
        "init = dummy.DummyApplication.__init__\n"
        "def counted(self, *a, **k):\n"
        "    made.append(1)\n"
        "    init(self, *a, **k)\n"
        "dummy.DummyApplication.__init__ = counted\n"
        "from prompt_toolkit.output import DummyOutput\n"
        "from modernart.cli.tui.layout import ClientLayout\n"
        "from modernart.cli.tui.state import ClientState\n"
        "from modernart.cli.tui.widgets import SIZE_BEFORE_THE_APP, size\n"
        "layout = ClientLayout(ClientState(None, env={}), lambda cs, w: [])\n"
        "layout.current()\n"
        "s = DummyOutput().get_size()\n"
        "assert size() == SIZE_BEFORE_THE_APP == (s.columns, s.rows)\n"
        "assert not made, len(made)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
