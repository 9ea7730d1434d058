"""Rule options: one typed, immutable object with the project's settled defaults (docs/rules.md §12)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from .cards import DECK_TABLES, EDITIONS, STANDARD_DEALS, DeckTable


class OptionError(ValueError):
    """A rule option has a value the engine cannot play with."""


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
    """

    double_split: bool = False
    three_player_first_deal: int = 10
    open_pass_is_final: bool = False
    sealed_offender_fine: int = 0
    start_money: int = 100
    deck: str = "consensus"
    edition: str = "classic"

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

    @property
    def deck_table(self) -> DeckTable:
        return DECK_TABLES[self.deck]

    def deal_sizes(self, players: int) -> tuple[int, int, int, int]:
        """Cards dealt to each player at the start of each of the four rounds."""
        if players not in STANDARD_DEALS:
            raise OptionError(f"Modern Art is played by 3 to 5 players, not {players}")
        sizes = STANDARD_DEALS[players]
        if players == 3:
            sizes = (self.three_player_first_deal,) + sizes[1:]
        return sizes

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
