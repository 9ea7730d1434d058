"""The hidden deck of one game, step by step: the public record every party checks
(`DeckLedger`), what one seat adds with its secret key (`SeatDeck`), and the audit of the
whole deal once every key is disclosed (`audit_deal`).

The steps, in the order a game makes them (values and proofs in net/trust/deck.py):

1. **keys**: every seat publishes its proven deck key; H is their sum.
2. **shuffles**: seat 0, then seat 1, ... each re-encrypts and permutes the whole deck,
   starting from the open deck, and proves it.
3. **deals**: a round's cards are the next slots of the final deck, dealt the way the
   rules engine deals its stock (seat 0 first, a block of k slots per seat).  For every
   slot dealt to seat s, every other seat publishes its proven decryption share; s adds
   its own share, which it never sends, and reads its card.
4. **plays**: a card played from slot k is opened by its owner's proven share; with all
   shares anybody decrypts the card, which must be the card the move names, a card of the
   game, and not one opened before.
5. **disclosure** (after the game): every seat's secret key.  `audit_deal` re-checks every
   proof and, with the keys, decrypts every deck and every slot, so it names the first
   wrong step exactly: a shuffle that drops or duplicates a card, a wrong share, a card
   played that is not the one in its slot.

The ledger never holds a secret: the host holds one, and so learns a card only when it is
played.  A seat learns the cards dealt to it and the cards played, nothing else.

The mystery hand (§10.3, `mystery`): each deal also deals a block of slots to nobody
(`MYSTERY`), after the seats' blocks, as the engine deals it.  No share of such a slot is
owed or taken until the player who may turn up the mystery hand's top card has asked to
(`start_flip`, after that player's signed request is in the record); then every seat,
none excepted, publishes its share of that one slot and anybody reads the card
(`mystery_card`).
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from modernart.net.trust.deck import (
    Ciphertext,
    DeckError,
    DeckKey,
    Share,
    Shuffle,
    ShuffleSecret,
    card_lookup,
    check_key,
    decrypt,
    joint_key,
    key_of,
    make_share,
    new_key,
    open_deck,
    own_share,
    prove_key,
    shuffle_deck,
)
from modernart.net.trust.group import L, GroupError, Point, mul
from modernart.net.trust.proof_cache import check_share, check_shuffle  # once per process
from modernart.net.trust.shuffle_checks import ShuffleChecks, deck_digest


#: The owner of a slot dealt to the mystery hand (§10.3): no seat
MYSTERY = -1


class DeckStepError(DeckError):
    """A refused step: `code` names the kind of fault for the wire (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Play:
    """A card opened publicly: its slot, its owner's share, the card the move named."""

    slot: int
    share: Share
    card: int


@dataclass(frozen=True, slots=True)
class NewDeck:
    """Every card back in a fresh open deck, to be shuffled again by every seat: a round of
    a game that deals fresh hands each round (FA-2, docs/rules.md §10.2).  `epoch`: how
    many decks came before this one."""

    epoch: int


@dataclass(frozen=True, slots=True)
class Flip:
    """The mystery hand's top card, in `slot` (§10.3): asked for (`card` None: every seat's
    share of it is owed from now on), then turned up as `card`."""

    slot: int
    card: int | None = None


#: One step of the record, in order: a deck key, a shuffle, a deal (cards per seat), a
#: decryption share, a play, a new deck (FA-2), or a mystery card asked for or turned up.
Step = DeckKey | Shuffle | tuple[int, ...] | Share | Play | NewDeck | Flip


def step_to_wire(step: Step) -> dict[str, Any]:
    """A step as plain data (bytes and ints), for the journal, the transcript and the record."""
    if isinstance(step, DeckKey):
        return {"key": step.to_wire()}
    if isinstance(step, Shuffle):
        return {"shuffle": step.to_wire()}
    if isinstance(step, Share):
        return {"share": step.to_wire()}
    if isinstance(step, Play):
        return {"play": {"slot": step.slot, "share": step.share.to_wire(), "card": step.card}}
    if isinstance(step, NewDeck):
        return {"redeck": step.epoch}
    if isinstance(step, Flip):
        return {"flip": {"slot": step.slot, "card": step.card}}
    return {"deal": list(step)}


def step_from_wire(data: Any, size: int) -> Step:
    """A step from its plain data (DeckError, naming what is wrong, if it is not one)."""
    if not isinstance(data, dict) or len(data) != 1:
        raise DeckError("a deck step is one of {key}, {shuffle}, {deal}, {share}, {play}, {redeck}, {flip}")
    ((kind, value),) = data.items()
    if kind == "key":
        return DeckKey.from_wire(value)
    if kind == "shuffle":
        return Shuffle.from_wire(value, size)
    if kind == "share":
        return Share.from_wire(value)
    if kind == "deal":
        if not isinstance(value, list) or not all(type(c) is int and 0 <= c <= size for c in value):
            raise DeckError("a deal is a list of card counts")
        return tuple(value)
    if kind == "play":
        if not isinstance(value, dict) or set(value) != {"slot", "share", "card"}:
            raise DeckError("a play is {slot, share, card}")
        if type(value["slot"]) is not int or type(value["card"]) is not int or not 0 <= value["card"] < size:
            raise DeckError("a play names its slot and a card of the deck")
        return Play(value["slot"], Share.from_wire(value["share"]), value["card"])
    if kind == "redeck":
        if type(value) is not int or not 0 < value < 256:
            raise DeckError("a new deck names its epoch, 1..255")
        return NewDeck(value)
    if kind == "flip":
        if not isinstance(value, dict) or set(value) != {"slot", "card"} or type(value["slot"]) is not int:
            raise DeckError("a flip is {slot, card}")
        card = value["card"]
        if card is not None and (type(card) is not int or not 0 <= card < size):
            raise DeckError("a flip names a card of the deck, or none yet")
        return Flip(value["slot"], card)
    raise DeckError(f"unknown deck step {kind!r}")


class DeckLedger:
    """The public record of one game's hidden deck (see the module docstring).

    With `checking` (the host, every client) each step's proof is checked as it is added
    and a bad one is refused with a `DeckStepError` that changes nothing; without it (the
    audit, which checks everything afterwards and names the first wrong step) only the
    shape and order of the steps are enforced."""

    def __init__(
        self,
        game: bytes,
        n: int,
        size: int,
        *,
        checking: bool = True,
        checks: ShuffleChecks | None = None,
        fresh: bool = False,
        mystery: bool = False,
    ) -> None:
        self.game = game
        self.n = n
        self.size = size
        self.checking = checking
        # fresh hands each round (FA-2): each round after the first deals from a new deck,
        # every card back and shuffled again by every seat (`NewDeck`); the round's deal
        # waits for those shuffles (`waiting`)
        self.fresh = fresh
        self.epoch = 0
        self.earlier_decks: list[tuple[Ciphertext, ...]] = []  # each earlier round's final deck
        self.waiting: list[tuple[int, ...]] = []
        self.keys: list[DeckKey | None] = [None] * n
        self.checks = checks
        self.mystery = mystery  # each deal also deals the mystery hand's block (§10.3)
        self._reset_deck()

    def _reset_deck(self) -> None:
        """The state of one deck: nothing shuffled, dealt, shared or played."""
        self.shuffles: list[Shuffle] = []
        # shuffles relayed ahead of their events, in seat order after the last one recorded
        # (the pipelined start: `propose`); their proofs are being checked in `checks`
        self.proposed: list[Shuffle] = []
        self.owner: list[int | None] = [None] * self.size  # the seat each slot was dealt to
        self.shares: list[dict[int, Share]] = [{} for _ in range(self.size)]
        self.opened: dict[int, int] = {}  # slot -> the card it held, once played
        self.cards_opened: set[int] = set()
        self.flipping: int | None = None  # the mystery slot being turned up (its shares come)
        self.dealt = 0  # slots dealt so far, from the front of the final deck
        self._decks: list[tuple[Ciphertext, ...]] = []  # the open deck, then each shuffle's
        if self.epoch == 0:
            self.deals: list[tuple[int, ...]] = []  # the cards per seat of each deal so far
            self.steps: list[Step] = []
            self._joint: Point | None = None

    def new_deck(self) -> None:
        """Every card back into a fresh open deck for the next round (FA-2): shuffled again by
        every seat before its deal; slots count from 0 again.  DeckStepError unless this
        ledger deals fresh hands and its deck is shuffled."""
        if not self.fresh or not self.shuffled:
            raise DeckStepError("bad_deal", "a new deck comes only after a shuffled one, with fresh hands each round")
        self.earlier_decks.append(self.deck)
        self.epoch += 1
        self._reset_deck()
        self.steps.append(NewDeck(self.epoch))

    @classmethod
    def from_steps(
        cls, game: bytes, n: int, size: int, steps: Sequence[Step], *, checking: bool, mystery: bool = False
    ) -> "DeckLedger":
        """The ledger that `steps` (a ledger's `steps`, in order) make (`mystery`: the game has a mystery hand)."""
        fresh = any(isinstance(s, NewDeck) for s in steps)
        ledger = cls(game, n, size, checking=checking, fresh=fresh, mystery=mystery)
        for step in steps:
            ledger.add_step(step)
        return ledger

    def add_step(self, step: Step) -> None:
        """Add one recorded step of any kind (a play as its owner made it)."""
        if isinstance(step, DeckKey):
            self.add_key(step)
        elif isinstance(step, Shuffle):
            self.add_shuffle(step)
        elif isinstance(step, Share):
            self.add_share(step)
        elif isinstance(step, Play):
            if step.share.slot != step.slot:
                raise DeckStepError(
                    "bad_opening", f"a play of slot {step.slot} carries a share of slot {step.share.slot}"
                )
            self.open(step.share.seat, step.share, step.card)
        elif isinstance(step, NewDeck):
            if step.epoch != self.epoch + 1:
                raise DeckStepError("bad_deal", f"deck {step.epoch} follows deck {self.epoch}")
            self.new_deck()
        elif isinstance(step, Flip):
            self._add_flip(step)
        else:
            self.deal(step)

    def _add_flip(self, step: Flip) -> None:
        """A recorded flip: asked for (the top slot), or turned up (the card its shares read, when checking)."""
        if step.card is None:
            if self.mystery_top() != step.slot:
                raise DeckStepError("bad_flip", f"slot {step.slot} is not the mystery hand's top card")
            self.start_flip()
            return
        if self.flipping != step.slot:
            raise DeckStepError("bad_flip", f"the mystery card in slot {step.slot} was not asked for")
        if self.checking and self.mystery_card() != step.card:
            raise DeckStepError("wrong_card", f"the mystery card in slot {step.slot} is not card {step.card}")
        self.commit_flip(step.card)

    def card_order(self, secrets: Sequence[int]) -> list[int | None]:
        """Every slot's card, read with every seat's disclosed secret (None: no card): the
        deck order the audit replays the rules with (with fresh hands each round, every
        round's deck one after the other)."""
        x = sum(secrets) % L
        lookup = card_lookup(self.game, self.size)
        return [lookup.get(decrypt(c, [mul(x, c.c1)])) for deck in (*self.earlier_decks, self.deck) for c in deck]

    # ------------------------------------------------------------------ keys

    @property
    def keyed(self) -> bool:
        return all(k is not None for k in self.keys)

    @property
    def joint(self) -> Point:
        if self._joint is None:
            if not self.keyed:
                raise DeckStepError("no_deck_key", "not every seat has published its deck key")
            self._joint = joint_key([k for k in self.keys if k is not None])
        return self._joint

    def key(self, seat: int) -> DeckKey:
        key = self.keys[seat]
        if key is None:
            raise DeckStepError("no_deck_key", f"seat {seat} has published no deck key")
        return key

    def add_key(self, key: DeckKey) -> None:
        if not 0 <= key.seat < self.n:
            raise DeckStepError(
                "bad_deck_key", f"a deck key names seat {key.seat}, the table has seats 0..{self.n - 1}"
            )
        if self.keys[key.seat] is not None:
            raise DeckStepError("bad_deck_key", f"seat {key.seat} has published its deck key already")
        if self.checking:
            try:
                check_key(self.game, key)
            except DeckError as exc:
                raise DeckStepError("bad_deck_key", str(exc)) from None
        self.keys[key.seat] = key
        self.steps.append(key)

    # ------------------------------------------------------------------ shuffles

    @property
    def next_shuffler(self) -> int | None:
        """The seat whose shuffle comes next (None before every key is in, or when all are done)."""
        if not self.keyed or len(self.shuffles) >= self.n:
            return None
        return len(self.shuffles)

    @property
    def shuffled(self) -> bool:
        return len(self.shuffles) == self.n

    @property
    def deck(self) -> tuple[Ciphertext, ...]:
        """The deck as it stands: the open deck, or the last shuffle's."""
        if not self._decks:
            self._decks.append(open_deck(self.game, self.size, self.joint))
        return self._decks[-1]

    @property
    def next_proposer(self) -> int | None:
        """The seat whose shuffle comes next counting the shuffles relayed ahead of their
        events (None before every key is in, or when every seat has shuffled)."""
        if not self.keyed or len(self.shuffles) + len(self.proposed) >= self.n:
            return None
        return len(self.shuffles) + len(self.proposed)

    @property
    def proposed_deck(self) -> tuple[Ciphertext, ...]:
        """The deck the next proposer shuffles: the last relayed shuffle's, or the deck."""
        return self.proposed[-1].deck if self.proposed else self.deck

    def propose(self, shuffle: Shuffle, on: bytes | None = None) -> "Future[bool] | None":
        """Take `shuffle`, relayed before its proof is checked, as the next one: the next
        seat may shuffle its deck at once; the proof's check starts now (in `checks`) and
        its verdict is read when the shuffle comes to `add_shuffle`.  `on`: the digest of
        the deck the shuffler shuffled (net/trust/shuffle_checks.py `deck_digest`); a
        shuffle of another deck (one withdrawn meanwhile) is `stale_shuffle`.  Nothing
        ever reads a card off a proposed deck: shares wait for every recorded shuffle.
        Returns the check (None when this ledger checks nothing)."""
        self._check_turn_and_size(shuffle, self.next_proposer)
        before = self.proposed_deck
        if on is not None and on != deck_digest(before):
            raise DeckStepError(
                "stale_shuffle", f"seat {shuffle.seat} shuffled a deck that is no longer the one to shuffle"
            )
        self.proposed.append(shuffle)
        if self.checking and self.checks is not None:
            return self.checks.start(self.game, self.joint, before, shuffle)
        return None

    def _check_turn_and_size(self, shuffle: Shuffle, next_seat: int | None) -> None:
        """A shuffle comes from the seat whose turn it is (`next_seat`) and holds the deck."""
        if next_seat != shuffle.seat:
            raise DeckStepError(
                "not_your_shuffle",
                f"seat {shuffle.seat} may not shuffle now"
                + ("" if next_seat is None else f" (seat {next_seat} shuffles next)"),
            )
        if len(shuffle.deck) != self.size:
            raise DeckStepError("bad_shuffle", f"a shuffle holds {self.size} cards, this one {len(shuffle.deck)}")

    def withdraw(self, seat: int) -> None:
        """Drop the relayed shuffles of `seat` and every seat after it (a proof failed, or
        the host that relayed them restarted)."""
        self.proposed = [s for s in self.proposed if s.seat < seat]

    def add_shuffle(self, shuffle: Shuffle) -> None:
        self._check_turn_and_size(shuffle, self.next_shuffler)
        before = self.deck
        if self.checking:
            # a check started when the shuffle was relayed ahead is waited for, not made again
            verdict = self.checks.verdict(self.game, self.joint, before, shuffle) if self.checks else None
            try:
                if verdict is None:
                    check_shuffle(self.game, self.joint, before, shuffle)
                elif not verdict:
                    raise DeckError(f"seat {shuffle.seat}'s shuffle carries a proof that does not verify")
            except DeckError as exc:
                raise DeckStepError("bad_shuffle", str(exc)) from None
        if self.proposed and self.proposed[0] == shuffle:
            self.proposed.pop(0)
        else:  # recorded otherwise than relayed: what was relayed after it shuffled another deck
            self.proposed.clear()
        self.shuffles.append(shuffle)
        self._decks.append(shuffle.deck)
        self.steps.append(shuffle)
        if self.shuffled and self.waiting:  # a new deck's round waited for its shuffles
            waiting, self.waiting = self.waiting, []
            for counts in waiting:
                self.deal(counts)

    # ------------------------------------------------------------------ deals

    def deal(self, counts: Sequence[int]) -> list[list[int]]:
        """Deal the next slots: `counts[s]` to seat s, seat 0 first (as the engine deals its
        stock); returns each seat's new slots.  With fresh hands each round (FA-2) a later
        round's deal first takes a new deck (`new_deck`) and waits for its shuffles: it is
        made (and returns the slots) only then, and returns [] now."""
        if self.fresh and len(self.deals) + len(self.waiting) > self.epoch:
            if self.shuffled:
                self.new_deck()
            if not self.shuffled:
                self.waiting.append(tuple(counts))
                return []
        if not self.shuffled:
            raise DeckStepError("not_shuffled", "the deck is not shuffled yet")
        if len(counts) != self.n or any(c < 0 for c in counts) or self.dealt + sum(counts) > self.size:
            raise DeckStepError("bad_deal", f"cannot deal {list(counts)} from {self.size - self.dealt} cards left")
        out: list[list[int]] = []
        for seat, count in enumerate(counts):
            slots = list(range(self.dealt, self.dealt + count))
            for slot in slots:
                self.owner[slot] = seat
            self.dealt += count
            out.append(slots)
        if self.mystery:  # then the mystery hand, as many as a seat (what the stock still holds)
            block = min(max(counts, default=0), self.size - self.dealt)
            for slot in range(self.dealt, self.dealt + block):
                self.owner[slot] = MYSTERY
            self.dealt += block
        self.steps.append(tuple(counts))
        self.deals.append(tuple(counts))
        return out

    def waiting_for(self) -> tuple[str, tuple[int, ...]] | None:
        """What the deck waits for now and from whom: ("key", seats) until every seat has
        published its deck key, ("shuffle", (seat,)) for the seat whose shuffle comes next,
        ("shares", seats) while a dealt slot lacks those seats' shares; None when it waits
        for nobody.  A seat that withholds its step is named by every party's own record."""
        missing = tuple(s for s in range(self.n) if self.keys[s] is None)
        if missing:
            return ("key", missing)
        if not self.shuffled:
            return ("shuffle", (len(self.shuffles),))
        owing = tuple(s for s in range(self.n) if self.owed(s))
        return ("shares", owing) if owing else None

    def slots_of(self, seat: int) -> list[int]:
        """Every slot dealt to `seat` and not played yet."""
        return [k for k in range(self.dealt) if self.owner[k] == seat and k not in self.opened]

    def owed(self, seat: int) -> list[int]:
        """The slots dealt to other seats for which `seat` has not published its share (of
        the mystery hand, only the slot being turned up)."""
        return [
            k
            for k in range(self.dealt)
            if self.owner[k] != seat and seat not in self.shares[k] and (self.owner[k] != MYSTERY or k == self.flipping)
        ]

    def readable(self, slot: int) -> bool:
        """Whether every seat but its owner (of a mystery slot: every seat) has published its share of `slot`."""
        return len(self.shares[slot]) >= (self.n if self.owner[slot] == MYSTERY else self.n - 1)

    # ------------------------------------------------------------------ the mystery hand

    def mystery_top(self) -> int | None:
        """The mystery hand's top card's slot (its first not turned up), None if it is empty."""
        return next((k for k in range(self.dealt) if self.owner[k] == MYSTERY and k not in self.opened), None)

    def start_flip(self) -> int:
        """The mystery hand's top card is to be turned up: its slot, whose shares every seat
        now owes (DeckStepError if there is none, or one is being turned up)."""
        if self.flipping is not None:
            raise DeckStepError("flipping", f"the mystery card in slot {self.flipping} is being turned up already")
        top = self.mystery_top()
        if top is None:
            raise DeckStepError("no_mystery_card", "the mystery hand holds no card")
        self.flipping = top
        self.steps.append(Flip(top))
        return top

    def mystery_card(self) -> int:
        """The card of the mystery slot being turned up, read with every seat's share
        (DeckStepError, nothing changed, if a share is missing or it is no card of the game)."""
        slot = self.flipping
        if slot is None:
            raise DeckStepError("not_flipped", "no mystery card is being turned up")
        if not self.readable(slot):
            raise DeckStepError("not_readable", f"the mystery card in slot {slot} still waits for shares")
        try:
            card = card_lookup(self.game, self.size).get(
                decrypt(self.deck[slot], [s.d for s in self.shares[slot].values()])
            )
        except GroupError:
            card = None
        if card is None:
            raise DeckStepError("no_card", f"slot {slot} opens to no card of the game: a shuffle was false")
        if card in self.cards_opened:
            raise DeckStepError("card_twice", f"card {card} is opened a second time: a shuffle was false")
        return card

    def commit_flip(self, card: int) -> None:
        """Record the mystery card `mystery_card` read: turned up, public."""
        assert self.flipping is not None
        self.opened[self.flipping] = card
        self.cards_opened.add(card)
        self.steps.append(Flip(self.flipping, card))
        self.flipping = None

    def add_shares(self, shares: Sequence[Share]) -> None:
        """Add several shares, all or none (DeckStepError names the first refused)."""
        seen: set[tuple[int, int]] = set()
        for share in shares:
            if (share.slot, share.seat) in seen:
                raise DeckStepError("bad_share", f"seat {share.seat}'s share of slot {share.slot} comes twice")
            seen.add((share.slot, share.seat))
            self._check_share(share)
        for share in shares:
            self.shares[share.slot][share.seat] = share
            self.steps.append(share)

    def add_share(self, share: Share) -> None:
        self._check_share(share)
        self.shares[share.slot][share.seat] = share
        self.steps.append(share)

    def _check_share(self, share: Share) -> None:
        slot, seat = share.slot, share.seat
        if not 0 <= slot < self.dealt:
            raise DeckStepError("bad_share", f"slot {slot} is not dealt")
        if not 0 <= seat < self.n or self.owner[slot] == seat:
            raise DeckStepError("bad_share", f"seat {seat} may not publish a share of slot {slot}: it is dealt to it")
        if self.owner[slot] == MYSTERY and slot != self.flipping:
            raise DeckStepError("not_flipped", f"slot {slot} is the mystery hand's, and nobody has turned it up")
        if seat in self.shares[slot]:
            raise DeckStepError("bad_share", f"seat {seat} has published its share of slot {slot} already")
        if self.checking:
            try:
                check_share(self.game, self.key(seat).h, self.deck[slot], share)
            except DeckError as exc:
                raise DeckStepError("bad_share", str(exc)) from None

    # ------------------------------------------------------------------ plays

    def slot_of_play(self, seat: int, share: Share) -> int:
        """The slot of a card `seat` plays (DeckStepError unless the share is its own, of a
        slot dealt to it and not played)."""
        slot = share.slot
        if share.seat != seat:
            raise DeckStepError("bad_opening", f"the opening is seat {share.seat}'s share, the card is seat {seat}'s")
        if not 0 <= slot < self.dealt or self.owner[slot] != seat:
            raise DeckStepError("not_your_card", f"slot {slot} was not dealt to seat {seat}")
        if slot in self.opened:
            raise DeckStepError("not_your_card", f"the card in slot {slot} is played already")
        return slot

    def open(self, seat: int, share: Share, card: int) -> int:
        """Open the card `seat` plays, its own share of its slot proving which it is; it must
        be `card` (the card its move names).  Returns the card (DeckStepError, nothing
        changed, if any check fails)."""
        self.check_open(seat, share, card)
        self.commit_open(seat, share, card)
        return card

    def check_open(self, seat: int, share: Share, card: int) -> int:
        """`open`'s checks alone, changing nothing: the slot the card comes from."""
        slot = self._proven_slot(seat, share)
        if self.checking:
            found = self._card_in(slot, share)
            if found is None:
                raise DeckStepError("no_card", f"slot {slot} opens to no card of the game: a shuffle was false")
            if found != card:
                raise DeckStepError("wrong_card", f"the move plays card {card}, slot {slot} holds card {found}")
            if found in self.cards_opened:
                raise DeckStepError("card_twice", f"card {found} is opened a second time: a shuffle was false")
        return slot

    def opened_card(self, seat: int, share: Share) -> int:
        """The card that `seat`'s own proven share of its slot opens (DeckStepError, nothing
        changed, unless the share is its own, of a readable slot dealt to it and not played,
        its proof verifies and the slot holds a card of the game)."""
        slot = self._proven_slot(seat, share)
        found = self._card_in(slot, share)
        if found is None:
            raise DeckStepError("no_card", f"slot {slot} opens to no card of the game: a shuffle was false")
        return found

    def _proven_slot(self, seat: int, share: Share) -> int:
        """The slot of `seat`'s card play that its own share names: dealt to it, not played,
        readable, and (when checking) the share's proof verified."""
        slot = self.slot_of_play(seat, share)
        if not self.readable(slot):
            raise DeckStepError("not_readable", f"slot {slot} still waits for other seats' shares")
        if self.checking:
            try:
                check_share(self.game, self.key(seat).h, self.deck[slot], share)
            except DeckError as exc:
                raise DeckStepError("bad_opening", str(exc)) from None
        return slot

    def commit_open(self, seat: int, share: Share, card: int) -> None:
        """Record a play that `check_open` passed."""
        self.opened[share.slot] = card
        self.cards_opened.add(card)
        self.steps.append(Play(share.slot, share, card))

    def _card_in(self, slot: int, own: Share) -> int | None:
        points = [s.d for s in self.shares[slot].values()] + [own.d]
        try:
            return card_lookup(self.game, self.size).get(decrypt(self.deck[slot], points))
        except GroupError:
            return None

    def play_slot(self, card: int) -> int | None:
        """The slot a played `card` came from (None if it was not played)."""
        for slot, c in self.opened.items():
            if c == card:
                return slot
        return None


class SeatDeck:
    """One seat's part: its secret deck key, and the cards it can read (its hand)."""

    def __init__(self, game: bytes, seat: int, size: int, secret: int | None = None) -> None:
        self.game = game
        self.seat = seat
        self.size = size
        if secret is None:
            self.secret, self.key = new_key(game, seat)
        else:
            self.secret = secret
            self.key = prove_key(game, seat, secret)  # a client restarting from disk
        self._read: dict[tuple[int, int], int] = {}  # (deck, slot) -> card, for the slots dealt to this seat

    def shuffle(self, ledger: DeckLedger, deck: Sequence[Ciphertext] | None = None) -> tuple[Shuffle, ShuffleSecret]:
        """This seat's shuffle of the deck as it stands (or of `deck`: a relayed shuffle's)."""
        return shuffle_deck(self.game, self.seat, ledger.joint, ledger.deck if deck is None else deck)

    def shares(self, ledger: DeckLedger) -> list[Share]:
        """This seat's proven shares of every slot dealt to another seat that still lacks one."""
        deck = ledger.deck
        return [make_share(self.game, self.seat, self.secret, k, deck[k]) for k in ledger.owed(self.seat)]

    def hand(self, ledger: DeckLedger) -> dict[int, int]:
        """slot -> card of every readable slot dealt to this seat and not played (DeckError
        if one decrypts to no card: then a shuffle or a share was false)."""
        lookup = card_lookup(self.game, self.size)
        out: dict[int, int] = {}
        for slot in ledger.slots_of(self.seat):
            place = (ledger.epoch, slot)
            if place not in self._read and ledger.readable(slot):
                ct = ledger.deck[slot]
                points = [s.d for s in ledger.shares[slot].values()] + [own_share(self.secret, ct)]
                card = lookup.get(decrypt(ct, points))
                if card is None:
                    raise DeckStepError("no_card", f"slot {slot}, dealt to seat {self.seat}, decrypts to no card")
                self._read[place] = card
            if place in self._read:
                out[slot] = self._read[place]
        return out

    def opening(self, ledger: DeckLedger, card: int) -> Share:
        """The proven share that opens `card` (one of this seat's cards) for everyone."""
        for slot, c in self.hand(ledger).items():
            if c == card:
                return make_share(self.game, self.seat, self.secret, slot, ledger.deck[slot])
        raise DeckStepError("not_your_card", f"card {card} is not in seat {self.seat}'s hand")


def audit_deal(ledger: DeckLedger, secrets: Sequence[int | None]) -> list[str]:
    """Every problem of a recorded deal (`ledger` built with `checking=False`), the first
    wrong step first, given the secret deck keys disclosed at the end (None: not disclosed).

    Each step's proof is checked in the order it was made; the keys say exactly what a
    failing step did (which card a shuffle dropped or duplicated, which card a slot really
    held)."""
    problems = _key_problems(ledger, secrets)
    if problems:
        return problems
    game, n, size = ledger.game, ledger.n, ledger.size
    total_secret = sum(s for s in secrets if s is not None)
    lookup = card_lookup(game, size)

    def plain(deck: Sequence[Ciphertext]) -> list[int | None]:
        return [lookup.get(decrypt(c, [mul(total_secret, c.c1)])) for c in deck]

    replay = DeckLedger(game, n, size, fresh=ledger.fresh, mystery=ledger.mystery)
    for step in ledger.steps:
        try:
            problem = _replay_step(replay, step, plain, secrets, size)
        except (DeckStepError, GroupError) as exc:
            problem = f"deck step {len(replay.steps) + 1}: {exc}"
        if problem is not None:
            return [problem]
    final = plain(replay.deck) if replay.shuffled else []
    if replay.shuffled and sorted(c for c in final if c is not None) != list(range(size)):
        problems.append("the shuffled deck is not the game's cards")
    return problems


def _key_problems(ledger: DeckLedger, secrets: Sequence[int | None]) -> list[str]:
    """Each seat's deck key: published, disclosed at the end, and the one published."""
    problems: list[str] = []
    for seat, (key, secret) in enumerate(zip(ledger.keys, secrets)):
        if key is None:
            problems.append(f"seat {seat} published no deck key")
        elif secret is None:
            problems.append(f"seat {seat} did not disclose its deck key")
        elif key_of(secret) != key.h:
            problems.append(f"seat {seat}'s disclosed deck key does not match the key it published")
    return problems


def _replay_step(
    replay: DeckLedger,
    step: Any,
    plain: Callable[[Sequence[Ciphertext]], list[int | None]],
    secrets: Sequence[int | None],
    size: int,
) -> str | None:
    """Replay one recorded deck step on `replay`, read with the disclosed keys (`plain`):
    what is wrong with it, or None.  Raises DeckStepError/GroupError for a step the ledger
    itself refuses."""
    if isinstance(step, DeckKey):
        replay.add_key(step)
    elif isinstance(step, NewDeck):  # the round's deck is done: every card was in it once
        if sorted(c for c in plain(replay.deck) if c is not None) != list(range(size)):
            return f"deck {replay.epoch + 1}'s shuffled deck is not the game's cards"
        replay.add_step(step)
    elif isinstance(step, Shuffle):
        before = replay.deck
        try:
            replay.add_shuffle(step)
        except DeckStepError:
            return _shuffle_fault(step, plain(before), plain(step.deck), size)
    elif isinstance(step, (tuple, Flip)):  # a mystery card turned up is read from its shares
        replay.add_step(step)
    elif isinstance(step, Share):
        if mul(secrets[step.seat] or 0, replay.deck[step.slot].c1) != step.d:
            return f"seat {step.seat}'s share of slot {step.slot} is wrong (not its key times the card)"
        replay.add_share(step)
    else:
        truth = plain([replay.deck[step.slot]])[0]
        if truth != step.card:
            return (
                f"seat {step.share.seat} played card {step.card} from slot {step.slot}, "
                f"which holds {'no card' if truth is None else f'card {truth}'}: a substituted card"
            )
        replay.open(step.share.seat, step.share, step.card)
    return None


def _shuffle_fault(shuffle: Shuffle, before: list[int | None], after: list[int | None], size: int) -> str:
    """What a shuffle whose proof fails did, read with the disclosed keys."""
    was, now = Counter(before), Counter(after)
    dropped = sorted(c for c in was if c is not None and now[c] < was[c])
    doubled = sorted(c for c in now if c is not None and now[c] > was[c])
    junk = now[None] - was[None]
    parts = []
    if doubled:
        parts.append("duplicates card" + ("s " if len(doubled) > 1 else " ") + ", ".join(map(str, doubled)))
    if dropped:
        parts.append("drops card" + ("s " if len(dropped) > 1 else " ") + ", ".join(map(str, dropped)))
    if junk > 0:
        parts.append(f"puts {junk} ciphertext{'s' if junk > 1 else ''} that are no card")
    what = " and ".join(parts) if parts else "holds the same cards, but its proof does not verify"
    return f"seat {shuffle.seat}'s shuffle {what}"
