"""The auction panel: one view per step of the game (docs/rules.md §3-§5).

Open shows the live countdown (restarted by every bid) and the quick raises;
Once-around shows the order of turns and who bid what; Sealed shows who has committed
(never the amounts); Fixed price shows the price being set, then who declined; a Double
shows to whom it is offered.  Between auctions the panel shows the last sale.
"""

from __future__ import annotations

from typing import Sequence

from modernart.cards import AuctionType
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.views import Observation

from modernart.cli.i18n import _
from modernart.cli.tui.panels import ARTIST_STYLE, artist_names, clock_text, seconds_left
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, countdown_bar, line_width, wrap

KIND_WORDS = {
    AuctionType.OPEN: "OPEN auction",
    AuctionType.ONCE_AROUND: "ONCE-AROUND auction",
    AuctionType.SEALED: "SEALED auction",
    AuctionType.FIXED_PRICE: "FIXED PRICE",
    AuctionType.DOUBLE: "DOUBLE",
}


def lot_line(cs: ClientState, obs: Observation, width: int = 99) -> Line:
    """' R Krypto (D+F)  FIXED PRICE': the lot, its auction-type letters, the auction;
    shorter forms when `width` is too small (never cut in the middle of a word)."""
    if not obs.lot:
        return []
    ed = cs.edition
    artist = obs.lot[0].artist
    letters = "+".join(card.kind.letter for card in obs.lot)
    kind = KIND_WORDS[obs.lot[-1].kind]
    short_kind = kind.removesuffix(" auction")
    line: Line = []
    for name, words in (
        (ed.artists[artist], kind),
        (ed.artists[artist], short_kind),
        (artist_names(ed, 10)[artist], short_kind),
    ):
        line = [
            ("", " "),
            (ARTIST_STYLE[artist], f"{ed.initials[artist]} {name}"),
            ("", f" ({letters})  "),
            ("class:title", words),
        ]
        if line_width(line) <= width:
            break
    return line


def chain(items: list[Line], width: int, sep: str = " > ") -> list[Line]:
    """`items` joined by `sep` on as many lines of `width` cells as they need."""
    lines: list[Line] = [[("", " ")]]
    for i, item in enumerate(items):
        piece = ([("class:dim", sep)] if i else []) + item
        if i and line_width(lines[-1]) + line_width(piece) > width:
            lines.append([("", " "), ("class:dim", sep.lstrip())] + item)  # the order goes on
        else:
            lines[-1] += piece
    return lines


def by_line(cs: ClientState, obs: Observation) -> Line:
    who = cs.name(obs.auctioneer)
    text = f" Auctioneer: {who}" + (" (you)" if obs.auctioneer == obs.seat else "")
    if obs.original >= 0 and obs.original != obs.auctioneer:
        text += f"; Double by {cs.name(obs.original)}"
    return [("", text)]


def entry_line(cs: ClientState, obs: Observation, label: str, masked: bool = False) -> Line:
    typed = cs.amount
    shown = ("*" * len(typed) if masked else typed) + "_"
    return [("", f" {label}: "), ("class:you", shown), ("class:dim", f"   you have {obs.money}")]


def decision_clock(cs: ClientState) -> Line:
    deadline = cs.session.decision_deadline if cs.session is not None else None
    if deadline is None:
        return []
    return [("class:countdown", f" Time to decide: {clock_text(cs, deadline)}")]


def auction_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    phase = obs.phase
    if phase in (Phase.PLAY_CARD, Phase.GAME_OVER):
        lines = between_auctions(cs, obs)
        clock = decision_clock(cs) if phase == Phase.PLAY_CARD else []
        if clock:  # second, right under whose choice it is: the sale lines below may be cut
            lines.insert(1, clock)
        return lines
    panel = {
        Phase.DOUBLE_OFFER: double_offer,
        Phase.OPEN: open_auction,
        Phase.ONCE_AROUND: once_around,
        Phase.SEALED: sealed,
        Phase.FIXED_SET: fixed_set,
        Phase.FIXED_OFFER: fixed_offer,
    }[phase]
    lines = [lot_line(cs, obs, width)] + panel(cs, obs, width)
    clock = decision_clock(cs)
    if clock and len(lines) < height:
        lines.append(clock)
    return lines


