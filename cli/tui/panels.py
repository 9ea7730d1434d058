"""The table's panels as text: artists board, players, your hand, log, status line.

Each panel is a function `(cs, width, height) -> lines`, a line being a list of
(style, text) fragments; the layout cuts and pads them to the panel.  Every fact is in
the text (artist initials, auction-type letters, `*` for you, `>` for whose turn, `?`
for hidden money); styles only add colour and emphasis.
"""

from __future__ import annotations

import heapq
import re

from modernart.cards import ARTISTS, ROUNDS, Card, Edition
from modernart.moves import Action
from modernart.phase import Phase
from modernart.scoring import score_round
from modernart.views import Observation

from modernart.cli.i18n import _, ngettext, pgettext
from modernart.cli.words import describe_card
from modernart.cli.tui.waiting_for import expectation, hidden_wait, vote_prompt
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import COLUMN, Line, cut, fit, line_width, width, wrap
from modernart.cli.tui.text import width as cell_width

ARTIST_STYLE = tuple(f"class:artist-{i}" for i in range(len(ARTISTS)))


def artist_names(ed: Edition, cells: int) -> tuple[str, ...]:
    """The five artists' names in one style that fits `cells`: all full names, or all
    surnames ('Carvalho'), or all short forms ('MC') -- never a mix."""
    surnames = tuple(n.split()[-1] for n in ed.artists)
    for names in (ed.artists, surnames):
        if all(width(n) <= cells for n in names) and all(len(n) >= 3 for n in names):
            return names
    return ed.short


def artist_label(cs: ClientState, artist: int, cells: int) -> Line:
    ed = cs.edition
    name = artist_names(ed, cells - 2)[artist]
    return [(ARTIST_STYLE[artist], ed.initials[artist]), ("", " " + fit(name, cells - 2))]


# ---------------------------------------------------------------------- artists board


def artists_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    name_w = 14 if width >= 36 else 4
    # TRANSLATORS: a round's column on the artists board, three cells wide ("R1")
    rounds = "".join(fit(pgettext("board", "R{number}").format(number=r + 1), 3, "right") for r in range(ROUNDS))
    worth = values_now(obs)
    shows_value = worth is not None and width >= name_w + 24
    head = fit("  " + _("Artist"), name_w) + rounds + "  " + fit(_("This round"), width - name_w - 14)
    if shows_value:  # and what one painting would pay if the round ended now
        # TRANSLATORS: the artists board's last column, three cells wide: what a painting would pay now
        now = pgettext("board", "Now")
        head = fit("  " + _("Artist"), name_w) + rounds + "  " + fit(_("Round"), 7) + fit(now, 3, "right")
    lines: list[Line] = [[("class:dim", head)]]
    for a in ARTISTS:
        line = artist_label(cs, a, name_w)
        for r in range(ROUNDS):
            if r < len(obs.tiles):
                tile = obs.tiles[r][a]
                line.append(("class:good" if tile else "class:dim", fit(str(tile) if tile else ".", 3, "right")))
            else:
                line.append(("class:dim", fit(".", 3, "right") if r != obs.round else fit("-", 3, "right")))
        count = obs.counts[a]
        line.append(("", "  " + COLUMN))
        # five cells: a painting each, "####+" past five (only empty hands end the round, §10.2)
        line.append((ARTIST_STYLE[a], "#" * count if count <= 5 else "####+"))
        line.append(("class:dim", "." * max(0, 5 - count)))
        line.append(("", f" {count}"))
        if shows_value and worth is not None:
            line.append(("class:good" if worth[0][a] else "class:dim", fit(str(worth[0][a] or "-"), 3, "right")))
        lines.append(line)
    return lines


def values_now(obs: Observation) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """If the round ended now: what one painting of each artist would pay (its place's tile
    plus its tiles of earlier rounds), and what each player's purchases of this round would
    be paid (None between rounds and at the end)."""
    if obs.is_over or obs.round >= ROUNDS or not any(obs.counts):
        return None
    result = score_round(obs.round, obs.counts, obs.tiles[: obs.round], obs.bought, "fifth", 0, ())
    return result.values, result.payouts


