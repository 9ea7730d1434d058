"""How this program is run again from the shell that started it: the command the lines
printed to the shell name ("Continue it with: modernart resume").

After the README's own `pip install -e .` in a virtualenv that is not activated, PATH has
no `modernart`: the program was started as `.venv/bin/modernart`, and that is what such
a line must say.  The rule: the name the shell ran (`sys.argv[0]`) when it holds a
directory and PATH would not find that same file by the bare name; else `modernart`.

>>> program(["modernart"], lambda name: "/usr/bin/modernart")
'modernart'
>>> program([".venv/bin/modernart", "play"], lambda name: None)
'.venv/bin/modernart'
>>> program(["/opt/my games/bin/modernart"], lambda name: None)
"'/opt/my games/bin/modernart'"
>>> program(["-c"], lambda name: None)  # not started as the program (python -c, a test)
'modernart'
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import Callable, Sequence

NAME = "modernart"


def program(argv: Sequence[str] | None = None, which: Callable[[str], str | None] = shutil.which) -> str:
    """The command that runs this program from the current shell, ready to paste."""
    argv = sys.argv if argv is None else argv
    started = argv[0] if argv else ""
    in_a_directory = os.sep in started or (os.altsep is not None and os.altsep in started)
    if not os.path.basename(started).startswith(NAME) or not in_a_directory:
        return NAME  # by its name on PATH, or not as the program at all
    found = which(NAME)
    if found is not None and os.path.realpath(found) == os.path.realpath(started):
        return NAME
    return shlex.quote(started)
