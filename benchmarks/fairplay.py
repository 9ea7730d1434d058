"""`python -m benchmarks fairplay`: what fair play costs (docs/fair-play.md has the figures).

- sealed auction latency: a host process (`benchmarks.net serve`, fsync on) and 5 clients,
  each a full client (signatures, chain, commit-reveal checks).  From the auctioneer
  sending the Sealed card to every one of the 5 clients holding the result (play, commit,
  complete set, reveal, settle: three events, no journal sync on the path), p50/p99:
  once with the 5 clients in this process (all sealing at once as soon as they see the
  auction; beside it the plain latency of the other moves of the same games) and once
  with 5 bot players in 5 processes;
- signing and verification, per operation and per move: an action signed and checked,
  a commitment and a reveal made and checked, a set digest, the host's cost to build one
  event (private parts, chain link, signature), a client's cost to check one event of a
  recorded 5-player game (chain, host signature, player signatures, commit-reveal), and
  the audit of a whole game;
- the hidden deck (net/trust/hidden_deck.py), for 3, 4 and 5 players: the start of a game
  (deck keys, every seat's shuffle with its proof and the host's check of it, the first
  deal's shares made, checked by the host and read by their owners), the extra work of a
  card play (the owner's opening, the host's check and decryption), and the audit of the
  deal.  Each step is timed on its own in this one process; the start is given as the
  critical path of a table whose seats each have a machine (what one seat waits for: the
  keys; the shuffles as built, each relayed at once and its proof checked by the host and
  every client while the next seat shuffles (net/host/shuffle_relay.py); the slowest
  seat's shares of the first deal, checked by the host and then by the clients; and the
  owner reading its cards), the same with every shuffle checked by the host and then by
  the client that shuffles next before it shuffles (as it was before the relay), and the
  total work, all in CPU time (`time.process_time`: on a shared machine wall time counts
  other jobs too); beside it the wall time of the same steps in this process and the load
  average.
- the same start at one real table whose seats all share one process: a host (127.0.0.1)
  and 5 of its own bots, from the bots' seating to the first auctioneer holding a hand it
  can play, in CPU time of the whole process (every thread); each shuffle and share proof is
  checked once in the process (net/trust/proof_cache.py), so this is given as
  `N x critical path` beside the 5-player critical path above, measured in the same run
  (target: at most 2x), and beside it the same table with open hands.
  `--hidden` runs this part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from typing import TYPE_CHECKING, Any, Callable

from benchmarks.net import percentile, start_host

if TYPE_CHECKING:
    from modernart.views import Observation
    from modernart.net.client.client import Client


def _per_op(fn: Callable[[], Any], seconds: float) -> float:
    """Microseconds per call of `fn` (wall time, repeated for about `seconds`)."""
    fn()
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / n * 1e6


# ---------------------------------------------------------------------- latency


def _seat(client: Client) -> int:
    """The seat of a seated client (every bench client has taken one)."""
    assert client.state.seat is not None
    return client.state.seat


def _obs(client: Client) -> Observation:
    """The view of a client whose game has started (the bench waits for it)."""
    assert client.state.observation is not None
    return client.state.observation


async def _seated_five(join: Any, resolved: list[dict[int, float]]) -> list[Any]:
    """Five clients at the table of `join`, ready, each noting in `resolved[i]` when it saw
    each Sealed auction's reveal; sorted by seat once the game has started."""
    from modernart.events import SealedRevealed
    from modernart.net.client.client import Client
    from modernart.net.trust.identity import Keys

    clients = [Client(join, keys=Keys.generate(), updates=False) for _ in range(5)]
    for i, c in enumerate(clients):

        def seen(update, i=i):
            if update.kind == "event":
                for e in update.data.events:
                    if isinstance(e, SealedRevealed):
                        resolved[i][e.auction] = time.perf_counter()

        c.on_update = seen
        await c.connect()
        await c.take_seat(f"P{i}")
    for c in clients:
        await c.ready()
    for c in clients:
        await c.wait_until(lambda s: s.observation is not None, 20)
    clients.sort(key=_seat)
    return clients


