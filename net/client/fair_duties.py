"""A client's fair-play duties, done by itself (no UI action): seeds, commitments, reveals,
the steps of a hidden deck, and the transcript and record it saves when the game ends.

- At the start of a game a seated client stores a fresh seed, then sends its signed
  commitment with the seed (net/trust/shuffle.py).
- A sealed bid (`Client.send_move(Move.sealed_bid(seat, amount))`) stores amount and nonce
  on disk (net/trust/vault.py) and only then sends the signed commitment.  The host
  acknowledges it and publishes it only in the complete set; so after every (re)connect,
  until the set has arrived, the client sends its stored commitment again (a host whose
  machine lost power may have lost it; one that has it answers `already_committed`).
- Once the complete commitment set has arrived and checked out (net/trust/verified_game.py), the
  client reveals: a signed {amount, nonce, D}.  It sends again after a reconnect or a
  restart, from disk, until the auction is settled.
- At a table that hides hands (net/trust/hidden_deck.py), once it holds every event the
  host had at its welcome: its deck key (on disk first), its shuffle in turn, its shares of
  the cards dealt to others, each signed and bound to the event it verified
  (net/trust/deck_steps.py, and noted as sent: the host must record exactly these); the
  opening of a card play only once the host has committed to it (a `play` event); its
  secret deck key only once its own checked record shows the game over.
- A client that stops trusting the host keeps the evidence (`save_evidence`).
- A host that names this seat late (`dlate`) with a deck step this client sent, signed, is
  sent it once more; if the host's chain still lacks it once the host has answered, the
  screen says so (`step_unrecorded`) and the client keeps the evidence: its checked events
  and the signed step it sent (`unrecorded_step`).
- When the game is over and disclosed, a client with a state dir saves its copy of the
  transcript and a record built from it (`<state dir>/games/`), and audits them (net/trust/audit.py) in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any, Awaitable, Callable, Coroutine

from modernart.events import SealedRevealed
from modernart.moves import Move
from modernart.phase import Phase

from modernart.net.client.state import Reply, Update
from modernart.net.client.updates import UpdateFeed
from modernart.net.protocol import pack
from modernart.net.protocol.frames import (
    MAX_TAIL_EVENTS,
    commit_frame,
    deck_frame,
    open_frame,
    reveal_frame,
    seed_frame,
    tail_frame,
)
from modernart.net.protocol.signed import (
    COMMIT_TAG,
    REVEAL_TAG,
    SEED_TAG,
    Commit,
    Reveal,
    SeedCommit,
    bid_commitment,
    decode_deck_step,
    seed_commitment,
)
from modernart.net.trust.deck import make_share
from modernart.net.trust.deck_steps import StepValue, sign_step
from modernart.net.trust.group import read_scalar, scalar_bytes
from modernart.net.trust.hidden_deck import DeckLedger, SeatDeck
from modernart.net.trust.shuffle_checks import deck_digest
from modernart.net.trust.identity import Keys, new_nonce
from modernart.net.trust.verified_game import DECK_STEP_WORDS, EventInfo, VerifiedGame
from modernart.net.trust.sealed import MISSING
from modernart.net.trust.vault import Secret, Vault

#: Sends a request frame and waits for its reply (net/client/requests.py)
Request = Callable[[dict[str, Any]], Awaitable[Reply]]

log = logging.getLogger("modernart.net.client.client")
RESEND_AFTER = 3.0  # seconds before a duty's message is sent again (reconnects resend at once)
MAX_SHARES_FRAME = 64  # shares in one deck frame (the host's bound on a list's length)
TAIL_FRAME_BYTES = 48 * 1024  # events per `tail` frame: well within the host's MAX_HOST_FRAME


def tail_chunks(frames: list[dict[str, Any]]) -> list[list[bytes]]:
    """Events given back to a host (`ev` frames, oldest first) packed without their private
    parts and cut into the contents of `tail` frames: at most MAX_TAIL_EVENTS events and
    TAIL_FRAME_BYTES each (a hidden deck's shuffle event is ~14 KB: three go in one frame)."""
    chunks: list[list[bytes]] = [[]]
    size = 0
    for frame in frames:
        data = pack({**frame, "priv": None})
        if chunks[-1] and (size + len(data) > TAIL_FRAME_BYTES or len(chunks[-1]) >= MAX_TAIL_EVENTS):
            chunks.append([])
            size = 0
        chunks[-1].append(data)
        size += len(data)
    return chunks


def frame_step(frame: dict[str, Any]) -> str:
    """Which deck step a `deck` frame carries: key, shuffle, shares or secret."""
    return next((k for k in ("key", "shuffle", "shares", "secret") if k in frame), "")


def recorded(follower: VerifiedGame, seat: int, frame: dict[str, Any]) -> bool:
    """Whether the host's chain (`follower`, checked) holds the deck step of `seat` that
    `frame` carries: its key, a shuffle of the deck in hand, every share, its secret."""
    deck = follower.deck
    if deck is None:
        return True
    step = frame_step(frame)
    if step == "key":
        return deck.keys[seat] is not None
    if step == "shuffle":
        return any(shuffle.seat == seat for shuffle in deck.shuffles)
    if step == "shares":
        slots = [wire.get("slot") if isinstance(wire, dict) else None for wire in frame["shares"]]
        return all(type(k) is int and 0 <= k < deck.size and seat in deck.shares[k] for k in slots)
    return follower.deck_secrets[seat] is not None


#: the refused card plays a client remembers (a player makes a few a turn; the host gains
#: nothing by refusing more, as each is refused before any card leaves)
MAX_WITHDRAWN = 256


class FairPlay:
    """The duties of one client (see the module docstring)."""

    def __init__(
        self,
        keys: Keys,
        feed: UpdateFeed,
        request: Request,
        vault: Vault,
        save_dir: str | None,
        table_id: str | None,
        begin: Request | None = None,
    ) -> None:
        self.keys = keys  # the client's: it signs every seed, commitment and reveal
        self.feed = feed
        self.request = request
        # sends at once and returns what waits for the reply (net/client/requests.py `begin`)
        self.begin = begin or request
        self.table_id = table_id  # named in the saved files
        self.vault = vault
        self.save_dir = save_dir
        self.sent: dict[tuple[Any, ...], float] = {}
        self.acked: set[bytes] = set()  # commitments / reveals the host acknowledged
        self.confirmed: set[bytes] = set()  # commitments the host acknowledged since the last welcome
        # the host holds this seat's commitment in that auction: (seat, auction)
        self.show_sealed: Callable[[int, int], None] = lambda seat, auction: None
        self.follower: Callable[[], VerifiedGame | None] = lambda: None  # the client's checked game
        # whether the client holds every event the host had at the last welcome: a deck step
        # answers only a history this client has verified to the host's head
        self.caught_up: Callable[[], bool] = lambda: True
        # cards whose opening left this client and that are not played yet: from then on the
        # host has seen them, so only such a card is offered (`Client.send_move`)
        self.shown: set[int] = set()
        # bodies of this seat's card plays that the host refused (in the order refused, the
        # oldest forgotten past MAX_WITHDRAWN): a `play` event carrying one is refused
        # (net/trust/verified_game.py `_check_play`); kept here, so that a new checked copy
        # of the game (after a reset) still knows them
        self.withdrawn: dict[bytes, None] = {}
        self.tasks: set[asyncio.Task] = set()
        self.save_task: asyncio.Task | None = None
        # the last deck frame this seat sent for each (step, deck): what it sends again, and
        # keeps as evidence, if the host names it late with that step (`unrecorded_step`)
        self.sent_steps: dict[tuple[bytes, str, int], dict[str, Any]] = {}  # (game, step, deck) -> frame
        self.resent: set[tuple[bytes, str, int]] = set()  # sent again once after a `dlate`: never twice

    def withdraw(self, body: bytes) -> None:
        """Note a card play of this seat that the host refused: withdrawn, it can never be
        committed (its counter was not used, so its signature alone would still pass)."""
        self.withdrawn[body] = None
        while len(self.withdrawn) > MAX_WITHDRAWN:
            del self.withdrawn[next(iter(self.withdrawn))]
        follower = self.follower()
        if follower is not None:
            follower.own_actions.pop(body, None)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _store(self, secret: Secret) -> None:
        if self.vault.directory is None:  # kept in memory (no config dir): nothing to wait for
            self.vault.put(secret)
            return
        await asyncio.get_running_loop().run_in_executor(None, self.vault.put, secret)  # fsync off the loop

    def attach(
        self,
        show_sealed: Callable[[int, int], None],
        follower: Callable[[], VerifiedGame | None],
        caught_up: Callable[[], bool] | None = None,
    ) -> None:
        """Wire in the client's receiving side: what shows a seat as sealed, its checked game,
        and whether it has caught up with the host."""
        self.show_sealed = show_sealed
        self.follower = follower
        if caught_up is not None:
            self.caught_up = caught_up

    def welcome(self) -> None:
        """After a (re)connect: every pending duty may be sent again at once (a commitment
        too: the host may have lost it, see the module docstring)."""
        self.sent.clear()
        self.confirmed.clear()

    @property
    def saving(self) -> bool:
        return self.save_task is not None and not self.save_task.done()

    async def close(self) -> None:
        if self.save_task is not None:  # a record being saved is finished, not cut short
            await asyncio.gather(self.save_task, return_exceptions=True)
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    # ------------------------------------------------------------------ sealed bids

    async def sealed_bid(self, move: Move) -> Reply:
        st = self.feed.state
        obs, game, seat, key = st.observation, st.game_id, st.seat, self.keys.vk
        if obs is None or game is None or seat is None or obs.phase != Phase.SEALED:
            return Reply(False, "wrong_phase", "no Sealed auction is running")
        auction = obs.auction_no
        secret = self.vault.find("bid", game, auction, key, seat)
        if secret is None:
            if seat not in obs.to_move:
                return Reply(False, "already_committed", "your sealed bid is already committed")
            if not 0 <= move.arg <= obs.money:
                return Reply(False, "bid_over_money", f"a sealed bid must be 0..{obs.money}")
            nonce = new_nonce()
            secret = Secret(
                "bid",
                game,
                auction,
                seat,
                key,
                move.arg,
                nonce,
                bid_commitment(game, auction, seat, key, move.arg, nonce),
            )
            self.sent[("commit", game, auction, seat)] = time.monotonic()  # `duties` does not send it too
            await self._store(secret)  # on disk before the commitment leaves
        self.sent[("commit", game, auction, seat)] = time.monotonic()
        reply = await self._commit(secret)
        if reply.ok and secret.value != move.arg:
            return Reply(
                False, "already_committed", f"your sealed bid of {secret.value} was committed before", reply.seq
            )
        return reply

    async def _commit(self, secret: Secret) -> Reply:
        """Send the signed commitment of stored bid `secret`; once the host acknowledged it,
        show this seat as sealed."""
        body = Commit(secret.game, secret.auction, secret.seat, secret.key, secret.c).body()
        sig = self.keys.sign(COMMIT_TAG, body)
        follower = self.follower()
        if follower is not None and follower.sealed is not None:
            follower.sealed.own_commit(body, sig)  # found in the set as sent: no second signature check
        reply = await self.request(commit_frame(body, sig))
        if reply.ok or reply.code == "already_committed":
            self.acked.add(secret.c)
            self.confirmed.add(secret.c)
            if self.feed.state.game_id == secret.game:
                self.show_sealed(secret.seat, secret.auction)
        return reply

    async def _send_commit(self, secret: Secret) -> None:
        reply = await self._commit(secret)
        if not reply.ok and reply.code not in (
            "already_committed",
            "connection_lost",
            "host_closed",
            "closed",
            "timeout",
            "recovering",
            "wrong_phase",
            "wrong_auction",
        ):
            self.feed.error(reply.code or "commit", f"the host refused your sealed bid: {reply.message}")

    # ------------------------------------------------------------------ events

    def on_event(self, info: EventInfo, follower: VerifiedGame | None) -> None:
        """Check what an event of `follower` (the client's checked game) means for this client's own secrets."""
        game = self.feed.state.game_id
        if game is None or follower is None:
            return
        pub = info.public
        if info.kind == "deal":  # the seeds are in: this seat's own is no longer needed
            for secret in self.vault.all(game):
                if secret.kind == "seed":
                    self.vault.drop(secret)
        elif info.kind == "commits":
            self._check_commits(game, pub["auction"], follower)
        elif info.kind == "settle":
            self._check_settlement(game, pub)
        for settled in (e for e in info.events if isinstance(e, SealedRevealed)):
            for secret in self._bids(game, None):
                if secret.auction <= settled.auction:
                    self.vault.drop(secret)
        if info.kind == "dlate":
            self.unrecorded_step(info, follower)
        if info.kind == "disclose" and follower.deck is None or info.kind == "dsecret" and follower.deck_disclosed():
            # the game is over and every secret is out (at a hidden-hands table, every deck key too)
            self.vault.drop_game(game)
            if self.save_dir is not None and follower.frames is not None and self.save_task is None:
                self.save_task = asyncio.get_running_loop().create_task(self._save(game, follower))

    def _check_commits(self, game: bytes, auction: int, follower: VerifiedGame) -> None:
        """The complete commitment set of `auction`: every bid this client committed is in it."""
        for secret in self._bids(game, auction):
            entry = follower.sealed.entry(auction, secret.seat) if follower.sealed else None
            if entry is None or entry.default or entry.c != secret.c:
                why = (
                    "the host acknowledged your sealed bid but left it out of the commitment set"
                    if secret.c in self.acked
                    else "your sealed bid is not in the commitment set (it did not reach the host in time)"
                )
                self.feed.error("commitment_left_out", why)

    def _check_settlement(self, game: bytes, pub: dict[str, Any]) -> None:
        """A Sealed settlement: no reveal the host acknowledged is counted as missing."""
        for bid in pub["bids"]:
            mine = [s for s in self._bids(game, pub["auction"]) if s.seat == bid["m"][0]]
            if mine and bid["by"] == "offender" and bid.get("why") == MISSING and mine[0].nonce in self.acked:
                self.feed.error("reveal_dropped", "the host acknowledged your reveal but counted it as missing")

    def _bids(self, game: bytes, auction: int | None) -> list[Secret]:
        key = self.keys.vk
        return [
            s
            for s in self.vault.all(game)
            if s.kind == "bid" and s.key == key and (auction is None or s.auction == auction)
        ]

    def duties(self, follower: VerifiedGame | None) -> None:
        """Send what is owed now in `follower` (the client's checked game): this seat's seed,
        and the reveal of every committed bid."""
        st = self.feed.state
        if follower is None or st.game_id is None or st.status != "connected" or follower.seeds is None:
            return
        seeds, rnd = follower.seeds, follower.sealed.round if follower.sealed else None
        if (
            st.seat is not None
            and st.role in ("player", "standin")
            and seeds.first is None
            and 0 <= st.seat < len(seeds.commits)
            and seeds.commits[st.seat] is None
            and self.keys.vk in follower.keys(st.seat)
        ):
            self._once(("seed", st.game_id, st.seat), self._send_seed(st.game_id, st.seat))
        if follower.deck is not None and st.seat is not None and st.role == "player" and self.caught_up():
            if 0 <= st.seat < len(follower.players) and follower.players[st.seat]["vk"] == self.keys.vk:
                self._deck_duties(st.game_id, st.seat, follower)
        obs = st.observation
        if obs is not None and obs.phase == Phase.SEALED:
            auction = obs.auction_no
            if rnd is None or rnd.auction != auction or rnd.digest is None:  # committed, the set not here yet
                for secret in self._bids(st.game_id, auction):
                    if secret.c not in self.confirmed:
                        self._once(("commit", st.game_id, auction, secret.seat), self._send_commit(secret))
        if rnd is not None and rnd.digest is not None:
            for secret in self._bids(st.game_id, rnd.auction):
                entry = rnd.entries[secret.seat]
                if entry is not None and not entry.default and entry.c == secret.c and secret.seat not in rnd.bids:
                    if self._due(("reveal", st.game_id, rnd.auction, secret.seat)):
                        self._spawn(self._send_reveal(secret, rnd.digest))

    # ------------------------------------------------------------------ the hidden deck

    def restore_deck(self, follower: VerifiedGame) -> None:
        """Read this seat's secret deck key from disk, if a run of this client stored one
        (a restart): called before each event is applied, so the observation it gives
        already holds the hand (a hand read later would leave the seat an empty one until
        the next event)."""
        st = self.feed.state
        deck, game, seat = follower.deck, st.game_id, st.seat
        if deck is None or follower.own_deck is not None or game is None or seat is None or st.role != "player":
            return
        stored = self.vault.find("deck", game, 0, self.keys.vk, seat)
        if stored is not None:
            follower.own_deck = SeatDeck(game, seat, deck.size, read_scalar(stored.nonce))

    def _deck_duties(self, game: bytes, seat: int, follower: VerifiedGame) -> None:
        """This seat's steps of the hidden deck (net/trust/hidden_deck.py): its deck key (kept
        on disk first, like a sealed bid's nonce), its shuffle in turn, its shares of the
        cards dealt to the others, and after the game its secret deck key."""
        deck = follower.deck
        assert deck is not None
        self.restore_deck(follower)
        own = follower.own_deck
        if deck.keys[seat] is None:
            self._once(("dkey", game, seat), self._send_deck_key(game, seat, follower))
            return
        if own is None:
            return  # a key published by another run of this seat whose secret is lost
        if deck.next_proposer == seat:  # the deck before is recorded, or relayed and being checked
            before = deck.proposed_deck
            on = deck_digest(before)
            self._once(("dshuffle", game, seat, deck.epoch, on), self._send_shuffle(own, follower, deck, before, on))
        if deck.shuffled:
            owed = deck.owed(seat)[:MAX_SHARES_FRAME]
            if owed:
                self._once(
                    ("dshares", game, seat, deck.epoch, owed[0], len(owed)), self._send_shares(own, follower, owed)
                )
        pending = follower.pending_play
        if pending is not None and pending[0] == seat:  # the host committed to this seat's card play
            self._once(("open", game, pending[3]), self._send_opening(own, follower, pending[2]))
        # the deck key leaves only once this client's own checked record shows the game over
        # and the seeds disclosed: an earlier `disclose` is refused as it arrives (verified_game.py)
        if follower.game_over and follower.shuffle is not None and deck.keyed and follower.deck_secrets[seat] is None:
            self._once(
                ("dsecret", game, seat),
                self._send_step(follower, "secret", own.secret, secret=scalar_bytes(own.secret)),
            )

    async def _send_deck_key(self, game: bytes, seat: int, follower: VerifiedGame) -> None:
        deck = follower.deck
        assert deck is not None
        key = self.keys.vk
        stored = self.vault.find("deck", game, 0, key, seat)
        if stored is None:
            own = SeatDeck(game, seat, deck.size)
            stored = Secret("deck", game, 0, seat, key, 0, scalar_bytes(own.secret), own.key.h)
            await self._store(stored)  # on disk before the key leaves: a restart reads its hand again
        else:
            own = SeatDeck(game, seat, deck.size, read_scalar(stored.nonce))
        follower.own_deck = own
        await self._send_step(follower, "key", own.key, key=own.key.to_wire())

    async def _send_shuffle(
        self, own: SeatDeck, follower: VerifiedGame, deck: DeckLedger, before: Any, on: bytes
    ) -> None:
        loop = asyncio.get_running_loop()
        epoch, ref = deck.epoch, follower.seq  # the deck and the history this shuffle answers
        shuffle, _secret = await loop.run_in_executor(None, own.shuffle, deck, before)  # ~0.1 s of CPU
        follower.own_shuffles.append(shuffle)  # relayed back (`dnext`), it is taken as this seat's
        if deck.checks is not None:  # its own shuffle: no need to check it when it comes back
            deck.checks.vouch(own.game, deck.joint, before, shuffle)
        await self._send_step(follower, "shuffle", shuffle, epoch, ref, shuffle=shuffle.to_wire(), on=on)

    async def _send_shares(self, own: SeatDeck, follower: VerifiedGame, slots: list[int]) -> None:
        deck = follower.deck
        assert deck is not None
        epoch, ref = deck.epoch, follower.seq
        cards = [(slot, deck.deck[slot]) for slot in slots]

        def make() -> list[Any]:
            return [make_share(own.game, own.seat, own.secret, slot, card) for slot, card in cards]

        shares = await asyncio.get_running_loop().run_in_executor(None, make)
        await self._send_step(follower, "shares", shares, epoch, ref, shares=[share.to_wire() for share in shares])

    async def _send_step(
        self,
        follower: VerifiedGame,
        kind: str,
        value: StepValue,
        epoch: int | None = None,
        ref: int | None = None,
        **part: Any,
    ) -> None:
        """Sign this seat's deck step `kind` with `value` (net/trust/deck_steps.py), bound to
        the deck `epoch` and the event `ref` this client verified (now, by default), note it
        as sent (the host must record exactly it) and send it."""
        deck, own = follower.deck, follower.own_deck
        assert deck is not None and own is not None
        epoch = deck.epoch if epoch is None else epoch
        ref = follower.seq if ref is None else ref
        head = follower.head_at(ref)
        if head is None:
            return  # nothing verified yet to answer
        signed = sign_step(self.keys, own.game, own.seat, kind, epoch, ref, head, value)
        follower.sent_step(kind, epoch, signed[0])
        frame = deck_frame(signed, **part)
        if len(self.sent_steps) > 64:  # an earlier game's: forget the oldest
            del self.sent_steps[next(iter(self.sent_steps))]
        self.sent_steps[(own.game, kind, epoch)] = frame
        await self._deck_request(frame)

    def unrecorded_step(self, info: EventInfo, follower: VerifiedGame) -> None:
        """The host names this seat late (`dlate`, event `info`) with a deck step this client
        has sent: it may have lost it, so it goes once more; if the host's chain still lacks
        it once the host has answered (or not, within the request's time), the screen says
        the host has not recorded it and the evidence is kept (docs/fair-play.md "What the
        host can still do")."""
        st, deck = self.feed.state, follower.deck
        step = info.public.get("step")
        if deck is None or st.game_id is None or st.seat is None or not isinstance(step, str):
            return
        if info.public.get("seat") != st.seat:
            return
        sent = (st.game_id, step, deck.epoch)
        frame = self.sent_steps.get(sent)
        if frame is None or sent in self.resent or recorded(follower, st.seat, frame):
            return
        self.resent.add(sent)
        log.warning("the host names this seat late with a step it sent: sent again step=%s", step)
        self._spawn(self._resend_step(st.game_id, st.seat, info.seq, frame, follower))

    async def _resend_step(
        self, game: bytes, seat: int, late_at: int, frame: dict[str, Any], follower: VerifiedGame
    ) -> None:
        reply = await self.request(frame)
        if recorded(follower, seat, frame) or self.feed.state.game_id != game:
            return
        if reply.code in ("connection_lost", "host_closed", "closed"):  # the link went: a later `dlate` tries again
            self.resent.discard((game, frame_step(frame), decode_deck_step(frame["signed"][0]).epoch))
            return
        what = DECK_STEP_WORDS.get(frame_step(frame), "its deck step")
        ref = decode_deck_step(frame["signed"][0]).ref_seq
        why = (
            f"the host named this seat late with {what} (event {late_at}), but this client sent it, signed "
            f"after event {ref}, and sent it again"
            + (f" (the host answered: {reply.code})" if not reply.ok else "")
            + ": the host has not recorded it, so the table waits on the host, not on this seat"
        )
        self.feed.error("step_unrecorded", why)
        if follower.frames is not None:
            self.save_evidence(game, list(follower.frames), follower.host_vk, why, sent=[frame])

    async def _send_opening(self, own: SeatDeck, follower: VerifiedGame, slot: int) -> None:
        """Open the card of the play the host committed to (its `play` event): this seat's own
        proven share of the slot.  From now on the host has seen the card (`shown`)."""
        deck = follower.deck
        assert deck is not None
        card = own.hand(deck).get(slot)
        if card is None:
            return
        share = make_share(own.game, own.seat, own.secret, slot, deck.deck[slot])
        self.shown.add(card)
        reply = await self.request(open_frame(share.to_wire()))
        if not reply.ok and reply.code not in (
            "connection_lost",
            "host_closed",
            "closed",
            "timeout",
            "recovering",
            "no_play",
        ):
            self.feed.error(
                reply.code or "open",
                f"the host refused the opening of your card play: {reply.message}; "
                "that card is shown now, so it is the one you play",
            )

    async def _deck_request(self, frame: dict[str, Any]) -> None:
        reply = await self.request(frame)
        if not reply.ok and reply.code not in (
            "connection_lost",
            "host_closed",
            "closed",
            "timeout",
            "recovering",
            "already_disclosed",
            "not_your_shuffle",
            "stale_shuffle",
            "bad_share",
        ):
            self.feed.error(reply.code or "deck", f"the host refused this seat's deck step: {reply.message}")

    def _once(self, duty: tuple[Any, ...], coro: Any) -> None:
        if not self._due(duty):
            coro.close()
            return
        self._spawn(coro)

    def _due(self, duty: tuple[Any, ...]) -> bool:
        """Whether `duty` is to be sent now (not sent within RESEND_AFTER); if so, noted as sent."""
        now = time.monotonic()
        if now - self.sent.get(duty, -1e9) < RESEND_AFTER:
            return False
        self.sent[duty] = now
        return True

    async def _send_seed(self, game: bytes, seat: int) -> None:
        key = self.keys.vk
        secret = self.vault.find("seed", game, 0, key, seat)
        if secret is None:
            seed = new_nonce()
            secret = Secret("seed", game, 0, seat, key, 0, seed, seed_commitment(game, seat, key, seed))
            await self._store(secret)
        body = SeedCommit(game, seat, key, secret.c).body()
        reply = await self.request(seed_frame(body, self.keys.sign(SEED_TAG, body), secret.nonce))
        if not reply.ok and reply.code not in (
            "already_seeded",
            "dealt",
            "connection_lost",
            "host_closed",
            "closed",
            "timeout",
            "recovering",
        ):
            self.feed.error(reply.code or "seed", f"the host refused this seat's shuffle seed: {reply.message}")

    def _send_reveal(self, secret: Secret, digest: bytes) -> Coroutine[Any, Any, None]:
        """Send the reveal of `secret` under set digest `digest` now (in the middle of the
        burst that brought the set: the host settles when the last reveal is in); returns
        what handles the host's answer."""
        body = Reveal(secret.game, secret.auction, secret.seat, secret.key, secret.value, secret.nonce, digest).body()
        return self._revealed(secret, self.begin(reveal_frame(body, self.keys.sign(REVEAL_TAG, body))))

    async def _revealed(self, secret: Secret, answer: Awaitable[Reply]) -> None:
        reply = await answer
        if reply.ok or reply.code == "already_revealed":
            self.acked.add(secret.nonce)
        elif reply.code not in (
            "connection_lost",
            "host_closed",
            "closed",
            "timeout",
            "no_reveal",
            "wrong_auction",
            "recovering",
        ):
            self.feed.error(reply.code or "reveal", f"the host refused your reveal: {reply.message}")

    # ------------------------------------------------------------------ a host that lost events

    def give_back(self, frames: list[dict[str, Any]]) -> None:
        """Send a host that lost its journal's tail (a power loss) the events this client
        holds past it (`ev` frames without the private part, oldest first), in `tail` frames."""
        self._spawn(self._give_back(tail_chunks(frames)))

    async def _give_back(self, chunks: list[list[bytes]]) -> None:
        for chunk in chunks:
            reply = await self.request(tail_frame(chunk))
            if not reply.ok:
                self.feed.error(reply.code or "tail", f"the host refused the events it had lost: {reply.message}")
                return

    # ------------------------------------------------------------------ a host caught cheating

    def save_evidence(
        self,
        game: bytes,
        frames: list[dict[str, Any]],
        host_vk: bytes,
        why: str,
        sent: list[dict[str, Any]] | None = None,
    ) -> None:
        """This client stopped trusting the host (`why`): keep what it holds, every event it
        checked and the one it refused as the host signed them, in an evidence transcript
        (`<state dir>/games/…-seatN.untrusted.transcript`) that `modernart audit` checks as far
        as it goes (net/trust/audit.py `audit_evidence`).  With `sent` (the deck frames this
        seat signed and sent that the host has not recorded) the host is not refused: the
        file is `…-seatN.unrecorded.transcript` and holds those frames too."""
        from modernart.net.trust.transcript import write_transcript

        if self.save_dir is None:
            return
        st = self.feed.state
        suffix = "unrecorded" if sent is not None else "untrusted"
        path = os.path.join(
            self.save_dir, f"{self.table_id or 't'}-{game.hex()[:12]}-seat{st.seat}.{suffix}.transcript"
        )
        header: dict[str, Any] = (
            {"host_vk": host_vk, "untrusted": why}
            if sent is None
            else {"host_vk": host_vk, "unrecorded": why, "sent": sent}
        )

        def save() -> None:
            os.makedirs(self.save_dir, exist_ok=True)  # type: ignore[arg-type]
            write_transcript(path, frames, header)

        async def saving() -> None:
            try:
                await asyncio.get_running_loop().run_in_executor(None, save)
            except OSError as exc:
                self.feed.error("save_failed", f"could not save the evidence against the host: {exc}")
                return
            st.saved_evidence = path
            self.feed.emit(Update("evidence", path))

        self._spawn(saving())

    # ------------------------------------------------------------------ the end of the game

    async def _save(self, game: bytes, follower: VerifiedGame) -> None:
        from modernart.net.trust.audit import audit_evidence, audit_files, record_from_frames
        from modernart.net.trust.transcript import write_transcript

        assert follower.frames is not None and self.save_dir is not None
        frames = list(follower.frames)
        table = self.table_id or "t"
        st = self.feed.state
        base = os.path.join(self.save_dir, f"{table}-{game.hex()[:12]}-seat{st.seat}")

        def save() -> list[str]:
            os.makedirs(self.save_dir, exist_ok=True)  # type: ignore[arg-type]
            if follower.ended_without is not None:  # ended by the vote: no deck to read, the transcript is the record
                header = {"host_vk": follower.host_vk, "ended_without": follower.ended_without}
                write_transcript(base + ".transcript", frames, header)
                return audit_evidence(base + ".transcript").problems
            write_transcript(base + ".transcript", frames)
            record = record_from_frames(frames, os.path.basename(base + ".transcript"), follower.host_vk)
            record.save(base + ".json")
            return audit_files(base + ".json", base + ".transcript").problems

        try:
            problems = await asyncio.get_running_loop().run_in_executor(None, save)
        except (OSError, ValueError) as exc:
            self.feed.error("save_failed", f"could not save the game's record: {exc}")
            return
        record_path = base + (".transcript" if follower.ended_without is not None else ".json")
        st.saved_record, st.saved_transcript = record_path, base + ".transcript"
        st.audit = problems
        for problem in problems:
            self.feed.error("audit", problem)
        self.feed.emit(Update("record", record_path))
