"""`python -m modernart` runs the `modernart` command.

The one place the game package reaches the command line: imported by name at run time,
so that `modernart` itself never imports `cli` (imports flow cli -> net -> modernart).
"""

import importlib

raise SystemExit(importlib.import_module("modernart.cli.main").main())
