"""`ClientState`: everything the client shows that is not the table itself.

The session holds the table (what the host says); this object holds one person's view
of it: the selected card, the amount being typed, the message line, which overlay is
open, scroll positions, border and colour settings.  Layout functions read it; key
handlers change it; nothing here draws or talks to the network.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

from modernart.phase import Phase
from modernart.cards import EDITIONS, Card, Edition
from modernart.views import Observation

from modernart.cli.i18n import _
from modernart.cli.words import local_edition
from modernart.cli.tui.session import LogEntry, Status
from modernart.cli.tui.text import ASCII_BORDERS, UNICODE_BORDERS, Borders

if TYPE_CHECKING:  # the coach and its engine load only when asked for (key v)
    from modernart.cli.tui.coach_panel import CoachRun
    from modernart.cli.tui.net_session import NetFinder, NetSession

MIN_COLUMNS, MIN_ROWS = 80, 24

#: '(§4.1/§4.3: a bid is at least 1 more...)' at the end of a host's refusal.
RULE_REFERENCE = re.compile(r"\s*\(§.*\)\s*$")


@dataclass
class Message:
    text: str
    kind: str = "info"  # "info" or "error"
    at: float = field(default_factory=time.monotonic)


def needed(obs: Observation) -> bool:
    """Whether the table waits for this seat's decision now: its turn (a card to put up, a
    Double offered, its Once-around bid, a Fixed price to set or answer) or its Sealed bid.
    An Open auction waits for nobody: anyone may bid, nobody must, and its countdown closes
    it without them, so a round's scoring stays up over it until the player closes it."""
    if obs.seat not in obs.to_move:
        return False
    if obs.phase == Phase.OPEN:
        return False
    if obs.phase == Phase.SEALED:
        return obs.seat not in obs.sealed_done
    return True


