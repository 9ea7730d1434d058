"""Attacks on a hidden-hands table (docs/fair-play.md "The hidden deck", "What the host cannot
do"): a host running changed code (tests/hostile_hidden.py `HostileHost`: it rewrites, drops,
refuses, injects and re-signs) and malicious seats, against honest clients over real
sockets on 127.0.0.1.  In each, the honest clients (or the audit) catch the culprit and
name it, and the honest players lose nothing they were promised: no card of a hand
reaches the host before it is played.

Each docstring says what the same attack did on the base commit a2b2fc2, run there once
(this file and tests/hostile_hidden.py copied into a worktree of a2b2fc2 with this
commit's tests/net_helpers.py): every attack on the hidden deck failed there, the attack
succeeding as its docstring says; the last test, a stacked deck at a table whose host sees
the hands, passed there too (the promise had no test of its own; its check is older).
"""

from __future__ import annotations

import asyncio
import secrets
import subprocess
from pathlib import Path
from typing import Any

import pytest

from modernart.moves import Move
from modernart.net.protocol.signed import decode_action_body
from modernart.net.trust.deck import prove_key, shuffle_deck
from modernart.net.trust.group import L

from tests.hostile_hidden import HostileHost, close_clients, evidence_audited, honest_clients, untrusted
from tests.net_helpers import PY, ROOT, env, run, until

pytestmark = pytest.mark.timeout(150)


def _sign_step(*args: Any) -> list[bytes] | None:
    """A signed deck step (net/trust/deck_steps.py), or None where the code has none (a2b2fc2)."""
    try:
        from modernart.net.trust.deck_steps import sign_step
    except ImportError:
        return None
    return sign_step(*args)


async def dealt(clients: list[Any], timeout: float = 60.0) -> None:
    """Wait until every client reads its whole first hand."""
    for c in clients:
        await c.wait_until(
            lambda s, c=c: s.observation is not None and c.hand_ready and len(s.observation.hand) > 0, timeout
        )


def is_card_play(msg: dict[str, Any]) -> bool:
    return decode_action_body(msg["b"])["move"][1] in (0, 1)


def event_of(hostile: HostileHost, kind: str, seat: int | None = None) -> int:
    """The number of the first event of `kind` (of `seat`) in the host's log."""
    from modernart.net.protocol import decode_host_inner

    for event in hostile.game.log:
        pub = decode_host_inner(event.public)
        if pub["k"] == kind and (seat is None or pub.get("seat") == seat):
            return int(event.seq)
    raise AssertionError(f"no {kind} event")


def replace_shuffles(hostile: HostileHost, keys: dict[int, Any] | None = None) -> dict[tuple[int, int], Any]:
    """The host puts its own shuffle (a true one, with a proof that verifies: it needs no
    secret of the seat) in place of every seat's, relayed and recorded, and keeps what it
    made: with every shuffle its own it knows where every card is.  With `keys` (the
    seats' signing keys, as a host holds them for the bots it runs) it signs each in the
    seat's name."""
    made: dict[tuple[int, int], Any] = {}

    def swap(seat: int | None, kind: str, msg: dict[str, Any]) -> dict[str, Any]:
        if kind != "deck" or "shuffle" not in msg or seat is None:
            return msg
        sess = hostile.game
        ledger = sess.hidden.ledger
        if (seat, ledger.epoch) not in made:
            made[(seat, ledger.epoch)] = shuffle_deck(ledger.game, seat, ledger.joint, ledger.proposed_deck)[0]
        own = made[(seat, ledger.epoch)]
        out = {k: v for k, v in msg.items() if k != "on"}
        out["shuffle"] = own.to_wire()
        if keys is not None:
            signed = _sign_step(keys[seat], sess.game_id, seat, "shuffle", ledger.epoch, sess.seq, sess.head, own)
            if signed is not None:
                out["signed"] = signed
        return out

    hostile.skip_step_checks()
    hostile.on_frame = swap
    return made


