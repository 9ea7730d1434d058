"""The checkout's `net/` and `cli/` folders as `modernart.net` and `modernart.cli`, and nothing more.

Installed, pyproject's package-dir mapping puts the three folders into one package.  Run from
a checkout (`PYTHONPATH=.`, or an editable install), the two sibling folders must be found
under the same names.  Appending the checkout root to `modernart.__path__` would do that, but
it would also make every other folder of the checkout a subpackage (`modernart.tests`,
`modernart.benchmarks`, `modernart.modernart`, which contains itself, so
`pkgutil.walk_packages(modernart.__path__)` never ends).  A meta-path finder that answers for
exactly two names does not.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: the installed name of each top-level folder of the checkout besides modernart/ itself
SIBLINGS = {"modernart.net": "net", "modernart.cli": "cli"}


class CheckoutSiblings(importlib.abc.MetaPathFinder):
    """Finds `modernart.net` and `modernart.cli` in one checkout's folders, and no other name.

    >>> finder = CheckoutSiblings(Path("/src/modernart-checkout"))
    >>> finder
    CheckoutSiblings('/src/modernart-checkout')
    >>> finder.find_spec("modernart.tests", None) is None
    True
    """

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout

    def __repr__(self) -> str:
        return f"CheckoutSiblings({str(self.checkout)!r})"

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        folder = SIBLINGS.get(fullname)
        if folder is None:
            return None
        package = self.checkout / folder
        init = package / "__init__.py"
        if not init.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[str(package)])


def install(package_dir: Path) -> None:
    """Put a finder for the checkout that holds `package_dir` first on `sys.meta_path`.

    Only for a checkout: a folder with pyproject.toml and net/ beside modernart/.  It goes first,
    before an editable install's own finder, so that a copy of the checkout on PYTHONPATH finds
    its own net/ and cli/, not those of the tree that was installed.
    """
    checkout = package_dir.resolve().parent
    if not ((checkout / "pyproject.toml").is_file() and (checkout / "net" / "__init__.py").is_file()):
        return
    if not any(isinstance(finder, CheckoutSiblings) and finder.checkout == checkout for finder in sys.meta_path):
        sys.meta_path.insert(0, CheckoutSiblings(checkout))