def _next_move(clients: list[Any], obs: Observation, rng: random.Random) -> tuple[Any, Any]:
    """Who moves now and what: a Sealed card put up more often than not, else a cheap move."""
    from modernart.cards import AuctionType
    from modernart.moves import Move
    from modernart.phase import Phase

    if obs.phase == Phase.PLAY_CARD:
        mover = clients[obs.auctioneer]
        hand = _obs(mover).hand
        sealed = [c for c in hand if c.kind == AuctionType.SEALED]
        card = sealed[0] if sealed and rng.random() < 0.7 else rng.choice(hand)
        return mover, Move.play(_seat(mover), card)
    seat = obs.auctioneer if obs.phase in (Phase.OPEN, Phase.FIXED_SET) else obs.to_move[0]
    mover = clients[seat]
    return mover, _cheap(_obs(mover))


async def _seal_all(clients: list[Any], resolved: list[dict[int, float]], auction: int, rng: random.Random) -> float:
    """Every seat seals a bid at once, as fast as no person could; when the last client saw
    the auction's result (time.perf_counter())."""
    from modernart.moves import Move

    bids = [Move.sealed_bid(_seat(c), rng.randint(0, min(_obs(c).money, 9))) for c in clients]
    replies = await asyncio.gather(*(c.send_move(b) for c, b in zip(clients, bids)))
    assert all(r.ok for r in replies), replies
    for c in clients:
        await c.wait_until(lambda s: auction in resolved[clients.index(c)], 20)
    return max(r[auction] for r in resolved)


async def _latency(games: int) -> dict[str, Any]:
    from modernart.phase import Phase

    tmp = tempfile.mkdtemp(prefix="ma-bench-fair-")
    host, joins = start_host(tmp, games)
    sealed_lat: list[float] = []
    plain_lat: list[float] = []
    rng = random.Random(1)
    try:
        for join in joins:
            resolved: list[dict[int, float]] = [{} for _ in range(5)]
            clients = await _seated_five(join, resolved)
            while not (obs := _obs(clients[0])).is_over:
                mover, move = _next_move(clients, obs, rng)
                t0 = time.perf_counter()
                reply = await mover.send_move(move)
                assert reply.ok, reply
                seq = reply.seq or 0
                for c in clients:
                    await c.wait_until(lambda s: s.head_seq >= seq, 20)
                after = _obs(clients[0])
                if after.phase == Phase.SEALED and after.auction_no != obs.auction_no:
                    sealed_lat.append(await _seal_all(clients, resolved, after.auction_no, rng) - t0)
                else:
                    plain_lat.append(time.perf_counter() - t0)
            for c in clients:
                await c.close()
    finally:
        host.terminate()
        host.wait()
    return {
        "sealed_samples": len(sealed_lat),
        "sealed_p50_ms": percentile(sealed_lat, 50) * 1e3,
        "sealed_p99_ms": percentile(sealed_lat, 99) * 1e3,
        "plain_samples": len(plain_lat),
        "plain_p50_ms": percentile(plain_lat, 50) * 1e3,
        "plain_p99_ms": percentile(plain_lat, 99) * 1e3,
    }