def test_a_host_that_puts_its_own_shuffles_in_every_seats_place_is_caught_by_every_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24's first attack: the host replaces every seat's shuffle with its own and would
    know all 70 slots.  Seat 0's own client finds its recorded shuffle differs from the one
    it sent; seats 1 and 2 find seat 0's signature names another value.  Every client stops
    at that event; nobody sends a share, so the host reads no card.
    On a2b2fc2: every client accepted the host's shuffles (a shuffle's proof needs no
    secret of the seat, and steps were not signed), the deal was read and shared: the
    host could read every card (the test failed: no client stopped trusting the host)."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            made = replace_shuffles(hostile)
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            said = await untrusted(clients)
            seq = event_of(hostile, "dshuffle", 0)
            assert (0, 0) in made
            assert f"event {seq}" in said[0] and "seat 0" in said[0] and "differs from the one it sent" in said[0]
            for message in said[1:]:
                assert (
                    f"event {seq}" in message and "seat 0's shuffle step" in message and "deck_wrong_value" in message
                )
            assert hostile.frames_of("deck", "shares") == [] and hostile.learned() == {}
            # each kept the evidence; the audit of it names the event and the seat, as anyone can check
            for problems in await evidence_audited(clients):
                assert problems and problems[0].startswith(f"event {seq}: seat 0's shuffle step"), problems
            done = subprocess.run(
                [PY, "-m", "modernart", "audit", clients[1].state.saved_evidence],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=env(),
                timeout=60,
            )
            assert done.returncode == 1 and f"FAILED: event {seq}: seat 0's shuffle step" in done.stdout, done
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_host_that_signs_its_own_shuffles_with_the_seats_keys_is_caught_by_each_seats_own_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same host holding every seat's signing key (as it does for the bots it runs): its
    shuffles now carry valid signatures in each seat's name, so only the seat itself can
    tell.  Each seat's own client compares the step recorded for it byte for byte with the
    one it sent and stops trusting the host at its own shuffle; the deal never comes.
    On a2b2fc2: as above, the shuffles were taken and the game was dealt and shared."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            keys: dict[int, Any] = {}
            replace_shuffles(hostile, keys)
            clients += await honest_clients(hostile, 3)
            keys.update({c.state.seat: c.keys for c in clients})
            said = await untrusted(clients)
            for seat, message in enumerate(said):
                assert f"event {event_of(hostile, 'dshuffle', seat)}" in message, message
                assert f"seat {seat}" in message and "differs from the one it sent" in message, message
            assert hostile.frames_of("deck", "shares") == [] and hostile.learned() == {}
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_an_early_disclose_gets_no_deck_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24's second attack: in the middle of the game the host sends a `disclose` (its
    seeds are true) to make the clients hand over their deck keys.  Every client refuses it
    as it arrives (its own record does not show the game over), names the event, and no
    deck key leaves any client.
    On a2b2fc2: every client sent its secret deck key at once (the host, running changed
    code, would read every card still in a hand)."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3, state_dirs=tmp_path)
            await dealt(clients)
            sess = hostile.game
            event = sess._disclose(hostile.host.clock.now())
            hostile.host.fanout.publish_all(hostile.table, [event])
            await until(
                lambda: hostile.frames_of("deck", "secret") or all(c.state.status == "failed" for c in clients), 30
            )
            assert hostile.frames_of("deck", "secret") == []
            said = await untrusted(clients)
            assert all(f"event {event.seq}" in m and "before the game is over" in m for m in said), said
            assert hostile.frames_of("deck", "secret") == []
            for problems in await evidence_audited(clients):
                assert problems == [f"event {event.seq}: the host disclosed the seeds before the game is over"]
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


async def auctioneer(hostile: HostileHost, clients: list[Any]) -> Any:
    await until(lambda: hostile.game.state is not None, 30)
    return clients[hostile.game.state.auctioneer]


