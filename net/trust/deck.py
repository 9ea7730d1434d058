"""The hidden deck's values: ElGamal card ciphertexts under the players' joint key, deck
keys, shuffles and decryption shares, each with its proof (a Barnett-Smart style deck).

Every seat j holds a secret deck key x_j and publishes h_j = x_j G with a Schnorr proof
that it knows x_j (so no seat can choose its h_j to cancel the others': the rogue-key
attack).  The joint key is H = sum h_j; nobody knows its secret sum x_j unless every seat
tells.

* A card i is the point M_i = hash_point(game id, i): a fresh set per game, nobody knows a
  relation between them.  The open deck is (G, M_i + H) for every card, in card order.
* A shuffle re-encrypts every ciphertext, (c1, c2) -> (c1 + r G, c2 + r H), and permutes
  the deck, with the proof of net/trust/shuffle_proof.py.
* A decryption share of seat j for a ciphertext is d_j = x_j c1, with a Chaum-Pedersen
  proof that log_G(h_j) = log_c1(d_j).  With every seat's share, M = c2 - sum d_j names the
  card.  A card dealt to seat s is opened for s alone: every other seat publishes its share,
  s computes its own.  A card played is opened for everyone: s publishes its own share
  too, and its proof shows the card is the one in the slot dealt to s.

Everything is bound to one game (and where it matters one seat and one slot) through the
Fiat-Shamir challenges, so a proof copied from another game or slot fails.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

from modernart.net.trust.group import (
    L,
    GroupError,
    Point,
    add,
    base,
    check_point,
    generator,
    hash_point,
    hash_scalar,
    mul,
    random_scalar,
    read_scalar,
    scalar_bytes,
    sub,
    total,
)
from modernart.net.trust import shuffle_proof
from modernart.net.trust.shuffle_proof import ShuffleProof

CARD_DOMAIN = b"modern-art/v1/hidden-card\x00"
KEY_DOMAIN = b"modern-art/v1/deck-key\x00"
SHARE_DOMAIN = b"modern-art/v1/deck-share\x00"
SHUFFLE_DOMAIN = b"modern-art/v1/deck-shuffle\x00"


class DeckError(ValueError):
    """A deck value that is malformed or whose proof fails; the message says which and why."""


def _seat_bytes(seat: int) -> bytes:
    return seat.to_bytes(1, "big")


def _slot_bytes(slot: int) -> bytes:
    return slot.to_bytes(2, "big")


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """One encrypted card: (c1, c2) = (r G, M + r H)."""

    c1: Point
    c2: Point

    def to_wire(self) -> list[bytes]:
        return [self.c1, self.c2]

    @classmethod
    def from_wire(cls, data: Any) -> "Ciphertext":
        if not isinstance(data, list) or len(data) != 2:
            raise DeckError("a ciphertext is two points")
        return cls(_point(data[0], "a ciphertext"), _point(data[1], "a ciphertext"))


def _point(data: Any, what: str) -> Point:
    """Bytes that name a point (shape only: whether the point is in the group is checked by
    libsodium when a proof is checked)."""
    if type(data) is not bytes or len(data) != 32:
        raise DeckError(f"{what} holds something that is not a 32-byte point")
    return data


def _scalar(data: Any, what: str) -> int:
    try:
        return read_scalar(data)
    except GroupError:
        raise DeckError(f"{what} holds a scalar that is not 32 canonical bytes") from None


@lru_cache(maxsize=16)
def card_points(game: bytes, size: int) -> tuple[Point, ...]:
    """M_0..M_{size-1}: the points that stand for the cards of `game`."""
    points = tuple(hash_point(CARD_DOMAIN, game, i.to_bytes(2, "big")) for i in range(size))
    if len(set(points)) != size:  # never seen: it would take a collision of SHA-512 and Elligator
        raise DeckError("two cards map to one point")
    return points


@lru_cache(maxsize=16)
def card_lookup(game: bytes, size: int) -> dict[Point, int]:
    """The card id of each card point of `game`."""
    return {p: i for i, p in enumerate(card_points(game, size))}


@lru_cache(maxsize=16)  # every ledger of a process builds it: the host's and each in-process seat's
def open_deck(game: bytes, size: int, joint: Point) -> tuple[Ciphertext, ...]:
    """The deck before the first shuffle: card i is (G, M_i + H), known to everyone."""
    g = generator()
    return tuple(Ciphertext(g, add(m, joint)) for m in card_points(game, size))


# ---------------------------------------------------------------------- deck keys


@dataclass(frozen=True, slots=True)
class DeckKey:
    """Seat `seat`'s public deck key h = x G with a Schnorr proof (e, z) that it knows x."""

    seat: int
    h: Point
    e: int
    z: int

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "h": self.h, "e": scalar_bytes(self.e), "z": scalar_bytes(self.z)}

    @classmethod
    def from_wire(cls, data: Any) -> "DeckKey":
        if not isinstance(data, dict) or set(data) != {"seat", "h", "e", "z"} or type(data["seat"]) is not int:
            raise DeckError("a deck key is {seat, h, e, z}")
        return cls(
            data["seat"],
            _point(data["h"], "a deck key"),
            _scalar(data["e"], "a deck key"),
            _scalar(data["z"], "a deck key"),
        )


