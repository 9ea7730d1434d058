"""One arena game, as a worker process plays it: the bot specifications ("hard:budget=0.1"),
the bots they build, each game's seed, and the game itself.

Apart from cmd_arena.py so that the runs of arena_runs.py (its worker processes) and the
command use it without importing each other.
"""

from __future__ import annotations

from typing import Any, Sequence

#: the hard bots' search settings of a run (`HardBot`'s keyword options)
HardOptions = dict[str, Any]


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """'hard:budget=0.1:rivals=off' -> ('hard', {'budget': 0.1, 'rivals': False})."""
    from modernart.bots import arena_levels

    level, *parts = text.strip().split(":")
    if level not in arena_levels():
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(arena_levels())}")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"bot option {part!r} in {text!r} is not KEY=VALUE")
        options[key] = _option_value(raw)
    return level, options


def _option_value(raw: str) -> Any:
    words = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}
    if raw.lower() in words:
        return words[raw.lower()]
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def build_bot(spec: str, seed: int, hard: HardOptions, seating: Sequence[str] = ()) -> Any:
    """The bot a spec names; hard bots get the run's search settings unless the spec sets
    them, and the seats of the seating that search (the other hard bots: a table's lobby
    shows them too)."""
    from modernart.bots import make_bot

    level, options = parse_spec(spec)
    if level == "hard":
        merged = {**hard, **options}
        if "budget" in options and "max_passes" not in options:
            merged["max_passes"] = None  # a budget in the spec means the clock decides
        searching = [s for s, other in enumerate(seating) if parse_spec(other)[0] == "hard"]
        options = {"searching": searching, **merged}
    return make_bot(level, seed=seed, **options)


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & ((1 << 62) - 1)


#: (seed, game index, seating, hard bots' settings, rule options as RuleOptions.changed())
Task = tuple[int, int, tuple[str, ...], HardOptions, dict[str, Any]]


def play_one(task: Task) -> dict[str, Any]:
    """Worker: play game `index` of the run with the given seating and rule options."""
    from modernart.bots.arena import play_game
    from modernart.rules import RuleOptions

    seed, index, seating, hard, rules = task
    gseed = game_seed(seed, index)
    bots = [build_bot(spec, gseed * 8 + seat, hard, seating) for seat, spec in enumerate(seating)]
    outcome = play_game(bots, seed=gseed, names=seating, options=RuleOptions.from_dict(rules))
    return {
        "seating": seating,
        "money": outcome.money,
        "winners": outcome.winners,
        "times": outcome.times,
        "moves": outcome.moves,
        "cpu": outcome.cpu,
    }
