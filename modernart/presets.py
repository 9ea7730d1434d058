"""Named presets: the rule sheets' games as sets of rule options (docs/rules.md "Variants").

A preset is nothing but its options: `preset_options(name)` is an ordinary `RuleOptions`,
every deviation in it is an option of its own, and a game started with the options
spelled out one by one is the same game (tests/engine/test_rules_variants.py checks it).

>>> preset_options("zh_seed").changed()
{'double_split': True, 'three_player_first_deal': 11, 'open_autoclose': False}
>>> preset_of(preset_options("fa_seed"))
'fa_seed'
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from .rules import OptionError, RuleOptions

#: The options each preset changes from the defaults.
PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "standard": {},
    # the Chinese sheet (docs/rules.md §10.1): ZH-1 eleven cards for three, ZH-2 the split Double,
    # and its literal Open auction, closed by the auctioneer only.  ZH-3, a random start
    # player, is how every game starts (the first auctioneer is drawn with the deal).
    "zh_seed": {"three_player_first_deal": 11, "double_split": True, "open_autoclose": False},
    # the Persian sheet (docs/rules.md §10.2) with the readings proposed there
    "fa_seed": {
        "deal_size_fixed": 9,  # FA-1
        "fresh_deal_each_round": True,  # FA-2
        "pay_bank_always": True,  # FA-4
        "unsold_discarded": True,  # FA-5
        "fifth_ends_round": False,  # FA-6
        "last_card_auctioned": True,  # FA-6: values follow the cards sold
        "cumulative_values": False,  # FA-8
        "sealed_excludes_seller": True,  # FA-10
        "sealed_tie_seller_chooses": True,  # FA-10
        "fixed_forced_buy": False,  # FA-11
        "once_around_posted": True,  # FA-12
        "double_as_open": True,  # FA-14
        "price_up_to_richest": True,  # FA-11, FA-12: the seller never pays: any price another can pay
    },
}
PRESET_NAMES: Final = tuple(PRESETS)


def preset_options(name: str, **more: Any) -> RuleOptions:
    """The options of preset `name`, with `more` options on top of them."""
    if name not in PRESETS:
        raise OptionError(f"unknown variant {name!r}; choose from {', '.join(PRESET_NAMES)}")
    return RuleOptions.from_dict({**PRESETS[name], **more})


def preset_of(options: RuleOptions) -> str | None:
    """The preset whose options these are exactly (edition and deck aside), or None."""
    changed = {k: v for k, v in options.changed().items() if k not in ("edition", "deck")}
    for name, values in PRESETS.items():
        if changed == dict(values):
            return name
    return None
