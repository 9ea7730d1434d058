"""A hidden-hands host whose machine lost power (docs/protocol.md "Journal and resume"): the
tail of its journal is cut, deck events included (keys, shuffles, shares, card plays with
their openings, disclosed deck keys), and it takes them back from its players' clients as
any host does, in `tail` frames within the host's limits; it checks every step again,
rebuilds its deck and blind engine, plays on to the end, and the audit passes.  Driven
directly, as clients would (tests/net/trust/test_hidden_drop.py has clients over sockets)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modernart.net.clocks import ClockSettings
from modernart.net.client.fair_duties import tail_chunks
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError, decode_host_inner, pack
from modernart.net.protocol.frames import MAX_TAIL_EVENT, decode_batch_event, decode_client_frame, tail_frame
from modernart.net.protocol.game_data import public_view
from modernart.net.trust.audit import audit_files
from modernart.net.trust.hidden_deck import SeatDeck, step_to_wire
from modernart.net.trust.identity import Keys

from tests.net_helpers import SessionDriver
from tests.net.trust.test_hidden_host import HiddenDriver, deck, keyed_and_shuffled
from tests.net.host.test_net_power_loss import power_loss


def people_hidden_table(tmp: Path, players: int) -> tuple[Table, list[Keys], list[SeatDeck], HiddenDriver]:
    """A started hidden-hands table whose seats are people (a recovering host waits for them)."""
    keys = [Keys.generate() for _ in range(players)]
    lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0))
    for i, k in enumerate(keys):
        lobby.sit(k.vk, f"P{i}")
        lobby.ready(k.vk, True)
    table = Table("t1", "test", Keys.generate(), journal_dir=str(tmp), lobby=lobby, fsync=False, hidden_hands=True)
    table.start(0.0)
    sess = table.game
    decks = [SeatDeck(sess.game_id, s, 70) for s in range(players)]
    driver = SessionDriver(sess, keys)
    keyed_and_shuffled(sess, keys, decks, driver)
    play = HiddenDriver(sess, keys, decks, driver)
    play.share()
    return table, keys, decks, play


def kinds(table: Table) -> list[str]:
    return [decode_host_inner(e.public)["k"] for e in table.game.log]


def snapshot(sess: Any) -> tuple[Any, ...]:
    return (
        public_view(sess.state) if sess.state is not None else None,
        [sorted(h) for h in sess.state.hands] if sess.state is not None else None,
        [step_to_wire(s) for s in sess.hidden.ledger.steps],
        sess.head,
    )


def give_back(resumed: Table, frames: list[dict[str, Any]]) -> int:
    """What a client does: its events in `tail` frames, each packed and read with the host's limits."""
    taken = 0
    for chunk in tail_chunks(frames):
        assert all(len(data) <= MAX_TAIL_EVENT for data in chunk)
        msg = decode_client_frame(pack({**tail_frame(chunk), "id": 1}))
        taken += resumed.game.adopt([decode_batch_event(data) for data in msg["evs"]])
    return taken


@pytest.mark.parametrize("players, cut_at", [(3, "dshuffle"), (5, "dshuffle"), (3, "dshares")])
def test_a_power_loss_that_took_deck_events_is_recovered_from_the_clients(
    tmp_path: Path, players: int, cut_at: str
) -> None:
    table, keys, decks, play = people_hidden_table(tmp_path, players)
    sess = table.game
    for _ in range(25):  # card plays with their openings, bids, the shares of any new deal
        play.step()
    before = snapshot(sess)
    held = [e.frame_for(None) for e in sess.log]  # what every client holds (a watcher's copy)
    kept = kinds(table).index(cut_at)  # the power loss takes everything from the first `cut_at` on
    sess.journal.close()
    power_loss(table.journal_path, kept)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    again = resumed.game
    assert again.recovering == set(range(players)) and again.seq == kept
    with pytest.raises(ProtocolError) as exc:  # nothing new is signed while it recovers
        deck(again, keys, 0, shares=[])
    assert exc.value.code == "recovering"
    taken = give_back(resumed, held[kept:])
    assert taken == len(held) - kept
    for seat in range(players):
        again.heard(seat, 0.0)
    assert again.recovering is None
    assert snapshot(again) == before  # the same deck, blind engine and chain as before the loss
    play.sess = play.driver.sess = again
    play.finish()
    assert again.disclosed and again.deck_disclosed
    record = resumed.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems


def test_a_tail_whose_shuffle_was_altered_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A client that gives back a shuffle event with another deck: the host's signature no
    longer covers it (`bad_tail`), and nothing is taken."""
    table, keys, decks, play = people_hidden_table(tmp_path, 3)
    sess = table.game
    held = [e.frame_for(None) for e in sess.log]
    kept = kinds(table).index("dshuffle")
    sess.journal.close()
    power_loss(table.journal_path, kept)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    forged = dict(held[kept])
    pub = decode_host_inner(forged["pub"])
    sh = pub["sh"]
    pub["sh"] = {**sh, "deck": sh["deck"][64:] + sh["deck"][:64]}
    forged["pub"] = pack(pub)
    with pytest.raises(ProtocolError) as exc:
        give_back(resumed, [forged, *held[kept + 1 :]])
    assert exc.value.code == "bad_tail"
    assert resumed.game.seq == kept and resumed.game.hidden.ledger.shuffles == []


def test_a_card_play_journaled_without_its_event_is_forgotten_at_resume(tmp_path: Path) -> None:
    """A host killed between journaling a card play and writing its event (kill -9, the
    same boot): the move was never announced and its opening is lost with the event, so the
    resumed host forgets the move (journal line included), but it still holds its `play`
    event, the play it committed to: the player opens that card again (no other), and the
    game ends and audits."""
    from modernart.moves import CARD_ACTIONS, Move

    from modernart.net.host.journal import read_journal, truncate_events

    table, keys, decks, play = people_hidden_table(tmp_path, 3)
    sess = table.game
    while True:
        play.step()
        last = sess.log[-1]
        if last.move is not None and Move.from_list(last.move).action in CARD_ACTIONS and not sess.state.is_over():
            break
    sess.journal.close()
    truncate_events(table.journal_path, sess.seq - 1)  # the event never reached the file
    moves = len(read_journal(table.journal_path).moves)
    resumed = Table.resume(table.journal_path, table.host, 0.0, fsync=False)
    again = resumed.game
    assert again.recovering is None and again.seq == sess.seq - 1
    assert len(read_journal(table.journal_path).moves) == moves - 1  # the play is gone from the journal too
    *before, (forgotten, _card) = sess.hidden.ledger.opened.items()  # slots in the order they were played
    assert list(again.hidden.ledger.opened.items()) == before
    assert again.hidden.pending is not None and again.hidden.pending.slot == forgotten
    play.sess = play.driver.sess = again
    play.finish()
    record = resumed.save_record()
    assert record is not None
    report = audit_files(record)
    assert report.ok, report.problems