class _SealedFirst:
    """A bot brain for the benchmark: puts up Sealed cards when it can, seals small bids at
    once, and otherwise spends nothing."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Any) -> Any:
        from modernart.cards import AuctionType
        from modernart.moves import Move
        from modernart.phase import Phase

        if obs.phase == Phase.PLAY_CARD:
            sealed = [c for c in obs.hand if c.kind == AuctionType.SEALED]
            return Move.play(obs.seat, sealed[0] if sealed and self.rng.random() < 0.7 else self.rng.choice(obs.hand))
        if obs.phase == Phase.SEALED:
            return Move.sealed_bid(obs.seat, self.rng.randint(0, min(obs.money, 9)))
        return _cheap(obs)

    def pace(self, obs: Any, move: Any) -> float:
        return 0.0


async def _player_main(join: str, out_path: str) -> None:
    """One benchmark player process: when it put up each Sealed card, when it held each result."""
    from modernart.cards import AuctionType
    from modernart.events import SealedRevealed
    from modernart.moves import Action
    from modernart.net.client.bot import BotClient
    from modernart.net.trust.identity import Keys

    bot = BotClient(join, keys=Keys.generate(), pace_scale=0, name=f"p{os.getpid()}")
    bot.bot = _SealedFirst(os.getpid())  # type: ignore[assignment]
    played: dict[int, float] = {}
    resolved: dict[int, float] = {}

    def seen(update: Any) -> None:
        if update.kind == "event":
            for e in update.data.events:
                if isinstance(e, SealedRevealed):
                    resolved[e.auction] = time.perf_counter()

    bot.client.on_update = seen
    send = bot.client.send_move

    async def timed(move: Any) -> Any:
        obs = bot.client.state.observation
        t0 = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes on Linux
        reply = await send(move)
        if (
            reply.ok
            and move.action == Action.PLAY
            and obs is not None
            and obs.options.deck_table.build()[move.arg].kind == AuctionType.SEALED
        ):
            played[obs.auction_no + 1] = t0
        return reply

    bot.client.send_move = timed  # type: ignore[method-assign]
    await bot.run(60)
    with open(out_path, "w") as f:
        json.dump({"played": played, "resolved": resolved}, f)


def _latency_processes(games: int) -> dict[str, Any]:
    """5 bot players in 5 processes: a Sealed card put up -> the last of the 5 holding the result."""
    import subprocess
    import sys

    from benchmarks.net import ROOT, child_env

    tmp = tempfile.mkdtemp(prefix="ma-bench-fair-")
    host, joins = start_host(tmp, games)
    lat: list[float] = []
    try:
        for g, join in enumerate(joins):
            outs = [os.path.join(tmp, f"g{g}p{i}.json") for i in range(5)]
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "benchmarks.fairplay", "player", join, out], cwd=ROOT, env=child_env()
                )
                for out in outs
            ]
            for p in procs:
                p.wait(timeout=300)
            data = [json.load(open(out)) for out in outs]
            played = {int(k): v for d in data for k, v in d["played"].items()}
            for auction, t0 in played.items():
                times = [d["resolved"].get(str(auction)) for d in data]
                if all(t is not None for t in times):
                    lat.append(max(times) - t0)  # type: ignore[type-var]
    finally:
        host.terminate()
        host.wait()
    return {"samples": len(lat), "p50_ms": percentile(lat, 50) * 1e3, "p99_ms": percentile(lat, 99) * 1e3}


def _cheap(obs: Any) -> Any:
    from modernart.moves import Move
    from modernart.phase import Phase

    seat = obs.seat
    return {
        Phase.OPEN: lambda: Move.hammer(seat),
        Phase.ONCE_AROUND: lambda: Move.pass_(seat),
        Phase.FIXED_SET: lambda: Move.set_price(seat, 1 if obs.money else 0),
        Phase.FIXED_OFFER: lambda: Move.decline(seat),
        Phase.DOUBLE_OFFER: lambda: Move.decline_second(seat),
    }[obs.phase]()


# ---------------------------------------------------------------------- crypto costs


def _crypto(seconds: float) -> dict[str, Any]:
    from modernart.net.trust.audit import audit_files
    from modernart.net.protocol.signed import (
        COMMIT_TAG,
        Commit,
        REVEAL_TAG,
        Reveal,
        SetEntry,
        bid_commitment,
        decode_commit,
        decode_reveal,
        set_digest,
    )
    from modernart.net.trust.identity import new_nonce, signed
    from modernart.net.trust.verified_game import VerifiedGame
    from modernart.net.protocol.signed import ACT_TAG
    from modernart.net.trust.identity import Keys, forget_verified, verify
    from modernart.net.protocol.signed import encode_action_body

    keys = Keys.generate()
    game = os.urandom(16)
    body = encode_action_body(game, 1, 7, [1, 3, 12], 40)
    sig = keys.sign(ACT_TAG, body)
    nonce = new_nonce()
    c = bid_commitment(game, 3, 1, keys.vk, 12, nonce)
    cbody = Commit(game, 3, 1, keys.vk, c).body()
    csig = keys.sign(COMMIT_TAG, cbody)
    entries = [SetEntry(s, keys.vk, os.urandom(32), [b"", b""]) for s in range(5)]
    d = set_digest(game, 3, entries)
    rbody = Reveal(game, 3, 1, keys.vk, 12, nonce, d).body()
    rsig = keys.sign(REVEAL_TAG, rbody)
    per = seconds / 8

    def afresh(check: Callable[[], Any]) -> Callable[[], Any]:
        """`check` made in full every time, as another process makes it (not this process's
        memory of the signatures it verified)."""

        def run() -> Any:
            forget_verified()
            return check()

        return run

    out = {
        "sign_action_us": _per_op(lambda: keys.sign(ACT_TAG, body), per),
        "verify_action_us": _per_op(afresh(lambda: verify(keys.vk, ACT_TAG, body, sig)), per),
        "commit_make_us": _per_op(
            lambda: keys.sign(
                COMMIT_TAG, Commit(game, 3, 1, keys.vk, bid_commitment(game, 3, 1, keys.vk, 12, new_nonce())).body()
            ),
            per,
        ),
        "commit_check_us": _per_op(afresh(lambda: signed(COMMIT_TAG, cbody, csig, decode_commit)), per),
        "set_digest_5_us": _per_op(lambda: set_digest(game, 3, entries), per),
        "reveal_make_us": _per_op(lambda: keys.sign(REVEAL_TAG, Reveal(game, 3, 1, keys.vk, 12, nonce, d).body()), per),
        "reveal_check_us": _per_op(afresh(lambda: signed(REVEAL_TAG, rbody, rsig, decode_reveal).opens(c)), per),
    }
    session, frames, record, transcript, host_vk = _game_on_a_session()
    moves = sum(1 if e.move is not None else len(e.moves or []) for e in session.log)

    def follow_all() -> None:
        forget_verified()  # a client checks every signature itself: the host made them in this process
        follower = VerifiedGame(session.game_id, host_vk)
        for frame in frames:
            follower.apply(frame, None)

    reps = max(1, int(per / 0.5))
    t0 = time.perf_counter()
    for _ in range(reps):
        follow_all()
    follow = (time.perf_counter() - t0) / reps
    forget_verified()
    t0 = time.perf_counter()
    report = audit_files(record, transcript)
    audit = time.perf_counter() - t0
    assert report.ok, report.problems
    out.update(
        {
            "game_events": len(frames),
            "game_moves": moves,
            "client_check_per_event_us": follow / len(frames) * 1e6,
            "client_check_per_move_us": follow / moves * 1e6,
            "host_event_us": session.build_time / len(frames) * 1e6,
            "host_per_move_us": session.build_time / moves * 1e6,
            "audit_game_ms": audit * 1e3,
        }
    )
    return out


def _game_on_a_session() -> tuple[Any, list[dict[str, Any]], str, str, bytes]:
    """A 5-player random game on a real HostedGame with commit-reveal, its transcript and record."""
    from modernart.auctions import NO_BID
    from modernart.bots.random_bot import random_move
    from modernart.phase import Phase
    from modernart.net.clocks import ClockSettings
    from modernart.net.protocol.signed import (
        COMMIT_TAG,
        Commit,
        REVEAL_TAG,
        Reveal,
        SEED_TAG,
        SeedCommit,
        bid_commitment,
        seed_commitment,
    )
    from modernart.net.trust.identity import new_nonce
    from modernart.net.trust.identity import Keys
    from modernart.net.host.lobby import Lobby
    from modernart.net.host.table import Table

    tmp = tempfile.mkdtemp(prefix="ma-bench-fair-")
    host = Keys.generate()
    keys = [Keys.generate() for _ in range(5)]
    lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0))
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "bench", host, journal_dir=tmp, lobby=lobby, fsync=False)
    rng = random.Random(5)
    t_build = 0.0
    t0 = time.perf_counter()
    table.start(0.0)
    sess = table.game
    assert sess is not None  # started
    for seat, k in enumerate(keys):
        seed = new_nonce()
        body = SeedCommit(sess.game_id, seat, k.vk, seed_commitment(sess.game_id, seat, k.vk, seed)).body()
        sess.submit_seed(k.vk, seat, body, k.sign(SEED_TAG, body), seed, 0.0)
    t_build += time.perf_counter() - t0
    bids: dict[int, tuple[int, bytes]] = {}
    assert sess.state is not None  # every seed is in: the deal is done
    while not sess.state.is_over():
        state = sess.state
        if state.phase == Phase.SEALED:
            auction = state.auction_no
            for seat, k in enumerate(keys):
                amount, nonce = rng.randint(0, min(state.money[seat], 20)), new_nonce()
                bids[seat] = (amount, nonce)
                body = Commit(
                    sess.game_id, auction, seat, k.vk, bid_commitment(sess.game_id, auction, seat, k.vk, amount, nonce)
                ).body()
                sig = k.sign(COMMIT_TAG, body)
                t0 = time.perf_counter()
                sess.submit_commit(k.vk, seat, body, sig, 0.0)
                t_build += time.perf_counter() - t0
            for seat, k in enumerate(keys):
                if sess.sealed is None or state.sealed[seat] != NO_BID:
                    break
                assert sess.sealed.digest is not None  # every seat has committed
                body = Reveal(sess.game_id, auction, seat, k.vk, *bids[seat], sess.sealed.digest).body()
                sig = k.sign(REVEAL_TAG, body)
                t0 = time.perf_counter()
                sess.submit_reveal(body, sig, 0.0)
                t_build += time.perf_counter() - t0
            continue
        move = random_move(state, state.to_move()[0], rng.random)
        t0 = time.perf_counter()
        state.apply(move)
        sess.move_events(move, 0.0, {"m": move.to_list(), "by": "clock"})
        t_build += time.perf_counter() - t0
    record = table.save_record()
    assert record is not None
    sess.build_time = t_build  # type: ignore[attr-defined]
    frames = [e.frame_for(None) for e in sess.log]
    return sess, frames, record, record[: -len(".json")] + ".transcript", host.vk


# ---------------------------------------------------------------------- entry point


def _median_time(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """(median seconds of `repeats` calls of `fn`, the last call's result)."""
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2], result


