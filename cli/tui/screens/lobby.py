"""The lobby: seats (people, bots, who is ready), the rule options and clocks the host
sets, how friends join, and the keys that change them.  The lobby view comes from the
session (`LobbyView`); the cursor is `ClientState.lobby_cursor`."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Awaitable, TypeVar, cast

from prompt_toolkit.layout import AnyContainer, HSplit

from modernart.cards import DECK_TABLES, EDITIONS
from modernart.presets import PRESET_NAMES, preset_of, preset_options
from modernart.rules import RuleOptions

from modernart.cli.i18n import N_, _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.net.clocks import ClockSettings

from modernart.cli.tui.session import LobbyView, hidden_hands_text
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, cut, fit, wrap
from modernart.cli.tui.text import width as cell_width
from modernart.cli.tui.widgets import Parts, boxed, one_line, side_by_side, size, window
# ---------------------------------------------------------------------- lobby

#: Values the lobby offers for each rule option and clock, in order (Left/Right step through them).
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "edition": tuple(EDITIONS),
    "deck": tuple(DECK_TABLES),
    "start_money": (80, 100, 120, 150),
    "double_split": (False, True),
    "open_pass_is_final": (False, True),
    "three_player_first_deal": (10, 11),
    "sealed_offender_fine": (0, 5, 10, 20),
    # the rule sheets' deviations (docs/rules.md §10), each its own option
    "open_autoclose": (True, False),
    "deal_size_fixed": (0, 8, 9, 10, 11),
    "fresh_deal_each_round": (False, True),
    "pay_bank_always": (False, True),
    "unsold_discarded": (False, True),
    "fifth_ends_round": (True, False),
    "last_card_auctioned": (False, True),
    "rank_values": ("30,20,10", "30,20,10,5"),
    "cumulative_values": (True, False),
    "sealed_excludes_seller": (False, True),
    "sealed_tie_seller_chooses": (False, True),
    "fixed_forced_buy": (True, False),
    "once_around_posted": (False, True),
    "double_as_open": (False, True),
    "price_up_to_richest": (False, True),
    "seller_chooses_auction": (False, True),
    "mystery_hand": ("", "hig", "cmon"),
}
OPTION_LABELS = {
    "edition": N_("Artist names"),
    "deck": N_("Card table"),
    "start_money": N_("Start money"),
    "double_split": N_("Double split"),
    "open_pass_is_final": N_("Open pass final"),
    "three_player_first_deal": N_("3p first deal"),
    "sealed_offender_fine": N_("Sealed fine"),
    "open_autoclose": N_("Open auto-close"),
    "deal_size_fixed": N_("Hand size"),
    "fresh_deal_each_round": N_("Fresh deals"),
    "pay_bank_always": N_("All to the bank"),
    "unsold_discarded": N_("Unsold discarded"),
    "fifth_ends_round": N_("5th ends round"),
    "last_card_auctioned": N_("Last card sold"),
    "rank_values": N_("Rank values"),
    "cumulative_values": N_("Values add up"),
    "sealed_excludes_seller": N_("Seller no sealed"),
    "sealed_tie_seller_chooses": N_("Seller picks tie"),
    "fixed_forced_buy": N_("Fixed must buy"),
    "once_around_posted": N_("Posted price"),
    "double_as_open": N_("Double as Open"),
    "price_up_to_richest": N_("Price to richest"),
    "seller_chooses_auction": N_("Seller's auction"),
    "mystery_hand": N_("Mystery hand"),
}
#: The rule sheets' deviations (docs/rules.md §10): the lobby lists them after the other rules.
DEVIATIONS = frozenset(
    {
        "open_autoclose",
        "deal_size_fixed",
        "fresh_deal_each_round",
        "pay_bank_always",
        "unsold_discarded",
        "fifth_ends_round",
        "last_card_auctioned",
        "rank_values",
        "cumulative_values",
        "sealed_excludes_seller",
        "sealed_tie_seller_chooses",
        "fixed_forced_buy",
        "once_around_posted",
        "double_as_open",
        "price_up_to_richest",
        "seller_chooses_auction",
        "mystery_hand",
    }
)
#: One line on each rule row, shown under the rules while the cursor is on it.
OPTION_HELP = {
    "variant": N_("A rule sheet's set of options: standard, zh_seed (Chinese), fa_seed (Persian)"),
    "edition": N_("The artists' names; no effect on play"),
    "deck": N_("How many cards of each auction type every artist has"),
    "start_money": N_("Each player's money at the start"),
    "double_split": N_("A Double taken over: its price is split between its two players"),
    "open_pass_is_final": N_("Open: a player who passes is out of that auction"),
    "three_player_first_deal": N_("Cards for each of three players in round 1"),
    "sealed_offender_fine": N_("Fine for a sealed bid that is not revealed properly"),
    "open_autoclose": N_("Open: the auction ends when all pass (off: only the auctioneer's hammer)"),
    "deal_size_fixed": N_("Cards each player is dealt, whatever the number of players"),
    "fresh_deal_each_round": N_("Hands thrown away; the whole deck reshuffled and dealt each round"),
    "pay_bank_always": N_("Every price is paid to the bank, never to the seller"),
    "unsold_discarded": N_("A painting nobody buys is discarded and does not count"),
    "fifth_ends_round": N_("An artist's fifth painting ends the round (off: only empty hands)"),
    "last_card_auctioned": N_("When every hand is empty, the last card is still auctioned"),
    "rank_values": N_("What ranks 1, 2, 3 (and 4) of the artists are worth"),
    "cumulative_values": N_("An artist's value adds its tiles of earlier rounds"),
    "sealed_excludes_seller": N_("Sealed: the seller makes no bid"),
    "sealed_tie_seller_chooses": N_("Sealed: the seller chooses among tied highest bids"),
    "fixed_forced_buy": N_("Fixed price: nobody takes it, the seller must buy it"),
    "once_around_posted": N_("Once-around cards: the seller posts a price anyone may take"),
    "double_as_open": N_("A Double is sold alone, as an Open painting"),
    "price_up_to_richest": N_("A price the seller never pays may go up to the richest other player's money"),
    # TRANSLATORS: the Persian rule sheet's own sentence (its fa translation is the sheet's words)
    "seller_chooses_auction": N_("The active player reveals a card and announces the auction type"),
    "mystery_hand": N_("3 players: a face-down 4th hand, turned up by the buyer (hig) or seller (cmon)"),
}
#: Clock rows: fields of the host's `ClockSettings` (seconds; a decision clock of 0 is none)
CLOCK_CHOICES: dict[str, tuple[Any, ...]] = {
    "open_countdown": (5.0, 8.0, 10.0, 15.0, 20.0, 30.0),
    "decision": (0.0, 30.0, 60.0, 120.0),
    "grace": (0.0, 15.0, 30.0, 60.0, 120.0, 300.0),
    "hammer_call": (0.0, 2.0, 3.0, 5.0, 8.0),
    "bot_pace": (0.0, 0.5, 1.0, 2.0),
}
CLOCK_LABELS = {
    "open_countdown": N_("Open countdown"),
    "decision": N_("Decision clock"),
    "grace": N_("Stand-in after"),
    "hammer_call": N_("Hammer call"),
    "bot_pace": N_("Bot pace"),
}
#: Clocks whose 0 means "no limit" (the lobby says "none"); a grace of 0 means "at once"
CLOCKS_OFF_AT_ZERO = frozenset({"open_countdown", "decision", "hammer_call"})


def lobby_rows(lobby: LobbyView) -> list[tuple[str, object]]:
    """The rows the lobby cursor moves over: seats, the variant, the clocks, the table's
    basic rules, then the rule sheets' deviations one by one (the box scrolls with the
    cursor: the first rows are the ones seen without moving)."""
    rows: list[tuple[str, object]] = [("seat", s.seat) for s in lobby.seats]
    rows += [("watcher", fpr) for fpr in lobby.watchers]  # the admin may remove them (x)
    rows.append(("variant", "variant"))
    rows += [("clock", name) for name in CLOCK_CHOICES]
    names = [f.name for f in fields(RuleOptions) if f.name in OPTION_CHOICES]
    basic = sorted((name for name in names if name not in DEVIATIONS), key=lambda name: name != "start_money")
    rows += [("option", name) for name in basic]  # the start money first: the rule players check first
    rows += [("option", name) for name in names if name in DEVIATIONS]
    return rows


def value_text(value: object, seconds: bool = False) -> str:
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if seconds and isinstance(value, (int, float)):
        return f"{value:g}s"
    if isinstance(value, str) and value in VALUE_WORDS:
        return _(VALUE_WORDS[value])
    return str(value)


T = TypeVar("T")


def cycled(choices: tuple[T, ...], current: object, step: int) -> T:
    index = choices.index(current) if current in choices else -1
    return choices[(index + step) % len(choices)]


def next_options(options: RuleOptions, name: str, step: int) -> RuleOptions:
    return replace(options, **{name: cycled(OPTION_CHOICES[name], getattr(options, name), step)})


#: The presets' and the option values' names in the lobby (each language's own words).
VALUE_WORDS = {
    "standard": N_("standard"),
    # TRANSLATORS: the variant of the Chinese rule sheet (docs/rules.md §10)
    "zh_seed": N_("zh_seed"),
    # TRANSLATORS: the variant of the Persian rule sheet (docs/rules.md §10)
    "fa_seed": N_("fa_seed"),
    # TRANSLATORS: the edition of the game (its artists), as the lobby names it
    "classic": N_("classic"),
    # TRANSLATORS: the table of the cards' auction symbols, as the lobby names it
    "consensus": N_("consensus"),
}


def variant_text(options: RuleOptions) -> str:
    """The preset these options are, or 'custom'."""
    name = preset_of(options)
    return _(VALUE_WORDS.get(name, name)) if name else _("custom")


def next_variant(options: RuleOptions, step: int) -> RuleOptions:
    """The next preset's options (the artist names and card table kept)."""
    name = cycled(PRESET_NAMES, preset_of(options), step)
    return preset_options(name, edition=options.edition, deck=options.deck)


