"""The rules engine as it runs without seeing hands (docs/fair-play.md "The hidden deck"):
hand sizes and the public record, every proof checked, each card learnt only when it is
played.  The host runs it (net/host/hidden_hands.py) to judge the moves; every client runs
it too, on its own checked ledger (net/trust/verified_game.py), and refuses any event whose
public view, outcome or deal differs from its own run: the phase (the game over, which
frees the deck keys) and every deal come from the rules, never from the host's word.

The engine needs a deck order to deal from.  The host gives it slot order: card id k
stands for the card in slot k of the jointly shuffled deck (net/trust/hidden_deck.py),
and the engine deals its stock exactly as the ledger deals slots (seat 0 first, a block
of k per seat), so the host's engine holds *stand-ins*: the right number of cards in
every hand and in the stock, none of them the real card (the permutation from slots to
cards is nobody's).  When a seat plays a card, its opening proves which card its slot
holds; the host then exchanges, in its engine, the stand-in for that slot with wherever
the real card stands in for another slot (in a hand or the stock, never in play: every
card played is real), and applies the move.  No rule reads a card before it is played,
so the game the host runs is the real game in everything anybody can see: moves, sales,
scores, hand sizes.  Its hands and stock, and its `deal_log` and `CardsDealt` events,
are stand-ins and are never sent.

With fresh hands each round (FA-2) every round after the first is dealt from a new deck,
shuffled again by every seat (net/trust/hidden_deck.py `NewDeck`); the engine's stock for
that round is stand-ins in slot order again, and the ledger deals it once the new deck is
shuffled (until then the round's first card play waits: nobody can read a card).

A host that does not see hands cannot play a card for an absent seat: a card play and a
Double's second card wait for the seat's owner (`needs_owner`).

The mystery hand (§10.3) is stand-ins too, in slot order after the seats' blocks; its top
card is turned up (`flip`) once every seat has published its share of that slot
(net/trust/hidden_deck.py `start_flip`): the real card is exchanged in, then turned up.
"""

from __future__ import annotations

from typing import Sequence

from modernart.errors import IllegalMove, NotYourTurn, WrongPhase
from modernart.game import GameState, deck_orders_needed
from modernart.moves import CARD_ACTIONS, Action, Move
from modernart.record import GameRecord, RecordError
from modernart.phase import Phase
from modernart.rules import RuleOptions

from modernart.net.trust.deck import DeckKey, Share, Shuffle
from modernart.net.trust.hidden_deck import DeckLedger, DeckStepError, Play, Step

#: The phases in which the seat to move can only act with a card of its own (a Double may
#: be declined, so DOUBLE_OFFER can be defaulted; PLAY_CARD cannot).
OWNER_PHASES = frozenset({Phase.PLAY_CARD})


