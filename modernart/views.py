"""What one player may know: `observation(state, seat)` (docs/rules.md §8).

An `Observation` holds the seat's own hand and money; everyone's hand size, purchases
and the public record of every auction (every public bid, every sale, every payment,
every round's scoring).  It never holds another player's hand or money, a sealed bid
before the reveal, or the order of the stock.  Bots and clients see nothing else.
At the end of the game all money is revealed (§7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Mapping

from .cards import ANNOUNCED_KINDS, AuctionType, Card
from .events import Sale
from .moves import Action, Move
from .phase import Phase
from .rules import RuleOptions
from .scoring import RoundResult
from .state import NO_BID, BaseState


@dataclass(frozen=True)
class Observation:
    """One seat's view of the game.  Cards are ids into the deck of `options.deck`."""

    seat: int
    players: int
    options: RuleOptions
    round: int
    phase: Phase
    to_move: tuple[int, ...]
    hand: tuple[Card, ...]
    money: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    counts: tuple[int, ...]
    tiles: tuple[tuple[int, ...], ...]
    bought: tuple[tuple[Card, ...], ...]
    auctioneer: int
    original: int  # who played the Double on the table, or -1
    turn: int  # seat asked in turn-based steps, or -1
    lot: tuple[Card, ...]  # cards under the hammer
    high: int
    high_seat: int
    bids: tuple[tuple[int, int], ...]  # public bids of the running auction
    passed: tuple[int, ...]  # Open: seats that passed since the last bid
    sealed_done: tuple[int, ...]  # Sealed: seats that have bid (amounts stay secret)
    price: int  # the price on offer (FIXED_OFFER, POSTED_OFFER) or chosen at (CHOOSE_BUYER)
    auction_no: int
    sales: tuple[Sale, ...]
    results: tuple[RoundResult, ...]
    offenders: tuple[tuple[int, int, int], ...]  # (seat, auction, fine) of forfeited sealed bids
    final_money: tuple[int, ...]  # everyone's money, revealed only once the game is over
    winners: tuple[int, ...]
    # the variants' steps (docs/rules.md §10): empty / 0 in the standard game
    candidates: tuple[int, ...] = ()  # CHOOSE_BUYER: the seats the seller chooses among
    responses: tuple[int, ...] = ()  # POSTED_OFFER: per seat NO_BID, TAKE (1) or LEAVE (0)
    mystery_size: int = 0  # cards left in the face-down mystery hand
    flipped: tuple[Card, ...] = ()  # mystery cards turned up this round (they count)
    flipped_before: tuple[Card, ...] = ()  # mystery cards turned up in earlier rounds
    kind: int = -1  # the running auction's AuctionType (announced, FA-15, or the card's); -1 between auctions

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_move

    def legal_moves(self, *, amounts: bool = True) -> list[Move]:
        """This seat's legal moves, computed from what it may see."""
        return legal_moves_from(self, amounts=amounts)

    def amount_range(self) -> tuple[Action, int, int] | None:
        """This seat's amount move now (bid, sealed bid or price) as (action, lo, hi)."""
        return amount_range_from(self)

    def amount_action(self) -> Action | None:
        """The kind of amount this step takes from this seat: a bid (Open, Once-around), a
        sealed bid, or the price (the auctioneer of a Fixed price sale), whether or not the
        seat may name one now (it holds the high bid, has sealed, waits for its turn, cannot
        beat the high bid: `amount_range()` says); None when the step takes no amount from
        it, and for a watcher.  A client types digits as an amount exactly then."""
        return amount_action_from(self)

    def card_action(self) -> Action | None:
        """PLAY while this seat is to put up a painting, ADD_SECOND while a Double is offered
        to it (whether or not it holds a card that may join: `legal_moves()` says); None
        otherwise.  A client offers a choice of card exactly then."""
        return card_action_from(self)


#: The steps whose `turn`, public `bids` and `price` an observation shows.
_TURN_PHASES: Final = frozenset({Phase.DOUBLE_OFFER, Phase.ONCE_AROUND, Phase.FIXED_OFFER, Phase.MYSTERY_FLIP})
_BID_PHASES: Final = frozenset(
    {Phase.OPEN, Phase.ONCE_AROUND, Phase.FIXED_OFFER, Phase.POSTED_OFFER, Phase.CHOOSE_BUYER}
)
_PRICE_PHASES: Final = frozenset({Phase.FIXED_OFFER, Phase.POSTED_OFFER, Phase.CHOOSE_BUYER})
#: The steps of a running auction, whose type an observation shows.
_AUCTION_PHASES: Final = frozenset(
    {
        Phase.OPEN,
        Phase.ONCE_AROUND,
        Phase.SEALED,
        Phase.FIXED_SET,
        Phase.FIXED_OFFER,
        Phase.POSTED_OFFER,
        Phase.CHOOSE_BUYER,
    }
)


