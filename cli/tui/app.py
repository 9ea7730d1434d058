"""The client application: one `ClientState`, the layout, the keys, and the loop.

`run_client_async(session)` is the entry point, inside the command's event loop (the SSH
server runs one per connection).  The session's listener and a small ticker (for the countdowns) are the
only things that redraw without a key press.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from typing import TYPE_CHECKING, Callable, Coroutine, Mapping

from prompt_toolkit.application import Application
from prompt_toolkit.styles import DynamicStyle

from modernart.cli.bidi import EXPLICIT_MODE_OFF, EXPLICIT_MODE_ON, reorders_here, reordering
from modernart.cli.i18n import _, speaking
from modernart.cli.screen_options import ScreenOptions
from modernart.cli.tui.chat import commands as chat_commands
from modernart.cli.tui.keys import Command, Modes, bind, everywhere, hint_line, turn_came_commands
from modernart.cli.tui.layout import ClientLayout
from modernart.cli.tui.screens import connecting, game_over, join, lobby, scores, scoring, table, too_small
from modernart.cli.tui.screens import help as help_screen
from modernart.cli.tui.screens import quit as quit_screen
from modernart.cli.tui.screens import remove as remove_screen
from modernart.cli.tui.screens import rules as rules_screen
from modernart.cli.tui.session import JoinError, LogEntry
from modernart.cli.tui.state import ClientState, needed
from modernart.cli.tui.actions import TableActions
from modernart.cli.user_settings import note_game_finished
from modernart.cli.user_settings import load as load_settings
from modernart.cli.tui.style import make_style, resolve_color_depth
from modernart.cli.tui.text import Line, encoding_has_box_drawing
from modernart.net import user_dirs

if TYPE_CHECKING:
    from modernart.cli.tui.net_session import NetFinder, NetSession

log = logging.getLogger(__name__)

MESSAGE_SECONDS = 12.0  # how long the message line stays
CLOSE_SECONDS = 3.0  # longest wait for a session to close when leaving


async def _within(coro, seconds: float) -> None:
    try:
        async with asyncio.timeout(seconds):  # not wait_for: see net/clocks.wait_event
            await coro
    except asyncio.TimeoutError:
        log.warning("closing took longer than %.0f s; left it behind", seconds)


class ClientApp:
    """The client for one person.  Build it inside the app session it will run in."""

    def __init__(
        self,
        session: NetSession | None = None,
        *,
        finder: NetFinder | None = None,
        screen: ScreenOptions = ScreenOptions(),
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        settings_dir: str | None = None,
        language: str | None = None,
        bidi: str | None = None,
    ) -> None:
        """`screen`: borders, colours and alerts as the command line asked.  `language` and
        `bidi`: this client's own (default: the context's, see modernart.cli.i18n and
        modernart.cli.bidi); every screen is drawn in them."""
        self.language, self.bidi = language, bidi
        with speaking(language), reordering(bidi):
            self._build(session, finder, screen, env, clock, settings_dir)

    def _build(self, session, finder, screen: ScreenOptions, env, clock, settings_dir) -> None:
        env = dict(os.environ if env is None else env)
        self.cs = ClientState(session, finder=finder, env=env, clock=clock)
        # the per-user settings (cli/user_settings.py), in `settings_dir` (default: the user's
        # config directory; tests give their own)
        self.settings_dir = settings_dir
        self.settings = load_settings(settings_dir)
        self.cs.first_game_hint = self.settings.first_game
        # the bell and the window title when a decision becomes yours: on unless turned off,
        # or the terminal cannot show them (TERM=dumb)
        wanted = self.settings.alerts if screen.alerts is None else screen.alerts
        self.alerts = wanted and env.get("TERM", "") != "dumb"
        self._was_needed = False
        self._finished = False
        self.table_actions = TableActions(self.cs, self.spawn)
        self.layout = ClientLayout(self.cs, self.hints)
        self.commands = self.build_commands()
        depth = resolve_color_depth(screen.color, env, env.get("TERM"))
        styles: dict = {}

        def style():
            d = self.app.color_depth
            if d not in styles:
                styles[d] = make_style(d)
            return styles[d]

        self.app: Application[int] = Application(
            layout=self.layout.layout,
            key_bindings=bind(self.commands),
            style=DynamicStyle(style),
            color_depth=depth,
            full_screen=True,
            mouse_support=False,
            min_redraw_interval=0.05,
        )
        self.app.ttimeoutlen = 0.15  # Esc alone vs. an escape sequence, also over SSH
        ascii = screen.ascii
        self.cs.ascii = (not encoding_has_box_drawing(self.app.output.encoding())) if ascii is None else ascii
        self._tasks: set[asyncio.Future] = set()

    def build_commands(self) -> list[Command]:
        """Every screen's keys.  When two commands of one key are active at once, the later
        one acts: the chat line's after the overlays (a round's scoring may open while one
        types)."""
        cs, modes = self.cs, Modes(self.cs, self)
        return [
            *table.commands(cs, self, modes),
            *game_over.commands(cs, self, modes),
            *connecting.commands(self, modes),
            *too_small.commands(cs, self, modes),
            *everywhere(modes, self),
            *scoring.commands(modes),
            *scores.commands(modes),
            *rules_screen.commands(self.cs, modes),
            *help_screen.commands(modes),
            *quit_screen.commands(cs, self, modes),
            *remove_screen.commands(cs, self, modes),
            *turn_came_commands(modes),
            *chat_commands(cs, self, modes),
            *lobby.commands(cs, self, modes),
            *join.commands(cs, self, modes),
        ]

    # ------------------------------------------------------------------ Controls: what keys may ask

    def current(self) -> str:
        return self.layout.current()

    def hints(self, cs: ClientState, width: int) -> Line:
        return hint_line(self.commands, cs, width)

    def note_in_log(self, text: str) -> None:
        """Add `text` to the log this client shows (e.g. what an SSH guest trusts, said once
        as they join: the log keeps it whole, where the message line would cut it and
        soon clear it)."""
        self.cs.notes.append(LogEntry(text, "system"))

    def spawn(self, coro: Coroutine) -> None:
        """Run a session call in the background; its failure becomes a message."""

        async def guarded() -> None:
            try:
                await coro
            except Exception as exc:  # a session call must never take the client down
                log.warning("session call failed: %r", exc)
                self.cs.error(_("That did not reach the table: {error}").format(error=exc))
            self.app.invalidate()

        if self.app.is_running:
            self.app.create_background_task(guarded())
        else:
            task = asyncio.ensure_future(guarded())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def stray_key(self, event) -> None:
        """A key with no meaning here: say so (a letter while typing an amount, say)."""
        data = event.data
        if len(data) != 1 or not data.isprintable() or data == " ":
            return
        if self.current() == "table" and self.cs.digits_mean_amount():
            self.cs.error(_("{key} is not a number: amounts are typed with digits 0-9").format(key=repr(data)))
        else:
            self.cs.error(_("{key} does nothing here: press ? for help").format(key=repr(data)))

    def exit(self) -> None:
        if self.app.is_running and self.app.future is not None and not self.app.future.done():  # set while running
            self.app.exit(result=0)

    def open_chat(self) -> None:
        self.cs.chat_open = True
        self.layout.chat.buffer.reset()
        self.app.layout.focus(self.layout.chat.window)

    def close_chat(self) -> None:
        self.cs.chat_open = False
        self.app.layout.focus(self.layout.hint_bar)

    def send_chat(self) -> None:
        text = self.layout.chat.buffer.text.strip()
        self.close_chat()
        if text and self.cs.session is not None:
            self.spawn(self.cs.session.chat(text))

    def open_finder_input(self, mode: str) -> None:
        self.cs.finder_input = mode
        self.layout.join_entry.buffer.reset()
        self.app.layout.focus(self.layout.join_entry.window)

    def close_finder_input(self) -> None:
        self.cs.finder_input = None
        self.app.layout.focus(self.layout.hint_bar)

    def finder_text(self) -> str:
        """What is typed in the join screen's text field."""
        return self.layout.join_entry.buffer.text

    def connect(self, join_string: str, code: str) -> None:
        """Join a table through the finder; the screen follows the new session."""
        finder = self.cs.finder
        if finder is None:
            return
        self.cs.connecting = True
        self.cs.say(_("Connecting..."))

        async def go() -> None:
            try:
                session = await finder.connect(join_string, code)
            except JoinError as exc:
                self.cs.connecting = False
                self.cs.error(str(exc))
                return
            self.cs.connecting = False
            self.cs.message = None
            await self.attach(session)

        self.spawn(go())

    async def attach(self, session: NetSession) -> None:
        self.cs.session = session
        session.add_listener(self._on_change)
        try:
            await session.open()
        except JoinError as exc:  # the screen shows the session's status and why
            log.info("could not join: %s", exc)
        self._on_change()

    # ------------------------------------------------------------------ running

    def _on_change(self) -> None:
        self.cs.sync()
        self.table_actions.keep_out()  # a seat staying out of an Open auction passes again
        self._alert()
        self.app.invalidate()

    def _alert(self) -> None:
        """Ring the bell and name it in the window title when a decision becomes this seat's;
        note a game seen to the end (the first-game hint goes)."""
        obs = self.cs.obs
        if obs is None:
            return
        if obs.is_over and not self._finished:
            self._finished = True
            if self.cs.first_game_hint:
                self.cs.first_game_hint = False
                note_game_finished(self.settings_dir)
        mine = needed(obs)
        if self.alerts and mine != self._was_needed:
            output = self.app.output
            if mine:
                output.bell()
                output.set_title(_("modernart: your turn"))
            else:
                output.set_title("modernart")  # the program's name, in every language
            output.flush()
        self._was_needed = mine

    def _on_finder_change(self) -> None:
        finder = self.cs.finder
        wanted = getattr(finder, "autojoin", None)
        if wanted and self.cs.session is None and not self.cs.connecting:
            finder.autojoin = None  # type: ignore[union-attr]  # once
            self.connect(*wanted)
        self.app.invalidate()

    async def _tick(self) -> None:
        """Redraw when a shown countdown changes its second, or the message expires."""
        cs = self.cs
        last = None
        while True:
            await asyncio.sleep(0.2)
            now = cs.clock()
            if cs.message is not None and now - cs.message.at > MESSAGE_SECONDS:
                cs.message = None
                self.app.invalidate()
            session = cs.session
            if session is None:
                continue
            shown = tuple(
                None if d is None else int(d - now + 0.999)
                for d in (session.open_deadline, session.decision_deadline, session.call_deadline)
            )
            if shown != last:
                last = shown
                self.app.invalidate()

    async def run(self, *, shared_loop: bool = False) -> int:
        """Run until the person leaves; closes the session (and finder) afterwards."""
        session = self.cs.session

        def start_tasks() -> None:  # after the app's reset, so that they end with it
            if session is not None:  # joining shows "Connecting..." meanwhile
                self.app.create_background_task(self.attach(session))
            if self.cs.finder is not None:
                self.cs.finder.add_listener(self._on_finder_change)
                self.app.create_background_task(self.cs.finder.open())
            self.app.create_background_task(self._tick())

        with speaking(self.language), reordering(self.bidi):
            return await self._run(start_tasks, shared_loop)

    async def _run(self, start_tasks: Callable[[], None], shared_loop: bool) -> int:
        explicit = reorders_here()  # this client reorders: a BiDi terminal must not do it again
        try:
            if explicit:
                self.app.output.write_raw(EXPLICIT_MODE_ON)
            if shared_loop:  # several apps share this loop (SSH): leave signals and the handler alone
                result = await self.app.run_async(pre_run=start_tasks, handle_sigint=False, set_exception_handler=False)
            else:
                result = await self.app.run_async(pre_run=start_tasks)
            return int(result or 0)
        finally:
            if explicit:
                self.app.output.write_raw(EXPLICIT_MODE_OFF)
                self.app.output.flush()
            for task in list(self._tasks):
                task.cancel()
            # leaving must never hang on a host that does not answer
            if self.cs.session is not None:
                self.cs.session.remove_listener(self._on_change)
                await _within(self.cs.session.close(), CLOSE_SECONDS)
            if self.cs.finder is not None:
                await _within(self.cs.finder.close(), CLOSE_SECONDS)


