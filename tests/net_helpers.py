"""Helpers for the network tests: in-process hosts, host and bot processes, cleanup.

Imported explicitly by tests/net/.  Every process started here is killed and
reaped in `Procs.close()`; every socket belongs to a Host or Client that is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

import pytest

from modernart.record import read_record
from modernart.net.clocks import ClockSettings
from modernart.net.host.host import Host
from modernart.net.trust.identity import Keys
from modernart.net.host.lobby import Lobby
from tests.slowdown import scaled

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
# no clock runs out by itself, and a hammer falls at once (a call would need the ManualClock
# of some tests to move; tests of the call set their own clocks)
FAST = {"open_countdown": 0, "decision": 0, "grace": 30, "hammer_call": 0}


def run(coro: Awaitable[Any], timeout: float, cleanup: float = 5.0) -> Any:
    """Run `coro` in a fresh loop; after `timeout` seconds cancel it and fail.

    Every wait here is bounded (unlike asyncio.run, whose final clean-up waits without
    limit): a clean-up that hangs after the cancellation fails the test as well instead of
    holding the suite until pytest-timeout, whose one alarm a second hang would outlive.
    """
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def within(seconds: float, *aws: Awaitable[Any]) -> set[asyncio.Future]:
        """Run `aws` for at most `seconds`; the ones still running."""
        futures = {asyncio.ensure_future(a, loop=loop) for a in aws}
        if not futures:
            return set()
        _done, pending = loop.run_until_complete(asyncio.wait(futures, timeout=seconds))
        return pending

    try:
        task = loop.create_task(coro)  # type: ignore[arg-type]
        limit = scaled(timeout)  # a backstop against a hang, stretched like the waits inside it
        if within(limit, task):
            task.cancel()
            hung = f"; its clean-up did not end within {cleanup:g} s either" if within(cleanup, task) else ""
            raise TimeoutError(f"not done within {limit:.0f} s{hung}")
        return task.result()
    finally:
        try:
            rest = asyncio.all_tasks(loop)
            for other in rest:
                other.cancel()
            within(cleanup, *rest)
            within(cleanup, loop.shutdown_asyncgens(), loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


async def in_process_host(
    tmp: Path,
    *,
    clocks: dict[str, Any] | None = None,
    clock: Any = None,
    autostart: bool = True,
    bot_pace: float = 0.0,
    options: Any = None,
    fixed_deal: Any = None,
    hidden_hands: bool = False,
    bot_factory: Any = None,
) -> tuple[Host, Any]:
    """A real host in this process with one table (rule options `options`, a RuleOptions;
    a `FixedDeal` instead of the shuffle; hands hidden even from the host, if asked; its
    in-process bots made by `bot_factory`, if given)."""
    host = Host(Keys.generate(), clock=clock, bot_pace=bot_pace, bot_factory=bot_factory)
    await host.start()
    lobby = Lobby(options, clocks=ClockSettings.from_dict({**FAST, **(clocks or {})}))
    table = host.open_table(
        "test",
        journal_dir=str(tmp / "games"),
        lobby=lobby,
        autostart=autostart,
        fsync=False,
        fixed_deal=fixed_deal,
        hidden_hands=hidden_hands,
    )
    return host, table


class Capture(logging.Handler):
    """Every log message, as its text (`captured_logs`)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def captured_logs() -> Iterator[Capture]:
    """Every logger's messages down to DEBUG (what `--verbose` would write), for a test that
    looks for what must never be logged."""
    capture = Capture()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(old_level)


def seat_bots(host: Host, table: Any, count: int, level: str = "random") -> None:
    for _ in range(count):
        _seat, token = table.lobby.add_bot(None, level)
        host.spawn_bot(table, token, level)


async def until(
    predicate: Callable[[], bool], timeout: float, step: float = 0.02, what: Callable[[], Any] | None = None
) -> None:
    """Wait until `predicate()` holds; `what()` says what was seen instead when it never does."""
    deadline = time.monotonic() + scaled(timeout)
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time" + (f"; seen: {what()}" if what else ""))
        await asyncio.sleep(step)


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    return e


