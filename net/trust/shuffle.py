"""The fair shuffle: the deck order comes from seeds committed by the host and every player.

Before the deal the host publishes its seed commitment (event 1); each seated player
then sends a signed commitment to a fresh 256-bit seed (published) together with the
seed itself (kept by the host).  When every seat's seed is in, or the seed deadline
passes (a missing seed counts as empty and is named in the deal event), the deck order
and the first auctioneer are derived:

  stream = SHAKE-256(DECK_DOMAIN || game_id || host seed
                     || for each seat in seat order: length (1) || seed (32 or 0 bytes))
  Fisher-Yates over [0, 1, ..., size-1]: for i = size-1 down to 1, swap i with
  j = draw(i + 1); then first auctioneer = draw(n).  A game that deals every round afresh
  from the whole reshuffled deck (docs/rules.md §10.2, FA-2) needs one order per round: the
  orders of rounds 2-4 are three more Fisher-Yates shuffles drawn after the first auctioneer,
  all four orders one after the other making the game's deck order.
  draw(m): read 4 bytes of the stream as a big-endian u; retry while
  u >= 2^32 - (2^32 mod m); return u mod m (no modulo bias).

Nobody can steer the deck: the host's seed is fixed before any player's seed reaches
it, and each player's seed is fixed (committed) without knowing any other seed.  At the
end of the game the host discloses every seed and every client re-derives the deal.

A fixed deal (`FixedDeal`, for tests, benchmarks and `modernart play --seed`) replaces the
derived deck order and first auctioneer with chosen ones.  It is never secret and never
comes from a client: the program running the host sets it through the Python API
(`Host.open_table(fixed_deal=...)`), the lobby announces it to everyone before they sit,
event 1 repeats it, and every client checks the deal against it (not against the seeds,
which are still committed, disclosed and checked) and refuses a fixed deal in event 1 that
its table's lobby did not announce (docs/fair-play.md "Fixed deals").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Sequence

from modernart.net.protocol import ProtocolError
from modernart.net.protocol.signed import DECK_DOMAIN, HOST_SEAT, SEED_TAG, SeedCommit, decode_seed, seed_commitment
from modernart.net.trust.identity import new_nonce, signed


@dataclass(frozen=True)
class FixedDeal:
    """A chosen deal: the deck order (dealt front to back, as `GameState(deck_order=...)`)
    and the first auctioneer's seat."""

    order: tuple[int, ...]
    first: int

    @classmethod
    def of(cls, order: Sequence[int], first: int) -> "FixedDeal":
        return cls(tuple(int(c) for c in order), int(first))

    def check(self, deck_size: int, n: int, rounds: int = 1) -> None:
        """ValueError unless the order is `rounds` permutations of the deck (one per round,
        when every round is dealt afresh) and `first` a seat."""
        parts = [sorted(self.order[r * deck_size : (r + 1) * deck_size]) for r in range(rounds)]
        if len(self.order) != deck_size * rounds or any(p != list(range(deck_size)) for p in parts):
            what = "a permutation" if rounds == 1 else f"{rounds} permutations, one per round,"
            raise ValueError(f"a fixed deal's order must be {what} of 0..{deck_size - 1}")
        if not 0 <= self.first < n:
            raise ValueError(f"a fixed deal's first auctioneer must be a seat 0..{n - 1}")

    def to_wire(self) -> dict[str, Any]:
        return {"order": list(self.order), "first": self.first}

    @classmethod
    def from_wire(cls, data: Any) -> "FixedDeal":
        """The fixed deal a lobby or event 1 announces (ValueError if it is not one)."""
        if not isinstance(data, dict) or set(data) != {"order", "first"}:
            raise ValueError("a fixed deal is {order, first}")
        order, first = data["order"], data["first"]
        if not isinstance(order, list) or not all(type(c) is int for c in order) or type(first) is not int:
            raise ValueError("a fixed deal's order and first auctioneer are integers")
        return cls(tuple(order), first)


class _Stream:
    """The SHAKE-256 output read front to back (grown on demand)."""

    def __init__(self, material: bytes) -> None:
        self.material = material
        self.data = b""
        self.pos = 0

    def u32(self) -> int:
        if self.pos + 4 > len(self.data):
            self.data = hashlib.shake_256(self.material).digest(max(1024, 2 * len(self.data)))
        value = int.from_bytes(self.data[self.pos : self.pos + 4], "big")
        self.pos += 4
        return value

    def draw(self, m: int) -> int:
        limit = (1 << 32) - (1 << 32) % m
        while True:
            u = self.u32()
            if u < limit:
                return u % m


def derive_deal(
    game: bytes, host_seed: bytes, seeds: list[bytes | None], deck_size: int, rounds: int = 1
) -> tuple[list[int], int]:
    """(deck order, first auctioneer) from the host's seed and each seat's seed (None: missing);
    with `rounds` > 1, that many deck orders one after the other (the later ones drawn after
    the first auctioneer)."""
    if not seeds or len(host_seed) != 32 or any(s is not None and len(s) != 32 for s in seeds):
        raise ValueError("a deal needs the host's 32-byte seed and one seed (or None) per seat")
    material = bytearray(DECK_DOMAIN + game + host_seed)
    for seed in seeds:
        material += bytes([len(seed or b"")]) + (seed or b"")
    stream = _Stream(bytes(material))
    order = _fisher_yates(stream, deck_size)
    first = stream.draw(len(seeds))
    for _ in range(rounds - 1):
        order += _fisher_yates(stream, deck_size)
    return order, first


