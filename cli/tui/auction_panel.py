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
from modernart.cli.tui.text import COLUMN, Line, countdown_bar, line_width, sentence, wrap


def kind_words(kind: AuctionType) -> tuple[str, str]:
    """The auction's name for the panel's first line, long and short ('OPEN auction', 'OPEN')."""
    words = {
        AuctionType.OPEN: (_("OPEN auction"), _("OPEN")),
        AuctionType.ONCE_AROUND: (_("ONCE-AROUND auction"), _("ONCE-AROUND")),
        AuctionType.SEALED: (_("SEALED auction"), _("SEALED")),
        AuctionType.FIXED_PRICE: (_("FIXED PRICE"), _("FIXED PRICE")),
        AuctionType.DOUBLE: (_("DOUBLE"), _("DOUBLE")),
    }
    return words[kind]


def sale_words(obs: Observation) -> tuple[str, str]:
    """The name of the sale the lot is in: the card's auction, or a variant's reading of it
    (a posted price for a Once-around card, an Open auction for a Double; docs/rules.md §10.2)."""
    if obs.phase == Phase.ANNOUNCE:
        return _("AUCTION TO BE ANNOUNCED"), _("TO ANNOUNCE")
    kind = running_kind(obs)
    options = obs.options
    if kind == AuctionType.ONCE_AROUND and options.once_around_posted:
        return _("POSTED PRICE"), _("POSTED")
    if kind == AuctionType.DOUBLE and options.double_as_open and len(obs.lot) == 1:
        return kind_words(AuctionType.OPEN)
    return kind_words(kind)


def running_kind(obs: Observation) -> AuctionType:
    """The auction the lot is in: as announced (option seller_chooses_auction) or printed."""
    return AuctionType(obs.kind) if obs.kind >= 0 else obs.lot[-1].kind


def announced_auctions(obs: Observation) -> list[str]:
    """'1 Open', '2 Once-around' (or '2 Posted price'), '3 Sealed', '4 Fixed price': the
    auctions the seller announces with the digit keys (option seller_chooses_auction)."""
    posted = obs.options.once_around_posted
    words = (_("Open"), _("Posted price") if posted else _("Once-around"), _("Sealed"), _("Fixed price"))
    return [f"{i + 1} {w}" for i, w in enumerate(words)]


def lot_line(cs: ClientState, obs: Observation, width: int = 99) -> Line:
    """' K Krypto (D+F)  FIXED PRICE': the lot, its auction-type letters, the auction;
    shorter forms when `width` is too small (never cut in the middle of a word)."""
    if not obs.lot:
        return []
    ed = cs.edition
    artist = obs.lot[0].artist
    letters = "+".join(card.kind.letter for card in obs.lot)
    kind, short_kind = sale_words(obs)
    line: Line = []
    for name, words in (
        (ed.artists[artist], kind),
        (ed.artists[artist], short_kind),
        (artist_names(ed, 10)[artist], short_kind),
    ):
        # TRANSLATORS: the lot on the auction panel: the artist's initial and name, its auction letters
        lot = _("{initial} {artist} ({letters})")
        lot_style = ARTIST_STYLE[artist]
        line = [
            ("", " "),
            *sentence(lot, initial=(lot_style, ed.initials[artist]), artist=(lot_style, name), letters=letters),
            ("", "  "),
            ("class:title", words),
        ]
        if line_width(line) <= width:
            break
    return line


def chain(items: list[Line], width: int, sep: str | None = None) -> list[Line]:
    """`items` joined by `sep` (default: the order of turns' arrow, " > ", which points the
    way the language reads) on as many lines of `width` cells as they need; each item and
    each `sep` a cell of its own, so that a mirrored line reverses their order."""
    # TRANSLATORS: between players in the order of turns; the arrow points the way your lines are read
    sep = COLUMN + (_(" > ") if sep is None else sep) + COLUMN
    lines: list[Line] = [[("", " ")]]
    for i, item in enumerate(items):
        piece = ([("class:dim", sep)] if i else []) + item
        if i and line_width(lines[-1]) + line_width(piece) > width:
            lines.append([("", " "), ("class:dim", sep.lstrip(" " + COLUMN) + COLUMN)] + item)  # the order goes on
        else:
            lines[-1] += piece
    return lines


