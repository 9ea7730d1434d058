"""`--variant` and `--rule` for `play`, `host` and `arena`: the rules a table plays by.

`--variant` names a preset (`modernart.presets`: standard, zh_seed, fa_seed) and `--rule
NAME=VALUE` (repeatable) sets any single rule option on top of it, so that the sheets'
deviations combine, e.g. `--variant zh_seed --rule mystery_hand=hig`.
"""

from __future__ import annotations

import argparse
from typing import Any

from modernart.presets import PRESET_NAMES, PRESETS
from modernart.rules import OptionError, RuleOptions


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        choices=PRESET_NAMES,
        default="standard",
        help="the rules: standard, zh_seed (the Chinese rules sheet) or fa_seed (the Persian "
        "house rules); see docs/rules.md section 10 (default standard)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one rule option on top of the variant, e.g. mystery_hand=hig or rank_values=30,20,10,5 (repeatable)",
    )


def rule_value(text: str) -> bool | int | str:
    """A --rule value as an option value: true/false, a whole number, or the text itself.

    >>> rule_value("true"), rule_value("11"), rule_value("30,20,10")
    (True, 11, '30,20,10')
    """
    lowered = text.strip().lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def variant_options(variant: str, rules: list[str], more: dict[str, Any] | None = None) -> dict[str, Any]:
    """The options of `variant` with every `NAME=VALUE` of `rules` and then `more` on top,
    checked (ValueError naming what is wrong)."""
    options: dict[str, Any] = dict(PRESETS[variant])
    for item in rules:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--rule takes NAME=VALUE, not {item!r}")
        options[name.strip()] = rule_value(value)
    options.update(more or {})
    try:
        return RuleOptions.from_dict(options).changed()
    except (OptionError, TypeError) as exc:
        raise ValueError(str(exc)) from None


def options_from_args(args: argparse.Namespace, more: dict[str, Any] | None = None) -> dict[str, Any]:
    return variant_options(args.variant, args.rule, more)