def test_a_refused_card_play_shows_the_host_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24's third attack: the host refuses every card play ("stale") and keeps what
    came with it; a bot or a person then picks another card.  Three cards tried, three
    refusals: nothing of any card left the client (its action names a slot, and the opening
    waits for the host's commitment), so the host reads no card.
    On a2b2fc2: each refused play carried its card's opening: the host read all three."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []
        hostile.on_frame = lambda seat, kind, msg: "stale" if kind == "act" and is_card_play(msg) else msg
        try:
            clients += await honest_clients(hostile, 3)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            for card in sorted(player.state.observation.hand)[:3]:
                reply = await player.send_move(Move.play(seat, card))
                assert not reply.ok and reply.code == "stale", reply
            assert len(hostile.frames_of("act")) >= 3
            assert hostile.learned() == {}
            assert hostile.frames_of("open") == [] and not any("open" in r.msg for r in hostile.frames_of("act"))
            assert player.state.status == "connected"
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_host_that_commits_to_a_play_and_refuses_its_opening_sees_that_card_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host commits to a card play (its `play` event), takes the opening, and refuses it.
    The play stays committed (the next decision can only be that card), and that card has
    left the client, so it is the only card the client offers: the host sees one card, the
    one the player chose to play, never a second.
    On a2b2fc2: the host refused the play after reading its opening, and the client offered
    the next card, whose opening came too (the test failed there, at the second refusal)."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []

        def refuse(seat: int | None, kind: str, msg: dict[str, Any]) -> Any:
            if kind == "open" or (kind == "act" and "open" in msg):
                return "bad_opening"
            return msg

        hostile.on_frame = refuse
        try:
            clients += await honest_clients(hostile, 3)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            first, *others = sorted(player.state.observation.hand)[:3]
            reply = await player.send_move(Move.play(seat, first))
            assert not reply.ok
            for card in others:
                reply = await player.send_move(Move.play(seat, card))
                # the committed play still waits for that card (`play_pending`); and were it ever
                # withdrawn, the card that was shown is the only one offered (`card_shown`)
                assert not reply.ok and reply.code in ("play_pending", "card_shown"), reply
            assert set(hostile.learned().values()) == {first}
            assert player.fair.shown == {first}
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_deal_counts_that_are_not_the_rules_get_no_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24's fourth attack: the host announces the first deal as 11, 9 and 10 cards (the
    rules deal 10 each), so that seat 1 takes its own slot 10 for seat 0's and publishes its
    share of it.  Every client checks the counts against the rules' deal sizes before it
    sends any share: each stops at the deal event, naming it, and no seat shares a card of
    its own.
    On a2b2fc2: the counts were taken as they came; seat 1 sent its share of slot 10, a card
    of its own hand (with seat 0 colluding, the host reads it)."""
    from modernart.net.host import game as game_module

    original = game_module.event_to_wire

    def lying(event: Any) -> Any:
        wire = original(event)
        if wire is not None and wire.get("k") == "dealt" and wire["round"] == 0 and wire["seat"] in (0, 1):
            wire = {**wire, "count": wire["count"] + (1 if wire["seat"] == 0 else -1)}
        return wire

    async def main() -> None:
        monkeypatch.setattr(game_module, "event_to_wire", lying)
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        hostile.skip_step_checks()
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3)
            owner = lambda: hostile.game.hidden.ledger.owner  # noqa: E731 (the true deal, as the host's engine made it)
            own_shared = lambda: [  # noqa: E731
                (r.seat, s["slot"])
                for r in hostile.frames_of("deck", "shares")
                for s in r.msg["shares"]
                if owner()[s["slot"]] == r.seat
            ]
            await until(lambda: own_shared() or all(c.state.status == "failed" for c in clients), 60)
            assert own_shared() == []
            said = await untrusted(clients)
            deal = event_of(hostile, "deal")
            assert all(f"event {deal}" in m or "round 1" in m for m in said), said
            assert all("the host deals [11, 9, 10] cards in round 1; the rules deal [10, 10, 10]" in m for m in said)
            assert hostile.frames_of("deck", "shares") == []
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_forked_history_shown_to_one_player_is_caught_by_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host shows seat 2 another version of the deal event (a different decision clock:
    a host that gives one player less time), signed and chained for it alone.  Seat 2's
    shares answer the head of that fork, and the other clients find that the head seat 2
    signed is not the one they hold at that event: each names seat 2's step and the fork
    (and seat 2's client finds the same of theirs).  No card reaches the host.
    On a2b2fc2: deck steps named no chain head; the fork went unseen and the game played on."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        hostile.skip_step_checks()
        clients: list[Any] = []

        def fork(seat: int | None, seq: int, pub: dict[str, Any]) -> dict[str, Any] | None:
            if seat == 2 and pub["k"] == "deal":
                return {**pub, "clk": {**pub["clk"], "decide": 5.0}}
            return None

        hostile.rewrite = fork
        try:
            clients += await honest_clients(hostile, 3)
            said = await untrusted(clients, 60)
            deal = event_of(hostile, "deal")
            for message in said[:2]:
                assert "seat 2's shares step" in message and f"answers event {deal}" in message, message
                assert "forked history" in message
            assert "seat 2's" not in said[2] and "forked history" in said[2]
            assert hostile.learned() == {}
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_share_asked_for_a_card_not_yet_played_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host wants the owner's own share of a card that was not played: it refuses the
    seat's card plays (keeping what comes with them), then sends a `play` event of its own
    naming one of the seat's slots, as if the seat had asked to play it.  No refused play
    shows anything; the forged commitment carries no signature of the seat, so every client
    stops trusting the host at it and the owner never opens the card.
    On a2b2fc2: there was no commitment to ask with, but none was needed: a card play
    carried its opening before the host judged it, so the refused plays gave the host the
    cards (the test failed at the host's reading of them)."""
    from modernart.net.protocol.signed import encode_action_body

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        hostile.on_frame = lambda seat, kind, msg: "stale" if kind == "act" and is_card_play(msg) else msg
        clients: list[Any] = []
        try:
            clients += await honest_clients(hostile, 3)
            await dealt(clients)
            player = await auctioneer(hostile, clients)
            seat = player.state.seat
            for card in sorted(player.state.observation.hand)[:2]:
                assert not (await player.send_move(Move.play(seat, card))).ok
            assert hostile.learned() == {}
            sess = hostile.game
            slot = sess.hidden.ledger.slots_of(seat)[0]
            body = encode_action_body(sess.game_id, seat, 10**6, [seat, 0, slot], sess.seq, {"deck": 0})
            forged = {"m": [seat, 0, slot], "deck": 0, "signer": 0, "act": {"b": body, "s": bytes(64)}}
            event = hostile.inject("play", forged)
            said = await untrusted(clients)
            assert all(f"seat {seat}" in m and "bad signature" in m for m in said), said
            assert hostile.frames_of("open") == [] and hostile.learned() == {}
            assert event.seq == sess.seq
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_deck_step_replayed_from_another_game_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host puts in seat 0's place a deck key of its own (it knows its secret; its proof
    needs nothing of the seat's) and carries seat 0's genuine signature of a deck key step
    from another game.  Every client refuses it: seats 1 and 2 because the signature is of
    another game (`deck_wrong_game`), seat 0 because it differs from the key it sent.  The
    deal never comes, so the host reads none of seat 0's cards.
    On a2b2fc2: deck steps were unsigned: the host's key was taken for seat 0's, the deal
    was shared, and with its secret the host read every card of seat 0's hand."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        hostile.skip_step_checks()
        clients: list[Any] = []
        secret = secrets.randbelow(L - 1) + 1
        other_game = secrets.token_bytes(16)

        def replay(seat: int | None, kind: str, msg: dict[str, Any]) -> dict[str, Any]:
            if kind != "deck" or "key" not in msg or seat != 0:
                return msg
            sess = hostile.game
            key = prove_key(sess.game_id, 0, secret)
            hostile.known_secrets[0] = secret
            out = {**msg, "key": key.to_wire()}
            signed = _sign_step(clients[0].keys, other_game, 0, "key", 0, 1, bytes(32), key)
            if signed is not None:
                out["signed"] = signed
            return out

        hostile.on_frame = replay
        try:
            clients += await honest_clients(hostile, 3)
            await until(lambda: hostile.learned() or all(c.state.status == "failed" for c in clients), 60)
            assert hostile.learned() == {}
            said = await untrusted(clients)
            seq = event_of(hostile, "dkey", 0)
            assert f"event {seq}" in said[0] and "differs from the one it sent" in said[0]
            assert all(f"event {seq}" in m and "deck_wrong_game" in m for m in said[1:]), said
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