def by_line(cs: ClientState, obs: Observation) -> Line:
    who = cs.name(obs.auctioneer)
    if obs.auctioneer == obs.seat:
        text = _("Auctioneer: {player} (you)").format(player=who)
    else:
        text = _("Auctioneer: {player}").format(player=who)
    if obs.original >= 0 and obs.original != obs.auctioneer:
        text = _("{auctioneer}; Double by {player}").format(auctioneer=text, player=cs.name(obs.original))
    return [("", " " + text)]


def entry_line(cs: ClientState, obs: Observation, label: str, masked: bool = False) -> Line:
    """`label` ("Your bid: {amount}") with the digits typed so far, and the money you have."""
    typed = cs.amount
    shown = ("*" * len(typed) if masked else typed) + "_"
    return [
        ("", " "),
        *sentence(label, amount=("class:you", shown)),
        ("class:dim", "   " + _("you have {money}").format(money=obs.money)),
    ]


def decision_clock(cs: ClientState) -> Line:
    deadline = cs.session.decision_deadline if cs.session is not None else None
    if deadline is None:
        return []
    return [("class:countdown", " " + _("Time to decide: {clock}").format(clock=clock_text(cs, deadline)))]


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
        if cs.first_game_hint and len(lines) < height and not obs.is_over:
            lines.append(first_game_line(cs))
        return lines
    panel = {
        Phase.DOUBLE_OFFER: double_offer,
        Phase.OPEN: open_auction,
        Phase.ONCE_AROUND: once_around,
        Phase.SEALED: sealed,
        Phase.FIXED_SET: fixed_set,
        Phase.FIXED_OFFER: fixed_offer,
        Phase.POSTED_OFFER: posted_offer,
        Phase.CHOOSE_BUYER: choose_buyer,
        Phase.MYSTERY_FLIP: mystery_flip,
        Phase.ANNOUNCE: announce,
    }[phase]
    lines = [lot_line(cs, obs, width)] + panel(cs, obs, width)
    clock = decision_clock(cs)
    if clock and len(lines) < height:
        lines.append(clock)
    if cs.first_game_hint and len(lines) < height:
        lines.append(first_game_line(cs))
    return lines


def between_auctions(cs: ClientState, obs: Observation) -> list[Line]:
    lines: list[Line] = []
    if obs.is_over:
        return [[("class:title", " " + _("The game is over"))]]
    who = cs.name(obs.auctioneer)
    if obs.card_action() == Action.PLAY:
        lines.append([("class:turn", " " + _("Your turn to sell a painting"))])
        # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
        lines.append([("", " " + _("Pick one in your hand (<- -> or its"))])
        lines.append([("", " " + _("number), then press Enter"))])
    else:
        lines.append([("", " " + _("{player} is choosing a painting to sell").format(player=who))])
    lines += between_auctions_sale(cs, obs)
    lines += sealed_result(cs, obs)
    return lines


def first_game_line(cs: ClientState) -> Line:
    """A beginner's line, until a first game is finished (cli/user_settings.py)."""
    return [("class:info", " " + _("New here? r explains the rules"))]


def double_offer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    ed = cs.edition
    artist = artist_names(ed, 12)[obs.lot[0].artist]
    lines = [by_line(cs, obs)]
    if obs.card_action() == Action.ADD_SECOND:
        # TRANSLATORS: these three lines are one sentence, cut to fit a narrow panel
        lines.append([("class:turn", " " + _("Offered to YOU: add a second"))])
        lines.append([("", " "), *sentence(_("{artist} (not a Double) and"), artist=("class:turn", artist))])
        lines.append([("", " " + _("auction both, or p to pass it on"))])
    else:
        offer = " " + _("Offered to {player}: a second {artist}").format(player=cs.name(obs.turn), artist=artist)
        if line_width([("", offer)]) <= width:
            lines.append([("", offer)])
        else:
            lines += [
                [("", " " + _("Offered to {player}:").format(player=cs.name(obs.turn)))],
                [("", " " + _("a second {artist}").format(artist=artist))],
            ]
        if obs.turn == obs.auctioneer:  # the seller's own second card: they stay the auctioneer
            lines.append([("class:dim", " " + _("to auction both themselves"))])
        else:
            lines.append([("class:dim", " " + _("makes them the auctioneer of both"))])
    return lines