class ClientState:
    """One person's view state.  `session` may be replaced (the join screen connects)."""

    def __init__(
        self,
        session: NetSession | None = None,
        *,
        finder: NetFinder | None = None,
        ascii: bool = False,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.finder = finder
        self.ascii = ascii
        self.env = dict(env or {})
        self.clock = clock
        self.selected = 0  # index into sorted_hand()
        self.selected_id: int | None = None  # the selected card itself: it stays chosen when the hand changes
        self.amount = ""  # digits typed for a bid or price
        self.amount_for: tuple[int, int] | None = None  # (auction_no, phase) the digits belong to
        self.amount_refused = False  # the typed amount was refused: a digit starts afresh
        self.message: Message | None = None
        self.situation: tuple | None = None  # what the message line's words were about (see sync)
        self._overlay: str | None = None  # "help", "scoring", "scores", "rules", "quit", "remove" or None
        self.overlay_over: tuple | None = None  # the situation an overlay was opened over (None: a turn came with it)
        self.removing: tuple[str, str] | None = None  # who the remove overlay asks about: (name, key fingerprint)
        self.scoring_round = -1  # round whose scoring the overlay shows
        self.game_comparison: str | None = None  # the game-over line comparing this game (None: not worked out)
        self.coach: CoachRun | None = None  # the game-over screen's review of this seat, once asked for (key v)
        self.coach_shown = False  # the game-over screen shows the coach instead of the final result
        self.results_seen: int | None = None  # round results already shown (None: nothing seen yet)
        self.chat_open = False
        self.log_scroll = 0  # lines scrolled back from the newest
        self.log_page = 3  # PgUp/PgDn step: the log's height when last drawn, less one
        self.lobby_cursor = 0
        self.lobby_cursor_placed = False  # the cursor starts on your own seat, once you have one
        self.finder_cursor = 0
        self.finder_input: str | None = None  # None, "join" (typing a join string) or "code"
        self.finder_text = ""
        self.finder_choice: str = ""  # join string chosen, while typing its code
        self.connecting = False
        self.last_error: object | None = None  # newest session error already shown
        self.sent: list = []  # moves sent by this client (newest last)
        self.my_sealed: tuple[int, int] | None = None  # (auction, amount) of this seat's sealed bid (`b` shows it)
        self.show_sealed = False  # the `b` key: this seat's sealed amount shown (hidden by default)
        self.out_of_auction: int | None = None  # the `o` key: the Open auction this seat stays out of
        self.rules_scroll = 0  # first line of the rules screen shown
        self.first_game_hint = False  # the beginner's line under the auction (until a game is finished)
        self.passed_at: tuple[int, int] | None = None  # (auction, bids) of the last automatic pass
        self.notes: list[LogEntry] = []  # lines this client adds to the log it shows (not the table's)

    # ------------------------------------------------------------------ derived views

    @property
    def overlay(self) -> str | None:
        """The overlay up ("help", "scoring", "scores", "rules", "quit") or None."""
        return self._overlay

    @overlay.setter
    def overlay(self, name: str | None) -> None:
        if name is not None and name != self._overlay:
            self.overlay_over = self.situation
        self._overlay = name

    def turn_came(self) -> bool:
        """A decision of this seat came while an overlay (not the leave question) is up: the
        overlay stays (it never gives the table a key meant for it), the status line says
        so, and the next key, whichever it is, closes it."""
        obs = self.obs
        return (
            self._overlay not in (None, "quit")
            and obs is not None
            and needed(obs)
            and self.overlay_over != self.situation
        )

    @property
    def borders(self) -> Borders:
        return ASCII_BORDERS if self.ascii else UNICODE_BORDERS

    @property
    def status(self) -> Status | None:
        return self.session.status if self.session is not None else None

    @property
    def obs(self) -> Observation | None:
        return self.session.obs if self.session is not None else None

    @property
    def edition(self) -> Edition:
        """The table's edition, its artists named in this client's language."""
        obs = self.obs
        if obs is not None:
            return local_edition(EDITIONS[obs.options.edition])
        lobby = self.session.lobby if self.session is not None else None
        return local_edition(EDITIONS[lobby.options.edition if lobby is not None else "classic"])

    @property
    def names(self) -> tuple[str, ...]:
        session = self.session
        if session is None:
            return ()
        if session.names:
            return session.names
        obs = session.obs
        return tuple(_("Seat {seat}").format(seat=i + 1) for i in range(obs.players)) if obs is not None else ()

    def name(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else _("Seat {seat}").format(seat=seat + 1)

    def sorted_hand(self) -> list[Card]:
        obs = self.obs
        if obs is None:
            return []
        return sorted(obs.hand, key=lambda c: (c.artist, c.kind, int(c)))

    def selected_card(self) -> Card | None:
        hand = self.sorted_hand()
        if not hand:
            return None
        # a new deal sorts cards in before it: follow the card, not its position
        self.selected = next(
            (i for i, c in enumerate(hand) if int(c) == self.selected_id), max(0, min(self.selected, len(hand) - 1))
        )
        self.selected_id = int(hand[self.selected])
        return hand[self.selected]

    def select(self, index: int) -> None:
        """Choose the card at `index` of `sorted_hand()` (taken modulo the hand's size)."""
        hand = self.sorted_hand()
        if hand:
            self.selected = index % len(hand)
            self.selected_id = int(hand[self.selected])

    @property
    def notice(self) -> str:
        """The session's warning for the status line ("reconnecting..." while the host is
        silent; its clocks then run on unseen), or ""."""
        return self.session.notice if self.session is not None else ""

    @property
    def cards_coming(self) -> bool:
        """This seat's new cards cannot be read yet: at a hidden-hands table the other seats'
        shares of a deal are still on their way (docs/fair-play.md)."""
        return self.session is not None and self.session.cards_coming

    def screen(self) -> str:
        """Which screen to show: finder, connecting, lobby, table, over or gone."""
        if self.session is None:
            return "connecting" if self.connecting else "finder"
        status = self.session.status
        if status == Status.CONNECTING:
            return "connecting"
        if status == Status.LOBBY:
            return "lobby"
        if status == Status.OVER:
            return "over"
        if self.session.obs is None:  # disconnected before a game, or no seat in this one
            return "gone"
        return "table"

    def digits_mean_amount(self) -> bool:
        """Digits type an amount (a bid, a sealed bid, a price) rather than pick a card: the
        step takes one from this seat, even when it cannot name one now (the key then says
        why); a watcher types nothing."""
        obs = self.obs
        return obs is not None and obs.amount_action() is not None

    # ------------------------------------------------------------------ changes

    def say(self, text: str, kind: str = "info") -> None:
        self.message = Message(text, kind)

    def error(self, text: str) -> None:
        self.say(text, "error")

    def _select_playable(self, obs: Observation) -> None:
        """When a card is to be chosen (your sale, a Double offered to you) and the chosen
        one cannot be used, choose the first card that can."""
        if obs.card_action() is None:
            return
        usable = {int(m.arg) for m in obs.legal_moves(amounts=False) if m.action.takes_card}
        hand = self.sorted_hand()
        current = self.selected_card()
        if not usable or (current is not None and int(current) in usable):
            return
        self.select(next(i for i, c in enumerate(hand) if int(c) in usable))

    def open_scoring(self, round_: int, *, asked: bool = False) -> None:
        """Show round `round_`'s scoring over the table, until a key closes it.  When the
        table needs you already (you open the next round), it opens all the same: the status
        line says that your turn has come, and any key closes it (`turn_came`)."""
        self.scoring_round = round_
        self.overlay = "scoring"
        obs = self.obs
        if not asked and obs is not None and needed(obs):
            self.overlay_over = None  # the decision came with it

    def show_last_scoring(self) -> None:
        """The `s` key: the newest round's scoring, or why there is none."""
        obs = self.obs
        if obs is None or not obs.results:
            self.error(_("No round has been scored yet"))
            return
        self.open_scoring(len(obs.results) - 1, asked=True)

    def show_rules(self) -> None:
        """The `r` key: the rules screen, the auction in progress first."""
        self.rules_scroll = 0
        self.overlay = "rules"

    def show_scores(self) -> None:
        """The `v` key: the Scores view, every round so far (it stays until closed)."""
        self.overlay = "scores"

    def scroll_log(self, pages: int) -> None:
        """PgUp (+1) / PgDn (-1): a page of the log back or forward."""
        self.log_scroll = max(0, self.log_scroll + pages * self.log_page)

    def sync(self) -> None:
        """Catch up with the session after it changed: clear stale input, queue overlays."""
        session = self.session
        if (
            not self.lobby_cursor_placed
            and session is not None
            and session.seat is not None
            and session.status == Status.LOBBY
        ):
            self.lobby_cursor, self.lobby_cursor_placed = session.seat, True
        obs = self.obs
        if obs is None:
            return
        key = (obs.auction_no, int(obs.phase))
        if self.amount_for != key:
            self.amount_for = key
            self.amount = ""
        # a new auction, step or turn makes earlier words stale ("Not your turn" when it is),
        # and so do cards becoming readable ("still being dealt"); a refusal that arrives
        # after the change is shown below, as it is news
        situation = (obs.auction_no, int(obs.phase), obs.turn, obs.seat in obs.to_move, obs.is_over, self.cards_coming)
        if self.situation != situation:
            if self.situation is not None:
                self.message = None
            self.situation = situation
            self._select_playable(obs)
        if self.results_seen is None:  # joining mid-game: earlier rounds are history, not news
            self.results_seen = len(obs.results)
            self.scoring_round = len(obs.results) - 1
        if len(obs.results) > self.results_seen:
            self.results_seen = len(obs.results)
            self.scoring_round = len(obs.results) - 1
            if obs.is_over:  # the final screen sums everything up; s shows the last round
                if self.overlay == "scoring":
                    self.overlay = None
            elif self.overlay is None:
                self.open_scoring(len(obs.results) - 1)
        session = self.session
        if session is not None:
            newest = next((e for e in reversed(session.log) if e.kind == "error"), None)
            if newest is not None and newest is not self.last_error:
                self.last_error = newest
                # the rule reference stays in the log; the message line says what is wrong
                self.error(RULE_REFERENCE.sub("", newest.text))