def _key_challenge(game: bytes, seat: int, h: Point, a: Point) -> int:
    return hash_scalar(KEY_DOMAIN, game, _seat_bytes(seat), h, a)


def new_key(game: bytes, seat: int) -> tuple[int, DeckKey]:
    """A fresh secret deck key for `seat` in `game` and its public, proven half."""
    x = random_scalar()
    return x, prove_key(game, seat, x)


def prove_key(game: bytes, seat: int, secret: int) -> DeckKey:
    """The public half of `secret` with a fresh Schnorr proof, bound to `game` and `seat`."""
    h = base(secret)
    w = random_scalar()
    e = _key_challenge(game, seat, h, base(w))
    return DeckKey(seat, h, e, (w + e * secret) % L)


def check_key(game: bytes, key: DeckKey) -> None:
    """DeckError unless `key` proves knowledge of its secret (for this game and seat)."""
    try:
        check_point(key.h)
        a = sub(base(key.z), mul(key.e, key.h))
    except GroupError:
        raise DeckError(f"seat {key.seat}'s deck key is not a point of the group") from None
    if _key_challenge(game, key.seat, key.h, a) != key.e:
        raise DeckError(f"seat {key.seat}'s deck key carries a proof that does not verify")


def key_of(secret: int) -> Point:
    return base(secret)


def joint_key(keys: Sequence[DeckKey]) -> Point:
    """H = sum of every seat's h."""
    return total(k.h for k in keys)


# ---------------------------------------------------------------------- decryption shares


@dataclass(frozen=True, slots=True)
class Share:
    """Seat `seat`'s decryption share d = x c1 of the card in `slot`, with a Chaum-Pedersen
    proof (e, z) that log_G(h) = log_c1(d), h the seat's deck key."""

    seat: int
    slot: int
    d: Point
    e: int
    z: int

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "slot": self.slot, "d": self.d, "e": scalar_bytes(self.e), "z": scalar_bytes(self.z)}

    @classmethod
    def from_wire(cls, data: Any) -> "Share":
        if (
            not isinstance(data, dict)
            or set(data) != {"seat", "slot", "d", "e", "z"}
            or type(data["seat"]) is not int
            or type(data["slot"]) is not int
        ):
            raise DeckError("a decryption share is {seat, slot, d, e, z}")
        return cls(
            data["seat"],
            data["slot"],
            _point(data["d"], "a decryption share"),
            _scalar(data["e"], "a decryption share"),
            _scalar(data["z"], "a decryption share"),
        )


def _share_challenge(game: bytes, seat: int, slot: int, h: Point, c1: Point, d: Point, a: Point, b: Point) -> int:
    return hash_scalar(SHARE_DOMAIN, game, _seat_bytes(seat), _slot_bytes(slot), h, c1, d, a, b)


def make_share(game: bytes, seat: int, secret: int, slot: int, card: Ciphertext) -> Share:
    """Seat `seat`'s share of the ciphertext in `slot`, proven."""
    d = mul(secret, card.c1)
    w = random_scalar()
    e = _share_challenge(game, seat, slot, base(secret), card.c1, d, base(w), mul(w, card.c1))
    return Share(seat, slot, d, e, (w + e * secret) % L)


def check_share(game: bytes, h: Point, card: Ciphertext, share: Share) -> None:
    """DeckError unless `share` is the share of the seat whose deck key is `h` for `card`."""
    minus_e = L - share.e
    try:
        a = add(base(share.z), mul(minus_e, h))
        b = add(mul(share.z, card.c1), mul(minus_e, share.d))
    except GroupError:
        raise DeckError(f"seat {share.seat}'s share of slot {share.slot} is not a point of the group") from None
    if _share_challenge(game, share.seat, share.slot, h, card.c1, share.d, a, b) != share.e:
        raise DeckError(f"seat {share.seat}'s share of slot {share.slot} carries a proof that does not verify")


def own_share(secret: int, card: Ciphertext) -> Point:
    """x c1: a seat's own share, computed for itself (never sent for a card it keeps)."""
    return mul(secret, card.c1)


def decrypt(card: Ciphertext, shares: Sequence[Point]) -> Point:
    """M = c2 - sum of every seat's share."""
    return sub(card.c2, total(shares))