class Procs:
    """Child processes of one test; all killed and reaped on close()."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []

    def start(self, args: list[str], name: str) -> subprocess.Popen:
        out = open(self.tmp / f"{name}.out", "ab")
        err = open(self.tmp / f"{name}.err", "ab")
        proc = subprocess.Popen(args, stdout=out, stderr=err, cwd=ROOT, env=env(), start_new_session=True)
        proc.name = name  # type: ignore[attr-defined]
        self.procs.append(proc)
        out.close()
        err.close()
        return proc

    def host(self, tmp: Path, *extra: str, name: str = "host") -> subprocess.Popen:
        return self.start(
            [
                PY,
                "-m",
                "modernart.cli.main",
                "-v",
                "host",
                "--bind",
                "127.0.0.1",
                "--no-beacon",
                "--config-dir",
                str(tmp / "hostcfg"),
                "--journal-dir",
                str(tmp / "games"),
                *extra,
            ],
            name,
        )

    def bot(self, join: str, index: int, pace: float = 0.0, name: str | None = None) -> subprocess.Popen:
        return self.start(
            [
                PY,
                "-m",
                "modernart.net.client.bot",
                join,
                "--pace",
                str(pace),
                "--name",
                f"bot{index}",
                "--config-dir",
                str(self.tmp / f"bot{index}"),
                "--seed",
                str(index),
            ],
            name or f"bot{index}",
        )

    def output(self, name: str) -> str:
        path = self.tmp / f"{name}.out"
        return path.read_text() if path.exists() else ""

    def errors(self, name: str) -> str:
        path = self.tmp / f"{name}.err"
        return path.read_text() if path.exists() else ""

    def wait_output(self, name: str, pattern: str, timeout: float) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(pattern, self.output(name))
            if match:
                return match
            time.sleep(0.05)
        raise AssertionError(f"{name} never printed {pattern!r}; stderr:\n{self.errors(name)[-3000:]}")

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


def final_money_of(record_path: str) -> list[int]:
    record = read_record(record_path)
    state = record.replay()
    assert state.is_over() and not record.check_result(state)
    return list(state.money)


def keyed_table(tmp: Path, players: int = 4) -> tuple[Any, "SessionDriver"]:
    """A started `Table` (no host process, no clocks) whose seats are held by keys of their
    own, and the driver that plays them."""
    from modernart.net.host.table import Table

    host = Keys.generate()
    keys = [Keys.generate() for _ in range(players)]
    lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0))
    for k in keys:
        _seat, token = lobby.add_bot(None, "random")
        lobby.claim_bot(token, k.vk)
    table = Table("t1", "test", host, journal_dir=str(tmp), lobby=lobby, fsync=False)
    table.start(0.0)
    return table, SessionDriver(table.game, keys)


class SessionDriver:
    """Plays a `HostedGame` directly (no sockets) with the seats' own keys, as clients would:
    signed seeds, then random moves, and every Sealed auction by commit-reveal."""

    def __init__(self, session: Any, keys: list[Keys], seed: int = 3, now: float = 0.0) -> None:
        import random

        self.sess = session
        self.keys = keys
        self.rng = random.Random(seed)
        self.now = now
        self.bids: dict[tuple[int, int], tuple[int, bytes]] = {}  # (auction, seat) -> (amount, nonce)
        self.ctr = [100] * len(keys)  # each seat's last action counter (signed moves, hidden hands)

    def seed(self, seat: int) -> tuple[list[Any], bytes]:
        """Seat `seat` sends a fresh signed seed: (the events, the seed)."""
        from modernart.net.protocol.signed import SEED_TAG, SeedCommit, seed_commitment
        from modernart.net.trust.identity import new_nonce

        sess, k = self.sess, self.keys[seat]
        seed = new_nonce()
        body = SeedCommit(sess.game_id, seat, k.vk, seed_commitment(sess.game_id, seat, k.vk, seed)).body()
        return sess.submit_seed(k.vk, seat, body, k.sign(SEED_TAG, body), seed, self.now), seed

    def seed_all(self) -> list[Any]:
        return [e for seat in range(len(self.keys)) for e in self.seed(seat)[0]]

    def commit(self, seat: int, amount: int) -> list[Any]:
        from modernart.net.protocol.signed import COMMIT_TAG, Commit, bid_commitment
        from modernart.net.trust.identity import new_nonce

        sess, k = self.sess, self.keys[seat]
        auction = sess.state.auction_no
        nonce = new_nonce()
        self.bids[(auction, seat)] = (amount, nonce)
        c = bid_commitment(sess.game_id, auction, seat, k.vk, amount, nonce)
        body = Commit(sess.game_id, auction, seat, k.vk, c).body()
        return sess.submit_commit(k.vk, seat, body, k.sign(COMMIT_TAG, body), self.now)

    def reveal(self, seat: int, amount: int | None = None) -> list[Any]:
        from modernart.net.protocol.signed import REVEAL_TAG, Reveal

        sess, k = self.sess, self.keys[seat]
        auction = sess.sealed.auction
        stored, nonce = self.bids[(auction, seat)]
        body = Reveal(
            sess.game_id, auction, seat, k.vk, stored if amount is None else amount, nonce, sess.sealed.digest
        ).body()
        events, _seat, _why = sess.submit_reveal(body, k.sign(REVEAL_TAG, body), self.now)
        return events

    def step(self) -> list[Any]:
        """One move, or one whole Sealed auction (commit, set, reveal, settle)."""
        from modernart.auctions import NO_BID
        from modernart.bots.random_bot import random_move
        from modernart.phase import Phase

        sess = self.sess
        state = sess.state
        events: list[Any] = []
        if state.phase == Phase.SEALED:
            rnd = sess.sealed
            for seat in range(state.n):
                if rnd.entries[seat] is None:
                    events += self.commit(seat, self.rng.randint(0, min(state.money[seat], 30)))
            for seat in range(state.n):
                if sess.sealed is rnd and state.sealed[seat] == NO_BID and seat not in rnd.reveals:
                    events += self.reveal(seat)
            return events
        move = random_move(state, state.to_move()[0], self.rng.random)
        if sess.hidden is not None and not clock_may_play(state, move):
            return self.signed(move)  # a table that hides hands takes only the rules' default by the clock
        state.apply(move)
        return sess.move_events(move, self.now, {"m": move.to_list(), "by": "clock"})

    def signed(self, move: Any) -> list[Any]:
        """`move` as its seat's client sends it: signed, with the seat's next counter."""
        from modernart.net.protocol.signed import ACT_TAG, encode_action_body

        sess, seat = self.sess, move.seat
        self.ctr[seat] += 1
        body = encode_action_body(sess.game_id, seat, self.ctr[seat], move.to_list(), sess.seq, None)
        events, _ctr = sess.submit(self.keys[seat].vk, seat, body, self.keys[seat].sign(ACT_TAG, body), self.now)
        return list(events)

    def play(self, moves: int) -> None:
        """Play until at least `moves` engine moves are applied, stopping outside a Sealed auction."""
        from modernart.phase import Phase

        state = self.sess.state
        while (state.move_count < moves or state.phase == Phase.SEALED) and not state.is_over():
            self.step()


def clock_may_play(state: Any, move: Any) -> bool:
    """Whether a client at a table that hides hands takes `move` "by clock": a pass or the
    hammer in an Open auction, else the rules' default for the step (net/clocks.py)."""
    from modernart.moves import Action
    from modernart.net.clocks import fixed_default
    from modernart.phase import Phase

    if state.phase == Phase.OPEN:
        return bool(move.action in (Action.PASS, Action.HAMMER))
    return bool(move == fixed_default(state.observation(move.seat)))


