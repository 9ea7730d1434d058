"""A hidden-hands table's part of the host's game: the deck ledger it checks, the blind
engine it runs, and the events of the deck (docs/fair-play.md "The hidden deck").

`HostedGame` (net/host/game.py) holds one `HiddenHands` when its table hides hands.  The
seats' `deck` frames go to `submit`, which checks the step (every proof) and returns the
event to log; a shuffle is first relayed (`propose`: the next seat shuffles it while its proof
is checked in a worker thread, net/host/shuffle_relay.py) and then recorded by `submit`; the deal waits until every seat has shuffled (`ready`); a card play's
opening goes to `play`.  The host keeps no secret of the deck: every step it holds is
public and in its event log, so a resumed host rebuilds all of it from there.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from modernart.errors import IllegalMove
from modernart.game import GameState
from modernart.moves import Move
from modernart.record import GameRecord
from modernart.rules import RuleOptions

from modernart.net.host.blind_game import BlindGame
from modernart.net.protocol import ProtocolError
from modernart.net.trust.deck import DeckError, DeckKey, Share, Shuffle, key_of
from modernart.net.trust.group import GroupError, read_scalar
from modernart.net.trust.hidden_deck import DeckLedger
from modernart.net.trust.shuffle_checks import ShuffleChecks


def refused(exc: DeckError) -> ProtocolError:
    """The wire error for a refused deck step (its code, or `bad_deck` for a malformed value)."""
    return ProtocolError(getattr(exc, "code", "bad_deck"), str(exc))


class HiddenHands:
    """The deck of one hidden-hands game, as its host checks and runs it."""

    def __init__(self, game: bytes, n: int, options: RuleOptions) -> None:
        self.options = options
        self.ledger = DeckLedger(
            game,
            n,
            options.deck_table.size,
            checks=ShuffleChecks(),
            fresh=options.fresh_deal_each_round,
            mystery=bool(options.mystery_hand),
        )
        self.blind: BlindGame | None = None
        self.secrets: list[int | None] = [None] * n  # disclosed after the game

    @property
    def ready(self) -> bool:
        """Whether the deck is shuffled by every seat (the deal may come)."""
        return self.ledger.shuffled

    def submit(self, seat: int, msg: dict[str, Any], game_over: bool) -> tuple[str, dict[str, Any]]:
        """Check seat `seat`'s deck step (a `deck` frame); returns its event (kind, fields).
        ProtocolError if refused: nothing changes."""
        parts = [k for k in ("key", "shuffle", "shares", "secret") if k in msg]
        if len(parts) != 1:
            raise ProtocolError("bad_deck", "a deck frame carries exactly one of key, shuffle, shares, secret")
        part = parts[0]
        try:
            if part == "key":
                key = DeckKey.from_wire(msg["key"])
                self._own(seat, key.seat, "deck key")
                self.ledger.add_key(key)
                return "dkey", {"seat": seat, "key": msg["key"]}
            if part == "shuffle":
                shuffle = Shuffle.from_wire(msg["shuffle"], self.ledger.size)
                self._own(seat, shuffle.seat, "shuffle")
                self.ledger.add_shuffle(shuffle)
                return "dshuffle", {"seat": seat, "sh": msg["shuffle"]}
            if part == "shares":
                shares = [Share.from_wire(s) for s in msg["shares"]]
                for share in shares:
                    self._own(seat, share.seat, "share")
                self.ledger.add_shares(shares)
                return "dshares", {"seat": seat, "shares": msg["shares"]}
            return "dsecret", {"seat": seat, "x": self._secret(seat, msg["secret"], game_over)}
        except DeckError as exc:
            raise refused(exc) from None

    def propose(self, seat: int, msg: dict[str, Any]) -> Future[bool] | None:
        """Seat `seat`'s shuffle (a `deck` frame's), to relay before its proof is checked:
        its shape, seat and turn are checked now, its proof in a worker thread
        (`DeckLedger.propose`, whose check it returns); `submit` records it once checked.
        ProtocolError if refused: nothing changes."""
        on = msg.get("on")
        try:
            shuffle = Shuffle.from_wire(msg["shuffle"], self.ledger.size)
            self._own(seat, shuffle.seat, "shuffle")
            return self.ledger.propose(shuffle, on)
        except DeckError as exc:
            raise refused(exc) from None

    @staticmethod
    def _own(seat: int, named: int, what: str) -> None:
        if named != seat:
            raise ProtocolError("not_your_seat", f"seat {seat} sent a {what} of seat {named}")

    def _secret(self, seat: int, data: bytes, game_over: bool) -> bytes:
        if not game_over:
            raise ProtocolError("too_early", "a deck key is disclosed only when the game is over")
        if self.secrets[seat] is not None:
            raise ProtocolError("already_disclosed", f"seat {seat} has disclosed its deck key")
        try:
            secret = read_scalar(data)
            matches = key_of(secret) == self.ledger.key(seat).h
        except GroupError:
            matches = False
        if not matches:
            raise ProtocolError("bad_deck_key", f"seat {seat}'s disclosed deck key does not match its published key")
        self.secrets[seat] = secret
        return data

    def begin(self, first: int) -> GameState:
        """The deal: the blind engine on the shuffled deck, round 1 dealt in the ledger."""
        self.blind = BlindGame(self.ledger, self.options, first)
        return self.blind.state

    def play(self, move: Move, opening: Any) -> None:
        """A card played with its opening (ProtocolError, nothing changed, if refused)."""
        blind = self.blind
        if blind is None:
            raise ProtocolError("not_dealt", "the cards are not dealt yet")
        if opening is None:
            raise ProtocolError("needs_opening", "at a hidden-hands table a card is played with its opening")
        try:
            blind.play(move, Share.from_wire(opening))
        except DeckError as exc:
            raise refused(exc) from None
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None

    def start_flip(self) -> int:
        """The mystery hand's top card is to be turned up (its player's signed request is
        being recorded): the slot whose share every seat now owes (ProtocolError if none)."""
        try:
            return self.ledger.start_flip()
        except DeckError as exc:
            raise refused(exc) from None

    @property
    def flip_ready(self) -> bool:
        """Whether the mystery card being turned up has every seat's share in."""
        slot = self.ledger.flipping
        return slot is not None and self.ledger.readable(slot)

    def flip(self, move: Move) -> int:
        """Turn up the mystery card every seat's share reads (ProtocolError if refused)."""
        blind = self.blind
        if blind is None:
            raise ProtocolError("not_dealt", "the cards are not dealt yet")
        try:
            return blind.flip(move)
        except DeckError as exc:
            raise refused(exc) from None
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None

    def after_move(self) -> None:
        """A move without a card was applied to the engine: deal what it dealt."""
        if self.blind is not None:
            self.blind.sync_deals()

    def needs_owner(self) -> tuple[int, ...]:
        """The seats whose own client must act before the game goes on: a card's owner, or
        while the mystery card is being turned up, every seat (its share)."""
        if self.ledger.flipping is not None:
            return tuple(range(self.ledger.n))
        return self.blind.needs_owner() if self.blind is not None else ()

    def real_record(self, journaled: GameRecord) -> GameRecord:
        """The game's record on the real deck (the journal's holds the stand-ins), once
        every seat has disclosed its deck key (ValueError before)."""
        secrets = [x for x in self.secrets if x is not None]
        if len(secrets) != self.ledger.n:
            raise ValueError("not every seat has disclosed its deck key")
        order = self.ledger.card_order(secrets)
        if any(card is None for card in order):
            raise ValueError("the shuffled deck does not decrypt to the game's cards")
        state = GameState(
            self.ledger.n,
            self.options,
            deck_order=[int(card) for card in order if card is not None],
            first_auctioneer=journaled.first_auctioneer,
        )
        record = GameRecord.start(state, journaled.players, journaled.meta)
        record.moves = list(journaled.moves)
        return record