def _hidden_deck_once(n: int, clock: Callable[[], float] = time.process_time) -> dict[str, Any]:
    """One start and a few card plays of an `n`-player hidden deck, each step timed (seconds)
    on `clock` (CPU time by default, `time.perf_counter` for wall time)."""
    from modernart.rules import RuleOptions
    from modernart.net.trust.hidden_deck import DeckLedger, SeatDeck, audit_deal
    from modernart.net.trust.proof_cache import PROOFS

    game, size = os.urandom(16), 70
    first_deal = RuleOptions().deal_sizes(n)[0]
    host = DeckLedger(game, n, size)
    record = DeckLedger(game, n, size, checking=False)  # what the audit reads afterwards
    # CPU time: each step is one party's work, which on a table of several machines runs on
    # its own core; on the shared benchmark machine wall time also counts other jobs' turns
    t0 = clock()
    seats = [SeatDeck(game, s, size) for s in range(n)]
    key_make = (clock() - t0) / n
    t0 = clock()
    for seat in seats:
        host.add_key(seat.key)
        record.add_key(seat.key)
    keys_check = clock() - t0
    shuffle_make, shuffle_check = [], []
    for seat in seats:
        t0 = clock()
        shuffle, _secret = seat.shuffle(host)
        t1 = clock()
        host.add_shuffle(shuffle)
        t2 = clock()
        record.add_shuffle(shuffle)
        shuffle_make.append(t1 - t0)
        shuffle_check.append(t2 - t1)
    host.deal([first_deal] * n)
    record.deal([first_deal] * n)
    shares_make, shares = [], []
    for seat in seats:
        t0 = clock()
        shares.append(seat.shares(host))
        shares_make.append(clock() - t0)
    t0 = clock()
    for made in shares:
        for share in made:
            host.add_share(share)
    shares_check = clock() - t0
    for made in shares:
        for share in made:
            record.add_share(share)
    hand_read = []
    for seat in seats:
        t0 = clock()
        hand = seat.hand(host)
        hand_read.append(clock() - t0)
        assert len(hand) == first_deal
    play_open, play_check = [], []
    for seat in seats:
        for card in list(seat.hand(host).values())[:3]:
            t0 = clock()
            opening = seat.opening(host, card)
            t1 = clock()
            host.open(seat.seat, opening, card)
            play_open.append(t1 - t0)
            play_check.append(clock() - t1)
            record.open(seat.seat, opening, card)
    t0 = clock()
    with PROOFS.afresh():  # as `modernart audit` checks: every proof again
        problems = audit_deal(record, [seat.secret for seat in seats])
    audit = clock() - t0
    assert problems == [], problems
    return {
        "first_deal": first_deal,
        "key_make": key_make,
        "keys_check": keys_check,
        "shuffle_make": _median(shuffle_make),
        "shuffle_check": _median(shuffle_check),
        "shares_make": max(shares_make),
        "shares_check": shares_check,
        "hand_read": max(hand_read),
        # what one seat waits for, each seat on its own machine (see the module docstring):
        # as built, each shuffle is relayed at once and its proof checked (by the host and by
        # every client, in parallel) while the next seat shuffles; no share before every
        # proof is checked (net/host/shuffle_relay.py) ...
        "start_as_built": key_make
        + 2 * keys_check
        + _pipeline(shuffle_make, shuffle_check)
        + max(shares_make)
        + 2 * shares_check
        + max(hand_read),
        # ... and as it was before: every shuffle checked by the host before it relayed it,
        # then by the client that acts next before that client shuffled
        "start_sequential": key_make
        + 2 * keys_check
        + sum(m + 2 * c for m, c in zip(shuffle_make, shuffle_check))
        + max(shares_make)
        + 2 * shares_check
        + max(hand_read),
        "start_work": n * key_make
        + keys_check
        + sum(shuffle_make)
        + sum(shuffle_check)
        + sum(shares_make)
        + shares_check
        + sum(hand_read),
        "play_open": _median(play_open),
        "play_check": _median(play_check),
        "play_extra": _median([a + b for a, b in zip(play_open, play_check)]),
        "audit": audit,
    }


