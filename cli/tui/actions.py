"""What each key does at the table: check with the Observation, then send, or explain.

A key acts when the seat's `Observation` offers its move (`legal_moves()`, `amount_range()`;
`amount_action()` and `card_action()` say whether digits type an amount and whether a card
is asked for); the rules live in modernart/ only.  A key that cannot act now leaves a clear
sentence in the message line (cli/tui/waiting_for.py) and sends nothing.  A move that passes
the seat's own checks is sent; the host still has the last word (a rival's bid may arrive
first), and its refusal comes back as an error entry in the log.
"""

from __future__ import annotations

from typing import Callable, Coroutine

from modernart.moves import Action, Move
from modernart.phase import Phase

from modernart.cli.i18n import _, ngettext
from modernart.cli.tui.auction_panel import announced_auctions
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.waiting_for import (
    amount_problem,
    cards_coming_text,
    why_no_accept,
    why_no_buyer,
    why_no_card,
    why_no_enter,
    why_no_flip,
    why_no_hammer,
    why_no_pass,
)

#: What `p` sends: a pass (Open, Once-around), a declined (or posted) price, a Double
#: passed on, the mystery hand left alone.
PASS_ACTIONS = frozenset({Action.PASS, Action.DECLINE, Action.DECLINE_SECOND, Action.KEEP_MYSTERY})

Spawn = Callable[[Coroutine], object]


