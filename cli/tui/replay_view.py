"""`modernart replay FILE --view`: a game record stepped through full screen, move by move
and round by round, forwards and back, with every hand visible (the game is over, or it is
a record: nothing in it is secret any more) and the scoring of each round.

The record is replayed once by the rules engine (every move checked, as `modernart replay`
does); each step then shows the game after that many moves: the artists' values, every
player's money, hand and purchases, the auction on the table, what the last moves did (in
the log's words, cli/narrate.py) and, at a round's end, that round's scoring.  Keys: Right
or `n` the next move, Left or `p` the one before, Down or PgDn the end of this round (again:
of the next), Up or PgUp the start of this round (again: of the one before), Home and End
the start and the end, `v` the coach's review of the player who made the move shown (1-5
then another player's; cli/tui/coach_panel.py), `q` or Esc leaves.  It fits 80x24 and uses more room when there is;
every fact reads without colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

from modernart.cards import ARTISTS, ROUNDS
from modernart.events import RoundEnded
from modernart.game import GameState
from modernart.moves import Action
from modernart.phase import Phase
from modernart.record import GameRecord

from modernart.cli.i18n import _
from modernart.cli.narrate import describe_events
from modernart.cli.words import describe_card, local_edition
from modernart.cli.tui.text import fit, wrap

if TYPE_CHECKING:  # the coach and its engine load only when asked for (key v)
    from modernart.cli.tui.coach_panel import CoachRun

#: Lines of narration shown under the table
NARRATION_LINES = 6


@dataclass(frozen=True)
class Step:
    """What one move did: its narration, and the round it ended (or None)."""

    lines: tuple[str, ...]
    round_ended: int | None


def told_once(lines: list[str]) -> tuple[str, ...]:
    """A step's lines, each happening told once: a move's own line gives way to the event
    line that tells it and more ("Cem puts up Krypto (Open)" to "Cem puts up Krypto (Open):
    Open auction").

    >>> told_once(["Ana puts up Yoko (Open)", "Ana puts up Yoko (Open): Open auction", "Bea bids 3", "Bea bids 3"])
    ('Ana puts up Yoko (Open): Open auction', 'Bea bids 3')
    """
    unique = list(dict.fromkeys(lines))
    return tuple(line for line in unique if not any(other.startswith(line + ":") for other in unique))


class Replay:
    """A record's moves, replayed once; `state_at(i)` is the game after `i` moves."""

    def __init__(self, record: GameRecord, name: str) -> None:
        self.record = record
        self.name = name
        self.names = list(record.players)
        state = record.new_state(track_events=True)
        assert state.events is not None
        self.edition = local_edition(state.edition)
        self.deck = state.deck
        self.steps: list[Step] = []
        for move in record.moves:
            before = len(state.events)
            state.apply(move)
            new = state.events[before:]
            ended = next((e.result.round for e in new if isinstance(e, RoundEnded)), None)
            if move.action == Action.SEALED_BID:  # a record hides nothing: the amount is told
                lines = [_("{player} seals a bid of {amount}").format(player=self.names[move.seat], amount=move.arg)]
                hidden = _("{player} seals a bid").format(player=self.names[move.seat])
                lines += [line for line in describe_events(new, self.names, state.edition, self.deck) if line != hidden]
            else:
                lines = describe_events([move, *new], self.names, state.edition, self.deck)
            self.steps.append(Step(told_once(lines), ended))
        self.final = state
        self.position = 0
        self.coach: CoachRun | None = None  # the coach's review of one player (key v), once asked for
        self.coach_shown = False

    def toggle_coach(self, changed: Callable[[], None], seat: int | None = None) -> None:
        """v: the coach's review of the player who made the move shown last (the first
        mover's, before any move), or of seat `seat` (1-5 while the coach is shown); v again
        goes back to the game."""
        if seat is None and self.coach_shown:
            self.coach_shown = False
            return
        if seat is None:
            moves = self.record.moves
            seat = moves[self.position - 1].seat if self.position else (moves[0].seat if moves else 0)
        if not 0 <= seat < len(self.names):
            return
        if self.coach is None or self.coach.seat != seat:
            from modernart.cli.tui.coach_panel import CoachRun

            if self.coach is not None and self.coach.future is not None:
                self.coach.future.cancel()  # one review at a time: the other player's stops

            self.coach = CoachRun(self.record, seat)
            self.coach.start(changed)
        self.coach_shown = True

    @property
    def moves(self) -> int:
        return len(self.steps)

    def state_at(self, position: int) -> GameState:
        """The game after `position` moves (every move was checked when the record was read)."""
        state = self.record.new_state()
        for move in self.record.moves[:position]:
            state.apply(move)
        return state

    def round_ends(self) -> list[int]:
        """The positions just after each round's last move."""
        return [i + 1 for i, step in enumerate(self.steps) if step.round_ended is not None]

    def go(self, position: int) -> None:
        self.position = max(0, min(self.moves, position))

    def next_round(self) -> None:
        """To the end of this round (if already there: of the next one)."""
        self.go(next((p for p in self.round_ends() if p > self.position), self.moves))

    def previous_round(self) -> None:
        """To the start of this round (if already there: of the one before)."""
        self.go(max((p for p in [0, *self.round_ends()] if p < self.position), default=0))

    # ------------------------------------------------------------------ drawing

    def lines(self, width: int, height: int) -> list[tuple[str, str]]:
        """The screen, as (style, text) lines of at most `width` cells."""
        if self.coach_shown and self.coach is not None:
            from modernart.cli.tui.coach_panel import coach_lines

            shown = coach_lines(self.coach, width, height - 1)
            shown += [("", "")] * (height - 1 - len(shown))
            shown.append(
                (
                    "class:hint",
                    " " + _("v back to the game   1-{count} another player   q leave").format(count=len(self.names)),
                )
            )
            return [(style, fit(text, width)) for style, text in shown]
        state = self.state_at(self.position)
        out: list[tuple[str, str]] = []
        head = _("Replay {file}: move {at} of {moves}, round {round} of {rounds}").format(
            file=self.name, at=self.position, moves=self.moves, round=min(state.round + 1, ROUNDS), rounds=ROUNDS
        )
        out.append(("class:title", " " + head))
        out += self._artists(state)
        out += self._players(state, width)
        out.append(("class:title", " " + self._table(state)))
        ended = self.steps[self.position - 1].round_ended if self.position else None
        if ended is not None and ended < len(state.results):
            out += self._scoring(state, ended, width)
        room = max(1, height - len(out) - 1)
        said = [line for step in self.steps[max(0, self.position - 12) : self.position] for line in step.lines]
        narration = [("", " " + chunk) for line in said for chunk in wrap(line, width - 1)]
        narration = narration[-min(room, NARRATION_LINES) :]
        if not narration:
            narration = [("class:dim", " " + _("The cards are dealt. Right: the first move"))]
        out += narration
        out = out[: height - 1]
        out += [("", "")] * (height - 1 - len(out))
        keys = _("<- -> a move   Up/Down a round   Home/End   v coach   q leave")
        out.append(("class:hint", " " + keys))
        return [(style, fit(text, width)) for style, text in out]

    def _artists(self, state: GameState) -> list[tuple[str, str]]:
        ed = self.edition
        rounds = "".join(fit(f"R{r + 1}", 4, "right") for r in range(ROUNDS))
        rows = [("class:dim", " " + fit(_("Artist"), 16) + rounds + "  " + _("This round"))]
        for a in ARTISTS:
            values = "".join(
                fit(str(state.results[r].values[a] or "-") if r < len(state.results) else ".", 4, "right")
                for r in range(ROUNDS)
            )
            count = state.counts[a] if state.phase != Phase.GAME_OVER else 0
            rows.append(("", " " + ed.initials[a] + " " + fit(ed.artists[a], 14) + values + "  " + "#" * count))
        return rows

    def _players(self, state: GameState, width: int) -> list[tuple[str, str]]:
        ed = self.edition
        rows = [("class:dim", "  " + fit(_("Player"), 11) + fit(_("Money"), 7, "right") + "  " + _("Bought | hand"))]
        for s, name in enumerate(self.names):
            bought = " ".join(f"{ed.initials[a]}{n}" for a in ARTISTS if (n := self._bought(state, s, a)))
            hand = " ".join(f"{ed.initials[c.artist]}:{_code(c)}" for c in sorted(state.hands[s]))
            mark = ">" if s in state.to_move() else " "
            head = f" {mark}" + fit(name, 11) + fit(str(state.money[s]), 7, "right") + "  "
            text = head + (bought or "-") + " | " + (hand or "-")
            if len(text) <= width:
                rows.append(("", text))
            else:  # a long hand goes on a line of its own, under its owner
                rows += [("", head + (bought or "-")), ("", " " * 4 + fit(hand, width - 4))]
        return rows

    @staticmethod
    def _bought(state: GameState, seat: int, artist: int) -> int:
        return sum(1 for c in state.bought[seat] if c.artist == artist)

    def _table(self, state: GameState) -> str:
        phase = state.phase
        if phase == Phase.GAME_OVER:
            money = ", ".join(f"{n} {m}" for n, m in zip(self.names, state.money))
            winners = " & ".join(self.names[s] for s in state.winners())
            return _("Game over: {money}. Won by {winners}").format(money=money, winners=winners)
        if phase == Phase.PLAY_CARD:
            return _("{seller} is to put up a painting").format(seller=self.names[state.auctioneer])
        cards = " + ".join(describe_card(self.edition, c) for c in state.lot)  # each names its auction
        high = (
            _("high bid {amount} by {player}").format(amount=state.high, player=self.names[state.high_seat])
            if state.high_seat >= 0
            else _("no bid yet")
        )
        return _("{seller} sells {cards}: {high}").format(seller=self.names[state.auctioneer], cards=cards, high=high)

    def _scoring(self, state: GameState, round_no: int, width: int) -> list[tuple[str, str]]:
        result = state.results[round_no]
        ed = self.edition
        ranks = ", ".join(
            f"{(_('1st'), _('2nd'), _('3rd'))[i]} {ed.artists[a]} {result.values[a]}"
            for i, a in enumerate(result.ranking)
        )
        pays = ", ".join(f"{self.names[s]} +{p}" for s, p in enumerate(result.payouts))
        text = _("Round {round} scored: {ranks}. Paid: {payouts}").format(round=round_no + 1, ranks=ranks, payouts=pays)
        return [("class:winner", chunk) for chunk in wrap(" " + text, width)]


def _code(card) -> str:
    return "O1SFD"[int(card.kind)]


def build_app(replay: Replay, *, color: bool = True) -> Application:
    """The full-screen viewer of `replay`."""
    size: dict[str, int] = {}

    def text():
        cols, rows = size.get("cols", 80), size.get("rows", 24)
        lines = replay.lines(cols, rows)
        frags: list[tuple[str, str]] = []
        for i, (style, line) in enumerate(lines):
            frags.append((style, line + ("\n" if i < len(lines) - 1 else "")))
        return frags

    keys = KeyBindings()
    moves = {
        ("right",): lambda: replay.go(replay.position + 1),
        ("n",): lambda: replay.go(replay.position + 1),
        ("l",): lambda: replay.go(replay.position + 1),
        ("left",): lambda: replay.go(replay.position - 1),
        ("p",): lambda: replay.go(replay.position - 1),
        ("h",): lambda: replay.go(replay.position - 1),
        ("down",): replay.next_round,
        ("pagedown",): replay.next_round,
        ("up",): replay.previous_round,
        ("pageup",): replay.previous_round,
        ("home",): lambda: replay.go(0),
        ("end",): lambda: replay.go(replay.moves),
    }
    for combo, act in moves.items():
        keys.add(*combo)((lambda act: lambda event: act())(act))

    @keys.add("v")
    def _coach(event) -> None:
        replay.toggle_coach(event.app.invalidate)

    for digit in "12345":

        @keys.add(digit, filter=Condition(lambda: replay.coach_shown))
        def _coach_seat(event) -> None:
            replay.toggle_coach(event.app.invalidate, int(event.data) - 1)

    @keys.add("q")
    @keys.add("escape")
    @keys.add("c-c")
    def _leave(event) -> None:
        event.app.exit(result=0)

    control = FormattedTextControl(text, focusable=True, show_cursor=False)
    style = Style.from_dict(
        {"title": "bold", "dim": "#888888", "hint": "reverse", "winner": "bold"} if color else {"hint": "reverse"}
    )
    app: Application = Application(
        layout=Layout(HSplit([Window(control, wrap_lines=False)])),
        key_bindings=keys,
        full_screen=True,
        style=style,
        mouse_support=False,
    )

    def on_resize(_app=None) -> None:
        out = app.output.get_size()
        size["cols"], size["rows"] = out.columns, out.rows

    app.before_render += lambda _app: on_resize()
    return app


def view(record: GameRecord, name: str, *, color: bool = True) -> int:
    """Show `record` full screen until the person leaves."""
    return int(build_app(Replay(record, name), color=color).run() or 0)
