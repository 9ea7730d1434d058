"""Rule options: one typed, immutable object with the project's settled defaults (docs/rules.md §12)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any, Mapping

from .cards import DECK_TABLES, EDITIONS, STANDARD_DEALS, DeckTable


MAX_DEAL_SIZE = 14  # five hands of 14 are the whole deck
MYSTERY_HANDS = ("", "hig", "cmon")


class OptionError(ValueError):
    """A rule option has a value the engine cannot play with."""


def parse_rank_values(text: str) -> tuple[int, ...]:
    """The tiles of ranks 1.. from 'a,b,c': one to five non-increasing values 0..1000.

    >>> parse_rank_values("30,20,10,5")
    (30, 20, 10, 5)
    """
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise OptionError(f"option rank_values must be numbers separated by commas, got {text!r}") from None
    if not 1 <= len(values) <= 5 or any(not 0 <= v <= 1000 for v in values):
        raise OptionError("option rank_values must hold 1 to 5 values of 0..1000")
    if list(values) != sorted(values, reverse=True):
        raise OptionError("option rank_values must not increase from rank to rank")
    return values


@dataclass(frozen=True)
class RuleOptions:
    """How a game is played.  Every field has the default of docs/rules.md §12.

    double_split:            §12.1 / §5.6. When another player adds the second card to a
                             Double, split the price (new auctioneer ceil, original floor)
                             instead of paying it all to the new auctioneer.
    three_player_first_deal: §12.7. Round-1 hand size with three players (10, or 11 as on
                             the Chinese rules sheet).
    open_pass_is_final:      §10.3. In an Open auction a pass takes the player out of the
                             auction for good (brdgme) instead of being non-binding.
    sealed_offender_fine:    Money a player pays to the bank when their sealed bid is
                             forfeited (a missing, mismatching or over-budget reveal; see
                             docs/fair-play.md).  Capped at the player's money.
    start_money:             §2. Each player's money at the start.
    deck:                    §1.2 / §12.2. Name of the per-type card table.
    edition:                 Artist names shown to players; no effect on play.

    The deviations of the two rule sheets (docs/rules.md "Variants"), each its own option
    so that they combine; `presets.py` names the sheets' sets of them:

    open_autoclose:          §12.5. An Open auction closes by itself once everyone has
                             passed; off, only the auctioneer's hammer closes it (the
                             Chinese sheet's "going once, going twice, sold").
    deal_size_fixed:         FA-1. Cards each player gets at the first deal (and at every
                             fresh deal), whatever the player count; 0 keeps the table.
    fresh_deal_each_round:   FA-2. At a round's end every hand is discarded, all cards are
                             gathered and reshuffled, and each player gets a fresh hand of
                             the first deal's size.
    pay_bank_always:         FA-4. Every price is paid to the bank, never to the seller.
    unsold_discarded:        FA-5. A painting nobody buys is discarded and does not count
                             for its artist (instead of going free to the auctioneer; a
                             Fixed price sale still forces the auctioneer to buy unless
                             `fixed_forced_buy` is off).
    fifth_ends_round:        §6.1 / FA-6. The fifth painting of an artist ends the round;
                             off, only empty hands end it.
    last_card_auctioned:     §6.2 / FA-6. The final card of a round that ends with every
                             hand empty is auctioned like any other (and counts only if
                             sold) instead of ending the round unsold.
    rank_values:             FA-7. Value tiles for ranks 1, 2, 3 (and 4, 5), comma separated.
    cumulative_values:       §6.3 / FA-8. An artist's value adds its tiles of earlier
                             rounds; off, only this round's tile counts.
    sealed_excludes_seller:  FA-10. The seller makes no bid in a Sealed auction.
    sealed_tie_seller_chooses: FA-10. Tied high Sealed bids: the seller chooses the buyer
                             among them (instead of the auctioneer / nearest-left rule).
    fixed_forced_buy:        §5.4 / FA-11. Nobody takes a Fixed price: the auctioneer must
                             buy it; off, the painting goes unsold.
    once_around_posted:      FA-12. A printed Once-around card is sold by posted price:
                             the seller names a price, every other player says whether
                             they take it, and the seller chooses among several takers.
    double_as_open:          FA-14. A Double card is auctioned alone, as an Open painting.
    price_up_to_richest:     FA-11, FA-12. A price the seller never pays (a posted price; a Fixed
                             price when `fixed_forced_buy` is off) may be named from 1 up
                             to the money of the richest other player, instead of up to
                             the seller's own money.
    seller_chooses_auction:  FA-15. After putting up a card the seller announces one of
                             the four auctions (Open, Once-around, Sealed, Fixed price),
                             whatever the card's symbol; a Double card is then sold alone
                             in the announced auction.
    mystery_hand:            §10.3. Three players only: a fourth hand is dealt face down and
                             its cards may be flipped to count for their artist: "hig" (the
                             buyer of each auction decides) or "cmon" (the auctioneer
                             decides); "" plays without it.
    """

    double_split: bool = False
    three_player_first_deal: int = 10
    open_pass_is_final: bool = False
    sealed_offender_fine: int = 0
    start_money: int = 100
    deck: str = "consensus"
    edition: str = "classic"
    open_autoclose: bool = True
    deal_size_fixed: int = 0
    fresh_deal_each_round: bool = False
    pay_bank_always: bool = False
    unsold_discarded: bool = False
    fifth_ends_round: bool = True
    last_card_auctioned: bool = False
    rank_values: str = "30,20,10"
    cumulative_values: bool = True
    sealed_excludes_seller: bool = False
    sealed_tie_seller_chooses: bool = False
    fixed_forced_buy: bool = True
    once_around_posted: bool = False
    double_as_open: bool = False
    price_up_to_richest: bool = False
    seller_chooses_auction: bool = False
    mystery_hand: str = ""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            expected = bool if f.type in ("bool", bool) else int if f.type in ("int", int) else str
            if type(value) is not expected:
                raise OptionError(f"option {f.name} must be {expected.__name__}, got {value!r}")
        if self.three_player_first_deal not in (10, 11):
            raise OptionError("option three_player_first_deal must be 10 or 11")
        if not 0 <= self.sealed_offender_fine <= 1000:
            raise OptionError("option sealed_offender_fine must be 0..1000")
        if not 1 <= self.start_money <= 10_000:
            raise OptionError("option start_money must be 1..10000")
        if self.deck not in DECK_TABLES:
            raise OptionError(f"option deck must be one of {sorted(DECK_TABLES)}")
        if self.edition not in EDITIONS:
            raise OptionError(f"option edition must be one of {sorted(EDITIONS)}")
        if not 0 <= self.deal_size_fixed <= MAX_DEAL_SIZE:
            raise OptionError(f"option deal_size_fixed must be 0 (the deal table) or 1..{MAX_DEAL_SIZE}")
        if self.mystery_hand not in MYSTERY_HANDS:
            raise OptionError("option mystery_hand must be '' (none), 'hig' or 'cmon'")
        parse_rank_values(self.rank_values)

    @cached_property
    def rank_value_tuple(self) -> tuple[int, ...]:
        """`rank_values` as numbers, rank 1 first (parsed once per options object: every game
        started with them reads it)."""
        return parse_rank_values(self.rank_values)

    @property
    def deck_table(self) -> DeckTable:
        return DECK_TABLES[self.deck]

    def deal_sizes(self, players: int) -> tuple[int, int, int, int]:
        """Cards dealt to each player at the start of each of the four rounds: the table of
        §2.1 (three players' first deal as `three_player_first_deal`), the first deal as
        `deal_size_fixed` if set, and the first deal's size every round when every round is
        dealt afresh (`fresh_deal_each_round`)."""
        if players not in STANDARD_DEALS:
            raise OptionError(f"Modern Art is played by 3 to 5 players, not {players}")
        sizes = STANDARD_DEALS[players]
        if players == 3:
            sizes = (self.three_player_first_deal,) + sizes[1:]
        if self.deal_size_fixed:
            sizes = (self.deal_size_fixed,) + sizes[1:]
        if self.fresh_deal_each_round:
            sizes = (sizes[0],) * 4
        return sizes

    def hands_dealt(self, players: int) -> int:
        """Hands dealt at each deal: one per player, and the mystery hand with them (dealt
        as a fourth player's hand: the sizes are `deal_sizes(hands_dealt(players))`)."""
        return players + 1 if self.mystery_hand else players

    @cached_property
    def hand_sizes_by_players(self) -> dict[int, tuple[int, int, int, int]]:
        """For every player count these options can be played by, the cards dealt to each
        hand at the start of each round (`deal_sizes(hands_dealt(players))`).  Worked out
        once per options object: every game started with them reads it.  Read it, never
        change it."""
        sizes: dict[int, tuple[int, int, int, int]] = {}
        for players in STANDARD_DEALS:
            try:
                self._check(players)
            except OptionError:
                continue
            sizes[players] = self.deal_sizes(self.hands_dealt(players))
        return sizes

    def check_players(self, players: int) -> None:
        """OptionError unless these options can be played by `players` seats."""
        if players not in self.hand_sizes_by_players:
            self._check(players)

    def _check(self, players: int) -> None:
        if self.mystery_hand and players != 3:
            raise OptionError(f"the mystery hand is a three-player rule, not for {players} players")
        hands = self.hands_dealt(players)
        first = self.deal_sizes(hands)[0]
        if first * hands > self.deck_table.size:
            raise OptionError(f"{hands} hands of {first} cards need more than the deck's {self.deck_table.size} cards")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RuleOptions":
        """Build options from a mapping; unknown keys are an error, missing keys take defaults."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise OptionError(f"unknown rule option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**dict(data))

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        default = RuleOptions()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


DEFAULT_OPTIONS = RuleOptions()