# ---------------------------------------------------------------------- players


def seat_status(obs: Observation, seat: int) -> str:
    """A word about `seat` in the running auction."""
    phase = obs.phase
    if phase == Phase.OPEN:
        if seat == obs.high_seat:
            return _("high {amount}").format(amount=obs.high)
        if seat in obs.passed:
            return _("passed")
    if phase == Phase.SEALED:
        return _("sealed") if seat in obs.sealed_done else _("thinking")
    if phase in (Phase.ONCE_AROUND, Phase.FIXED_OFFER):
        for s, amount in reversed(obs.bids):
            if s == seat and phase == Phase.ONCE_AROUND:
                return _("bid {amount}").format(amount=amount)
        if seat == obs.high_seat and phase == Phase.ONCE_AROUND:
            return _("high {amount}").format(amount=obs.high)
    if seat == obs.auctioneer and phase != Phase.GAME_OVER:
        return _("seller")
    return ""


def bought_text(cs: ClientState, bought: tuple[Card, ...], spaced: bool, cells: int = 99) -> Line:
    """'L1 Y2 K1' (initial and count per artist) in at most `cells` cells: narrower without
    spaces, then without the count of a single painting ('LY2K'), then cut with a '+'."""
    per = [0] * len(ARTISTS)
    for card in bought:
        per[card.artist] += 1
    if not any(per):
        return [("class:dim", "-")]
    initials = cs.edition.initials
    for gap, ones in ((" " if spaced else "", True), ("", True), ("", False)):
        out: Line = []
        for a in ARTISTS:
            if per[a]:
                if out and gap:
                    out.append(("", gap))
                count = str(per[a]) if ones or per[a] > 1 else ""
                out.append((ARTIST_STYLE[a], f"{initials[a]}{count}"))
        if sum(len(t) for _, t in out) <= cells:
            return out
    cut_out: Line = []
    used = 0
    for style, text in out:
        if used + len(text) > cells - 1:
            break
        cut_out.append((style, text))
        used += len(text)
    return cut_out + [("class:dim", "+")]


def name_in(name: str, cells: int) -> str:
    """`name` in at most `cells` cells, cut before a seat's number that tells it apart from
    a namesake ("Playe #3"), so that the number is never what is cut."""
    m = re.search(r" #\d+$", name)
    if m is None or width(name) <= cells:
        return name
    return cut(name[: m.start()], max(1, cells - len(m.group(0)))) + m.group(0)


def players_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    name_w = max(6, min(14, width - 30))
    bought_w = max(8, width - name_w - 2 - 5 - 5 - 1 - 9)
    lines: list[Line] = [
        [
            (
                "class:dim",
                "  "
                + fit(_("Player"), name_w)
                + fit(_("Money"), 5, "right")
                + fit(_("Hand"), 5, "right")
                + " "
                + fit(_("Bought"), bought_w)
                + " "
                + fit(_("Now"), max(1, width - name_w - 2 - 10 - 1 - bought_w - 1)),
            )
        ]
    ]
    money = obs.final_money if obs.final_money else None
    worth = values_now(obs)
    for s in range(obs.players):
        me = s == obs.seat
        mark = ("*" if me else " ") + (">" if s in obs.to_move and not obs.is_over else " ")
        shown = str(money[s]) if money else (str(obs.money) if me else "?")
        style = "class:you" if me else ""
        line: Line = [("class:turn" if ">" in mark else "", mark), (style, fit(name_in(cs.name(s), name_w), name_w))]
        line.append((style, fit(shown, 5, "right") + fit(str(obs.hand_sizes[s]), 5, "right") + " " + COLUMN))
        bought = bought_text(cs, obs.bought[s], spaced=bought_w >= 14, cells=bought_w)
        paid = worth[1][s] if worth is not None and obs.bought[s] else 0
        tail = f" ={paid}" if paid else ""  # the purchases' worth at the values of now, where it fits
        if tail and sum(len(t) for _, t in bought) + len(tail) <= bought_w:
            bought.append(("class:good", tail))
        used = sum(len(t) for _, t in bought)
        line.extend(bought)
        line.append(("", " " * max(1, bought_w - used + 1) + COLUMN))
        assert cs.session is not None  # it holds obs
        if s in cs.session.away and not obs.is_over:  # why a bot or the clock plays for them
            line.append(("class:error", _("away")))
        else:
            line.append(("class:info", seat_status(obs, s)))
        lines.append(line)
    return lines