def option_text(name: str, value: object) -> str:
    """An option's value as the lobby shows it."""
    if name == "deal_size_fixed" and value == 0:
        return _("as the table")
    if name == "mystery_hand" and value == "":
        return _("off")
    return value_text(value)


def clock_text(name: str, seconds: float) -> str:
    """A clock's value as the lobby shows it ("none" for a limit that is off)."""
    if name == "bot_pace":  # a factor of the bots' natural pauses, not seconds
        return _("instant") if seconds == 0 else f"x{seconds:g}"
    return _("none") if seconds == 0 and name in CLOCKS_OFF_AT_ZERO else value_text(seconds, seconds=True)


def next_clocks(clocks: ClockSettings, name: str, step: int) -> ClockSettings:
    return replace(clocks, **{name: cycled(CLOCK_CHOICES[name], getattr(clocks, name), step)})


def lobby_seats(cs: ClientState, width: int, height: int) -> list[Line]:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return []
    assert session is not None  # it holds the lobby
    rows = lobby_rows(lobby)
    cursor = rows[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(rows) else None
    lines: list[Line] = []
    # ">2 " name kind(12) " not ready"(10): the name column ends in at least one space
    name_w = max(8, width - 3 - 12 - 10)
    for info in lobby.seats:
        arrow = ">" if cursor == ("seat", info.seat) else " "
        mine = session.seat == info.seat
        if info.empty:
            text, kind, ready = _("(empty)"), "", ""
        else:
            suffix = " " + _("(you)") if mine else ""
            text = cut(info.name, name_w - 1 - cell_width(suffix)) + suffix
            kind = _("bot {level}").format(level=_(info.bot_level)) if info.kind == "bot" else _("person")
            ready = _("READY") if info.ready or info.kind == "bot" else _("not ready")
            if not info.connected:
                ready = _("away")
        style = "class:selected" if arrow == ">" else ("class:you" if mine else "")
        lines.append(
            [
                (style, f"{arrow}{info.seat + 1} " + fit(text, name_w) + fit(kind, 12)),
                ("class:good" if ready == _("READY") else "class:dim", " " + ready),
            ]
        )
    for fpr in lobby.watchers:
        arrow = ">" if cursor == ("watcher", fpr) else " "
        style = "class:selected" if arrow == ">" else "class:dim"
        lines.append([(style, f"{arrow}  " + fit(_("watching: key {fpr}").format(fpr=fpr), max(4, width - 3)))])
    at = next((i for i, line in enumerate(lines) if line and line[0][1].startswith(">")), 0)
    taken = len(lobby.filled)
    foot: list[Line] = [
        [],
        [
            (
                "class:dim",
                " "
                + _("{taken} of {seats} seats taken; a game needs 3-5.").format(taken=taken, seats=len(lobby.seats)),
            )
        ],
    ]
    if lobby.locked:
        foot.append([("class:dim", " " + _("Locked: only the players seated may sit"))])
    if lobby.can_start:
        ready_words = _("Everyone is ready. Press s to start.") if lobby.admin else _("Everyone is ready.")
        foot.append([("class:good", " " + ready_words)])
    if lobby.hidden_hands:  # what this table promises before anyone sits down
        foot += [[("class:dim", " " + part)] for part in wrap(hidden_hands_text(), max(10, width - 1))]
    # many watchers: their rows scroll with the cursor (the seats always fit)
    room = max(len(lobby.seats), height - len(foot))
    start = min(max(0, at - room // 2), max(0, len(lines) - room))  # the cursor's row stays in view
    return lines[start : start + room] + foot


def lobby_rules(cs: ClientState, width: int, height: int) -> list[Line]:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return []
    rows = lobby_rows(lobby)
    cursor = rows[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(rows) else None
    lines: list[Line] = []
    at = 0  # the line of the cursor's row
    for kind, name in rows:
        if kind in ("seat", "watcher"):
            continue
        field_name = cast(str, name)  # variant, option and clock rows name a field
        if kind == "variant":
            label, shown = _("Variant"), variant_text(lobby.options)
        elif kind == "option":
            label, shown = _(OPTION_LABELS[field_name]), option_text(field_name, getattr(lobby.options, field_name))
        else:
            label, shown = _(CLOCK_LABELS[field_name]), clock_text(field_name, getattr(lobby.clocks, field_name))
        arrow = ">" if cursor == (kind, name) else " "
        if arrow == ">":
            at = len(lines)
        style = "class:selected" if arrow == ">" else ""
        # the labels' column (16 cells, the longest label's) keeps a space before the value:
        # never "Unsold discardedoff"
        lines.append([(style, f"{arrow}{fit(label, 16)} " + fit(shown, max(4, width - 18)))])
    foot: list[Line] = [] if lobby.admin else [[("class:dim", " " + _("Only the host changes these."))]]
    room = max(1, height - len(foot))
    start = min(max(0, at - room // 2), max(0, len(lines) - room))  # the cursor's row stays in view
    return lines[start : start + room] + foot
    return lines


def lobby_rule_help(cs: ClientState, width: int) -> Line:
    """What the rule under the lobby cursor does, in one line (under the rules box)."""
    lobby = cs.session.lobby if cs.session is not None else None
    if lobby is None:
        return []
    rows = lobby_rows(lobby)
    cursor = rows[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(rows) else None
    if cursor is None or cursor[0] not in ("variant", "option"):
        return []
    return [("class:dim", " " + cut(_(OPTION_HELP[cast(str, cursor[1])]), max(4, width - 1)))]


def lobby_header(cs: ClientState, width: int) -> Line:
    session = cs.session
    lobby = session.lobby if session is not None else None
    if lobby is None:
        return [("class:status", " " + _("MODERN ART - lobby"))]
    name = lobby.table_name
    if name.strip().lower() == "modern art":  # not twice
        text = " " + _("MODERN ART")
    else:
        text = " " + _("MODERN ART - {table}").format(table=name)
    if lobby.join_code and not getattr(session, "local_only", False):  # nobody could use it
        text += " | " + _("join code {code}").format(code=lobby.join_code)
    return ([("class:error", f" {cs.notice} ")] if cs.notice else []) + [("class:status", text)]


#: What the lobby of a table on this machine only says instead of a join string
LOCAL_ONLY = N_(
    "This table is on this machine only: friends cannot join it. To play with friends, open a table with modernart host."
)


def join_lines(lobby: LobbyView | None, width: int) -> tuple[list[str], list[str]]:
    """How friends join, then the join string whole: on a line of its own (cut into pieces
    only when the terminal is narrower than the string), so that it can be read and copied;
    then the host's other addresses' join strings (another interface, a VPN), the same way."""
    if lobby is None or not lobby.join_string or lobby.join_string.startswith("("):  # "(this machine)"
        return [], []
    by_string = lobby.join_string.startswith("ma://")
    if lobby.join_code:
        # two ways, each a whole command: the code (the table heard on this network), or
        # the join string (where broadcast does not reach)
        if by_string and lobby.other_joins:
            words = _(
                "Friends join with: modernart join {code}. Or, where that finds no table: modernart join"
                " followed by the join string of their network:"
            )
        elif by_string:
            words = _(
                "Friends join with: modernart join {code}. Or, where that finds no table: modernart join"
                " followed by this join string:"
            )
        else:
            words = _("Friends join with the code {code}:")
    elif by_string and lobby.other_joins:
        words = _("Friends join: modernart join followed by (the one of their network)")
    else:
        words = _("Friends join: modernart join followed by") if by_string else _("Friends join:")
    intro = [" " + chunk for chunk in wrap(words.format(code=lobby.join_code), max(10, width - 1))]
    lines: list[str] = []
    for text in (lobby.join_string, *lobby.other_joins):
        if len(text) <= width - 1:
            lines.append(" " + text)
        else:
            lines += [text[i : i + width] for i in range(0, len(text), max(1, width))]
    return intro, lines


def lobby_join(cs: ClientState, width: int, height: int) -> list[Line]:
    if cs.session is not None and cs.session.local_only:
        return [[("class:dim", " " + chunk)] for chunk in wrap(_(LOCAL_ONLY), max(10, width - 1))]
    intro, join = join_lines(cs.session.lobby if cs.session is not None else None, width)
    return [[("class:dim", t)] for t in intro] + [[("class:title", t)] for t in join]


#: Bot levels, for the catalog: the lobby names a seat's bot "bot medium" in the client's language.
BOT_LEVEL_WORDS = (N_("random"), N_("medium"), N_("hard"))

LOBBY_HELP = [
    (N_("Move"), N_("Up/Down choose a seat, a rule or a clock")),
    (N_("Seat"), N_("Enter on an empty seat takes it; on yours, ready or not")),
    (N_("Ready"), N_("r: ready (or not); the game starts when everyone is")),
    (
        N_("Host"),
        N_("b seats a bot (again: next level), x removes it, <- -> change a rule or clock, s starts the game"),
    ),
    (
        N_("Bots"),
        # TRANSLATORS: the hard bot's search, the same at every table (modernart.bots.hard.DEFAULT_PASSES)
        N_("hard searches 12 sampled deals a move (at most 1 s of CPU time): the same bot as in modernart arena"),
    ),
    (N_("Talk"), N_("c chat, ? help")),
    (N_("Leave"), N_("q or Ctrl-C (asks first)")),
]


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    return HSplit(
        [
            one_line(lobby_header, cs, style="class:status"),
            window(lambda w, h: lobby_join(cs, w, h), height=lambda: len(lobby_join(cs, size()[0], 0))),
            side_by_side(
                lambda: [
                    window(boxed(cs, _("Seats"), lobby_seats), height=12),
                    window(boxed(cs, _("Rules and clocks"), lobby_rules), height=12),
                ]
            ),
            one_line(lobby_rule_help, cs),
            parts.log,
            *parts.footer,
        ]
    )


class AskedChanges:
    """The rules and clocks this client has asked the host for and not yet heard back about.

    The screen always shows the host's lobby (what is true); these are only where the next key
    press starts from while requests are on their way."""

    def __init__(self) -> None:
        self.options: RuleOptions | None = None
        self.clocks: ClockSettings | None = None
        self._waiting = 0

    async def ask(
        self, request: Awaitable[None], options: RuleOptions | None = None, clocks: ClockSettings | None = None
    ) -> None:
        if options is not None:
            self.options = options
        if clocks is not None:
            self.clocks = clocks
        self._waiting += 1
        try:
            await request
        finally:
            self._waiting -= 1
            if not self._waiting:  # every answer is in: the lobby the host sent is the truth again
                self.options = self.clocks = None


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:  # noqa: C901  (one small closure per lobby key)
    lobby = modes.free("lobby")

    def rows():
        view = cs.session.lobby if cs.session is not None else None
        return lobby_rows(view) if view is not None else []

    def row():
        r = rows()
        return r[cs.lobby_cursor] if 0 <= cs.lobby_cursor < len(r) else None

    def move(step: int):
        def run(event) -> None:
            n = len(rows())
            if n:
                cs.lobby_cursor = (cs.lobby_cursor + step) % n

        return run

    def admin(starting: bool = False) -> bool:
        view = cs.session.lobby if cs.session is not None else None
        if view is None or not view.admin:
            cs.error(_("Only the host starts the game") if starting else _("Only the host changes the table"))
            return False
        return True

    wanted = AskedChanges()

    def change(step: int):
        def run(event) -> None:
            current = row()
            if current is None or current[0] in ("seat", "watcher"):
                cs.say(_("Left/Right change the rules and clocks (below the seats)"))
                return
            if not admin():
                return
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            session, view = cs.session, cs.session.lobby
            kind, name = current
            # a key pressed again before the host has answered steps on from what was asked,
            # not from the host's last word: two quick presses move the value two steps
            options = wanted.options if wanted.options is not None else view.options
            clocks = wanted.clocks if wanted.clocks is not None else view.clocks
            if kind in ("variant", "option"):
                options = next_variant(options, step) if kind == "variant" else next_options(options, name, step)
                controls.spawn(wanted.ask(session.set_options(options), options=options))
            else:
                clocks = next_clocks(clocks, name, step)
                controls.spawn(wanted.ask(session.set_clocks(clocks), clocks=clocks))

        return run

    def seat_action(event) -> None:
        current = row()
        if current is not None and current[0] == "watcher":
            cs.say(_("Someone watching this table; the host may remove them with x"))
            return
        if current is None or current[0] != "seat":
            change(1)(event)
            return
        slot = current[1]
        assert cs.session is not None and cs.session.lobby is not None  # a seat row is shown
        info = cs.session.lobby.seats[slot]
        if slot == cs.session.seat:
            ready(event)
        elif info.empty:
            controls.spawn(cs.session.take_seat(slot))
        else:
            cs.error(_("Seat {seat} is taken by {player}").format(seat=slot + 1, player=info.name))

    def ready(event) -> None:
        assert cs.session is not None and cs.session.lobby is not None  # the lobby is shown
        info = next((s for s in cs.session.lobby.seats if s.seat == cs.session.seat), None)
        if info is None:
            cs.error(_("Take a seat first (Up/Down, Enter on an empty seat)"))
            return
        controls.spawn(cs.session.set_ready(not info.ready))

    def bot(event) -> None:
        current = row()
        if current is None or current[0] != "seat":
            cs.error(_("Move to a seat (Up/Down) to seat a bot there"))
            return
        if not admin():
            return
        assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
        view = cs.session.lobby
        info = view.seats[current[1]]
        if info.kind == "human":
            cs.error(_("Seat {seat} is taken by {player}").format(seat=info.seat + 1, player=info.name))
            return
        levels = view.bot_levels or ("random",)
        level = levels[(levels.index(info.bot_level) + 1) % len(levels)] if info.bot_level in levels else levels[0]
        controls.spawn(cs.session.add_bot(info.seat, level))

    def unseat(event) -> None:
        """`x`: a bot goes at once; a person or a watcher after the remove overlay's `y`."""
        current = row()
        view = cs.session.lobby if cs.session is not None else None  # not None when a row is shown
        if current is None or view is None or current[0] not in ("seat", "watcher"):
            cs.error(_("Move to a seat or a watcher to remove them"))
            return
        if current[0] == "seat" and view.seats[cast(int, current[1])].empty:
            cs.error(_("Move to a seat or a watcher to remove them"))
            return
        if not admin():
            return
        assert cs.session is not None  # admin() saw it
        if current[0] == "watcher":
            cs.removing = (_("this watcher"), str(current[1]))
        else:
            info = view.seats[cast(int, current[1])]
            if info.kind == "bot":
                controls.spawn(cs.session.remove_bot(info.seat))
                return
            if info.seat == cs.session.seat:
                cs.error(_("You host this table: you cannot remove yourself"))
                return
            cs.removing = (info.name, info.fpr)
        modes.set_overlay("remove")(event)

    def lock(event) -> None:
        if admin():
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            flag = not cs.session.lobby.locked
            controls.spawn(cs.session.lock(flag))
            cs.say(
                _("Locked: only the players seated may sit")
                if flag
                else _("Unlocked: anyone with the join code may sit")
            )

    def start(event) -> None:
        if admin(starting=True):
            assert cs.session is not None and cs.session.lobby is not None  # admin() saw both
            view = cs.session.lobby
            if not view.can_start:
                waiting = [s.name for s in view.filled if s.kind == "human" and not s.ready]
                cs.error(
                    _("Waiting for {players} to be ready").format(players=_(", ").join(waiting))
                    if waiting
                    else _("A game needs 3 to 5 seats taken")
                )
                return
            controls.spawn(cs.session.start())

    is_admin = lambda: bool(cs.session and cs.session.lobby and cs.session.lobby.admin)  # noqa: E731
    return [
        Command(("up",), "Up/Dn", _("move"), lobby, move(-1), lambda: True, 10),
        Command(("down",), "", "", lobby, move(1)),
        Command(("enter", " "), "Enter", _("choose"), lobby, seat_action, lambda: True, 11),
        Command(
            ("left",),
            "<- ->",
            _("change"),
            lobby,
            change(-1),
            lambda: bool(row()) and row()[0] not in ("seat", "watcher"),
            12,
        ),
        Command(("right",), "", "", lobby, change(1)),
        Command(("r",), "r", _("ready"), lobby, ready, lambda: True, 13),
        Command(("b",), "b", _("bot"), lobby, bot, is_admin, 14),
        Command(("x",), "x", _("remove"), lobby, unseat, is_admin, 15),
        Command(("l",), "l", _("lock"), lobby, lock, is_admin, 17),
        Command(("s",), "s", _("start"), lobby, start, is_admin, 16),
    ]
