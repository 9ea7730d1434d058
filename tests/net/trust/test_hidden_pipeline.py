"""The pipelined start of a hidden-hands table (net/host/shuffle_relay.py, net/trust/
shuffle_checks.py): each shuffle is relayed before its proof is checked, the next seat
shuffles it at once, the event log holds only checked shuffles, a proof that fails is
refused and withdrawn with everything built on it, and no share can come before every
shuffle is recorded."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from modernart.net.clocks import ClockSettings
from modernart.net.client.client import Client
from modernart.net.host.host import Host
from modernart.net.host.lobby import Lobby
from modernart.net.protocol import decode_host_inner
from modernart.net.trust.deck import Shuffle, make_share
from modernart.net.trust.identity import Keys
from modernart.net.trust.shuffle_checks import deck_digest

from tests.net_helpers import FAST, run, signed_deck_step
from tests.net.trust.test_hidden_host import deck, hidden_session, keyed, refused


def relay(sess: Any, keys: list[Keys], seat: int, shuffle: Shuffle, on: bytes | None = None) -> Any:
    msg: dict[str, Any] = {"shuffle": shuffle.to_wire()}
    if on is not None:
        msg["on"] = on
    return sess.propose_shuffle(keys[seat].vk, seat, signed_deck_step(sess, keys[seat], seat, **msg))


def test_the_next_seat_shuffles_a_relayed_deck_before_its_proof_is_recorded(tmp_path: Path) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed(sess, keys, decks, driver)
    ledger = sess.hidden.ledger
    first = decks[0].shuffle(ledger)[0]
    check0 = relay(sess, keys, 0, first, deck_digest(ledger.deck))
    assert ledger.shuffles == [] and ledger.next_proposer == 1
    # seat 1 shuffles seat 0's relayed deck at once; seat 0's proof is still being checked
    second = decks[1].shuffle(ledger, ledger.proposed_deck)[0]
    refused("not_your_seat", relay, sess, keys, 2, second)
    refused("not_your_shuffle", relay, sess, keys, 2, decks[2].shuffle(ledger, ledger.proposed_deck)[0])
    refused("stale_shuffle", relay, sess, keys, 1, second, deck_digest(ledger.deck))
    check1 = relay(sess, keys, 1, second, deck_digest(first.deck))
    assert check0.result(30) and check1.result(30)
    seq = sess.seq
    deck(sess, keys, 0, shuffle=first.to_wire())  # recorded with the verdict, not checked again
    deck(sess, keys, 1, shuffle=second.to_wire())
    assert sess.seq == seq + 2 and len(ledger.shuffles) == 2 and ledger.proposed == []
    assert len(ledger.checks) == 0  # each verdict used once
    third = decks[2].shuffle(ledger)[0]
    relay(sess, keys, 2, third)
    deck(sess, keys, 2, shuffle=third.to_wire())
    assert sess.state is not None and ledger.dealt == 30


def test_a_relayed_shuffle_whose_proof_fails_is_refused_and_withdrawn_with_what_came_after(tmp_path: Path) -> None:
    sess, keys, decks, driver = hidden_session(tmp_path)
    keyed(sess, keys, decks, driver)
    ledger = sess.hidden.ledger
    good = decks[0].shuffle(ledger)[0]
    bad = replace(good, deck=good.deck[1:] + good.deck[:1])  # a card moved: the proof fails
    check = relay(sess, keys, 0, bad)
    on_bad = decks[1].shuffle(ledger, ledger.proposed_deck)[0]
    relay(sess, keys, 1, on_bad)
    assert check.result(30) is False
    seq = sess.seq
    refused("bad_shuffle", deck, sess, keys, 0, shuffle=bad.to_wire())
    assert sess.seq == seq and ledger.shuffles == []  # nothing logged
    ledger.withdraw(0)  # what net/host/shuffle_relay.py does on the refusal
    assert ledger.proposed == [] and ledger.next_proposer == 0
    refused("not_your_shuffle", relay, sess, keys, 1, on_bad)
    # no share before every shuffle is recorded: there is no deal to share yet
    early = make_share(sess.game_id, 1, decks[1].secret, 0, ledger.proposed_deck[0])
    refused("bad_share", deck, sess, keys, 1, shares=[early.to_wire()])
    relay(sess, keys, 0, good)
    deck(sess, keys, 0, shuffle=good.to_wire())
    assert ledger.shuffles == [good]


def test_a_table_whose_seat_sends_a_false_shuffle_refuses_it_and_plays_on_with_a_true_one(tmp_path: Path) -> None:
    """Over real sockets: seat 1's client (modified, as an attacker's would be) sends a
    shuffle whose proof fails, once.  The host relays it, refuses it when its check fails,
    withdraws it (and seat 2's shuffle of it), and logs no event of it; the clients drop
    it; seat 1's next shuffle is true, and the deal comes and every hand is read."""

    async def main() -> None:
        host = Host(Keys.generate(), bot_pace=0.0)
        await host.start()
        lobby = Lobby(clocks=ClockSettings.from_dict(dict(FAST)))
        table = host.open_table(
            "pipe", journal_dir=str(tmp_path / "g"), lobby=lobby, autostart=True, fsync=False, hidden_hands=True
        )
        clients = [
            Client(str(host.target()), keys=Keys.generate(), state_dir=str(tmp_path / f"c{i}"), updates=False)
            for i in range(3)
        ]
        relayed: list[tuple[int, bool]] = []
        try:
            for i, c in enumerate(clients):
                await c.connect()
                await c.take_seat(f"P{i}")
            cheater = next(c for c in clients if c.state.seat == 1)
            fair = cheater.fair
            honest_send = fair._send_step
            cheated = []

            async def send(follower: Any, kind: str, value: Any, *args: Any, **part: Any) -> None:
                if kind == "shuffle" and not cheated:  # a false shuffle, signed by its seat all the same
                    value = replace(value, deck=value.deck[32:] + value.deck[:32])
                    part["shuffle"] = value.to_wire()
                    cheated.append(part)
                await honest_send(follower, kind, value, *args, **part)

            fair._send_step = send  # type: ignore[method-assign]
            watcher = clients[0]
            original = watcher.receiving._on_frame

            def spy(msg: dict[str, Any]) -> None:
                if msg["t"] == "dnext":
                    relayed.append((msg["seat"], msg["sh"] is not None))
                original(msg)

            watcher.receiving._on_frame = spy  # type: ignore[method-assign]
            for c in clients:
                await c.ready()
            for c in clients:
                await c.wait_until(lambda s, c=c: s.observation is not None and c.hand_ready, 60)
                assert len(c.state.observation.hand) == 10
            assert cheated and (1, False) in relayed  # relayed, then withdrawn
            game = table.game
            shuffles = [decode_host_inner(e.public) for e in game.log if decode_host_inner(e.public)["k"] == "dshuffle"]
            assert [p["seat"] for p in shuffles] == [0, 1, 2]
            assert cheated[0]["shuffle"]["deck"] != shuffles[1]["sh"]["deck"]
            assert any(code == "bad_shuffle" for code, _msg in cheater.state.errors)
        finally:
            for c in clients:
                await c.close()
            await host.close()

    run(main(), 120)