def between_auctions(cs: ClientState, obs: Observation) -> list[Line]:
    lines: list[Line] = []
    if obs.is_over:
        return [[("class:title", " The game is over")]]
    who = cs.name(obs.auctioneer)
    if obs.card_action() == Action.PLAY:
        lines.append([("class:turn", " Your turn to sell a painting")])
        lines.append([("", " Pick one in your hand (<- -> or its")])
        lines.append([("", " number), then press Enter")])
    else:
        lines.append([("", f" {who} is choosing a painting to sell")])
    sale = next((s for s in reversed(obs.sales) if s.round == obs.round), None)
    if sale is not None:
        ed = cs.edition
        cards = " + ".join(ed.artists[c.artist] for c in sale.cards)
        price = "for free" if sale.price == 0 else f"for {sale.price}"
        lines.append([("class:dim", f" Last sale: {cards}")])
        lines.append([("class:dim", f"   to {cs.name(sale.buyer)} {price}")])
    return lines


def double_offer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    ed = cs.edition
    artist = artist_names(ed, 12)[obs.lot[0].artist]
    lines = [by_line(cs, obs)]
    if obs.card_action() == Action.ADD_SECOND:
        lines.append([("class:turn", " Offered to YOU: add a second")])
        lines.append([("class:turn", f" {artist}"), ("", " (not a Double) and")])
        lines.append([("", " auction both, or p to pass it on")])
    else:
        offer = f" Offered to {cs.name(obs.turn)}: a second {artist}"
        if len(offer) <= width:
            lines.append([("", offer)])
        else:
            lines += [[("", f" Offered to {cs.name(obs.turn)}:")], [("", f" a second {artist}")]]
        lines.append([("class:dim", " makes them the auctioneer of both")])
    return lines