def observation(state: BaseState, seat: int) -> Observation:
    """What `seat` may know of `state` (also `GameState.observation(seat)`)."""
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat} in a {state.n}-player game")
    over = state.phase == Phase.GAME_OVER
    phase = state.phase
    return Observation(
        seat=seat,
        players=state.n,
        options=state.options,
        round=state.round,
        phase=phase,
        to_move=state.to_move(),
        hand=tuple(state.hands[seat]),
        money=state.money[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        counts=tuple(state.counts),
        tiles=tuple(tuple(row) for row in state.tiles),
        bought=tuple(tuple(b) for b in state.bought),
        auctioneer=state.auctioneer,
        original=state.original,
        turn=state.turn if phase in _TURN_PHASES else -1,
        lot=tuple(state.lot),
        high=state.high if phase in (Phase.OPEN, Phase.ONCE_AROUND) else 0,
        high_seat=state.high_seat if phase in (Phase.OPEN, Phase.ONCE_AROUND) else -1,
        bids=tuple(state.bids) if phase in _BID_PHASES else (),
        passed=tuple(s for s in range(state.n) if state.passed[s]) if phase == Phase.OPEN else (),
        sealed_done=tuple(s for s in range(state.n) if state.sealed[s] != NO_BID) if phase == Phase.SEALED else (),
        price=state.price if phase in _PRICE_PHASES else 0,
        auction_no=state.auction_no,
        sales=tuple(state.sales),
        results=tuple(state.results),
        offenders=tuple(state.offenders),
        final_money=tuple(state.money) if over else (),
        winners=state.winners(),
        candidates=tuple(state.candidates) if phase == Phase.CHOOSE_BUYER else (),
        responses=tuple(state.responses) if phase == Phase.POSTED_OFFER else (),
        mystery_size=len(state.mystery),
        flipped=tuple(state.flipped),
        flipped_before=tuple(state.flipped_before),
        kind=state.kind if phase in _AUCTION_PHASES else -1,
    )


def legal_moves_from(obs: Observation, *, amounts: bool = True) -> list[Move]:
    """The observing seat's legal moves, from the observation alone."""
    seat = obs.seat
    phase = obs.phase
    moves: list[Move] = []
    if seat in obs.to_move:
        if phase == Phase.PLAY_CARD:
            moves = [Move.play(seat, c) for c in obs.hand]
        elif phase == Phase.DOUBLE_OFFER:
            double = obs.lot[0]
            moves = [Move.add_second(seat, c) for c in obs.hand if c.artist == double.artist and c.kind != double.kind]
            moves.append(Move.decline_second(seat))
        elif phase == Phase.OPEN:
            if seat != obs.high_seat and seat not in obs.passed:
                moves.append(Move.pass_(seat))
            if seat == obs.auctioneer:
                moves.append(Move.hammer(seat))
        elif phase == Phase.ONCE_AROUND:
            moves = [Move.pass_(seat)]
        elif phase == Phase.FIXED_OFFER or phase == Phase.POSTED_OFFER:
            if obs.price <= obs.money:
                moves.append(Move.accept(seat))
            moves.append(Move.decline(seat))
        elif phase == Phase.CHOOSE_BUYER:
            moves = [Move.choose_buyer(seat, c) for c in obs.candidates]
        elif phase == Phase.MYSTERY_FLIP:
            moves = [Move.flip_mystery(seat), Move.keep_mystery(seat)]
        elif phase == Phase.ANNOUNCE:
            moves = [Move.announce(seat, k) for k in ANNOUNCED_KINDS]
    if amounts:
        r = amount_range_from(obs)
        if r is not None:
            action, lo, hi = r
            moves.extend(Move.of(seat, action, a) for a in range(lo, hi + 1))
    return moves


def amount_range_from(obs: Observation) -> tuple[Action, int, int] | None:
    seat, phase, money = obs.seat, obs.phase, obs.money
    if seat not in obs.to_move:
        return None
    if phase == Phase.OPEN:
        if seat == obs.high_seat or (seat in obs.passed and obs.options.open_pass_is_final):
            return None
        return (Action.BID, obs.high + 1, money) if obs.high < money else None
    if phase == Phase.ONCE_AROUND:
        return (Action.BID, obs.high + 1, money) if obs.high < money else None
    if phase == Phase.SEALED:
        return (Action.SEALED_BID, 0, money)
    if phase == Phase.FIXED_SET:
        lo, hi = price_range_from(obs)
        return (Action.SET_PRICE, lo, hi)
    return None


def price_range_from(obs: Observation) -> tuple[int, int]:
    """`auctions.price_range` for the observing seat, from what it sees: everyone's money
    is public (`public_money`)."""
    options = obs.options
    if options.price_up_to_richest and (obs.kind == int(AuctionType.ONCE_AROUND) or not options.fixed_forced_buy):
        money = public_money(obs)
        richest = max([m for s, m in enumerate(money) if s != obs.seat], default=0)
        return 1, max(1, richest)
    return (1, obs.money) if obs.money > 0 else (0, 0)


#: The amount each step takes from every seat (Fixed price: only from the auctioneer).
_STEP_AMOUNT: Final[Mapping[Phase, Action]] = {
    Phase.OPEN: Action.BID,
    Phase.ONCE_AROUND: Action.BID,
    Phase.SEALED: Action.SEALED_BID,
}


def amount_action_from(obs: Observation) -> Action | None:
    if not 0 <= obs.seat < obs.players:
        return None
    if obs.phase == Phase.FIXED_SET:
        return Action.SET_PRICE if obs.seat == obs.auctioneer else None
    return _STEP_AMOUNT.get(obs.phase)


def card_action_from(obs: Observation) -> Action | None:
    if obs.seat not in obs.to_move:
        return None
    if obs.phase == Phase.PLAY_CARD:
        return Action.PLAY
    if obs.phase == Phase.DOUBLE_OFFER:
        return Action.ADD_SECOND
    return None


def public_money(obs: Observation) -> tuple[int, ...]:
    """Everyone's money, reconstructed from public payments alone.

    Every payment in Modern Art is made openly (§8), so a player with a perfect memory
    knows all money; bots use this instead of hidden state.
    """
    money = [obs.options.start_money] * obs.players
    for sale in obs.sales:
        for payer, payee, amount in sale.payments:
            money[payer] -= amount
            if payee >= 0:
                money[payee] += amount
    for _seat, _auction, fine in obs.offenders:
        money[_seat] -= fine
    for result in obs.results:
        for s, pay in enumerate(result.payouts):
            money[s] += pay
    return tuple(money)
