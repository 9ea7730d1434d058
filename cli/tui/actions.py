"""What each key does at the table: check with the Observation, then send, or explain.

A key that cannot act now leaves a clear sentence in the message line and sends nothing.
A move that passes the seat's own checks is sent; the host still has the last word (a
rival's bid may arrive first), and its refusal comes back as an error entry in the log.
"""

from __future__ import annotations

from typing import Callable, Coroutine

from modernart.moves import Action, Move
from modernart.phase import Phase

from modernart.cli.tui.waiting_for import amount_problem, not_now
from modernart.cli.tui.state import ClientState

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
        self.spawn(cs.session.send_move(move))

    def _watching(self) -> bool:
        """True (and said) when this person has no seat: their keys cannot act."""
        obs = self.cs.obs
        if obs is not None and obs.seat < 0:
            self.cs.error("You are watching (every seat is taken): your keys cannot play")
            return True
        return False

    def _legal(self, move: Move) -> bool:
        obs = self.cs.obs
        return obs is not None and move in obs.legal_moves(amounts=False)

    # ------------------------------------------------------------------ cards

    def select(self, delta: int) -> None:
        hand = self.cs.sorted_hand()
        if not hand:
            self.cs.say("Your hand is empty")
            return
        self.cs.selected_card()  # the cursor is where the chosen card is now
        self.cs.select(self.cs.selected + delta)

    def select_index(self, index: int) -> None:
        hand = self.cs.sorted_hand()
        if not 0 <= index < len(hand):
            self.cs.error(f"You hold {len(hand)} painting{'s' * (len(hand) != 1)}: there is no card {index + 1}")
            return
        self.cs.select(index)

    # ------------------------------------------------------------------ amounts

    def digit(self, d: str) -> None:
        cs = self.cs
        if cs.digits_mean_amount():
            if cs.amount_refused:
                cs.amount, cs.amount_refused = "", False
            if len(cs.amount) >= 6:
                cs.error("That is more money than there is in the game")
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
        if obs.phase not in (Phase.OPEN, Phase.ONCE_AROUND):
            self.cs.error("Quick raises are for Open and Once-around auctions")
            return
        r = obs.amount_range()
        if r is None:
            problem = amount_problem(obs, "", name, edition)
            self.cs.error(problem if isinstance(problem, str) else not_now(obs, name, edition))
            return
        amount = obs.high + step
        if amount > obs.money:
            self.cs.error(f"You cannot bid {amount}: you have {obs.money}")
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
        phase = obs.phase
        if phase in (Phase.OPEN, Phase.ONCE_AROUND, Phase.SEALED, Phase.FIXED_SET):
            if phase == Phase.FIXED_SET and obs.auctioneer != obs.seat:
                self.cs.error(not_now(obs, name, edition))
                return
            self.submit_amount()
            return
        if obs.seat not in obs.to_move:
            self.cs.error(not_now(obs, name, edition))
            return
        card = self.cs.selected_card()
        if phase == Phase.PLAY_CARD:
            if card is None:
                self.cs.error("You have no painting to put up")
                return
            self.send(Move.play(obs.seat, card))
        elif phase == Phase.DOUBLE_OFFER:
            double = obs.lot[0]
            artist = edition.artists[double.artist]
            if card is None or not self._legal(Move.add_second(obs.seat, card)):
                fits = [c for c in obs.hand if c.artist == double.artist and c.kind != double.kind]
                if not fits:
                    self.cs.error(f"You have no other {artist} to add: p to pass")
                else:
                    self.cs.error(f"Choose a {artist} that is not a Double (<- ->), or p to pass")
                return
            self.send(Move.add_second(obs.seat, card))
        elif phase == Phase.FIXED_OFFER:
            self.cs.error(f"a = accept the price of {obs.price}, p = decline")

    def pass_(self) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        phase, me = obs.phase, obs.seat
        if phase == Phase.DOUBLE_OFFER and obs.turn == me:
            self.send(Move.decline_second(me))
        elif phase == Phase.OPEN:
            if self._legal(Move.pass_(me)):
                self.send(Move.pass_(me))
            elif obs.high_seat == me:
                self.cs.error(f"You hold the high bid ({obs.high}): you cannot pass")
            elif me in obs.passed:
                self.cs.error("You have already passed; a new bid lets you back in")
            else:
                self.cs.error(not_now(obs, name, edition))
        elif phase == Phase.ONCE_AROUND and obs.turn == me:
            self.send(Move.pass_(me))
        elif phase == Phase.FIXED_OFFER and obs.turn == me:
            self.send(Move.decline(me))
        elif phase == Phase.SEALED and me not in obs.sealed_done:
            self.cs.error("In a sealed auction you bid nothing by sealing 0: type 0, Enter")
        elif phase == Phase.PLAY_CARD and me in obs.to_move:
            self.cs.error("You must put up a painting: passing is not allowed")
        elif phase == Phase.FIXED_SET and obs.auctioneer == me:
            self.cs.error("You must set a price: type it, then Enter")
        else:
            self.cs.error(not_now(obs, name, edition))

    def accept(self) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if obs.phase == Phase.FIXED_OFFER and obs.turn == obs.seat:
            if obs.price > obs.money:
                self.cs.error(f"You cannot pay {obs.price}: you have {obs.money}")
                return
            self.send(Move.accept(obs.seat))
        elif obs.phase == Phase.FIXED_OFFER:
            self.cs.error(not_now(obs, name, edition))
        else:
            self.cs.error("There is no price to accept now")

    def hammer(self) -> None:
        obs, name, edition = self._ctx()
        if obs is None or self._watching():
            return
        if obs.phase != Phase.OPEN:
            self.cs.error("Only an Open auction can be closed early")
        elif obs.auctioneer != obs.seat:
            self.cs.error(f"Only the auctioneer ({name(obs.auctioneer)}) can sell now")
        else:
            self.send(Move.hammer(obs.seat))


def amount_action_label(action: Action) -> str:
    return {Action.BID: "bid", Action.SEALED_BID: "seal", Action.SET_PRICE: "set price"}[action]