def open_auction(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    if obs.high_seat >= 0:
        mine = " (you)" if obs.high_seat == obs.seat else ""
        lines.append([("", " High bid: "), ("class:title", f"{obs.high}"), ("", f" by {cs.name(obs.high_seat)}{mine}")])
    else:
        lines.append([("", " No bid yet")])
    deadline = cs.session.open_deadline if cs.session is not None else None
    if deadline is not None:
        left = max(0.0, deadline - cs.clock())
        secs = seconds_left(cs, deadline)
        total = _open_total(cs)
        style = "class:countdown.low" if secs <= 3 else "class:countdown"
        bar = countdown_bar(left, total, max(4, min(20, width - 30)))
        after = [("class:dim", bar), ("class:dim", " resets on bid")]
        if cs.notice:  # out of touch: the host's clock runs on unseen
            style, after = "class:countdown", [("class:dim", "(waiting for the host)")]
        lines.append([(style, f" Time left {clock_text(cs, deadline):>3} "), *after])
    call = hammer_call_lines(cs, obs)
    lines += call
    can_sell = Move.hammer(obs.seat) in obs.legal_moves(amounts=False) and not call
    if obs.amount_range() is not None:
        lines.append(entry_line(cs, obs, "Your bid"))
        sell = " h:sell" if can_sell else ""
        hint = " +:+1 f:+5 t:+10 Enter:bid p:pass" + sell
        if len(hint) > width:
            hint = " Enter:bid +/f/t:+1/5/10 p:pass" + sell
        lines.append([("class:dim", hint)])
    elif can_sell:
        lines.append([("class:dim", " h: sell now to the high bidder")])
    passed = [cs.name(s) for s in obs.passed]
    if passed:
        lines.append([("class:dim", " Passed: " + ", ".join(passed))])
    return lines


def hammer_call_lines(cs: ClientState, obs: Observation) -> list[Line]:
    """While the auctioneer's hammer is being called: how long until it falls, whose it is,
    and that a bid stops it (none: no call)."""
    deadline = cs.session.call_deadline if cs.session is not None else None
    if deadline is None:
        return []
    if obs.auctioneer == obs.seat:
        whose = _("Your hammer; a bid stops it")
    else:
        whose = _("{name}'s hammer; a bid stops it").format(name=cs.name(obs.auctioneer))
    return [
        [("class:countdown.low", " " + _("Going once, going twice: {left}").format(left=clock_text(cs, deadline)))],
        [("class:dim", " " + whose)],
    ]


def _open_total(cs: ClientState) -> float:
    lobby = cs.session.lobby if cs.session is not None else None
    return lobby.clocks.open_countdown if lobby is not None else 10.0


def once_around(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    if obs.high_seat >= 0:
        lines.append([("", f" High bid: {obs.high} by {cs.name(obs.high_seat)}")])
    else:
        lines.append([("", " No bid yet")])
    n = obs.players
    order = [(obs.auctioneer + i) % n for i in range(1, n + 1)]
    bids = dict(obs.bids)
    turn_index = order.index(obs.turn) if obs.turn in order else n
    items: list[Line] = []
    for i, s in enumerate(order):
        name = cs.name(s)
        if i < turn_index:
            items.append([("class:dim", f"{name} {bids[s] if s in bids else 'pass'}")])
        elif i == turn_index:
            items.append([("class:turn", f"[{name}]")])
        else:
            items.append([("", name)])
    lines += chain(items, width)
    if obs.my_turn:
        if obs.amount_range() is not None:
            lines.append(entry_line(cs, obs, "Your bid"))
            lines.append([("class:dim", " Enter:bid +:+1 f:+5 t:+10 p:pass")])
        else:
            lines.append([("class:turn", f" You cannot beat {obs.high}: p to pass")])
    return lines


def sealed(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    waiting = [s for s in range(obs.players) if s not in obs.sealed_done]
    if not waiting:  # every bid is sealed: now the reveals (the host says whose it still waits for)
        owed = cs.session.reveals_owed if cs.session is not None else ()
        lines.append([("", " All bids sealed.")])
        if owed:
            lines += _names(cs, " Reveal awaited from: ", owed, width)
        else:
            lines.append([("class:dim", " Opening the bids...")])
        if obs.seat >= 0:
            lines.append([("class:dim", " Bids are shown together once")])
            lines.append([("class:dim", " every reveal is in.")])
        return lines
    done = [cs.name(s) for s in range(obs.players) if s in obs.sealed_done]
    lines.append([("", " Sealed: "), ("class:good", ", ".join(done) or "nobody yet")])
    lines += _names(cs, " Waiting for: ", waiting, width)
    if obs.seat < 0:  # watching
        return lines
    if obs.seat in obs.sealed_done:
        lines.append([("class:dim", " Your bid is sealed. Bids are shown")])
        lines.append([("class:dim", " together once everyone has sealed.")])
    else:
        lines.append(entry_line(cs, obs, "Your sealed bid", masked=True))
        lines.append([("class:dim", " Digits are hidden. 0 = no bid. Enter")])
    return lines


def _names(cs: ClientState, label: str, seats: Sequence[int], width: int) -> list[Line]:
    """`label` and the names of `seats` on one line, or the names on lines of their own
    below it when they do not fit (five players)."""
    names = ", ".join(cs.name(s) for s in seats)
    line: Line = [("", label), ("class:dim", names)]
    if line_width(line) <= width:
        return [line]
    return [[("", label.rstrip())]] + [[("class:dim", "  " + t)] for t in wrap(names, width - 2)]


def fixed_set(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    r = obs.amount_range()
    if r is not None and r[0] == Action.SET_PRICE:
        _, lo, hi = r
        lines.append([("class:turn", f" Set the price ({lo}-{hi}). If nobody buys,")])
        lines.append([("class:turn", " you must buy it yourself.")])
        lines.append(entry_line(cs, obs, "Price"))
    else:
        lines.append([("", f" {cs.name(obs.auctioneer)} is setting the price")])
    return lines


def fixed_offer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    lines.append([("", " Price: "), ("class:title", str(obs.price))])
    n = obs.players
    order = [(obs.auctioneer + i) % n for i in range(1, n)]
    before = order.index(obs.turn) if obs.turn in order else len(order)
    items: list[Line] = []
    for i, s in enumerate(order):
        if i < before:
            items.append([("class:dim", f"{cs.name(s)} no")])
        elif s == obs.turn:
            items.append([("class:turn", f"[{cs.name(s)}]")])
        else:
            items.append([("", cs.name(s))])
    lines += chain(items, width)
    if obs.my_turn:
        if Move.accept(obs.seat) in obs.legal_moves(amounts=False):
            lines.append([("class:turn", f" Buy for {obs.price}? a: accept  p: decline")])
        else:
            lines.append([("class:turn", f" You cannot pay {obs.price} (you have {obs.money}): p")])
    return lines
