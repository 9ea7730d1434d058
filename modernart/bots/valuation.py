"""The expected value of one painting of each artist at the end of this round.

A painting pays its artist's value only if the artist ends the round in the top three
(docs/rules.md §6.3), so the value is the chance of each rank times that rank's tile plus the
artist's earlier tiles.  The ranks are predicted by a fluid model of the rest of the
round: cards still in hands are played at rates that favour artists already doing well,
until the first artist reaches five; the spread of the outcome grows with the number of
cards still to come.  Rank chances come from a fixed set of normal draws, so the same
position always gets the same values (no random state) and a call costs ~0.1 ms.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..cards import RANK_VALUES

NARTISTS = 5
_R1, _R2, _R3 = RANK_VALUES
_ORDER = tuple(range(NARTISTS))
_SAMPLES = 40
_DRAWS = random.Random(20240601)
_Z: tuple[tuple[float, ...], ...] = tuple(
    tuple(_DRAWS.gauss(0.0, 1.0) for _ in range(NARTISTS)) for _ in range(_SAMPLES)
)
_ZQ = _Z[: _SAMPLES // 4]
# how strongly players favour artists that are ahead this round, and artists with earlier tiles
MOMENTUM = 0.35
HISTORY = 1.0 / 40.0
SPREAD = 0.85
BASE_SPREAD = 0.3


def projected_counts(
    counts: Sequence[int], prev: Sequence[int], supply: Sequence[float], ends_at_five: bool = True
) -> tuple[list[float], list[float]]:
    """Expected counts at the round's end and their spread, from the fluid model (which
    plays every card in hand when a fifth painting does not end the round)."""
    w = [max(0.0, supply[a]) * (1.0 + MOMENTUM * counts[a] + HISTORY * prev[a]) for a in _ORDER]
    total_w = w[0] + w[1] + w[2] + w[3] + w[4]
    if total_w <= 0.0:
        return [float(c) for c in counts], [0.0] * NARTISTS
    total_supply = sum(max(0.0, s) for s in supply)
    horizon = total_supply
    for a in _ORDER if ends_at_five else ():
        need = 5 - counts[a]
        if need > 0 and w[a] > 0.0 and supply[a] >= need - 0.5:
            t = need * total_w / w[a]
            if t < horizon:
                horizon = t
    final = []
    spread = []
    for a in _ORDER:
        p = w[a] / total_w
        gain = p * horizon
        if gain > supply[a]:
            gain = max(0.0, supply[a])
        final.append(counts[a] + gain)
        # an artist nobody holds cards of keeps its count: no spread
        spread.append(SPREAD * math.sqrt(p * (1.0 - p) * horizon) + BASE_SPREAD if supply[a] > 0 else 0.0)
    return final, spread


def rank_chances(
    final: Sequence[float], spread: Sequence[float], counts: Sequence[int], draws: Sequence[Sequence[float]] = _Z
) -> list[list[float]]:
    """chances[a][k]: chance that artist a ends the round ranked k-th (k = 0, 1, 2)."""
    first, second, third = [0.0] * NARTISTS, [0.0] * NARTISTS, [0.0] * NARTISTS
    # earlier board position wins ties: a tiny bonus for the left
    b0, b1, b2, b3, b4 = (final[a] - 0.001 * a for a in _ORDER)
    s0, s1, s2, s3, s4 = spread
    for z0, z1, z2, z3, z4 in draws:
        top = sorted(
            ((b0 + s0 * z0, 0), (b1 + s1 * z1, 1), (b2 + s2 * z2, 2), (b3 + s3 * z3, 3), (b4 + s4 * z4, 4)),
            reverse=True,
        )
        # an artist with no painting this round is never ranked
        score, a = top[0]
        if counts[a] or score >= 0.5:
            first[a] += 1.0
            score, a = top[1]
            if counts[a] or score >= 0.5:
                second[a] += 1.0
                score, a = top[2]
                if counts[a] or score >= 0.5:
                    third[a] += 1.0
    inc = 1.0 / len(draws)
    return [[first[a] * inc, second[a] * inc, third[a] * inc] for a in _ORDER]


def artist_values(
    counts: Sequence[int],
    prev: Sequence[int],
    supply: Sequence[float],
    *,
    quick: bool = False,
    ends_at_five: bool = True,
) -> list[float]:
    """Expected end-of-round value of one painting of each artist.

    `counts`: paintings of each artist played this round (the lot included); `prev`: the
    sum of each artist's earlier tiles; `supply`: expected cards of each artist still in
    the players' hands.  `quick` uses a quarter of the draws (for search rollouts);
    `ends_at_five` is off when only empty hands end the round (option fifth_ends_round).
    """
    final, spread = projected_counts(counts, prev, supply, ends_at_five)
    chances = rank_chances(final, spread, counts, _ZQ if quick else _Z)
    return [
        chances[a][0] * (_R1 + prev[a]) + chances[a][1] * (_R2 + prev[a]) + chances[a][2] * (_R3 + prev[a])
        for a in _ORDER
    ]


def final_values(counts: Sequence[int], prev: Sequence[int]) -> list[int]:
    """Exact value of one painting of each artist if the round ended with `counts`."""
    ranked = sorted(_ORDER, key=counts.__getitem__, reverse=True)[:3]
    values = [0] * NARTISTS
    for k, a in enumerate(ranked):
        if counts[a] == 0:
            break
        values[a] = RANK_VALUES[k] + prev[a]
    return values