def _pipeline(make: list[float], check: list[float]) -> float:
    """When the last shuffle's proof is checked if seat j shuffled as soon as seat j-1's deck
    was relayed, while the proofs are checked in turn (docs/fair-play.md "Figures")."""
    made = checked = 0.0
    for make_j, check_j in zip(make, check):
        made += make_j
        checked = max(made, checked) + check_j
    return checked


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def _hidden_deck(n: int, repeats: int) -> dict[str, Any]:
    """The hidden deck's figures for `n` players, in ms: the median of `repeats` runs."""
    runs = [_hidden_deck_once(n) for _ in range(repeats)]
    walls = [_hidden_deck_once(n, time.perf_counter) for _ in range(repeats)]
    out: dict[str, Any] = {"players": n, "first_deal": runs[0]["first_deal"], "repeats": repeats}
    for name in runs[0]:
        if name != "first_deal":
            out[f"{name}_ms"] = _median([r[name] for r in runs]) * 1e3
    out["wall_start_as_built_ms"] = _median([r["start_as_built"] for r in walls]) * 1e3
    out["wall_play_extra_ms"] = _median([r["play_extra"] for r in walls]) * 1e3
    out["load_average"] = os.getloadavg()[0]
    return out


async def _one_process_start(players: int, hidden: bool) -> float:
    """CPU seconds of this whole process (every thread) from seating `players` host bots at
    a new table on a real host to the first auctioneer holding a hand to play."""
    from modernart.phase import Phase
    from modernart.net.clocks import ClockSettings
    from modernart.net.host.host import Host
    from modernart.net.host.lobby import Lobby
    from modernart.net.trust.identity import Keys

    host = Host(Keys.generate(), bind="127.0.0.1", port=0, bot_pace=0.0)
    lobby = Lobby(clocks=ClockSettings(decision=0, open_countdown=0))
    table = host.open_table(
        "bench",
        lobby=lobby,
        autostart=players,
        hidden_hands=hidden,
        journal_dir=tempfile.mkdtemp(prefix="ma-bench-fair-"),
        fsync=False,
    )
    await host.start()
    try:
        t0 = time.process_time()
        for _ in range(players):
            _seat, token = table.lobby.add_bot(None, "random")
            host.spawn_bot(table, token, "random")
        while True:
            for _task, bot in list(host.bot_clients.running.values()):
                obs = bot.client.state.observation
                if obs is not None and obs.phase == Phase.PLAY_CARD and obs.seat == obs.auctioneer and obs.hand:
                    return time.process_time() - t0
            await asyncio.sleep(0.002)
    finally:
        await host.close()