def state_dir() -> str:
    """Where the client keeps its logs (the user's state dir, net/user_dirs.py), made if missing."""
    path = str(user_dirs.state_dir())
    os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def logs_off_the_screen():
    """While the full screen is up, log records go to client.log instead of the terminal."""
    root = logging.getLogger()
    on_screen = [
        h
        for h in root.handlers
        if isinstance(h, logging.StreamHandler)
        and not isinstance(h, logging.FileHandler)
        and getattr(h, "stream", None) in (sys.stderr, sys.stdout)
    ]
    if not on_screen:
        yield
        return
    to_file = logging.FileHandler(os.path.join(state_dir(), "client.log"), encoding="utf-8")
    to_file.setFormatter(on_screen[0].formatter)
    for h in on_screen:
        root.removeHandler(h)
    root.addHandler(to_file)
    try:
        yield
    finally:
        root.removeHandler(to_file)
        to_file.close()
        for h in on_screen:
            root.addHandler(h)


async def run_client_async(
    session: NetSession | None = None,
    *,
    finder: NetFinder | None = None,
    screen: ScreenOptions = ScreenOptions(),
    env: Mapping[str, str] | None = None,
) -> int:
    """Run the client in the current loop and app session until the person leaves."""
    with logs_off_the_screen():
        client = ClientApp(session, finder=finder, screen=screen, env=env)
        return await client.run()
