"""The options of the client's screen, the same on every command that shows it (play,
resume, join, host): language and right-to-left text, alerts, borders and colours; and
`ScreenOptions`, the one value of the last three that a command hands to the screen.

Kept apart from cli/tui/ so that a command can list them without importing the screen.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from modernart.cli.language_options import add_language_arguments
from modernart.cli.user_settings import add_alert_argument

#: The colour depths `--color` takes (the same as cli/tui/style.py's, without importing it).
COLOR_CHOICES = ("auto", "none", "16", "256", "truecolor")


def add_screen_arguments(parser: argparse.ArgumentParser) -> None:
    """`--lang`, `--bidi`, `--no-alerts`, `--ascii`, `--color` and `--no-color` on `parser`.

    >>> p = argparse.ArgumentParser()
    >>> add_screen_arguments(p)
    >>> args = p.parse_args(["--no-color", "--ascii"])
    >>> (args.color, args.ascii, args.alerts)
    ('none', True, None)
    """
    add_language_arguments(parser)
    add_alert_argument(parser)
    parser.add_argument("--ascii", action="store_true", default=None, help="draw borders with + - | only")
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colours: auto (NO_COLOR and TERM decide), none, 16, 256, truecolor",
    )
    parser.add_argument("--no-color", dest="color", action="store_const", const="none", help="same as --color none")


@dataclass(frozen=True)
class ScreenOptions:
    """How this person's screen is drawn, as the command line asked: `ascii` borders (None:
    as the terminal's encoding allows), the `color` depth (one of `COLOR_CHOICES`), and
    `alerts` (the bell and the window title when a decision becomes yours; None: as the
    user's settings say).  Language and text direction are the process's own (cli/i18n.py,
    cli/bidi.py), set before the screen exists.

    >>> ScreenOptions()
    ScreenOptions(ascii=None, color='auto', alerts=None)
    >>> p = argparse.ArgumentParser()
    >>> add_screen_arguments(p)
    >>> ScreenOptions.from_args(p.parse_args(["--ascii", "--no-alerts", "--color", "16"]))
    ScreenOptions(ascii=True, color='16', alerts=False)
    """

    ascii: bool | None = None
    color: str = "auto"
    alerts: bool | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ScreenOptions:
        """The options `add_screen_arguments` parsed into `args`."""
        return cls(ascii=args.ascii, color=args.color, alerts=args.alerts)