@pytest.mark.parametrize("step", ["key", "shuffle", "shares"])
def test_a_seat_that_withholds_its_deck_step_is_named_by_every_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """A malicious seat (seat 1's client, changed) never sends its deck key, its shuffle or
    its shares.  The table waits (deadlines and the seated players' choice are another
    part of the trust machinery); meanwhile every honest client's own record names seat 1
    as the one it waits for, and what for (`DeckLedger.waiting_for`, what the screens and
    the log say), and no card reaches the host.
    On a2b2fc2: nobody was named; the clients could only say that they waited."""

    async def main() -> None:
        hostile = await HostileHost.open(tmp_path, monkeypatch)
        clients: list[Any] = []

        async def nothing(*_args: Any, **_kwargs: Any) -> None:
            return None

        def withhold(seated: list[Any]) -> None:
            method = {"key": "_send_deck_key", "shuffle": "_send_shuffle", "shares": "_send_shares"}[step]
            setattr(seated[1].fair, method, nothing)

        try:
            clients += await honest_clients(hostile, 3, withhold)

            def named(c: Any) -> bool:
                deck = c.game.deck if c.game is not None else None
                return deck is not None and deck.waiting_for() == (step, (1,))

            await until(lambda: all(named(c) for c in (clients[0], clients[2])), 60)
            assert hostile.game.hidden.ledger.waiting_for() == (step, (1,))
            assert hostile.learned() == {}
        finally:
            await close_clients(clients)
            await hostile.close()

    run(main(), 120)


