"""The remove overlay: the admin's `x` on a person's seat or on a watcher asks first, and
says what removing does (the key may not come back to this table)."""

from __future__ import annotations

from prompt_toolkit.layout import Float

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes, Pred
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut
from modernart.cli.tui.widgets import overlay

WIDTH = 60


def remove_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    who, fpr = cs.removing or ("", "")
    room = max(4, width - 2)
    return [
        [("class:title", " " + cut(_("Remove {who} from this table?").format(who=who), room))],
        [("", " " + cut(_("Key {fpr}. They cannot come back to this table.").format(fpr=fpr), room))],
        [("", " " + _("y: remove   n or Esc: keep"))],
    ]


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    """`y` removes the key asked about, `n` or Esc keeps it."""
    shown = modes.overlay("remove")

    def remove(event) -> None:
        asked, cs.removing, cs.overlay = cs.removing, None, None
        if asked is not None and cs.session is not None:
            controls.spawn(cs.session.remove(asked[1]))

    def keep(event) -> None:
        cs.removing, cs.overlay = None, None

    return [
        Command(("y",), "y", _("remove"), shown, remove, modes.always, 1),
        Command(("n", "escape"), "n", _("keep"), shown, keep, modes.always, 2),
    ]


def floating(cs: ClientState, shown: Pred) -> Float:
    """The remove overlay, floating over the lobby while `shown()`."""
    return overlay(cs, shown, _("Remove"), remove_panel, WIDTH)