# ---------------------------------------------------------------------- your hand


def hand_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    hand = cs.sorted_hand()
    if obs.seat < 0:
        return [
            [("", " " + _("You are watching: every seat is taken."))],
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            [("class:dim", " " + _("You see what every player sees;"))],
            [("class:dim", " " + _("nobody's hand, nobody's money."))],
        ]
    if cs.cards_coming and not hand:
        return [
            [("", " " + _("Your paintings are being dealt:"))],
            # TRANSLATORS: this line and the previous one are one sentence, cut to fit a narrow panel
            [("class:dim", " " + _("each player unlocks their share."))],
        ]
    if not hand:
        return [
            [("class:dim", " " + _("Your hand is empty."))],
            [("class:dim", " " + _("You may still bid in others' auctions."))],
        ]
    # the chosen card is shown only while a card is to be chosen (your sale, a Double offered
    # to you): during others' auctions a bracketed card would be a stale choice; it is kept
    # for when your turn comes
    selected = cs.selected_card() if obs.card_action() is not None else None
    label_w = 13 if width >= 34 else 3
    rows: list[Line] = []
    index = {int(c): i for i, c in enumerate(hand)}
    legal_cards = {m.arg for m in obs.legal_moves(amounts=False) if m.action.takes_card}
    for a in ARTISTS:
        cards = [c for c in hand if c.artist == a]
        label = artist_label(cs, a, label_w)
        if not cards:
            rows.append(label + [("class:dim", " -")])
            continue
        line: Line = list(label)
        used = label_w
        for card in cards:
            n = index[int(card)] + 1
            token = f"{n}:{card.kind.letter}"
            chosen = selected is not None and int(card) == int(selected)
            text = COLUMN + (f"[{token}]" if chosen else f" {token} ")
            if used + cell_width(text) > width:
                rows.append(line)
                line, used = [("", " " * label_w)], label_w
            style = "class:selected" if chosen else ("class:you" if int(card) in legal_cards else "")
            line.append((style, text))
            used += cell_width(text)
        rows.append(line)
    if selected is not None:
        described = describe_card(cs.edition, selected)
        about = f" > {index[int(selected)] + 1}: {described}"
        if obs.card_action() == Action.ADD_SECOND and int(selected) not in legal_cards:
            about = " " + _("{number}: {card} cannot join").format(number=index[int(selected)] + 1, card=described)
        desc: Line = [("class:you", about)]
    else:
        desc = []
    if cs.cards_coming:  # the cards held are readable; this round's new ones are not yet
        rows.append([("class:dim", " " + _("More of your paintings are being dealt"))])
    if len(rows) + 1 > height:  # drop empty artists first, then cut
        rows = [r for r in rows if r[-1][1] != " -"]
    return rows[: max(0, height - 1)] + [desc]


# ---------------------------------------------------------------------- log and chat