class BlindGame:
    """One game run without its hands (see the module docstring)."""

    def __init__(self, ledger: DeckLedger, options: RuleOptions, first_auctioneer: int) -> None:
        if not ledger.shuffled:
            raise DeckStepError("not_shuffled", "the deck is not shuffled yet")
        self.ledger = ledger
        size = options.deck_table.size
        if ledger.size != size:
            raise ValueError(f"the ledger holds {ledger.size} cards, the deck {size}")
        # with fresh hands each round (FA-2) every round's stock is a new deck in slot order too
        orders = deck_orders_needed(options)
        self.state = GameState(
            ledger.n,
            options,
            deck_order=list(range(size)) * orders,
            first_auctioneer=first_auctioneer,
            track_events=True,
        )
        self.size = size
        self.epoch = ledger.epoch  # the deck the stand-ins stand for
        self.stand_in: dict[int, int] = {k: k for k in range(size)}  # unplayed slot -> the card id standing in
        self.slot_of: dict[int, int] = {k: k for k in range(size)}  # stand-in card id -> its slot
        self.sync_deals()

    @classmethod
    def replay(
        cls,
        game: bytes,
        n: int,
        options: RuleOptions,
        first_auctioneer: int,
        steps: Sequence[Step],
        moves: Sequence[tuple[Move, Share | None]],
    ) -> "BlindGame":
        """The blind game that recorded `steps` (a ledger's, in order) and `moves` (each
        with its opening, or None) make: how a host resumes after a crash from its journal.

        Its own journal is trusted, so no proof is checked again: the keys and shuffles go
        in first, the engine deals as it did, each share goes in once its slot is dealt,
        each move is made again (a card with its recorded opening); the deals and plays the
        engine makes again must be the recorded ones (ValueError otherwise).  The ledger
        checks every proof again from then on."""
        ledger = DeckLedger(game, n, options.deck_table.size, checking=False, mystery=bool(options.mystery_hand))
        for step in steps:
            if isinstance(step, (DeckKey, Shuffle)):
                ledger.add_step(step)
        blind = cls(ledger, options, first_auctioneer)
        shares = [step for step in steps if isinstance(step, Share)]
        fed = 0

        def feed() -> None:
            nonlocal fed
            while fed < len(shares) and shares[fed].slot < ledger.dealt:
                ledger.add_share(shares[fed])
                fed += 1

        feed()
        for move, opening in moves:
            if opening is None:
                blind.apply(move)
            else:
                blind.play(move, opening)
            feed()
        recorded = [step for step in steps if isinstance(step, (tuple, Play))]
        again = [step for step in ledger.steps if isinstance(step, (tuple, Play))]
        if again[: len(recorded)] != recorded or fed != len(shares):
            raise ValueError("the recorded deals, shares and plays do not follow from the recorded moves")
        ledger.checking = True
        return blind

    @property
    def hand_sizes(self) -> list[int]:
        return [len(hand) for hand in self.state.hands]

    def needs_owner(self) -> tuple[int, ...]:
        """The seats whose next move only their owner can make (a card of their hand)."""
        state = self.state
        return state.to_move() if state.phase in OWNER_PHASES else ()

    def sync_deals(self) -> None:
        """Deal in the ledger every round the engine has dealt (same slots, same seats): after
        every move, since a round also ends when nobody holds a card after a sale."""
        ledger = self.ledger
        while len(self.state.deal_log) > len(ledger.deals) + len(ledger.waiting):
            dealt = self.state.deal_log[len(ledger.deals) + len(ledger.waiting)]
            ledger.deal([len(cards) for cards in dealt])  # with FA-2, a new deck's deal waits for its shuffles
        if ledger.epoch != self.epoch:  # a new deck (FA-2): every card back, the stock in slot order again
            self.epoch = ledger.epoch
            self.stand_in = {k: k for k in range(self.size)}
            self.slot_of = {k: k for k in range(self.size)}

    def apply(self, move: Move) -> None:
        """A move without a card (a bid, a pass, ...): IllegalMove if the rules refuse it."""
        if move.action in CARD_ACTIONS:
            raise DeckStepError("needs_opening", "a card is played with its opening (its owner's proven share)")
        self.state.apply(move)
        self.sync_deals()

    def check_intent(self, move: Move, deck: int) -> None:
        """A card play whose `move.arg` names a slot of deck `deck`, not the card (the host
        commits to it before the card is opened): everything that does not depend on the
        card, DeckStepError or IllegalMove if refused.  Which card may be added to a Double
        depends on the card: its owner, who knows it, checks that."""
        state = self.state
        phase = Phase.PLAY_CARD if move.action == Action.PLAY else Phase.DOUBLE_OFFER
        if move.action not in CARD_ACTIONS:
            raise DeckStepError("not_a_card", "only a card play names a slot")
        if state.phase != phase:
            raise WrongPhase(f"seat {move.seat} cannot {'put up' if phase == Phase.PLAY_CARD else 'add'} a card now")
        if move.seat not in state.to_move():
            raise NotYourTurn(f"seat {move.seat} cannot play a card: it is not its turn")
        ledger = self.ledger
        if deck != ledger.epoch or ledger.waiting:
            raise DeckStepError(
                "wrong_deck", f"the play names deck {deck}; the cards in hand are of deck {ledger.epoch}"
            )
        slot = move.arg
        if not 0 <= slot < ledger.dealt or ledger.owner[slot] != move.seat:
            raise DeckStepError("not_your_card", f"slot {slot} was not dealt to seat {move.seat}")
        if slot in ledger.opened:
            raise DeckStepError("not_your_card", f"the card in slot {slot} is played already")
        if not ledger.readable(slot):
            raise DeckStepError("not_readable", f"slot {slot} still waits for other seats' shares")

    def play(self, move: Move, opening: Share) -> int:
        """A card played, `opening` proving which card its slot holds; returns the card.

        Refused, with nothing changed, by DeckStepError (the opening fails: see
        `DeckLedger.open`) or IllegalMove (the rules refuse the card: checked after the
        opening, since whether a second card matches a Double depends on the card)."""
        state = self.state
        if move.action not in CARD_ACTIONS:
            raise DeckStepError("not_a_card", "only a card play carries an opening")
        if state.phase not in (Phase.PLAY_CARD, Phase.DOUBLE_OFFER):
            raise WrongPhase(f"seat {move.seat} cannot play a card now")
        if move.seat not in state.to_move():
            raise NotYourTurn(f"seat {move.seat} cannot play a card: it is not its turn")
        card = move.arg
        slot = self.ledger.check_open(move.seat, opening, card)
        real = state.card_of[card]
        placeholder = self.stand_in[slot]
        if real not in self.slot_of:
            raise DeckStepError("card_twice", f"card {card} is played already")
        self._exchange(slot, card)
        try:
            state.apply(move)
        except IllegalMove:
            self._exchange(slot, placeholder)  # back as it was
            raise
        self.ledger.commit_open(move.seat, opening, card)
        del self.stand_in[slot]
        del self.slot_of[card]
        self.sync_deals()
        return card

    def flip(self, move: Move) -> int:
        """The mystery hand's top card turned up (`move` the FLIP_MYSTERY of the player who
        asked): the card every seat's share reads (DeckStepError, nothing changed, unless
        all are in), exchanged in for its stand-in, then the move applied; returns the card."""
        ledger = self.ledger
        card = ledger.mystery_card()
        slot = ledger.flipping
        assert slot is not None
        placeholder = self.stand_in[slot]
        if card not in self.slot_of:
            raise DeckStepError("card_twice", f"card {card} is played already")
        self._exchange(slot, card)
        try:
            self.state.apply(move)
        except IllegalMove:
            self._exchange(slot, placeholder)
            raise
        ledger.commit_flip(card)
        del self.stand_in[slot]
        del self.slot_of[card]
        self.sync_deals()
        return card

    def _exchange(self, slot: int, card: int) -> None:
        """Put `card` where the stand-in of `slot` is, and that stand-in where `card` stood."""
        current = self.stand_in[slot]
        if current == card:
            return
        other_slot = self.slot_of[card]
        self.state.exchange_unplayed(current, card)
        self.stand_in[slot], self.stand_in[other_slot] = card, current
        self.slot_of[card], self.slot_of[current] = slot, other_slot


