"""The chat line: `c` opens it where talking is offered (the table, the lobby, the final
result), Enter sends what was typed, Esc or Ctrl-C closes it unsent."""

from __future__ import annotations

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import BufferControl, ConditionalContainer, VSplit, Window

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.widgets import PanelControl


class ChatLine:
    """The text field and its "Say:" label, shown while the chat line is open."""

    def __init__(self, cs: ClientState) -> None:
        self.buffer = Buffer(name="chat", multiline=False)
        self.window = Window(BufferControl(self.buffer), height=1)
        self.container = ConditionalContainer(
            VSplit(
                [
                    Window(PanelControl(lambda w, h: [[("class:chat.who", " " + _("Say:") + " ")]]), width=6, height=1),
                    self.window,
                ]
            ),
            filter=Condition(lambda: cs.chat_open),
        )


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    def quiet() -> bool:
        """The hint is left out while the table waits for this player (room for theirs)."""
        obs = cs.obs
        return not (obs is not None and obs.my_turn and controls.current() == "table")

    typing = lambda: cs.chat_open  # noqa: E731
    return [
        Command(("c",), "c", _("chat"), modes.talk, lambda e: controls.open_chat(), quiet, 60),
        Command(("enter",), "Enter", _("send"), typing, lambda e: controls.send_chat(), modes.always, 1),
        Command(("escape",), "Esc", _("cancel"), typing, lambda e: controls.close_chat(), modes.always, 2),
        Command(("c-c",), "", "", typing, lambda e: controls.close_chat()),
    ]