def _one_process(players: int, repeats: int, critical_path_ms: float) -> dict[str, Any]:
    """The start of a `players`-seat table in one process, hidden and open, in CPU ms (the
    median of `repeats` after one run that warms the imports), against the critical path."""
    from modernart.net.trust.proof_cache import PROOFS

    asyncio.run(_one_process_start(players, True))
    checks, hits = PROOFS.checks, PROOFS.hits
    hidden = [asyncio.run(_one_process_start(players, True)) for _ in range(repeats)]
    proofs = (PROOFS.checks - checks) / repeats, (PROOFS.hits - hits) / repeats
    open_ = [asyncio.run(_one_process_start(players, False)) for _ in range(repeats)]
    start = _median(hidden) * 1e3
    return {
        "players": players,
        "repeats": repeats,
        "hidden_start_cpu_ms": start,
        "open_start_cpu_ms": _median(open_) * 1e3,
        "critical_path_ms": critical_path_ms,
        "x_critical_path": start / critical_path_ms,
        "target_x": 2.0,
        "proofs_checked_per_game": proofs[0],
        "proofs_read_from_cache_per_game": proofs[1],
    }


def _print_one_process(r: dict[str, Any]) -> None:
    print(
        f"{r['players']} seats in one process (host + its bots), CPU to the first playable card: "
        f"{r['hidden_start_cpu_ms']:.0f} ms = {r['x_critical_path']:.2f} x critical path "
        f"({r['critical_path_ms']:.0f} ms; target at most {r['target_x']:g} x); "
        f"open hands {r['open_start_cpu_ms']:.0f} ms; proofs checked {r['proofs_checked_per_game']:.0f}, "
        f"read from the process's cache {r['proofs_read_from_cache_per_game']:.0f} per game"
    )