async def seated_clients(host: Host, count: int, tmp: Path | None = None, **options: Any) -> list[Any]:
    """`count` clients (own keys; a config dir under `tmp` if given) seated, ready, dealt."""
    from modernart.net.client.client import Client

    clients = []
    for i in range(count):
        kwargs = {"config_dir": str(tmp / f"player{i}")} if tmp is not None else {"keys": Keys.generate()}
        c = Client(host.target(), **kwargs, **options)
        await c.connect()
        assert (await c.take_seat(f"P{i}")).ok
        clients.append(c)
    for c in clients:
        assert (await c.ready()).ok
    for c in clients:
        await c.wait_until(lambda s: s.observation is not None, 15)
    clients.sort(key=lambda c: c.state.seat)
    return clients


def _cheap_move(obs: Any) -> Any:
    """A move that keeps money where it is, preferring to put up Sealed cards."""
    from modernart.cards import AuctionType
    from modernart.moves import Move
    from modernart.phase import Phase

    seat, phase = obs.seat, obs.phase
    if phase == Phase.PLAY_CARD:
        ranked = sorted(obs.hand, key=lambda c: (c.kind != AuctionType.SEALED, c.kind == AuctionType.DOUBLE))
        return Move.play(seat, ranked[0])
    if phase == Phase.OPEN:
        return Move.hammer(seat)
    if phase == Phase.ONCE_AROUND:
        return Move.pass_(seat)
    if phase == Phase.FIXED_SET:
        return Move.set_price(seat, 1 if obs.money > 0 else 0)
    if phase == Phase.FIXED_OFFER:
        return Move.decline(seat)
    if phase == Phase.DOUBLE_OFFER:
        return Move.decline_second(seat)
    raise AssertionError(f"no cheap move in {phase}")


async def drive_to_sealed(clients: list[Any], table: Any, timeout: float = 30.0) -> int:
    """Play cheap moves until a Sealed auction runs and every client sees it; its number."""
    from modernart.phase import Phase

    sess = table.game
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = sess.state
        if state.is_over():
            raise AssertionError("the game ended without a Sealed auction")
        for c in clients:
            await c.wait_until(lambda s: s.head_seq >= sess.seq, 10)
        if state.phase == Phase.SEALED:
            return state.auction_no
        if sess.call is not None and sess.call.auction == state.auction_no:
            await asyncio.sleep(0.05)  # the hammer is being called: it falls on its own
            continue
        seat = state.auctioneer if state.phase in (Phase.OPEN, Phase.PLAY_CARD, Phase.FIXED_SET) else state.to_move()[0]
        reply = await clients[seat].send_move(_cheap_move(clients[seat].state.observation))
        assert reply.ok, reply
    raise AssertionError("no Sealed auction in time")


