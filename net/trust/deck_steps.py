"""Signed steps of the hidden deck: what a seat signs for its deck key, its shuffle, its
shares of a deal and (after the game) its secret deck key, and the one check of such a
signature that the host, every client and the audit make (docs/fair-play.md "The hidden
deck", docs/protocol.md "Hidden hands").

A step's proof (net/trust/deck.py) shows that its value is sound, not who made it: a
shuffle's proof needs no secret of the seat, so without a signature a host could put its
own shuffle in a seat's place and know the whole deck.  So every step travels as
`[body, signature]` under the seat's own Ed25519 key, where the body
(net/protocol/signed.py `DeckStepBody`) names the game, the seat, the kind of step, the
deck it belongs to (`epoch`: 0, then one more for each fresh deck of FA-2), the last event
the seat had verified when it made the step (its number and chain head: the history the
step answers) and the digest of the value.  The host relays the pair unchanged in the
step's event.

`check_step` refuses, with a stable code that names the fault and a message that names
the seat, a step that is unsigned, signed by another key, of another game, seat, kind or
deck, for another value, or that answers a history the checker does not hold (a fork).
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

from modernart.net.protocol import ProtocolError, pack
from modernart.net.protocol.signed import DECK_STEP_DOMAIN, DECK_TAG, DeckStepBody, decode_deck_step
from modernart.net.trust.deck import DeckKey, Share, Shuffle
from modernart.net.trust.group import scalar_bytes
from modernart.net.trust.hidden_deck import DeckStepError
from modernart.net.trust.identity import Keys, verify

#: a deck event's kind -> the kind of step it records
STEP_OF_EVENT = {"dkey": "key", "dshuffle": "shuffle", "dshares": "shares", "dsecret": "secret"}

#: the value of a step: a deck key, a shuffle, the shares of one frame, a secret deck key
StepValue = DeckKey | Shuffle | Sequence[Share] | int

#: the stable codes of a refused signed step (docs/protocol.md "Hidden hands")
STEP_CODES = (
    "deck_unsigned",
    "deck_bad_signature",
    "deck_wrong_game",
    "deck_wrong_seat",
    "deck_wrong_kind",
    "deck_wrong_epoch",
    "deck_wrong_value",
    "deck_wrong_ref",
)


def step_digest(kind: str, value: StepValue) -> bytes:
    """The digest a signed step names: of the value's canonical wire form (rebuilt from the
    parsed value, so the order of a map's keys on the wire does not matter)."""
    wire: Any
    if isinstance(value, (DeckKey, Shuffle)):
        wire = value.to_wire()
    elif isinstance(value, int):
        wire = scalar_bytes(value)
    else:
        wire = [share.to_wire() for share in value]
    return hashlib.sha256(DECK_STEP_DOMAIN + kind.encode() + b"\x00" + pack(wire)).digest()


def sign_step(
    keys: Keys, game: bytes, seat: int, kind: str, epoch: int, ref_seq: int, ref_head: bytes, value: StepValue
) -> list[bytes]:
    """`[body, signature]` of seat `seat`'s step `kind` with `value`, answering event `ref_seq`
    whose chain head is `ref_head`."""
    body = DeckStepBody(game, seat, kind, epoch, ref_seq, ref_head, step_digest(kind, value)).body()
    return [body, keys.sign(DECK_TAG, body)]


def check_step(
    signed: Any,
    *,
    game: bytes,
    seat: int,
    kind: str,
    epoch: int,
    value: StepValue,
    vk: bytes,
    head_at: Callable[[int], bytes | None],
    before: int,
    signature_known: bool = False,
) -> DeckStepBody:
    """The body of seat `seat`'s signed step `signed` (`[body, signature]`), checked: signed by
    `vk`, of `game`, this seat, `kind` and deck `epoch`, naming `value`, and answering an
    event before event `before` whose chain head, as `head_at(seq)` gives it (None: not
    held), is the one it names.  `signature_known`: the checker signed exactly these bytes
    itself, so the signature needs no second check.  DeckStepError (code, message naming
    the seat) otherwise."""
    who = f"seat {seat}'s {kind} step"
    if (
        not isinstance(signed, (list, tuple))
        or len(signed) != 2
        or not all(type(part) is bytes for part in signed)
        or not signed[0]
    ):
        raise DeckStepError("deck_unsigned", f"{who} carries no signature")
    body_bytes, sig = signed
    if not signature_known and not verify(vk, DECK_TAG, body_bytes, sig):
        raise DeckStepError("deck_bad_signature", f"{who} is not signed by seat {seat}'s key")
    try:
        body = decode_deck_step(body_bytes)
    except ProtocolError as exc:
        raise DeckStepError("deck_unsigned", f"{who}: {exc.message}") from None
    if body.game != game:
        raise DeckStepError("deck_wrong_game", f"{who} was signed for another game")
    if body.seat != seat:
        raise DeckStepError("deck_wrong_seat", f"{who} was signed for seat {body.seat}")
    if body.kind != kind:
        raise DeckStepError("deck_wrong_kind", f"{who} was signed as a {body.kind} step")
    if body.epoch != epoch:
        raise DeckStepError("deck_wrong_epoch", f"{who} was signed for deck {body.epoch}, this is deck {epoch}")
    if body.digest != step_digest(kind, value):
        raise DeckStepError("deck_wrong_value", f"{who} was signed for another value than the one it carries")
    if body.ref_seq >= before or head_at(body.ref_seq) != body.ref_head:
        raise DeckStepError(
            "deck_wrong_ref",
            f"{who} answers event {body.ref_seq} with a history that differs from this one (a forked history)",
        )
    return body
