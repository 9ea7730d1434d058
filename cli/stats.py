"""Statistics of the finished games on this machine (`modernart stats`, and the line of the
game-over screen that says how a game compares): games played, won, the average final
money, by player count, by variant and by opponent (a bot level, or a person).

The games are the saved ones (cli/saved_games.py): the journals and records hosts wrote in
the games directory and the copies this player's clients kept; a game counts when one of
its seats is bound to the player's key, each game once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from modernart.rules import RuleOptions

from modernart.cli.i18n import _, ngettext
from modernart.cli.saved_games import SavedGame, saved_games
from modernart.net import user_dirs


@dataclass
class Tally:
    """Games played and won, and the final money of each, under one heading."""

    played: int = 0
    won: int = 0
    money: list[int] = field(default_factory=list)

    def add(self, money: int, won: bool) -> None:
        self.played += 1
        self.won += int(won)
        self.money.append(money)

    @property
    def average(self) -> float:
        return sum(self.money) / len(self.money) if self.money else 0.0


@dataclass
class Stats:
    """Every tally of one player's finished games."""

    total: Tally = field(default_factory=Tally)
    by_players: dict[int, Tally] = field(default_factory=dict)
    by_variant: dict[str, Tally] = field(default_factory=dict)
    by_opponent: dict[str, Tally] = field(default_factory=dict)


def game_dirs(config_dir: str | None = None, record_dir: str | None = None) -> list[Path]:
    """Where this player's finished games are: the games directory (or `record_dir`) and the
    client's own copies (`<config dir>/state/games`)."""
    dirs = [Path(record_dir) if record_dir else user_dirs.games_dir()]
    config = Path(config_dir) if config_dir else user_dirs.config_dir()
    return dirs + [config / "state" / "games"]


def variant_of(options: dict) -> str:
    """A variant's name as the lobby and `--variant` name it: its preset ("standard",
    "fa_seed"), else the rule options that differ from the standard game; the edition and
    the deck only where they are not the classic ones.

    >>> variant_of(RuleOptions().to_dict())
    'standard'
    >>> variant_of(RuleOptions(double_split=True, edition="cmon2017").to_dict())
    'double_split=True, edition cmon2017'
    """
    from modernart.presets import preset_of

    default = RuleOptions().to_dict()
    try:
        preset = preset_of(RuleOptions.from_dict(options))
    except (TypeError, ValueError):  # a record of options this version does not know
        preset = None
    parts = [preset] if preset else []
    if not preset:
        parts += [
            f"{name}={value}"
            for name, value in sorted(options.items())
            if name not in ("edition", "deck") and name in default and value != default[name]
        ]
    for name in ("edition", "deck"):
        if options.get(name, default[name]) != default[name]:
            parts.append(f"{name} {options[name]}")
    return ", ".join(parts) or "standard"


def opponents_of(game: SavedGame, seat: int) -> set[str]:
    """The kinds of opponent a game had: bot levels, and "person"."""
    return {game.bots[s] or "person" for s in range(len(game.players)) if s != seat}


def my_finished_games(games: Iterable[SavedGame], vk_hex: str) -> list[tuple[SavedGame, int]]:
    """(game, this player's seat) for the finished games this player sat in."""
    return [(g, seat) for g in games if g.finished and (seat := g.seat_of(vk_hex)) is not None]


def tally(mine: list[tuple[SavedGame, int]]) -> Stats:
    stats = Stats()
    for game, seat in mine:
        assert game.final_money is not None
        money, won = game.final_money[seat], seat in game.winners
        stats.total.add(money, won)
        stats.by_players.setdefault(len(game.players), Tally()).add(money, won)
        stats.by_variant.setdefault(variant_of(game.options), Tally()).add(money, won)
        for kind in sorted(opponents_of(game, seat)):
            stats.by_opponent.setdefault(kind, Tally()).add(money, won)
    return stats


def report(stats: Stats) -> list[str]:
    """The lines `modernart stats` prints."""
    if not stats.total.played:
        return [_("No finished game of yours yet.")]

    def row(heading: str, t: Tally) -> str:
        rate = 100.0 * t.won / t.played
        return f"  {heading:<34} {t.played:>6} {t.won:>5} {rate:>5.0f}% {t.average:>8.1f}"

    head = f"  {'':<34} {_('games'):>6} {_('won'):>5} {'':>6} {_('average money'):>8}"
    lines = [head, row(_("all games"), stats.total)]
    lines.append(_("By players:"))
    lines += [row(_("{count} players").format(count=n), t) for n, t in sorted(stats.by_players.items())]
    lines.append(_("By variant:"))
    lines += [row(v, t) for v, t in sorted(stats.by_variant.items())]
    lines.append(_("By opponent (games with at least one):"))
    lines += [
        row(_("a person") if k == "person" else _("{level} bot").format(level=k), t)
        for k, t in sorted(stats.by_opponent.items())
    ]
    return lines


def comparison(final_money: int, won: bool, players: int, earlier: Stats) -> str:
    """The game-over line: how this game compares with this player's earlier games."""
    t = earlier.by_players.get(players)
    if earlier.total.played == 0 or t is None:
        return _("Your first {count}-player game here: modernart stats will compare the next ones.").format(
            count=players
        )
    best = max(t.money)
    if final_money > best:
        how = _("your best of {count} {players}-player games").format(count=t.played + 1, players=players)
    elif final_money >= t.average:
        how = _("above your average of {average:.0f}").format(average=t.average)
    else:
        how = _("below your average of {average:.0f}").format(average=t.average)
    wins = ngettext("won {won} of {count} before", "won {won} of {count} before", t.played).format(
        won=t.won, count=t.played
    )
    return _("Final money {money}: {how} ({wins})").format(money=final_money, how=how, wins=wins)


def compare_with_earlier(
    final_money: int, won: bool, players: int, vk_hex: str, game_id: str, dirs: Iterable[str | os.PathLike]
) -> str:
    """`comparison` against every earlier finished game of this player in `dirs` (not this one)."""
    earlier = [(g, s) for g, s in my_finished_games(saved_games(dirs), vk_hex) if g.game_id != game_id]
    return comparison(final_money, won, players, tally(earlier))
