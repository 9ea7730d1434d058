"""`--lang` and `--bidi`, the same on every command that shows the client (play, host, join).

The language is this terminal's own: `--lang`, else LANGUAGE/LC_ALL/LC_MESSAGES/LANG, else
English.  Other players at the same table choose theirs; the host sends no words.
"""

from __future__ import annotations

import argparse

from modernart.cli.bidi import BIDI_MODES, set_bidi
from modernart.cli.i18n import LANGUAGES, choose_language, set_language


def add_language_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="the client's language: en, zh (Simplified Chinese), fa (Persian); default from LANG",
    )
    parser.add_argument(
        "--bidi",
        choices=BIDI_MODES,
        default="client",
        help="right-to-left text (Persian): 'client' reorders and shapes it here (default; for "
        "terminals without BiDi support), 'terminal' leaves that to a terminal that does it itself",
    )


def apply_language_arguments(args: argparse.Namespace) -> None:
    """Make this process speak the language the arguments (or the environment) ask for."""
    set_language(choose_language(getattr(args, "lang", None)))
    set_bidi(getattr(args, "bidi", None) or "client")