async def close_all(clients: list[Any], host: Host | None = None) -> None:
    for c in clients:
        await c.close()
    if host is not None:
        await host.close()


class CheapBidder:
    """A bot brain that spends nothing outside Sealed auctions and seals `amount` (or all it has)."""

    def __init__(self, amount: int) -> None:
        self.amount = amount

    def choose(self, obs: Any) -> Any:
        from modernart.moves import Move
        from modernart.phase import Phase

        if obs.phase == Phase.SEALED:
            return Move.sealed_bid(obs.seat, min(self.amount, obs.money))
        return _cheap_move(obs)

    def pace(self, obs: Any, move: Any) -> float:
        return 0.0


def _bidder_main(argv: list[str]) -> int:
    """python -m tests.net_helpers bidder JOIN AMOUNT NAME CONFIG_DIR: a CheapBidder in its own process."""
    from modernart.net.client.bot import BotClient

    join, amount, name, config = argv
    bot = BotClient(join, config_dir=config, name=name, pace_scale=0)
    bot.bot = CheapBidder(int(amount))  # type: ignore[assignment]
    obs = asyncio.run(bot.run())
    print(f"game over: seat {obs.seat}", flush=True)
    return 0


def _unshare_works() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    try:
        return subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


needs_netns = pytest.mark.skipif(not _unshare_works(), reason="unshare -n is not permitted here")


def in_namespace(script: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run a shell script in a fresh network namespace that has only loopback (up), so
    nothing it sends reaches a real interface."""
    return subprocess.run(
        ["unshare", "-n", "sh", "-c", "ip link set lo up && " + script],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["bidder"]:
        raise SystemExit(_bidder_main(sys.argv[2:]))


def signed_deck_step(sess: Any, keys: Keys, seat: int, **part: Any) -> dict[str, Any]:
    """Seat `seat`'s deck step (`key=`, `shuffle=`, `shares=` or `secret=`, wire forms) as its
    client sends it to `sess` (a hidden-hands `HostedGame`): signed with `keys`, bound to the
    game, the deck and the host's head (net/trust/deck_steps.py)."""
    from modernart.net.trust.deck import DeckError, DeckKey, Share, Shuffle
    from modernart.net.trust.deck_steps import sign_step
    from modernart.net.trust.group import read_scalar

    ledger = sess.hidden.ledger
    steps = [(k, v) for k, v in part.items() if k in ("key", "shuffle", "shares", "secret")]
    if len(steps) != 1:  # not one step: refused as it is read, before its signature
        return {**part, "signed": [b"malformed", bytes(64)]}
    ((kind, wire),) = steps
    value: Any
    try:
        if kind == "key":
            value = DeckKey.from_wire(wire)
        elif kind == "shuffle":
            value = Shuffle.from_wire(wire, ledger.size)
        elif kind == "shares":
            value = [Share.from_wire(s) for s in wire]
        else:
            value = read_scalar(wire)
    except (DeckError, ValueError):  # a malformed value: refused as it is read, before its signature
        return {**part, "signed": [b"malformed", bytes(64)]}
    sig = sign_step(keys, sess.game_id, seat, kind, ledger.epoch, sess.seq, sess.head, value)
    return {**part, "signed": sig}


def play_hidden_card(sess: Any, keys: Keys, seat: int, deck: Any, move: Any, ctr: int, now: float = 0.0) -> list[Any]:
    """Seat `seat` plays `move` (a card of its hand, `deck` its `SeatDeck`) at a hidden-hands
    `HostedGame` as its client does (protocol 3): the signed action names the card's slot, the
    host commits to it (a `play` event), then the opening; every event it made."""
    from modernart.net.protocol.signed import ACT_TAG, encode_action_body

    ledger = sess.hidden.ledger
    slot = next(s for s, c in deck.hand(ledger).items() if c == move.arg)
    body = encode_action_body(sess.game_id, seat, ctr, [seat, int(move.action), slot], sess.seq, {"deck": ledger.epoch})
    events, _ctr = sess.submit(keys.vk, seat, body, keys.sign(ACT_TAG, body), now)
    opening = deck.opening(ledger, move.arg).to_wire()
    return events + sess.submit_opening(keys.vk, seat, opening, now)
