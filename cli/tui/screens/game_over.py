"""The final result: places, the bank's payouts per round, the final money, and where the
record of the game was saved."""

from __future__ import annotations

import asyncio
import os

from prompt_toolkit.layout import AnyContainer, HSplit

from modernart.cli.i18n import _
from modernart.cli.tui.keys import Command, Controls, Modes
from modernart.cli.tui.state import ClientState
from modernart.cli.tui.text import Line, fit, wrap
from modernart.cli.tui.widgets import Parts, boxed, title_bar, window


def comparison_text(cs: ClientState) -> str:
    """How this game compares with this player's earlier games on this machine (cli/stats.py),
    worked out once, in a worker thread (the saved games are read from disk), then shown; ""
    meanwhile, or for a player whose key is kept nowhere (no earlier games can be theirs)."""
    if cs.game_comparison is not None:
        return cs.game_comparison
    session, obs = cs.session, cs.obs
    if session is None or session.record_path is None:
        return ""  # once the record is saved (first things first: the record, then the figures)
    cs.game_comparison = ""
    client = getattr(session, "client", None)
    if client is None or obs is None or client.state_dir is None or not 0 <= obs.seat < len(obs.final_money):
        return ""  # not yet: the record can be saved before this seat's view of the end has come
    from modernart.net import user_dirs

    from modernart.cli.stats import compare_with_earlier

    dirs = [str(user_dirs.games_dir()), os.path.join(client.state_dir, "games")]
    game_id = client.state.game_id.hex() if client.state.game_id else ""
    money, won, players = obs.final_money[obs.seat], obs.seat in obs.winners, obs.players
    work = asyncio.get_running_loop().run_in_executor(
        None, compare_with_earlier, money, won, players, client.keys.vk.hex(), game_id, dirs
    )

    def done(future: asyncio.Future) -> None:
        cs.game_comparison = "" if future.cancelled() or future.exception() else future.result()
        changed = getattr(session, "changed", None)  # the listeners redraw (every session has them)
        if callable(changed):
            changed()

    work.add_done_callback(done)
    return ""


def toggle_coach(cs: ClientState) -> None:
    """v: show the coach's review of this seat (started the first time), or the result again."""
    if cs.coach_shown:
        cs.coach_shown = False
        return
    session, obs = cs.session, cs.obs
    path = session.record_path if session is not None else None
    if obs is None or obs.seat < 0:
        cs.error(_("The coach reviews a player's decisions: watchers have none"))
        return
    if not path:
        cs.error(_("The coach needs the record of the game, and the host keeps it on its machine"))
        return
    if cs.coach is None:
        from modernart.record import RecordError, read_record

        from modernart.cli.tui.coach_panel import CoachRun

        try:
            record = read_record(path)
        except RecordError as exc:
            cs.error(_("The coach cannot read the record: {error}").format(error=exc))
            return
        cs.coach = CoachRun(record, obs.seat)
        changed = getattr(session, "changed", None)  # the listeners redraw (every session has them)
        cs.coach.start(changed if callable(changed) else lambda: None)
    cs.coach_shown = True


