"""A hidden-hands table of seated people (and bots) driven directly, stalled at an absent
seat's card, and its players' votes (net/trust/votes.py): shared by the vote tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modernart.phase import Phase

from modernart.net.clocks import ClockSettings
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.group import scalar_bytes
from modernart.net.trust.hidden_deck import SeatDeck
from modernart.net.trust.identity import Keys
from modernart.net.trust.verified_game import VerifiedGame
from modernart.net.trust.votes import sign_vote

from tests.net_helpers import SessionDriver
from tests.net.trust.test_hidden_host import HiddenDriver, deck, keyed_and_shuffled

CLOCKS = ClockSettings(open_countdown=0, decision=0, reveal=0, deck_step=30)
NAMES = ("Ana", "Bea", "Cem", "Dov", "Eli")


@dataclass
class VotingTable:
    table: Any
    sess: Any
    keys: list[Keys]
    decks: list[SeatDeck]
    play: HiddenDriver
    now: float = 1000.0

    def tick(self, seconds: float) -> list[dict[str, Any]]:
        """The host's clock moves on: the public parts of the events its deadlines made."""
        self.now += seconds
        return [decode_host_inner(e.public) for e in self.sess.apply_defaults(self.now)]

    def follower(self, seat: int | None = None) -> VerifiedGame:
        """An honest client's checked copy of the game so far (seat `seat`'s, or a watcher's)."""
        game = VerifiedGame(self.sess.game_id, self.sess.host.vk)
        for event in self.sess.log:
            game.apply(event.frame_for(seat), seat)
        return game

    def ballot(self, voter: int, absent: int, choice: str, keys: Keys | None = None) -> list[bytes]:
        """Seat `voter`'s signed vote as its client makes it: on the wait it has seen, at the head it holds."""
        seen = self.follower(voter)
        return sign_vote(
            keys or self.keys[voter],
            self.sess.game_id,
            voter,
            absent,
            choice,
            seen.late_at[absent],
            seen.seq,
            seen.head,
        )

    def vote(self, voter: int, absent: int, choice: str) -> list[dict[str, Any]]:
        events = self.sess.submit_vote(self.keys[voter].vk, voter, self.ballot(voter, absent, choice), self.now)
        return [decode_host_inner(e.public) for e in events]

    def disclose(self, seats: list[int]) -> None:
        for s in seats:
            deck(self.sess, self.keys, s, secret=scalar_bytes(self.decks[s].secret))


def voting_table(
    tmp: Path, bots: tuple[int, ...] = (), players: int = 3, moves: int = 10, keys: list[Keys] | None = None
) -> VotingTable:
    """A hidden-hands table of `players` seats (their keys `keys`), people but for the seats
    `bots`, played `moves` moves or more on to a card turn of a person's seat."""
    keys = keys or [Keys.generate() for _ in range(players)]
    lobby = Lobby(clocks=CLOCKS)
    for s, k in enumerate(keys):
        if s in bots:
            _seat, token = lobby.add_bot(None, "random", s)
            lobby.claim_bot(token, k.vk)
        else:
            lobby.sit(k.vk, NAMES[s], s)
            lobby.ready(k.vk, True)
    tmp.mkdir(parents=True, exist_ok=True)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    decks = [SeatDeck(sess.game_id, s, 70) for s in range(players)]
    driver = SessionDriver(sess, keys)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    while not (
        sess.state.move_count >= moves
        and sess.state.phase == Phase.PLAY_CARD
        and sess.hidden.pending is None
        and sess.state.auctioneer not in bots
    ):
        play.step()
    return VotingTable(table, sess, keys, decks, play)


def stalled(tmp: Path, **kwargs: Any) -> tuple[VotingTable, int]:
    """`voting_table`, its auctioneer gone: named late for its card once the deadline passes."""
    t = voting_table(tmp, **kwargs)
    absent = t.sess.state.auctioneer
    assert t.tick(0) == []  # the wait for its card starts
    late = t.tick(30)
    assert [(p["k"], p["seat"], p["step"]) for p in late] == [("dlate", absent, "card")]
    return t, absent


def forge_decision(t: VotingTable, absent: int, choice: str, votes: list[list[bytes]], late: int | None = None) -> None:
    """What a host running changed code does: publish, signed and chained like any event, a
    decision on seat `absent` carrying `votes` (whatever it holds or makes), and act on it
    (an `end`: its engine ends the game, scored as it stands, and it discloses)."""
    sess = t.sess
    fields = {"seat": absent, "choice": choice, "late": late or sess.late_since[absent], "votes": votes}
    if choice == "wait":
        sess._emit("decide", t.now, fields)
        return
    sess.state.end_early()
    sess.ended_without = absent
    sess.hidden.pending = None
    sess._emit("decide", t.now, fields)
    sess._emit("disclose", t.now, {**sess.seeding.disclosure(), "salt_keys": list(sess.salt_keys)})
    sess.disclosed = True