class StandInGame:
    """The rules engine as a client runs it at a table whose host sees the hands: every
    hand and the stock are stand-ins in slot order (as in `BlindGame`), and the card a
    move plays (or the mystery card a flip turns up, as the host announces it) is put in
    place of one of the seat's stand-ins just before the move.  No rule reads a card before
    it is played, so every public fact comes out as the host's engine has it: a host whose
    public view or outcome differs from this one is not running the rules.

    >>> game = StandInGame.dealt(3, RuleOptions(), first_auctioneer=0)
    >>> [len(hand) for hand in game.state.hands]
    [10, 10, 10]
    """

    def __init__(self, state: GameState) -> None:
        self.state = state

    @classmethod
    def dealt(cls, n: int, options: RuleOptions, first_auctioneer: int) -> "StandInGame":
        """A new game of `n` seats, round 1 dealt from stand-ins in slot order."""
        size = options.deck_table.size
        orders = deck_orders_needed(options)
        return cls(
            GameState(
                n, options, deck_order=list(range(size)) * orders, first_auctioneer=first_auctioneer, track_events=True
            )
        )

    def apply(self, move: Move, flipped: int | None = None) -> None:
        """Make `move` (`flipped`: the card a FLIP_MYSTERY turns up); IllegalMove if the rules
        refuse it, ValueError if its card is not one that can be in the seat's hand."""
        state = self.state
        if flipped is not None and state.mystery and int(state.mystery[0]) != flipped:
            state.exchange_unplayed(int(state.mystery[0]), flipped)
        if move.action in CARD_ACTIONS:
            hand = state.hands[move.seat]
            if move.arg not in (int(card) for card in hand) and hand:
                state.exchange_unplayed(int(hand[0]), int(move.arg))
        state.apply(move)


def replay_stand_ins(record: GameRecord, flipped: Sequence[int] = ()) -> GameState:
    """The game a hidden-hands table's journal holds, replayed without its deck: the
    journal's deal is stand-ins (see the module docstring) and its card plays are the real
    cards, so before each card play the card is put into its player's hand in exchange for
    one of the player's stand-ins (any: none has been read, and no rule reads a card before
    it is played; `StandInGame.apply`).  Every public fact comes out as the table played it
    (round, phase, money, cards on the board, hand sizes), the hands and stock are
    stand-ins.  `flipped`: the mystery cards turned up, in order (the journal names none:
    its event log does), each put on top of the mystery hand before its turn-up.  For
    `modernart resume`'s list; RecordError if a move is illegal even so (a damaged journal).
    """
    game = StandInGame(record.new_state())
    state = game.state
    turned = iter(flipped)
    for index, move in enumerate(record.moves):
        try:
            game.apply(move, next(turned, None) if move.action == Action.FLIP_MYSTERY else None)
        except (IllegalMove, ValueError) as exc:
            raise RecordError(f"{state.describe(move)} is illegal: {exc}", index=index) from None
    return state