# ---------------------------------------------------------------------- shuffles


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Seat `seat`'s shuffle: the deck it made from the one before, and the proof."""

    seat: int
    deck: tuple[Ciphertext, ...]
    proof: ShuffleProof

    def to_wire(self) -> dict[str, Any]:
        """Plain data; each list of points or scalars is one byte string of 32-byte items
        (a deck is 70 cards: as lists they would pass the host's bound on list lengths)."""
        p = self.proof
        return {
            "seat": self.seat,
            "deck": b"".join(c.c1 + c.c2 for c in self.deck),
            "proof": {
                "c": b"".join(p.commitments),
                "chain": b"".join(p.chain),
                "e": scalar_bytes(p.e),
                "s": b"".join(scalar_bytes(v) for v in p.s),
                "s_hat": b"".join(scalar_bytes(v) for v in p.s_hat),
                "s_prime": b"".join(scalar_bytes(v) for v in p.s_prime),
            },
        }

    @classmethod
    def from_wire(cls, data: Any, size: int) -> "Shuffle":
        """A shuffle of a deck of `size` cards from its wire form (DeckError if it is not one)."""
        what = "a shuffle"
        if not isinstance(data, dict) or set(data) != {"seat", "deck", "proof"} or type(data["seat"]) is not int:
            raise DeckError("a shuffle is {seat, deck, proof}")
        proof = data["proof"]
        if not isinstance(proof, dict) or set(proof) != {"c", "chain", "e", "s", "s_hat", "s_prime"}:
            raise DeckError("a shuffle's proof is {c, chain, e, s, s_hat, s_prime}")
        points = _items(data["deck"], 2 * size, "a shuffle's deck", f"{size} cards")
        s = [_scalar(v, what) for v in _items(proof["s"], 4, "a shuffle's proof", "4 values in s")]
        return cls(
            data["seat"],
            tuple(Ciphertext(points[2 * i], points[2 * i + 1]) for i in range(size)),
            ShuffleProof(
                tuple(_items(proof["c"], size, "a shuffle's proof", f"{size} values in c")),
                tuple(_items(proof["chain"], size, "a shuffle's proof", f"{size} values in chain")),
                _scalar(proof["e"], what),
                (s[0], s[1], s[2], s[3]),
                tuple(
                    _scalar(v, what)
                    for v in _items(proof["s_hat"], size, "a shuffle's proof", f"{size} values in s_hat")
                ),
                tuple(
                    _scalar(v, what)
                    for v in _items(proof["s_prime"], size, "a shuffle's proof", f"{size} values in s_prime")
                ),
            ),
        )


def _items(data: Any, count: int, what: str, expected: str) -> list[bytes]:
    """`count` 32-byte items from one byte string (DeckError: `what` holds `expected`)."""
    if type(data) is not bytes or len(data) != 32 * count:
        raise DeckError(f"{what} holds {expected}")
    return [data[i : i + 32] for i in range(0, len(data), 32)]


def _shuffle_context(game: bytes, seat: int) -> bytes:
    return SHUFFLE_DOMAIN + game + _seat_bytes(seat)


def _pairs(deck: Sequence[Ciphertext]) -> list[tuple[Point, Point]]:
    return [(c.c1, c.c2) for c in deck]


@dataclass(frozen=True, slots=True)
class ShuffleSecret:
    """What a shuffler keeps: its permutation (output i came from input perm[i]) and the
    re-encryption scalars.  It is never sent; the audit does not need it (the deck keys
    disclosed at the end decrypt every deck)."""

    perm: tuple[int, ...]
    rho: tuple[int, ...]


def shuffle_deck(
    game: bytes, seat: int, joint: Point, deck: Sequence[Ciphertext], perm: Sequence[int] | None = None
) -> tuple[Shuffle, ShuffleSecret]:
    """Seat `seat` re-encrypts and permutes `deck` (a random permutation unless `perm`) and proves it."""
    order = list(perm) if perm is not None else list(range(len(deck)))
    if perm is None:
        secrets.SystemRandom().shuffle(order)
    if sorted(order) != list(range(len(deck))):
        raise DeckError("a shuffle's permutation must use every card once")
    rho = [random_scalar() for _ in deck]
    out = tuple(
        Ciphertext(add(deck[j].c1, base(r)), add(deck[j].c2, mul(r, joint))) for j, r in zip(order, rho, strict=True)
    )
    proof = shuffle_proof.prove(_shuffle_context(game, seat), joint, _pairs(deck), _pairs(out), order, rho)
    return Shuffle(seat, out, proof), ShuffleSecret(tuple(order), tuple(rho))


def check_shuffle(game: bytes, joint: Point, before: Sequence[Ciphertext], shuffle: Shuffle) -> None:
    """DeckError unless `shuffle` proves its deck is a re-encrypted permutation of `before`."""
    if not shuffle_proof.verify(
        _shuffle_context(game, shuffle.seat), joint, _pairs(before), _pairs(shuffle.deck), shuffle.proof
    ):
        raise DeckError(f"seat {shuffle.seat}'s shuffle carries a proof that does not verify")