def test_a_host_that_stacks_the_deck_is_caught_by_every_player_at_the_disclosure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "What the host cannot do": stack the deck (a table whose host sees the hands).  The
    host deals the cards in an order of its own choosing, not the one its committed seed and
    the players' seeds give (the first auctioneer as they give it, so nothing shows during
    the game).  At the disclosure every player's client derives the deck from the seeds,
    finds the cards it was dealt differ, and stops trusting the host, naming the round and
    its seat; the audit of such a game fails the same way (tests/net/trust/test_fair_audit.py).
    On a2b2fc2 this was caught the same way: the test was missing, not the check."""
    from modernart.net.client.bot import BotClient
    from modernart.net.trust import shuffle

    honest = shuffle.SeedRound.derive

    def stacked(self: Any, size: int, rounds: int = 1) -> tuple[list[int], int]:
        _order, first = honest(self, size, rounds)
        return list(range(size)) * rounds, first  # the cards in their own order

    async def main() -> None:
        monkeypatch.setattr(shuffle.SeedRound, "derive", stacked)
        from tests.net_helpers import in_process_host

        host, _table = await in_process_host(tmp_path)
        players = [
            BotClient(
                str(host.target()),
                level="random",
                name=f"P{i}",
                pace_scale=0.0,
                keys=None,
                config_dir=str(tmp_path / f"p{i}"),
            )
            for i in range(3)
        ]
        runs = [asyncio.ensure_future(p.run()) for p in players]
        try:
            # by the error each kept, not by the status: a bot whose game is over closes its
            # client once it stopped trusting the host, and "failed" then gives way to "closed"
            await until(
                lambda: all(any(code == "untrusted_host" for code, _m in p.client.state.errors) for p in players),
                120,
                what=lambda: [(p.client.state.status, p.client.state.errors[-2:]) for p in players],
            )
            for p in players:
                said = next(m for code, m in p.client.state.errors if code == "untrusted_host")
                assert f"deal for seat {p.client.state.seat} differs from the shuffle" in said, said
        finally:
            for run_ in runs:
                run_.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            await host.close()

    run(main(), 150)