def _fisher_yates(stream: _Stream, deck_size: int) -> list[int]:
    order = list(range(deck_size))
    for i in range(deck_size - 1, 0, -1):
        j = stream.draw(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


class SeedRound:
    """Host side: the host's seed and the seats' signed seed commitments and seeds."""

    def __init__(
        self, game: bytes, host_vk: bytes, n: int, host_seed: bytes | None = None, fixed: FixedDeal | None = None
    ) -> None:
        self.game = game
        self.fixed = fixed  # the announced deal, used instead of the derived one
        self.n = n
        self.host_seed = host_seed or new_nonce()
        self.host_commitment = seed_commitment(game, HOST_SEAT, host_vk, self.host_seed)
        self.commits: list[list[bytes] | None] = [None] * n  # signed [body, sig] per seat
        self.seeds: list[bytes | None] = [None] * n
        self.dealt = False

    @property
    def complete(self) -> bool:
        return all(s is not None for s in self.seeds)

    def check(self, seat: int, body: bytes, sig: bytes, seed: bytes, allowed: list[bytes]) -> SeedCommit:
        """Check a seat's seed frame (ProtocolError if refused); `allowed`: keys that may speak for it."""
        if self.dealt:
            raise ProtocolError("dealt", "the cards are dealt already")
        value = signed(SEED_TAG, body, sig, decode_seed)
        if value.game != self.game:
            raise ProtocolError("wrong_game", "the seed names another game")
        if value.seat != seat or value.key not in allowed:
            raise ProtocolError("not_your_seat", f"this key may not send the seed of seat {value.seat}")
        if self.seeds[seat] is not None:
            raise ProtocolError("already_seeded", f"seat {seat} has sent its seed")
        if seed_commitment(self.game, seat, value.key, seed) != value.s:
            raise ProtocolError("seed_mismatch", "the seed does not match its commitment")
        return value

    def accept(self, seat: int, body: bytes, sig: bytes, seed: bytes) -> None:
        self.commits[seat] = [body, sig]
        self.seeds[seat] = seed

    def derive(self, deck_size: int, rounds: int = 1) -> tuple[list[int], int]:
        if self.fixed is not None:
            return list(self.fixed.order), self.fixed.first
        return derive_deal(self.game, self.host_seed, self.seeds, deck_size, rounds)

    def disclosure(self) -> dict[str, Any]:
        return {"host": self.host_seed, "seeds": list(self.seeds)}


class SeedVerifier:
    """Client and audit side: the published seed commitments and, at the end, the seeds."""

    def __init__(
        self, game: bytes, host_vk: bytes, host_commitment: bytes, n: int, fixed: FixedDeal | None = None
    ) -> None:
        self.game = game
        self.fixed = fixed  # the deal event 1 announced (checked against the lobby's by the caller)
        self.host_vk = host_vk
        self.host_commitment = host_commitment
        self.commits: list[SeedCommit | None] = [None] * n
        self.first: int | None = None
        self.missing: list[int] | None = None

    def seed_event(self, seat: int, signed_commit: list[bytes], allowed: list[bytes]) -> None:
        body, sig = signed_commit
        try:
            value = signed(SEED_TAG, body, sig, decode_seed)
        except ProtocolError as exc:
            raise ValueError(f"the seed commitment of seat {seat}: {exc.message}") from None
        if value.game != self.game or value.seat != seat or value.key not in allowed:
            raise ValueError(f"the seed commitment of seat {seat} names another game, seat or key")
        if self.commits[seat] is not None:
            raise ValueError(f"seat {seat} has two seed commitments")
        self.commits[seat] = value

    def deal_event(self, first: int, missing: list[int]) -> None:
        expected = [s for s, c in enumerate(self.commits) if c is None]
        if sorted(missing) != expected:
            raise ValueError(f"the deal names seats {missing} as without a seed, the commitments say {expected}")
        if self.fixed is not None and first != self.fixed.first:
            raise ValueError(f"the deal names seat {first} first, the fixed deal seat {self.fixed.first}")
        self.first, self.missing = first, list(missing)

    def disclose(
        self, host_seed: bytes, seeds: list[bytes | None], deck_size: int, rounds: int = 1
    ) -> tuple[list[int], int]:
        """Check the disclosed seeds against their commitments; return the derived (order, first)."""
        if len(seeds) != len(self.commits):
            raise ValueError("the disclosure lists a different number of seeds")
        if seed_commitment(self.game, HOST_SEAT, self.host_vk, host_seed) != self.host_commitment:
            raise ValueError("the host's disclosed seed does not match its commitment")
        for seat, (seed, commit) in enumerate(zip(seeds, self.commits)):
            if commit is None:
                if seed is not None:
                    raise ValueError(f"seat {seat} sent no seed commitment, yet a seed is disclosed for it")
            elif seed is None or seed_commitment(self.game, seat, commit.key, seed) != commit.s:
                raise ValueError(f"the disclosed seed of seat {seat} does not match its commitment")
        if self.fixed is not None:
            self.fixed.check(deck_size, len(seeds), rounds)
            order, first = list(self.fixed.order), self.fixed.first
            source = "the fixed deal"
        else:
            order, first = derive_deal(self.game, host_seed, seeds, deck_size, rounds)
            source = "the shuffle"
        if self.first is not None and first != self.first:
            raise ValueError(f"the first auctioneer was seat {self.first}, {source} says seat {first}")
        return order, first
