"""A hidden-hands table's part of the host's game: the deck ledger it checks, the blind
engine it runs, and the events of the deck (docs/fair-play.md "The hidden deck").

`HostedGame` (net/host/game.py) holds one `HiddenHands` when its table hides hands.  The
seats' `deck` frames go to `submit`, which checks the step (its seat's signature,
`check_signed`, then every proof) and returns the event to log; a shuffle is first relayed
(`propose`: the next seat shuffles it while its proof is checked in a worker thread,
net/host/shuffle_relay.py) and then recorded by `submit`; the deal waits until every seat
has shuffled (`ready`).  A card play is two steps: its signed action names the slot
(`commit_play`, then `commit` once its `play` event is logged), and only then comes the
opening (`open_play`); `play` replays a logged play with its opening.  The host keeps no secret of the deck: every step it holds is
public and in its event log, so a resumed host rebuilds all of it from there.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable

from modernart.errors import IllegalMove
from modernart.game import GameState
from modernart.moves import Action, Move
from modernart.record import GameRecord
from modernart.rules import RuleOptions

from modernart.net.trust.blind_game import BlindGame
from modernart.net.protocol import ProtocolError
from modernart.net.trust.deck import DeckError, DeckKey, Share, Shuffle, key_of
from modernart.net.trust.deck_steps import StepValue, check_step
from modernart.net.trust.group import GroupError, read_scalar
from modernart.net.trust.hidden_deck import DeckLedger, DeckStepError
from modernart.net.trust.shuffle_checks import ShuffleChecks


def refused(exc: DeckError, seat: int | None = None) -> ProtocolError:
    """The wire error for a refused deck step (its code, or `bad_deck` for a malformed value),
    its message naming the seat that sent it."""
    message = str(exc)
    if seat is not None and f"seat {seat}" not in message:
        message = f"seat {seat}'s deck step: {message}"
    return ProtocolError(getattr(exc, "code", "bad_deck"), message)


@dataclass(frozen=True, slots=True)
class StepSigner:
    """What a live deck step's signature is checked against (net/trust/deck_steps.py): the
    seat's own key, and the host's chain (`head_at(seq)`, the head after event seq; `before`:
    the number the step's event will have).  A step read back from the host's own event log
    (a resume) has none: it was checked when it came."""

    vk: bytes
    head_at: Callable[[int], bytes | None]
    before: int


@dataclass(frozen=True, slots=True)
class PendingPlay:
    """A card play the host has committed to (its `play` event, number `seq`): seat `seat`
    plays the card in `slot` with `action`; only the owner's opening completes it."""

    seat: int
    action: Action
    slot: int
    seq: int


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
        self.pending: PendingPlay | None = None  # a card play committed to, waiting for its opening

    @property
    def ready(self) -> bool:
        """Whether the deck is shuffled by every seat (the deal may come)."""
        return self.ledger.shuffled

    def submit(
        self, seat: int, msg: dict[str, Any], game_over: bool, signer: StepSigner | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Check seat `seat`'s deck step (a `deck` frame), its signature against `signer`
        (None: a step of the host's own event log, read back); returns its event (kind,
        fields, the signed step among them).  ProtocolError if refused: nothing changes."""
        parts = [k for k in ("key", "shuffle", "shares", "secret") if k in msg]
        if len(parts) != 1:
            raise ProtocolError(
                "bad_deck", f"seat {seat}'s deck frame carries not exactly one of key, shuffle, shares, secret"
            )
        part = parts[0]
        signed = {"signed": msg["signed"]} if "signed" in msg else {}
        try:
            if part == "key":
                key = DeckKey.from_wire(msg["key"])
                self._own(seat, key.seat, "deck key")
                self.check_signed(signer, seat, part, key, msg.get("signed"))
                self.ledger.add_key(key)
                return "dkey", {"seat": seat, "key": msg["key"], **signed}
            if part == "shuffle":
                shuffle = Shuffle.from_wire(msg["shuffle"], self.ledger.size)
                self._own(seat, shuffle.seat, "shuffle")
                self.check_signed(signer, seat, part, shuffle, msg.get("signed"))
                self.ledger.add_shuffle(shuffle)
                return "dshuffle", {"seat": seat, "sh": msg["shuffle"], **signed}
            if part == "shares":
                shares = [Share.from_wire(s) for s in msg["shares"]]
                for share in shares:
                    self._own(seat, share.seat, "share")
                self.check_signed(signer, seat, part, shares, msg.get("signed"))
                self.ledger.add_shares(shares)
                return "dshares", {"seat": seat, "shares": msg["shares"], **signed}
            if signer is not None:
                try:
                    value = read_scalar(msg["secret"])
                except GroupError:
                    raise ProtocolError("bad_deck_key", f"seat {seat}'s disclosed deck key is no scalar") from None
                self.check_signed(signer, seat, part, value, msg.get("signed"))
            return "dsecret", {"seat": seat, "x": self._secret(seat, msg["secret"], game_over), **signed}
        except DeckError as exc:
            raise refused(exc, seat) from None

    def check_signed(self, signer: StepSigner | None, seat: int, kind: str, value: StepValue, signed: Any) -> None:
        """DeckStepError (its code names the fault, its message the seat) unless `signed` is
        seat `seat`'s signature over this step of this game and deck, answering an event of
        this host's own chain (nothing to check without a `signer`: see `StepSigner`)."""
        if signer is None:
            return
        check_step(
            signed,
            game=self.ledger.game,
            seat=seat,
            kind=kind,
            epoch=self.ledger.epoch,
            value=value,
            vk=signer.vk,
            head_at=signer.head_at,
            before=signer.before,
        )

    def propose(self, seat: int, msg: dict[str, Any], signer: StepSigner | None = None) -> Future[bool] | None:
        """Seat `seat`'s shuffle (a `deck` frame's), to relay before its proof is checked:
        its shape, seat, turn and signature are checked now, its proof in a worker thread
        (`DeckLedger.propose`, whose check it returns); `submit` records it once checked.
        ProtocolError if refused: nothing changes."""
        on = msg.get("on")
        try:
            shuffle = Shuffle.from_wire(msg["shuffle"], self.ledger.size)
            self._own(seat, shuffle.seat, "shuffle")
            self.check_signed(signer, seat, "shuffle", shuffle, msg.get("signed"))
            return self.ledger.propose(shuffle, on)
        except DeckError as exc:
            raise refused(exc, seat) from None

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
        """A card played with its opening (ProtocolError, nothing changed, if refused); it
        completes the play committed to, if it is that one."""
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
        pending = self.pending
        if pending is not None and pending.seat == move.seat and pending.action == move.action:
            self.pending = None

    def commit_play(self, move: Move, deck: Any) -> None:
        """Check a card play whose signed action names slot `move.arg` of deck `deck` (not
        the card): everything the host can check without the card (ProtocolError, nothing
        changed, if refused).  The caller then records the `play` event and `commit` it:
        only after that does the owner open the card."""
        blind = self.blind
        if blind is None:
            raise ProtocolError("not_dealt", "the cards are not dealt yet")
        if self.pending is not None:
            raise ProtocolError(
                "play_pending", f"seat {self.pending.seat}'s card play waits for its opening: no other move now"
            )
        if type(deck) is not int:
            raise ProtocolError("needs_slot", "a hidden card is played by its slot and deck (`deck` in the action)")
        try:
            blind.check_intent(move, deck)
        except DeckError as exc:
            raise refused(exc) from None
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None

    def commit(self, move: Move, seq: int) -> None:
        """The play `commit_play` passed is recorded as event `seq`: it waits for its opening."""
        self.pending = PendingPlay(move.seat, move.action, move.arg, seq)

    def open_play(self, seat: int, opening: Any) -> tuple[Move, PendingPlay]:
        """The opening of seat `seat`'s committed play: the card, checked and played in the
        blind engine; the move it makes and the play it completes (ProtocolError, nothing
        changed, if refused: the play still waits for a good opening)."""
        pending, blind = self.pending, self.blind
        if pending is None or pending.seat != seat or blind is None:
            raise ProtocolError("no_play", f"seat {seat} has no card play waiting for its opening")
        try:
            share = Share.from_wire(opening)
            if share.slot != pending.slot:
                raise DeckStepError(
                    "bad_opening", f"seat {seat} opens slot {share.slot}, its play is of slot {pending.slot}"
                )
            card = self.ledger.opened_card(seat, share)
            move = Move.of(seat, pending.action, card)
            blind.play(move, share)
        except DeckError as exc:
            raise refused(exc) from None
        except IllegalMove as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        self.pending = None
        return move, pending

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
        """The seats whose own client must act before the game goes on: a card's owner (the
        owner of a committed play, whose opening alone completes it), or while the mystery
        card is being turned up, every seat (its share)."""
        if self.ledger.flipping is not None:
            return tuple(range(self.ledger.n))
        if self.pending is not None:  # only its owner's opening completes a committed play
            return (self.pending.seat,)
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