def log_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    session = cs.session
    if session is None or height <= 0:
        return []
    lines: list[Line] = []
    cs.log_page = max(1, height - 1)  # a page back keeps one line of the last one in view
    # wrap only as many entries as can be shown
    need = height + cs.log_scroll
    # the table's log and this client's own notes, newest first, by time
    entries = heapq.merge(reversed(session.log), reversed(cs.notes), key=lambda e: -e.at)
    starts: list[int] = []  # each shown entry's first line, counted from the end
    for entry in entries:
        if entry.kind == "chat":
            head = f"<{entry.who}> "
            parts = wrap(head + entry.text, width)
            wrapped = [[("class:chat.who", head), ("class:chat", parts[0][len(head) :])]] + [
                [("class:chat", p)] for p in parts[1:]
            ]
        else:
            style = {"system": "class:log.system", "error": "class:log.error"}.get(entry.kind, "")
            wrapped = [[(style, p)] for p in wrap(entry.text, width)]
        lines[:0] = wrapped
        starts.append(len(lines))
        if len(lines) >= need:
            break
    cs.log_scroll = max(0, min(cs.log_scroll, len(lines) - height))
    end = len(lines) - cs.log_scroll
    start = max(0, end - height)
    if cs.log_scroll == 0 and start > 0:
        # the newest page never begins in the middle of an entry (a round's summary cut at
        # its top): it begins with the oldest entry that fits whole, blank lines above it
        whole = [len(lines) - n for n in starts if len(lines) - n >= start]
        first = min(whole) if whole else start
        if first < end:  # unless the newest entry alone is taller than the window
            return [[("", "")] for _ in range(first - start)] + lines[first:end]
    return lines[start:end]


# ---------------------------------------------------------------------- status line


def status_line(cs: ClientState, width: int) -> Line:
    obs = cs.obs
    if obs is None:
        return [("class:status", " " + _("MODERN ART"))]
    owed = cs.session.reveals_owed if cs.session is not None else ()
    mine, text = expectation(obs, cs.name, cs.edition, owed)
    session = cs.session
    if session is not None and session.mystery_coming:
        mine, text = False, _("The mystery card is being turned up: each player unlocks their share")
    waiting_hidden = None
    if session is not None and session.hidden_hands and not mine and not obs.is_over:
        waiting_hidden = hidden_wait(obs, cs.name, session.deck_late)
        if session.vote_on is not None:  # late: this person votes (docs/fair-play.md "No table waits for ever")
            waiting_hidden = vote_prompt(cs.name(session.vote_on), session.my_vote)
        text = waiting_hidden or text
    me = f"{cs.name(obs.seat)} ${obs.money}" if obs.seat >= 0 else _("no seat")
    left = " " + _("Round {round}/{rounds}").format(round=min(obs.round + 1, ROUNDS), rounds=ROUNDS) + f" | {me} | "
    line: Line = [("class:status", left)]
    deadline = cs.session.decision_deadline if cs.session is not None else None
    if deadline is not None and mine:  # before the words, so that a long sentence never cuts it off
        line.append(("class:status.turn", f"[{clock_text(cs, deadline)}] "))
    deck = session.deck_deadline if session is not None else None
    if waiting_hidden is not None and deck is not None:  # the countdown to that seat's deadline
        line.append(("class:status", f"[{clock_text(cs, deck)}] "))
    call = cs.session.call_deadline if cs.session is not None else None
    if call is not None and obs.phase == Phase.OPEN:  # the hammer is falling: on every screen
        line.append(("class:status.turn", "[" + _("sold in {left}").format(left=clock_text(cs, call)) + "] "))
    if cs.turn_came():  # an overlay hides the table: say why it should go
        text = _("YOUR TURN has come: any key takes you back to the table")
    if obs.phase == Phase.OPEN and mine:
        mine, text = _open_now(cs, obs, call is not None, text)
    line.append(("class:status.turn" if mine else "class:status", text))
    if line_width(line) > width and obs.phase == Phase.SEALED and obs.seat in obs.sealed_done:
        waiting = obs.players - len(obs.sealed_done)  # five long names do not fit: count them
        line[-1] = (
            line[-1][0],
            _("Your sealed bid is in; waiting for {count} more").format(count=waiting)
            if waiting
            else ngettext(
                "All bids are sealed; waiting for {count} reveal",
                "All bids are sealed; waiting for {count} reveals",
                len(owed),
            ).format(count=len(owed)),
        )
    if cs.notice:  # e.g. the host is out of touch: said first, so it is never cut off
        line[:0] = [("class:error", f" {cs.notice} ")]
    return _fit_status(line, width, "..." if cs.ascii else "…")


