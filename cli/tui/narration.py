"""The table's log in words: what a seat's screen says of the host's events, its silences
and its goodbye (`NetSession`, cli/tui/net_session.py, turns the network client's updates
into the screens' vocabulary and hands the events to a `TableNarrator`).

The engine's events and moves themselves are worded by cli/narrate.py; this module adds
what only a networked table has: the start and its fixed deal, stand-ins, the hammer call,
who has sealed a bid, forfeits and timeouts, and this seat's deal at a hidden-hands table
(told once its cards can be read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from modernart.cards import EDITIONS, Edition
from modernart.events import AuctionStarted, CardsDealt, SealedRevealed
from modernart.moves import Action
from modernart.phase import Phase
from modernart.rules import OptionError, RuleOptions
from modernart.views import Observation

from modernart.cli.i18n import _, ngettext
from modernart.cli.narrate import describe_events, timeout_of
from modernart.cli.refusals import forfeit_reason
from modernart.cli.tui.session import LogEntry, append_log
from modernart.cli.words import distinct_names

if TYPE_CHECKING:
    from modernart.net.client.state import ConnectionState
    from modernart.net.trust.verified_game import EventInfo

#: Seconds of silence after which the host is said to have perhaps stopped (before: a blip)
HOST_GONE = 10


def fixed_deal_text() -> str:
    """What the log says of a table with a fixed deal (net/trust/shuffle.py `FixedDeal`)."""
    return _(
        "Fixed deal, not shuffled: the program running this table chose the cards "
        "(a test, a benchmark or `play --seed`); your client checks the deal against it"
    )


def silence_notice(seconds: int) -> str:
    """The status line's warning while the host is silent (short: it fits 80 columns with
    the rest of the line; the log says the rest once, see `silence_advice`)."""
    if seconds < HOST_GONE:
        return _("reconnecting... host silent {seconds}s").format(seconds=seconds)
    return _("host silent {seconds}s: it may have stopped (ask the host to resume)").format(seconds=seconds)


def silence_advice(seconds: int) -> str:
    return _(
        "The host has been silent for {seconds} s: it may have stopped. Ask the host to resume the game "
        "(modernart host --resume JOURNAL); this screen reconnects by itself when it is back"
    ).format(seconds=seconds)


def goodbye_text(goodbye: Mapping[str, Any], ssh_guest: bool = False) -> str:
    """What the log says when the host closes the table, with how the game can go on (an
    SSH guest's screen closes with the table: it does not reconnect by itself)."""
    record, journal = goodbye.get("record"), goodbye.get("journal")
    if record:
        return _("The host closed the table. The game's record is on the host's machine: {record}").format(
            record=record
        )
    if journal and ssh_guest:
        return _(
            "The host closed the table. Once the host resumes the game, log in again the same way "
            "(with the same key, your seat is kept)"
        )
    if journal:
        return _(
            "The host closed the table. It can resume the game with: modernart host --resume {journal} "
            "(this screen reconnects by itself)"
        ).format(journal=journal)
    return _("The host closed the table")


def host_stopped_text(code: int | None, resume: str | None, ssh_guest: bool) -> str:
    """What the log says when the host process this client's command started ended by
    itself (`modernart host`: the hosting player's own host, serving her SSH guests too)."""
    if ssh_guest:
        return _(
            "The host's table stopped unexpectedly on the host's machine. This session ends when the "
            "host leaves; once the host continues the game, log in again the same way (with the same "
            "key, your seat is kept)"
        )
    if resume:
        return _(
            "Your host stopped unexpectedly (exit code {code}). The game so far is in its journal: "
            "leave (q), then continue it with: modernart host {resume}"
        ).format(code=code, resume=resume)
    return _(
        "Your host stopped unexpectedly (exit code {code}) before the game began: leave (q) and open the "
        "table again with modernart host"
    ).format(code=code)


class TableNarrator:
    """Writes a seat's log lines for the host's events, each event once, in order.

    It holds what the wording needs from one event to the next: whether a hammer call
    runs (a bid stopping it is told), who has been told to have sealed a bid in the running
    Sealed auction, the last Sealed reveal with its seller (the auction panel reads it as
    the session's `last_reveal`), and this seat's deal while its cards cannot be read yet.
    """

    def __init__(self, log: list[LogEntry]) -> None:
        self.log = log  # the session's log, appended to
        self.last_reveal: tuple[SealedRevealed, int] | None = None  # (reveal, that auction's seller or -1)
        self._seq = 0  # the last event told
        self._calling = False  # a hammer call is running (told when a bid stops it)
        self._sealed_told: tuple[int, set[int]] = (-1, set())  # (auction, seats told to have sealed)
        self._seller = (-1, -1)  # (auction, auctioneer) of the last auction started
        # hidden hands: the line telling this seat's deal, held until its cards can be read
        # (the host's event only counts them; the other seats' shares make them readable)
        self._deal_untold: str | None = None
        self._deck_for: RuleOptions | None = None
        self._deck: tuple = ()

    def __repr__(self) -> str:
        return f"<TableNarrator told={self._seq} lines={len(self.log)}>"

    def say(self, text: str, kind: str = "event") -> None:
        append_log(self.log, LogEntry(text, kind))

    def vote(self, info: EventInfo, names: list[str], vote_on: int | None) -> None:
        """A seat named late (`dlate`) that this person may vote on (`vote_on`), and the
        table's decision on it (`decide`; docs/fair-play.md "No table waits for ever")."""
        seat = info.public.get("seat", -1)
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return
        if info.kind == "decide":
            if info.public.get("choice") == "end":
                text = _("The players here voted to end the game without {player}: it is scored as it stands")
            else:
                text = _("The players here voted to keep waiting for {player}")
            self.say(text.format(player=names[seat]), "system")
        elif info.kind == "dlate" and vote_on == seat:
            text = _(
                "{player} is late, and only they can go on: w to keep waiting, e to end the game now "
                "(a majority of the players here decides; a tie keeps waiting)"
            )
            self.say(text.format(player=names[seat]), "system")

    def event(self, info: EventInfo, st: ConnectionState, hand_ready: bool) -> None:
        """Tell one verified event of the game (`st`: the client's state after it;
        `hand_ready`: this seat's cards can be read)."""
        if info.seq <= self._seq:
            return
        self._seq = info.seq
        names = list(distinct_names([p["name"] for p in st.players])) if st.players else []
        if self._table_event(info, st, names):
            return
        public: list[object] = []
        if info.kind == "settle" and names:
            self._settled(info.public.get("bids", []), names)
        if info.move is not None:
            self._after_call(info, names)
            if names:
                self._move(info, names, public)
        edition, deck = self._edition_and_deck(st)
        for event in info.events:
            self._follow_sealed(event)
            if isinstance(event, CardsDealt):
                self._tell(public, names, edition, deck)
                if event.seat == st.seat and st.role in ("player", "standin"):
                    self._dealt(event, _dealt_count(info.public, event.seat), hand_ready)
                continue
            public.append(event)
        self._tell(public, names, edition, deck)

    def cards_readable(self) -> None:
        """This seat's cards can be read now: tell its deal if it waited for them."""
        if self._deal_untold is not None:
            self.say(self._deal_untold)
            self._deal_untold = None

    def sealed(
        self, obs: Observation, seats: Sequence[int], players: Sequence[Mapping[str, Any]], auction: int | None = None
    ) -> None:
        """Tell who seals a bid in the running Sealed auction, once each: the host's clocks
        say who has (`clk.sealed`), the complete set names the rest."""
        if auction is None:
            if obs.phase != Phase.SEALED:
                return
            auction = obs.auction_no
        told_auction, told = self._sealed_told
        if told_auction != auction:
            told = set()
            self._sealed_told = (auction, told)
        names = [p["name"] for p in players]
        for seat in seats:
            if seat in told or not 0 <= seat < len(names):
                continue
            told.add(seat)
            if seat == obs.auctioneer and obs.options.sealed_excludes_seller:
                continue  # the seller's fist stays empty (FA-10): its entry is the host's default
            self.say(_("{player} seals a bid").format(player=names[seat]))

    def _table_event(self, info: EventInfo, st: ConnectionState, names: list[str]) -> bool:
        """Tell an event of the table rather than of the rules (the start, a stand-in, the
        complete sealed set, a hammer call); True if nothing more is to be said of it."""
        if info.kind == "start":
            self.say(_("The game begins: {players}").format(players=_(", ").join(names)), "system")
            if info.public.get("fixed") is not None:  # the client checked it was announced
                self.say(fixed_deal_text(), "system")
        elif info.kind == "delegate" and names and info.public.get("vk"):
            # a stand-in for a person (a bot seat's own bot reconnecting after a resume is no
            # news); the person's return is told by the session's presence
            seat = info.public.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(names) and not st.players[seat].get("bot"):
                self.say(_("A bot plays for {player} until they return").format(player=names[seat]), "system")
        elif info.kind == "commits" and st.observation is not None:  # the last to seal are in the set
            sealed = tuple(item["seat"] for item in info.public.get("set", []) if "c" in item)
            self.sealed(st.observation, sealed, st.players, info.public.get("auction"))
        elif info.kind == "call" and info.move is not None and names:
            self._calling = True
            who = names[info.move.seat] if 0 <= info.move.seat < len(names) else "?"
            secs = (info.public.get("clk") or {}).get("call")
            text = _("{name} calls: going once, going twice... ({seconds} s; a bid stops it)").format(
                name=who, seconds=f"{secs:.0f}" if isinstance(secs, (int, float)) else "?"
            )
            self.say(text)
            return True
        return False

    def _after_call(self, info: EventInfo, names: list[str]) -> None:
        """A move during a hammer call: a bid stops it (a pass leaves it running)."""
        move = info.move
        if move is None or not self._calling or move.action == Action.PASS:
            return
        self._calling = False
        if move.action == Action.BID and 0 <= move.seat < len(names):
            self.say(_("{name}'s bid stops the hammer").format(name=names[move.seat]))

    def _move(self, info: EventInfo, names: list[str], public: list[object]) -> None:
        """Tell how a move came (the countdown, a forfeit, a clock) or queue it in `public`."""
        move = info.move
        assert move is not None
        who = names[move.seat] if 0 <= move.seat < len(names) else _("a player")
        if info.by == "clock" and move.action == Action.HAMMER:  # the Open countdown ran out
            self.say(timeout_of(info.events, names))
        elif info.by == "offender":
            self.say(_forfeited(who, info.public.get("why")))
        elif info.by != "reveal":  # a settled sealed bid is told by the reveal of all bids
            if info.by == "clock":  # this decision's clock ran out: the host moved for them
                self.say(_("Time is up for {player}").format(player=who))
            public.append(move)

    def _dealt(self, event: CardsDealt, count: int, hand_ready: bool) -> None:
        """This seat's deal: told now, or at a hidden-hands table once its cards can be read
        (`count`: the public event's count; this seat's copy names no cards there)."""
        n = len(event.cards) or count
        dealt = ngettext(
            "Round {round}: you receive {count} painting", "Round {round}: you receive {count} paintings", n
        ).format(round=event.round + 1, count=n)
        if event.cards or hand_ready:
            self.say(dealt)
        else:  # told by cards_readable once the other seats' shares are in
            self._deal_untold = dealt

    def _settled(self, bids: list[dict[str, Any]], names: list[str]) -> None:
        """A settlement's offenders and timeouts (its bids are told by the reveal of them all)."""
        for bid in bids:
            seat = bid["m"][0]
            who = names[seat] if 0 <= seat < len(names) else _("a player")
            if bid.get("by") == "offender":
                self.say(_forfeited(who, bid.get("why")))
            elif bid.get("by") == "clock":  # this decision's clock ran out: the host bid 0 for them
                self.say(_("Time is up for {player}").format(player=who))

    def _follow_sealed(self, event: object) -> None:
        """Keep the last Sealed reveal and its auction's seller: the auction panel shows every
        bid, who won and why."""
        if isinstance(event, AuctionStarted):
            self._seller = (event.auction, event.auctioneer)
        elif isinstance(event, SealedRevealed):
            auction, seller = self._seller
            self.last_reveal = (event, seller if auction == event.auction else -1)

    def _tell(self, items: list, names: Sequence[str], edition: Edition, deck) -> None:
        """Narrate `items` (a move and its public events, in order) into the log; empties the list."""
        if names:
            for text in describe_events(items, names, edition, deck):
                self.say(text)
        items.clear()

    def _edition_and_deck(self, st: ConnectionState) -> tuple[Edition, tuple]:
        table = st.table or {}
        try:
            options = RuleOptions.from_dict(table.get("options") or {})
        except (OptionError, TypeError):
            options = RuleOptions()
        if self._deck_for != options:
            self._deck_for, self._deck = options, options.deck_table.build()
        return EDITIONS[options.edition], self._deck


def _forfeited(who: str, why: object) -> str:
    """The line of a forfeited sealed bid, with the host's reason when it gives one."""
    if isinstance(why, str) and why:
        return _("{player}'s sealed bid is forfeited: {reason}").format(player=who, reason=forfeit_reason(why))
    return _("{player}'s sealed bid is forfeited").format(player=who)


def _dealt_count(public: Mapping[str, Any], seat: int) -> int:
    """How many cards an event deals `seat` (its public part counts them: at a hidden-hands
    table nobody's copy names the cards until they are read)."""
    for item in public.get("ev") or ():
        if isinstance(item, dict) and item.get("k") == "dealt" and item.get("seat") == seat:
            count = item.get("count")
            return count if type(count) is int else 0
    return 0
