"""A proof that a deck of ElGamal ciphertexts was shuffled: re-encrypted and permuted.

The proof is Terelius and Wikström's ("Proofs of Restricted Shuffles", Africacrypt 2010),
in the form of the CHVote protocol specification's `GenShuffleProof` / `CheckShuffleProof`
(Haenni, Locher, Koenig, Dubuis), made non-interactive with Fiat-Shamir and written in
additive notation over net/trust/group.py.  It proves, in zero knowledge (the permutation
and the re-encryption scalars stay secret), that the output deck is the input deck
permuted and each ciphertext re-encrypted under the joint key: so the output holds
exactly the input's plaintexts, none dropped, duplicated or replaced (soundness under the
discrete-logarithm assumption; the generators `h_i` and `h` come from a hash, so nobody
knows a relation between them).

Notation (a ciphertext is (c1, c2) = (r G, M + r H), H the joint public key):

    out[i] = in[pi(i)] + (rho_i G, rho_i H)                      the shuffle
    c_pi(i) = r_pi(i) G + h_i                                    commitment to the permutation
    u_j = challenge(j)  (from in, out, c, H);  u~_i = u_pi(i)
    chain: C^_0 = h, C^_i = r^_i G + u~_i C^_{i-1}
    t1 = w1 G, t2 = w2 G, t3 = w3 G + sum w'_i h_i,
    t4 = (-w4 H + sum w'_i out[i].c2, -w4 G + sum w'_i out[i].c1),
    t^_i = w^_i G + w'_i C^_{i-1}
    e = challenge(in, out, c, C^, H, t1..t4, t^)
    s1 = w1 + e r_bar, s2 = w2 + e r_hat, s3 = w3 + e r_tilde, s4 = w4 + e r',
    s^_i = w^_i + e r^_i, s'_i = w'_i + e u~_i

with r_bar = sum r_j, r_hat = sum r^_i prod_{k>i} u~_k, r_tilde = sum r_j u_j and
r' = sum rho_i u~_i.  The verifier recomputes every t from (e, s) and checks that they hash
to e.  Its cost is about 8N scalar multiplications for N cards (the figures are in
docs/fair-play.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from modernart.net.trust.group import (
    L,
    GroupError,
    Point,
    add,
    base,
    combination,
    hash_point,
    hash_scalar,
    mul,
    random_scalar,
    scalar_bytes,
    sub,
    total,
)

GEN_DOMAIN = b"modern-art/v1/shuffle-generator\x00"
U_DOMAIN = b"modern-art/v1/shuffle-u\x00"
E_DOMAIN = b"modern-art/v1/shuffle-e\x00"

#: A ciphertext as its two points (c1, c2) = (r G, M + r H).
Pair = tuple[Point, Point]


@lru_cache(maxsize=8)
def generators(size: int) -> tuple[tuple[Point, ...], Point]:
    """(h_1..h_size, h): independent generators for a deck of `size` cards."""
    hs = tuple(hash_point(GEN_DOMAIN, b"h", i.to_bytes(2, "big")) for i in range(size))
    return hs, hash_point(GEN_DOMAIN, b"chain")


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """The proof that one deck is a shuffle of another (see the module docstring)."""

    commitments: tuple[Point, ...]  # c_j, one per input card
    chain: tuple[Point, ...]  # C^_1..C^_N
    e: int
    s: tuple[int, int, int, int]
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]


def _flat(deck: Sequence[Pair]) -> list[bytes]:
    return [p for pair in deck for p in pair]


def _challenges(
    context: bytes, joint: Point, before: Sequence[Pair], after: Sequence[Pair], cs: Sequence[Point]
) -> list[int]:
    head = hash_scalar(U_DOMAIN, context, joint, *_flat(before), *_flat(after), *cs)
    return [hash_scalar(U_DOMAIN, scalar_bytes(head), i.to_bytes(2, "big")) or 1 for i in range(len(before))]


def _final_challenge(
    context: bytes,
    joint: Point,
    before: Sequence[Pair],
    after: Sequence[Pair],
    cs: Sequence[Point],
    chain: Sequence[Point],
    ts: Sequence[Point],
) -> int:
    return hash_scalar(E_DOMAIN, context, joint, *_flat(before), *_flat(after), *cs, *chain, *ts)


def prove(
    context: bytes,
    joint: Point,
    before: Sequence[Pair],
    after: Sequence[Pair],
    perm: Sequence[int],
    rho: Sequence[int],
) -> ShuffleProof:
    """The proof that after[i] = before[perm[i]] + (rho[i] G, rho[i] H) for every i.

    `context` binds the proof to one game and one shuffler (it enters every challenge)."""
    n = len(before)
    hs, h = generators(n)
    r = [0] * n
    cs: list[Point] = [b""] * n
    for i, j in enumerate(perm):
        r[j] = random_scalar()
        cs[j] = add(base(r[j]), hs[i])
    u = _challenges(context, joint, before, after, cs)
    u_tilde = [u[j] for j in perm]
    r_hat = [random_scalar() for _ in range(n)]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = add(base(r_hat[i]), mul(u_tilde[i], previous))
        chain.append(previous)
    r_bar = sum(r) % L
    v, r_hat_total = 1, 0
    for i in range(n - 1, -1, -1):
        r_hat_total = (r_hat_total + r_hat[i] * v) % L
        v = v * u_tilde[i] % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u)) % L
    r_prime = sum(p * ut for p, ut in zip(rho, u_tilde)) % L
    w1, w2, w3, w4 = (random_scalar() for _ in range(4))
    w_hat = [random_scalar() for _ in range(n)]
    w_prime = [random_scalar() for _ in range(n)]
    t1, t2 = base(w1), base(w2)
    t3 = add(base(w3), combination(w_prime, hs))
    t4a = sub(combination(w_prime, [c2 for _, c2 in after]), mul(w4, joint))
    t4b = sub(combination(w_prime, [c1 for c1, _ in after]), base(w4))
    previous_links = [h, *chain]
    t_hat = [add(base(w_hat[i]), mul(w_prime[i], previous_links[i])) for i in range(n)]
    e = _final_challenge(context, joint, before, after, cs, chain, [t1, t2, t3, t4a, t4b, *t_hat])
    return ShuffleProof(
        tuple(cs),
        tuple(chain),
        e,
        ((w1 + e * r_bar) % L, (w2 + e * r_hat_total) % L, (w3 + e * r_tilde) % L, (w4 + e * r_prime) % L),
        tuple((w_hat[i] + e * r_hat[i]) % L for i in range(n)),
        tuple((w_prime[i] + e * u_tilde[i]) % L for i in range(n)),
    )


def verify(context: bytes, joint: Point, before: Sequence[Pair], after: Sequence[Pair], proof: ShuffleProof) -> bool:
    """Whether `proof` shows that `after` is a shuffle of `before` under `joint` (never raises
    for a bad proof: a point that is not in the group makes it false)."""
    n = len(before)
    if (
        n < 2
        or len(after) != n
        or len(proof.commitments) != n
        or len(proof.chain) != n
        or len(proof.s_hat) != n
        or len(proof.s_prime) != n
    ):
        return False
    try:
        return proof.e == _recomputed_challenge(context, joint, before, after, proof)
    except GroupError:
        return False


def _recomputed_challenge(
    context: bytes, joint: Point, before: Sequence[Pair], after: Sequence[Pair], proof: ShuffleProof
) -> int:
    n = len(before)
    hs, h = generators(n)
    cs, chain, e = proof.commitments, proof.chain, proof.e
    s1, s2, s3, s4 = proof.s
    u = _challenges(context, joint, before, after, cs)
    u_product = 1
    for value in u:
        u_product = u_product * value % L
    c_bar = sub(total(cs), total(hs))
    c_hat = sub(chain[-1], mul(u_product, h))
    c_tilde = combination(u, cs)
    a_prime = combination(u, [c2 for _, c2 in before])
    b_prime = combination(u, [c1 for c1, _ in before])
    minus_e = L - e
    t1 = add(base(s1), mul(minus_e, c_bar))
    t2 = add(base(s2), mul(minus_e, c_hat))
    t3 = add(add(base(s3), combination(proof.s_prime, hs)), mul(minus_e, c_tilde))
    t4a = add(sub(combination(proof.s_prime, [c2 for _, c2 in after]), mul(s4, joint)), mul(minus_e, a_prime))
    t4b = add(sub(combination(proof.s_prime, [c1 for c1, _ in after]), base(s4)), mul(minus_e, b_prime))
    previous = [h, *chain]
    t_hat = [
        add(add(base(proof.s_hat[i]), mul(proof.s_prime[i], previous[i])), mul(minus_e, chain[i])) for i in range(n)
    ]
    return _final_challenge(context, joint, before, after, cs, chain, [t1, t2, t3, t4a, t4b, *t_hat])