def _print_hidden(rows: list[dict[str, Any]]) -> None:
    print("hidden deck (70 cards), CPU ms: start (critical path as built, pipelined / one step after")
    print("  another, as before / total work),")
    print("  shuffle make / check per seat, first deal: shares make (slowest seat) / host check all /")
    print("  owner reads; card play extra p50; audit")
    for r in rows:
        print(
            f"  {r['players']} players: start {r['start_as_built_ms']:.0f} / {r['start_sequential_ms']:.0f} / "
            f"{r['start_work_ms']:.0f}; "
            f"shuffle {r['shuffle_make_ms']:.0f} / {r['shuffle_check_ms']:.0f}; "
            f"deal of {r['first_deal']}: {r['shares_make_ms']:.0f} / {r['shares_check_ms']:.0f} / "
            f"{r['hand_read_ms']:.1f}; play +{r['play_extra_ms']:.2f} "
            f"(open {r['play_open_ms']:.2f}, host {r['play_check_ms']:.2f}); audit {r['audit_ms']:.0f}; "
            f"wall: start {r['wall_start_as_built_ms']:.0f}, play +{r['wall_play_extra_ms']:.2f}; "
            f"load {r['load_average']:.1f}"
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hidden", action="store_true", help="only the hidden deck's figures")


def run(args: argparse.Namespace) -> int:
    from modernart.cli.machine import machine

    if getattr(args, "hidden", False):
        repeats = max(3, int(args.seconds))
        rows = [_hidden_deck(n, repeats) for n in (3, 4, 5)]
        together = _one_process(5, repeats, rows[-1]["start_as_built_ms"])
        if args.json:
            print(json.dumps({"machine": machine(), "hidden_deck": rows, "one_process": together}, indent=1))
            return 0
        m = machine()
        print(f"modernart hidden-deck benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), {m['python']}")
        _print_hidden(rows)
        _print_one_process(together)
        return 0

    games = max(1, int(os.environ.get("MODERNART_BENCH_GAMES", str(max(2, int(args.seconds * 2))))))
    crypto = _crypto(args.seconds)
    lat = asyncio.run(_latency(games))
    spread = _latency_processes(games)
    figures: dict[str, Any] = {
        "machine": machine(),
        "games": games,
        "latency": lat,
        "latency_5_processes": spread,
        "crypto": crypto,
        "hidden_deck": [_hidden_deck(n, 3) for n in (3, 4, 5)],
    }
    figures["one_process"] = _one_process(5, 3, figures["hidden_deck"][-1]["start_as_built_ms"])
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    m = figures["machine"]
    fsync = "on" if os.environ.get("MODERNART_BENCH_FSYNC", "1") != "0" else "off"
    print(
        f"modernart fair-play benchmark, {m['date']}, {m['cpu']} ({m['cores']} cores), "
        f"{m['implementation']} {m['python']}, loopback, journal fsync {fsync}"
    )
    print(
        f"Sealed auction, card -> result on all 5 clients  p50 {lat['sealed_p50_ms']:.1f} ms  "
        f"p99 {lat['sealed_p99_ms']:.1f} ms  ({lat['sealed_samples']} auctions, {games} games)"
    )
    print(
        f"  the same, 5 clients in 5 processes             p50 {spread['p50_ms']:.1f} ms  "
        f"p99 {spread['p99_ms']:.1f} ms  ({spread['samples']} auctions)"
    )
    print(
        f"other moves, action -> all 5 clients            p50 {lat['plain_p50_ms']:.1f} ms  "
        f"p99 {lat['plain_p99_ms']:.1f} ms  ({lat['plain_samples']} moves)"
    )
    c = crypto
    print(f"Ed25519 action: sign {c['sign_action_us']:.0f} us, verify {c['verify_action_us']:.0f} us")
    print(
        f"commitment: make+sign {c['commit_make_us']:.0f} us, check {c['commit_check_us']:.0f} us; "
        f"set digest (5 seats) {c['set_digest_5_us']:.0f} us; reveal: make+sign {c['reveal_make_us']:.0f} us, "
        f"check {c['reveal_check_us']:.0f} us"
    )
    print(
        f"host, build one event (5 private parts, chain link, signature): {c['host_event_us']:.0f} us "
        f"= {c['host_per_move_us']:.0f} us per move"
    )
    print(
        f"client, check one event of a 5-player game: {c['client_check_per_event_us']:.0f} us "
        f"= {c['client_check_per_move_us']:.0f} us per move ({c['game_events']} events, {c['game_moves']} moves)"
    )
    print(f"audit of that whole game: {c['audit_game_ms']:.0f} ms")
    _print_hidden(figures["hidden_deck"])
    _print_one_process(figures["one_process"])
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["player"]:
        asyncio.run(_player_main(argv[1], argv[2]))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