def game_over_panel(cs: ClientState, width: int, height: int) -> list[Line]:
    obs = cs.obs
    if obs is None:
        return []
    if cs.coach_shown and cs.coach is not None:
        from modernart.cli.tui.coach_panel import coach_lines

        return [[line] for line in coach_lines(cs.coach, width, height)]
    money = obs.final_money or tuple(0 for _ in range(obs.players))
    winners = set(obs.winners)
    names = [cs.name(s) for s in sorted(winners)]
    both = _(" and ").join(names)
    headline = _("Winner: {players}") if len(names) == 1 else _("Co-winners: {players}")
    lines: list[Line] = [
        [("class:winner", " " + _("GAME OVER. {headline}").format(headline=headline.format(players=both)) + " ")]
    ]
    rounds_w = 6 * len(obs.results)
    # the round columns are the bank's payouts for paintings held; sales between players are
    # in the final money only: the headings say so
    lines.append([("class:dim", " " * 22 + fit(_("Bank paid for"), rounds_w, "center"))])
    header = (
        "   "
        + fit(_("Place"), 7)
        + fit(_("Player"), 12)
        + "".join(fit(f"R{r + 1}", 6, "right") for r in range(len(obs.results)))
        + fit(_("Final money"), 14, "right")
    )
    lines.append([("class:dim", header)])
    order = sorted(range(obs.players), key=lambda s: (-money[s], s))
    for place, s in enumerate(order, start=1):
        mark = "*" if s == obs.seat else " "
        rounds = "".join(fit(f"+{r.payouts[s]}", 6, "right") for r in obs.results)
        line: Line = [
            (
                "class:you" if s == obs.seat else "",
                f" {mark} {place:>3}.  " + fit(cs.name(s), 12) + rounds + fit(str(money[s]), 14, "right"),
            )
        ]
        if s in winners:
            line.append(("class:winner", " " + _("WINNER")))
        lines.append(line)
    note = [("class:dim", " " + _("Final money also counts every sale between players."))]
    lines.append(note)
    absent = cs.session.ended_without if cs.session is not None else None
    if absent is not None:  # docs/rules.md §12.9
        early = _("Ended early by the players' vote, without {player}: round {round} scored as it stood").format(
            player=cs.name(absent), round=len(obs.results)
        )
        lines.append([("class:title", " " + fit(early, max(10, width - 2)))])
    compared = comparison_text(cs)
    compared_line: Line = [("class:title", " " + fit(compared, max(10, width - 2)))]
    if compared:
        lines.append(compared_line)
    path = cs.session.record_path if cs.session is not None else None
    host_copy = getattr(cs.session, "host_record_path", None)
    text = (
        _("Record saved to {path}").format(path=path)
        if path
        else _("The host saves the record of this game on its machine.")
    )
    if host_copy:
        text = _("{record}; the host's copy: {path}").format(record=text, path=host_copy)
    for chunk in wrap(text, max(10, width - 2)):
        lines.append([("", " " + chunk)])
    if path and absent is not None:  # the transcript is the record: the absent seat's deck key never came
        lines.append([("class:dim", " " + _("modernart audit FILE checks it, the players' votes included"))])
    elif path:
        lines.append([("class:dim", " " + _("modernart replay FILE re-checks it and prints its result (JSON)"))])
    if len(lines) > height and compared:  # the comparison gives way first (modernart stats has it)
        lines.remove(compared_line)
    if len(lines) > height:  # five players and two copies of the record: the note gives way
        lines.remove(note)
    return lines


def container(cs: ClientState, parts: Parts) -> AnyContainer:
    return HSplit(
        [
            title_bar(cs, " " + _("MODERN ART - game over")),
            window(boxed(cs, _("Final result"), game_over_panel), height=14),
            parts.log,
            *parts.footer,
        ]
    )


def commands(cs: ClientState, controls: Controls, modes: Modes) -> list[Command]:
    over = modes.free("over")

    return [
        Command(("pageup",), "PgUp", _("log"), over, lambda e: cs.scroll_log(1)),
        Command(("pagedown",), "", "", over, lambda e: cs.scroll_log(-1)),
        Command(
            ("s",),
            "s",
            _("scoring"),
            over,
            lambda e: cs.show_last_scoring(),
            lambda: bool(cs.obs and cs.obs.results),
            40,
        ),
        Command(
            ("v",),
            "v",
            _("coach"),
            over,
            lambda e: toggle_coach(cs),
            lambda: bool(cs.session is not None and cs.session.record_path and cs.obs and cs.obs.seat >= 0),
            35,
        ),
        Command(("q", "c-c"), "q", _("quit"), over, lambda e: controls.exit(), modes.always, 80),
    ]