def open_auction(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    if obs.high_seat >= 0:
        if obs.high_seat == obs.seat:
            high = _("High bid: {high} by {player} (you)")
        else:
            high = _("High bid: {high} by {player}")
        lines.append([("", " "), *sentence(high, high=("class:title", obs.high), player=cs.name(obs.high_seat))])
    else:
        lines.append([("", " " + _("No bid yet"))])
    deadline = cs.session.open_deadline if cs.session is not None else None
    if deadline is not None:
        left = max(0.0, deadline - cs.clock())
        secs = seconds_left(cs, deadline)
        total = _open_total(cs)
        style = "class:countdown.low" if secs <= 3 else "class:countdown"
        bar = countdown_bar(left, total, max(4, min(20, width - 30)))
        clock = (style, f"{clock_text(cs, deadline):>3}")
        if cs.notice:  # out of touch: the host's clock runs on unseen
            told = sentence(_("Time left {clock} (waiting for the host)"), "class:dim", clock=clock)
        else:
            told = sentence(_("Time left {clock} {bar} resets on bid"), "class:dim", clock=clock, bar=bar)
        lines.append([("", " "), *told])
    call = hammer_call_lines(cs, obs)
    lines += call
    can_sell = Move.hammer(obs.seat) in obs.legal_moves(amounts=False) and not call
    if obs.amount_range() is not None:
        lines.append(entry_line(cs, obs, _("Your bid: {amount}")))
        sell = " " + COLUMN + _("h:sell") if can_sell else ""  # a hint of its own
        hint = " " + _("+:+1 f:+5 t:+10 Enter:bid p:pass") + sell
        if line_width([("", hint)]) > width:
            hint = " " + _("Enter:bid +/f/t:+1/5/10 p:pass") + sell
        lines.append([("class:dim", hint)])
    elif can_sell:
        lines.append([("class:dim", " " + _("h: sell now to the high bidder"))])
    passed = [cs.name(s) for s in obs.passed]
    if passed:
        lines.append([("class:dim", " " + _("Passed: {players}").format(players=_(", ").join(passed)))])
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
        lines.append(
            [("", " " + _("High bid: {high} by {player}").format(high=obs.high, player=cs.name(obs.high_seat)))]
        )
    else:
        lines.append([("", " " + _("No bid yet"))])
    n = obs.players
    order = [(obs.auctioneer + i) % n for i in range(1, n + 1)]
    bids = dict(obs.bids)
    turn_index = order.index(obs.turn) if obs.turn in order else n
    items: list[Line] = []
    for i, s in enumerate(order):
        name = cs.name(s)
        if i < turn_index:
            said = _("{player} {amount}").format(player=name, amount=bids[s]) if s in bids else None
            items.append([("class:dim", said or _("{player} passed").format(player=name))])
        elif i == turn_index:
            items.append([("class:turn", f"[{name}]")])
        else:
            items.append([("", name)])
    lines += chain(items, width)
    if obs.my_turn:
        if obs.amount_range() is not None:
            lines.append(entry_line(cs, obs, _("Your bid: {amount}")))
            lines.append([("class:dim", " " + _("Enter:bid +:+1 f:+5 t:+10 p:pass"))])
        else:
            lines.append([("class:turn", " " + _("You cannot beat {high}: p to pass").format(high=obs.high))])
    return lines


def sealed(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    if obs.options.sealed_excludes_seller:
        lines.append([("class:dim", " " + _("The seller makes no bid"))])
    waiting = [s for s in range(obs.players) if s not in obs.sealed_done]
    if not waiting:  # every bid is sealed: now the reveals (the host says whose it still waits for)
        owed = cs.session.reveals_owed if cs.session is not None else ()
        lines.append([("", " " + _("All bids sealed."))])
        if owed:
            lines += _names(cs, _("Reveal awaited from: {players}"), owed, width)
        else:
            lines.append([("class:dim", " " + _("Opening the bids..."))])
        own = own_sealed(cs, obs)
        if own:
            lines += own
        elif obs.seat >= 0:
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            lines.append([("class:dim", " " + _("Bids are shown together once"))])
            lines.append([("class:dim", " " + _("every reveal is in."))])
        return lines

    done = [cs.name(s) for s in range(obs.players) if s in obs.sealed_done]
    lines.append(
        [("", " "), *sentence(_("Sealed: {players}"), players=("class:good", _(", ").join(done) or _("nobody yet")))]
    )
    lines += _names(cs, _("Waiting for: {players}"), waiting, width)
    if obs.seat < 0:  # watching
        return lines
    if obs.options.sealed_excludes_seller and obs.seat == obs.auctioneer:
        lines.append([("class:dim", " " + _("You are the seller: the others bid"))])
    elif obs.seat in obs.sealed_done:
        own = own_sealed(cs, obs)
        if own:  # your amount (hidden unless asked for), then when the bids are shown
            lines += own + [[("class:dim", " " + _("Shown with all bids once all are in."))]]
        else:
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            lines.append([("class:dim", " " + _("Your bid is sealed. Bids are shown"))])
            lines.append([("class:dim", " " + _("together once everyone has sealed."))])
    else:
        lines.append(entry_line(cs, obs, _("Your sealed bid: {amount}"), masked=True))
        lines.append([("class:dim", " " + _("Digits are hidden. 0 = no bid. Enter"))])
    return lines


def own_sealed(cs: ClientState, obs: Observation) -> list[Line]:
    """This seat's own sealed amount: hidden (`**`) unless `b` shows it."""
    mine = cs.my_sealed
    if mine is None or mine[0] != obs.auction_no:
        return []
    shown, how = (str(mine[1]), _("(b hides it)")) if cs.show_sealed else ("**", _("(b shows it)"))
    return [[("", " "), *sentence(_("Your bid: {amount}"), amount=("class:you", shown)), ("class:dim", "  " + how)]]


def sealed_result(cs: ClientState, obs: Observation) -> list[Line]:
    """The last Sealed auction's reveal, if the last sale was one: every bid, who won and why."""
    session = cs.session
    reveal = session.last_reveal if session is not None else None
    sale = next((s for s in reversed(obs.sales) if s.round == obs.round), None)
    if reveal is None or sale is None or sale.auction != reveal[0].auction:
        return []
    event, seller = reveal
    bids = event.bids
    names = _(", ").join(f"{cs.name(s)} {b}" for s, b in enumerate(bids))
    best = max(bids)
    tied = [s for s, b in enumerate(bids) if b == best]
    if best == 0:
        why = _("no bid: {seller} keeps it for free").format(seller=cs.name(seller))
    elif len(tied) == 1:
        why = _("{buyer} wins with the highest bid").format(buyer=cs.name(sale.buyer))
    elif sale.buyer == seller:
        why = _("a tie: the seller {buyer} wins it").format(buyer=cs.name(sale.buyer))
    else:
        why = _("a tie: {buyer} wins, first from the seller's left").format(buyer=cs.name(sale.buyer))
    return [[("class:dim", " " + _("Sealed bids: {bids}").format(bids=names))], [("class:dim", " " + why)]]


def _names(cs: ClientState, label: str, seats: Sequence[int], width: int) -> list[Line]:
    """`label` ("Waiting for: {players}") with the names of `seats` on one line, or the
    names on lines of their own below it when they do not fit (five players)."""
    names = _(", ").join(cs.name(s) for s in seats)
    line: Line = [("", " "), *sentence(label, players=("class:dim", names))]
    if line_width(line) <= width:
        return [line]
    return [[("", " " + label.format(players="").strip())]] + [
        [("class:dim", "  " + t)] for t in wrap(names, width - 2)
    ]


def fixed_set(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    r = obs.amount_range()
    if r is not None and r[0] == Action.SET_PRICE:
        _action, lo, hi = r
        posted = running_kind(obs) == AuctionType.ONCE_AROUND and obs.options.once_around_posted
        if posted:
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            lines.append([("class:turn", " " + _("Post a price ({low}-{high}). Anyone may").format(low=lo, high=hi))])
            lines.append([("class:turn", " " + _("take it; you choose among takers."))])
        elif not obs.options.fixed_forced_buy:
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            lines.append([("class:turn", " " + _("Set the price ({low}-{high}). If nobody").format(low=lo, high=hi))])
            lines.append([("class:turn", " " + _("buys, it goes unsold."))])
        else:
            # TRANSLATORS: this line and the next are one sentence, cut to fit a narrow panel
            lines.append(
                [("class:turn", " " + _("Set the price ({low}-{high}). If nobody buys,").format(low=lo, high=hi))]
            )
            lines.append([("class:turn", " " + _("you must buy it yourself."))])
        lines.append(entry_line(cs, obs, _("Price: {amount}")))
    else:
        lines.append([("", " " + _("{player} is setting the price").format(player=cs.name(obs.auctioneer)))])
    return lines


def fixed_offer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    lines = [by_line(cs, obs)]
    lines.append([("", " "), *sentence(_("Price: {amount}"), amount=("class:title", obs.price))])
    n = obs.players
    order = [(obs.auctioneer + i) % n for i in range(1, n)]
    before = order.index(obs.turn) if obs.turn in order else len(order)
    items: list[Line] = []
    for i, s in enumerate(order):
        if i < before:
            items.append([("class:dim", _("{player} no").format(player=cs.name(s)))])
        elif s == obs.turn:
            items.append([("class:turn", f"[{cs.name(s)}]")])
        else:
            items.append([("", cs.name(s))])
    lines += chain(items, width)
    if obs.my_turn:
        if Move.accept(obs.seat) in obs.legal_moves(amounts=False):
            lines.append([("class:turn", " " + _("Buy for {price}? a: accept  p: decline").format(price=obs.price))])
        else:
            lines.append(
                [
                    (
                        "class:turn",
                        " "
                        + _("You cannot pay {price} (you have {money}): p").format(price=obs.price, money=obs.money),
                    )
                ]
            )
    return lines


def posted_offer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    """A posted price (FA-12): everyone but the seller takes it or leaves it, at once."""
    lines = [by_line(cs, obs)]
    lines.append([("", " "), *sentence(_("Price: {amount}"), amount=("class:title", obs.price))])
    items: list[Line] = []
    n = obs.players
    for s in [(obs.auctioneer + i) % n for i in range(1, n)]:
        answer = obs.responses[s] if s < len(obs.responses) else -2
        if answer == 1:
            items.append([("class:good", _("{player} takes").format(player=cs.name(s)))])
        elif answer == 0:
            items.append([("class:dim", _("{player} no").format(player=cs.name(s)))])
        else:
            items.append([("", f"{cs.name(s)}?")])
    lines += chain(items, width, sep=", ")
    if obs.my_turn:
        if Move.accept(obs.seat) in obs.legal_moves(amounts=False):
            lines.append([("class:turn", " " + _("Take it for {price}? a: take  p: leave").format(price=obs.price))])
        else:
            lines.append([("class:turn", " " + _("You cannot pay {price}: p to leave it").format(price=obs.price))])
    else:
        lines.append([("class:dim", " " + _("Several takers: the seller chooses"))])
    return lines


def choose_buyer(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    """The seller chooses among tied high Sealed bids or posted-price takers (FA-10, FA-12)."""
    lines = [by_line(cs, obs)]
    lines.append([("", " "), *sentence(_("Price: {amount}"), amount=("class:title", obs.price))])
    items: list[Line] = [
        [("class:turn", _("{seat} {player}").format(seat=s + 1, player=cs.name(s)))] for s in obs.candidates
    ]
    lines.append([("", " " + _("To choose from:"))])
    lines += chain(items, width, sep="  ")
    if obs.my_turn:
        lines.append([("class:turn", " " + _("Press the buyer's seat number"))])
    else:
        lines.append([("class:dim", " " + _("{player} chooses the buyer").format(player=cs.name(obs.auctioneer)))])
    return lines


def announce(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    """The seller announces the auction for the card put up (FA-15, seller_chooses_auction)."""
    lines = [by_line(cs, obs)]
    if obs.my_turn:
        lines.append([("class:turn", " " + _("Press the number of the auction:"))])
        lines += chain([[("class:turn", item)] for item in announced_auctions(obs)], width, sep="  ")
    else:
        lines.append([("class:dim", " " + _("{player} announces the auction").format(player=cs.name(obs.auctioneer)))])
    return lines


def mystery_flip(cs: ClientState, obs: Observation, width: int) -> list[Line]:
    """The mystery hand (docs/rules.md §10.3): turn up its top card, which counts, or not."""
    lines = between_auctions_sale(cs, obs)
    left = obs.mystery_size
    lines.append([("", " " + _("Mystery hand: {count} cards face down").format(count=left))])
    if obs.my_turn:
        lines.append([("class:turn", " " + _("m: turn up its top card (it counts)"))])
        lines.append([("class:turn", " " + _("p: leave it"))])
    else:
        lines.append([("", " " + _("{player} may turn one up").format(player=cs.name(obs.turn)))])
    return lines


def between_auctions_sale(cs: ClientState, obs: Observation) -> list[Line]:
    """The last sale of this round, in two lines (none before the first)."""
    sale = next((s for s in reversed(obs.sales) if s.round == obs.round), None)
    if sale is None:
        return []
    cards = " + ".join(cs.edition.artists[c.artist] for c in sale.cards)
    if sale.buyer < 0:
        to = _("unsold: discarded")
    elif sale.price == 0:
        to = _("to {buyer} for free").format(buyer=cs.name(sale.buyer))
    else:
        to = _("to {buyer} for {price}").format(buyer=cs.name(sale.buyer), price=sale.price)
    return [[("class:dim", " " + _("Last sale: {cards}").format(cards=cards))], [("class:dim", "   " + to)]]