def _open_now(cs: ClientState, obs: Observation, calling: bool, text: str) -> tuple[bool, str]:
    """An Open auction in this client's own words: after `o` or `p` it no longer invites
    a bid, and while the hammer is called it says what stops it (short enough for 80
    columns beside the call's clock)."""
    if cs.out_of_auction == obs.auction_no:
        return False, _("OPEN AUCTION: you stay out (o: back in)")
    if obs.seat in obs.passed:
        return False, _("OPEN AUCTION: you passed (a bid brings you back in)")
    if calling:
        if obs.seat == obs.auctioneer:
            return True, _("your hammer is falling; a bid stops it")
        return True, _("a bid stops the hammer, p passes")
    return True, text


def _fit_status(line: Line, width: int, ellipsis: str) -> Line:
    """Make the status line fit: drop the bracketed key hint at its end (the key line
    shows the keys), then every bracketed key hint ("(Enter)" inside the sentence); only
    then cut the sentence with a mark (never mid-word unmarked), so that at 80 columns the
    sentence is whole wherever it can be."""
    style, text = line[-1]
    if line_width(line) > width:
        line[-1] = (style, text := re.sub(r"\s*[(（][^()（）]*[)）]$", "", text))
    if line_width(line) > width:
        line[-1] = (style, text := re.sub(r"\s*[(（][^()（）]*[)）]", "", text))
    over = line_width(line) - width
    if over > 0:  # cut in cells: a Chinese character takes two
        line[-1] = (style, cut(text, max(0, cell_width(text) - over - cell_width(ellipsis))).rstrip() + ellipsis)
    return line


def sales_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    """Every sale of this round, newest first: what, from whom, to whom, for how much."""
    obs = cs.obs
    if obs is None:
        return []
    ed = cs.edition
    lines: list[Line] = []
    for sale in reversed([s for s in obs.sales if s.round == obs.round]):
        artist = sale.cards[0].artist
        kinds = "+".join(c.kind.letter for c in sale.cards)
        price = _("free") if sale.price == 0 else str(sale.price)
        buyer = cs.name(sale.buyer) if sale.buyer >= 0 else _("discarded")  # unsold (unsold_discarded)
        lines.append(
            [
                (ARTIST_STYLE[artist], f" {ed.initials[artist]} {ed.artists[artist]}"),
                ("", f" ({kinds})  " + COLUMN),
                ("", _("{seller} -> {buyer}").format(seller=cs.name(sale.auctioneer), buyer=buyer) + " " + COLUMN),
                ("class:title", price),
            ]
        )
    return lines or [[("class:dim", " " + _("No sales yet this round."))]]


def seconds_left(cs: ClientState, deadline: float) -> int:
    left = deadline - cs.clock()
    return max(0, int(left + 0.999))


def clock_text(cs: ClientState, deadline: float) -> str:
    """A clock as shown: "12s", or "?s" while out of touch with the host, whose clock runs on
    unseen (a countdown left to run down here would sit at 0 as if frozen)."""
    if cs.notice:
        return "?s"
    return f"{seconds_left(cs, deadline)}s"


def message_lines(cs: ClientState, width: int) -> list[Line]:
    """The message line, wrapped onto a second line when it is long (never more)."""
    msg = cs.message
    if msg is None:
        return []
    style = "class:error" if msg.kind == "error" else "class:info"
    head = " ! " if msg.kind == "error" else " "
    parts = wrap(msg.text, max(10, width - len(head)))
    if len(parts) > 2:
        parts = parts[:1] + wrap(" ".join(parts[1:]), max(10, width - len(head)))[:1]
    return [[(style, (head if i == 0 else " " * len(head)) + p)] for i, p in enumerate(parts[:2])]