class TableActions:
    """Key handlers for the table screen.  `spawn` runs a session coroutine in the background."""

    def __init__(self, cs: ClientState, spawn: Spawn) -> None:
        self.cs = cs
        self.spawn = spawn

    # ------------------------------------------------------------------ helpers

    def _ctx(self):
        cs = self.cs
        return cs.obs, cs.name, cs.edition

    def send(self, move: Move) -> None:
        cs = self.cs
        assert cs.session is not None
        cs.sent.append(move)
        cs.amount = ""
        cs.message = None
        if move.action == Action.SEALED_BID and cs.obs is not None:
            cs.my_sealed = (cs.obs.auction_no, move.arg)  # shown with `b`
        if move.action == Action.BID:
            cs.out_of_auction = None  # a bid brings you back in
        self.spawn(cs.session.send_move(move))

    # ------------------------------------------------------------------ staying out, sealed amount

    def stay_out(self) -> None:
        """The `o` key in an Open auction: keep out of it (pass now and again after every new
        bid, passes being non-binding) until you bid or press it again."""
        cs, obs = self.cs, self.cs.obs
        if obs is None or obs.phase != Phase.OPEN or self._watching():
            cs.error(_("o keeps you out of an Open auction: there is none now"))
            return
        if cs.out_of_auction == obs.auction_no:
            cs.out_of_auction = None
            cs.say(_("You are back in this auction: bid or pass as you like"))
            return
        cs.out_of_auction = obs.auction_no
        cs.say(_("You stay out of this auction: o again, or a bid, brings you back"))
        self.keep_out()

    def keep_out(self) -> None:
        """After every change: pass again for a seat staying out of the Open auction, when a
        pass is open to it (a new bid made it so)."""
        cs, obs = self.cs, self.cs.obs
        if obs is None or cs.out_of_auction is None:
            return
        if obs.phase != Phase.OPEN or obs.auction_no != cs.out_of_auction:
            cs.out_of_auction = None
            return
        move = Move.pass_(obs.seat)
        key = (obs.auction_no, len(obs.bids))
        if move in obs.legal_moves(amounts=False) and cs.passed_at != key:
            cs.passed_at = key  # once per bid: the pass is on its way
            cs.sent.append(move)
            assert cs.session is not None
            self.spawn(cs.session.send_move(move))

    def toggle_sealed(self) -> None:
        """The `b` key: show or hide this seat's own sealed amount."""
        cs = self.cs
        if cs.my_sealed is None:
            cs.error(_("You have sealed no bid yet"))
            return
        cs.show_sealed = not cs.show_sealed

    def _watching(self) -> bool:
        """True (and said) when this person has no seat: their keys cannot act."""
        obs = self.cs.obs
        if obs is not None and obs.seat < 0:
            self.cs.error(_("You are watching (every seat is taken): your keys cannot play"))
            return True
        return False

    def _legal(self) -> list[Move]:
        """This seat's legal moves that take no amount (none for a watcher)."""
        obs = self.cs.obs
        return obs.legal_moves(amounts=False) if obs is not None else []

    # ------------------------------------------------------------------ cards

    def select(self, delta: int) -> None:
        hand = self.cs.sorted_hand()
        if not hand:
            self.cs.say(cards_coming_text() if self.cs.cards_coming else _("Your hand is empty"))
            return
        self.cs.selected_card()  # the cursor is where the chosen card is now
        self.cs.select(self.cs.selected + delta)

    def select_index(self, index: int) -> None:
        hand = self.cs.sorted_hand()
        if not 0 <= index < len(hand):
            held = ngettext("You hold {count} painting", "You hold {count} paintings", len(hand)).format(
                count=len(hand)
            )
            self.cs.error(_("{held}: there is no card {number}").format(held=held, number=index + 1))
            return
        self.cs.select(index)

    # ------------------------------------------------------------------ amounts

    def digit(self, d: str) -> None:
        cs = self.cs
        obs = cs.obs
        if obs is not None and obs.phase == Phase.CHOOSE_BUYER and obs.seat >= 0:
            self.choose_buyer(int(d) - 1)  # the seller names the buyer by seat number
            return
        if obs is not None and obs.phase == Phase.ANNOUNCE and obs.seat >= 0:
            self.announce(int(d) - 1)  # the seller names the auction by its number
            return
        if cs.digits_mean_amount():
            if cs.amount_refused:
                cs.amount, cs.amount_refused = "", False
            if len(cs.amount) >= 6:
                cs.error(_("That is more money than there is in the game"))
                return
            cs.amount = (cs.amount + d).lstrip("0") or "0"
            return
        self.select_index(9 if d == "0" else int(d) - 1)

    def backspace(self) -> None:
        self.cs.amount = self.cs.amount[:-1]
        self.cs.amount_refused = False

    def adjust(self, delta: int) -> None:
        cs = self.cs
        obs = cs.obs
        if obs is None or not cs.digits_mean_amount():
            self.select(delta)
            return
        r = obs.amount_range()
        lo, hi = (r[1], r[2]) if r is not None else (0, obs.money)
        current = int(cs.amount) if cs.amount.isdigit() else lo - delta if delta > 0 else lo
        cs.amount = str(max(lo, min(hi, current + delta)))

    def quick_raise(self, step: int) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        r = obs.amount_range()
        if r is None or r[0] != Action.BID:
            if obs.amount_action() != Action.BID:
                self.cs.error(_("Quick raises are for Open and Once-around auctions"))
            else:
                problem = amount_problem(obs, "", name, edition)
                assert isinstance(problem, str)  # no bid is open to this seat: there is a reason
                self.cs.error(problem)
            return
        amount = obs.high + step  # a raise of `step` over the high bid
        if amount > r[2]:
            self.cs.error(_("You cannot bid {amount}: you have {money}").format(amount=amount, money=obs.money))
            return
        self.send(Move.bid(obs.seat, amount))

    def submit_amount(self) -> None:
        obs, name, edition = self._ctx()
        assert obs is not None
        result = amount_problem(obs, self.cs.amount, name, edition)
        if isinstance(result, str):
            self.cs.error(result)
            self.cs.amount_refused = True  # the next digit starts a new amount
            return
        action, amount = result
        self.send(Move.of(obs.seat, action, amount))

    # ------------------------------------------------------------------ Enter, p, a, h

    def primary(self) -> None:
        """Enter: put up the selected card, add it to a Double, or send the typed amount."""
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if obs.amount_action() is not None:
            self.submit_amount()
            return
        action = obs.card_action()
        if action is None:
            self.cs.error(why_no_enter(obs, name, edition))
            return
        card = self.cs.selected_card()
        move = Move.of(obs.seat, action, int(card)) if card is not None else None
        if move is not None and move in self._legal():
            self.send(move)
        elif self.cs.cards_coming:
            self.cs.error(cards_coming_text())
        else:
            self.cs.error(why_no_card(obs, edition))

    def pass_(self) -> None:
        """p: pass, decline the price, or pass the Double on, whichever is legal now."""
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        move = next((m for m in self._legal() if m.action in PASS_ACTIONS), None)
        if move is not None:
            self.send(move)
        else:
            self.cs.error(why_no_pass(obs, name, edition))

    def accept(self) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if Move.accept(obs.seat) in self._legal():
            self.send(Move.accept(obs.seat))
        else:
            self.cs.error(why_no_accept(obs, name, edition))

    def choose_buyer(self, seat: int) -> None:
        """1-5 while the seller chooses: sell to that seat, if it is one to choose from."""
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        move = Move.choose_buyer(obs.seat, seat)
        if seat >= 0 and move in self._legal():
            self.send(move)
        else:
            self.cs.error(why_no_buyer(obs, name, seat))

    def announce(self, kind: int) -> None:
        """1-4 while the seller announces: Open, Once-around, Sealed, Fixed price."""
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        move = Move.announce(obs.seat, kind)
        if kind >= 0 and move in self._legal():
            self.send(move)
        elif obs.seat != obs.auctioneer:
            self.cs.error(_("Only the seller announces the auction"))
        else:
            self.cs.error(_("Announce one of: {choices}").format(choices=_(", ").join(announced_auctions(obs))))

    def vote(self, choice: str) -> None:
        """w / e: this person's vote on the late seat: keep waiting, or end the game now."""
        session = self.cs.session
        if session is None or session.vote_on is None:
            return
        self.spawn(session.vote(choice))

    def flip_mystery(self) -> None:
        """m: turn up the mystery hand's top card."""
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if Move.flip_mystery(obs.seat) in self._legal():
            self.send(Move.flip_mystery(obs.seat))
        else:
            self.cs.error(why_no_flip(obs, name, edition))

    def hammer(self) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if Move.hammer(obs.seat) in self._legal():
            self.send(Move.hammer(obs.seat))
        else:
            self.cs.error(why_no_hammer(obs, name))
