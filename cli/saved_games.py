"""The games saved on this machine: every journal a host wrote (`modernart play` and
`modernart host` journal each game in the user's games directory, `user_dirs.games_dir()`)
and every record a client kept, read into small summaries for `modernart resume` (the
unfinished ones this player can continue), `modernart play` (which offers to continue one)
and `modernart stats` (the finished ones).

A game is this player's when one of its seats is bound to the player's key (the record's
`meta.keys`); it can be continued here when its host key is this machine's host key too
(`meta.host_vk`: a journal is resumed only by the host that wrote it).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from modernart.cli.i18n import _, ngettext
from modernart.record import GameRecord, RecordError, load_record, parse_journal

if TYPE_CHECKING:
    from modernart.game import GameState

#: Journals bigger than this are not summarised (a whole game's journal is ~10 KiB)
MAX_JOURNAL_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class SavedGame:
    """One saved game, as the commands list it."""

    path: str  # the journal (`.jsonl`) or the record (`.json`)
    game_id: str  # hex, "" if the file does not say
    table_name: str
    players: tuple[str, ...]
    bots: tuple[str | None, ...]  # each seat's bot level, None for a person
    keys: tuple[str, ...]  # each seat's Ed25519 key, hex ("" if unknown)
    host_vk: str
    local: bool  # hosted by `modernart play` on this machine (not a LAN table)
    moves: int
    round: int  # 0-based round the game is in (or ended in)
    final_money: tuple[int, ...] | None  # None: unfinished
    winners: tuple[int, ...]
    options: dict
    modified: float  # the file's modification time (time.time())

    @property
    def finished(self) -> bool:
        return self.final_money is not None

    def seat_of(self, vk_hex: str) -> int | None:
        """The seat bound to key `vk_hex` (None: not a player of this game)."""
        return self.keys.index(vk_hex) if vk_hex in self.keys else None

    def describe(self, seat: int | None = None) -> str:
        """One line: the table, who plays, how far the game is, when it was last played."""
        who = _(", ").join(
            (_("you") if s == seat else name)
            + (" " + _("({level} bot)").format(level=self.bots[s]) if self.bots[s] else "")
            for s, name in enumerate(self.players)
        )
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.modified))
        if self.finished:
            where = _("finished")
        else:
            where = ngettext(
                "round {round} of 4, {moves} move", "round {round} of 4, {moves} moves", self.moves
            ).format(round=self.round + 1, moves=self.moves)
        return _("{table}: {players}; {progress}; last played {when}").format(
            table=self.table_name, players=who, progress=where, when=when
        )


def summarise(path: str) -> SavedGame | None:
    """The summary of the journal or record at `path` (None: not a readable game)."""
    try:
        if os.path.getsize(path) > MAX_JOURNAL_BYTES:
            return None
        text = Path(path).read_text(encoding="utf-8")
        record = parse_journal(text, allow_partial_tail=True) if path.endswith(".jsonl") else load_record(text)
        state = _replayed(path, record)
        modified = os.path.getmtime(path)
    except (OSError, UnicodeDecodeError, RecordError, ValueError):
        return None
    return _summary(path, record, state.round, modified)


def _replayed(path: str, record: GameRecord) -> GameState:
    """The game `record` holds as it stands.  The journal of a table that hides hands holds
    stand-ins for the cards in hands (net/trust/blind_game.py): it is replayed on them (the
    open engine would refuse its first card play); its record, once saved, is on the real deck."""
    meta = record.meta if isinstance(record.meta, dict) else {}
    if path.endswith(".jsonl") and meta.get("hidden_hands") is True:
        from modernart.net.trust.blind_game import replay_stand_ins
        from modernart.net.host.journal import read_events

        return replay_stand_ins(record, _mystery_cards(read_events(path)))
    return record.replay()


def _mystery_cards(entries: Iterable[list]) -> list[int]:
    """The mystery cards turned up at a hidden-hands table, in order, from its event log."""
    from modernart.net.protocol import decode_host_inner

    cards = []
    for entry in entries:
        try:
            public = decode_host_inner(entry[1])
        except (ValueError, TypeError, IndexError):
            break
        if isinstance(public, dict) and public.get("k") == "move" and public.get("by") == "flip":
            cards += [e["card"] for e in public.get("ev", []) if isinstance(e, dict) and e.get("k") == "mystery"]
    return cards


def _summary(path: str, record: GameRecord, round_no: int, modified: float) -> SavedGame:
    meta = record.meta if isinstance(record.meta, dict) else {}
    n = len(record.players)
    keys: list = meta["keys"] if isinstance(meta.get("keys"), list) and len(meta["keys"]) == n else [""] * n
    bots: list = meta["bots"] if isinstance(meta.get("bots"), list) and len(meta["bots"]) == n else [None] * n
    result = record.result if isinstance(record.result, dict) else None
    return SavedGame(
        path=path,
        game_id=str(meta.get("game_id", "")),
        table_name=str(meta.get("table_name", "table")),
        players=tuple(record.players),
        bots=tuple(b if isinstance(b, str) else None for b in bots),
        keys=tuple(k if isinstance(k, str) else "" for k in keys),
        host_vk=str(meta.get("host_vk", "")),
        local=bool(meta.get("local")),
        moves=len(record.moves),
        round=min(round_no, 3),
        final_money=tuple(result["final_money"]) if result else None,
        winners=tuple(result.get("winners", ())) if result else (),
        options=record.options.to_dict(),
        modified=modified,
    )


def game_files(directories: Iterable[str | os.PathLike]) -> Iterator[str]:
    """The journals and records in `directories` (not their transcripts or event logs)."""
    for directory in directories:
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for name in names:
            if name.endswith((".jsonl", ".json")):
                yield os.path.join(directory, name)


def saved_games(directories: Iterable[str | os.PathLike]) -> list[SavedGame]:
    """Every game saved in `directories`, newest first, each game once: a finished game's
    record is preferred to its journal (same game id), and a host's copy to a client's."""
    by_game: dict[str, SavedGame] = {}
    for path in game_files(directories):
        game = summarise(path)
        if game is None:
            continue
        key = game.game_id or path
        known = by_game.get(key)
        if known is None or (game.finished and not known.finished):
            by_game[key] = game
    return sorted(by_game.values(), key=lambda g: g.modified, reverse=True)


def unfinished_games(directories: Iterable[str | os.PathLike], player_vk: str, host_vk: str) -> list[SavedGame]:
    """The unfinished games of the player with key `player_vk` that the host with key
    `host_vk` (this machine's) can continue, newest first."""
    return [
        g
        for g in saved_games(directories)
        if not g.finished and g.path.endswith(".jsonl") and g.seat_of(player_vk) is not None and g.host_vk == host_vk
    ]
