"""The table's vote on an absent seat (docs/fair-play.md "No table waits for ever"): what a
seated person signs, the check the host, every client and the audit make of one vote, and
the rule a decision must meet.

At a table that hides hands only a seat's own client can make its deck steps (and play its
cards), so a seat whose player has gone stalls the table.  Once the host has named it late
(the event `dlate`, net/host/deck_deadlines.py), the seated people who are here decide:
*wait* (the table waits one more deadline for it, and may vote again then) or *end* (the
game ends now, scored as it stands, docs/rules.md §12.9).  Bots, clocks and the host never
vote; a host's admin votes only as the player of its own seat, if it has one.

A vote travels as `[body, signature]` under the voter's own Ed25519 key (the key its seat
holds in event 1), where the body (net/protocol/signed.py `VoteBody`) names the game, the
voter, the absent seat, the choice, the `dlate` event that named the seat late (`late_seq`:
a vote answers that one wait, and no later one) and the last event the voter had verified
(`ref_seq` and its chain head: the history it answers).  The host's decision, the event
`decide` {seat, choice, late, votes}, carries the votes unchanged.

The rule (`required`): the voters are the human seats of event 1 that are not late; *end*
needs a strict majority of them, *wait* half of them or more (a tie keeps waiting).  A
voter who is away and owes nothing counts as not voting, so being away never lowers the
bar, and the host cannot lower it by saying who is here.  A table with no voter (no human
but the absent ones) keeps waiting: nothing can decide for it.

    >>> required(3, "end"), required(3, "wait"), required(2, "end"), required(2, "wait"), required(1, "end")
    (2, 2, 2, 1, 1)
    >>> required(0, "end") is None
    True
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Sequence

from modernart.net.protocol import ProtocolError
from modernart.net.protocol.signed import VOTE_CHOICES, VOTE_TAG, VoteBody, decode_vote
from modernart.net.trust.identity import Keys, verify

#: the stable codes of a refused vote or decision (docs/protocol.md "Hidden hands")
VOTE_CODES = (
    "vote_unsigned",  # no [body, signature] pair, or a malformed body
    "vote_bad_signature",  # not signed by the voter's seat key
    "vote_wrong_game",  # signed for another game
    "vote_no_seat",  # the voter is no seat of this game (a watcher)
    "vote_not_a_person",  # the voter's seat is a bot's
    "vote_absent_voter",  # the voter is the absent seat, or late itself
    "vote_not_late",  # the seat voted on is not late (nothing to decide)
    "vote_stale",  # it answers an earlier wait for the seat (a replayed vote)
    "vote_wrong_ref",  # it answers a history the checker does not hold (a fork), or one before the wait
    "vote_twice",  # a decision carries two votes of one voter
    "vote_wrong_choice",  # a decision carries a vote for the other choice
    "vote_unbacked",  # a decision without the votes the rule requires
    "vote_not_dealt",  # an `end` before the deal: there is no game to end yet
)


def required(voters: int, choice: str) -> int | None:
    """How many votes for `choice` decide it among `voters` voters (None: nothing can)."""
    if voters <= 0:
        return None
    return voters // 2 + 1 if choice == "end" else (voters + 1) // 2


def voters(players: Sequence[dict[str, Any]], late: Collection[int]) -> tuple[int, ...]:
    """The seats that may vote: human seats (no `bot` in event 1's roster) not late."""
    return tuple(s for s, p in enumerate(players) if p.get("bot") is None and s not in late)


def sign_vote(
    keys: Keys, game: bytes, voter: int, absent: int, choice: str, late_seq: int, ref_seq: int, ref_head: bytes
) -> list[bytes]:
    """`[body, signature]` of seat `voter`'s vote `choice` on seat `absent`, named late by
    event `late_seq`, answering event `ref_seq` whose chain head is `ref_head`."""
    if choice not in VOTE_CHOICES:
        raise ValueError(f"a vote is one of {VOTE_CHOICES}, not {choice!r}")
    body = VoteBody(game, voter, absent, choice, late_seq, ref_seq, ref_head).body()
    return [body, keys.sign(VOTE_TAG, body)]


def check_vote(
    signed: Any,
    *,
    game: bytes,
    players: Sequence[dict[str, Any]],
    absent: int,
    late: dict[int, int],
    head_at: Callable[[int], bytes | None],
    before: int,
) -> VoteBody:
    """The body of the signed vote `signed` on seat `absent`, checked against the roster
    `players` (event 1's), the seats `late` now (seat -> the `dlate` event that named it) and
    the chain (`head_at(seq)`: the head after event seq, None if not held; the vote must
    answer an event before `before`).  ProtocolError (a code of VOTE_CODES) otherwise."""
    if (
        not isinstance(signed, (list, tuple))
        or len(signed) != 2
        or not all(type(part) is bytes for part in signed)
        or not signed[0]
    ):
        raise ProtocolError("vote_unsigned", "a vote is [body, signature]")
    body_bytes, sig = signed
    try:
        body = decode_vote(body_bytes)
    except ProtocolError as exc:
        raise ProtocolError("vote_unsigned", exc.message) from None
    who = f"seat {body.voter}'s vote"
    if not body.voter < len(players):
        raise ProtocolError("vote_no_seat", f"{who}: no such seat in this game")
    if not verify(players[body.voter]["vk"], VOTE_TAG, body_bytes, sig):
        raise ProtocolError("vote_bad_signature", f"{who} is not signed by seat {body.voter}'s key")
    if body.game != game:
        raise ProtocolError("vote_wrong_game", f"{who} was signed for another game")
    if players[body.voter].get("bot") is not None:
        raise ProtocolError("vote_not_a_person", f"{who}: seat {body.voter} is a bot's, and bots never decide")
    if body.absent != absent or absent not in late:
        raise ProtocolError(
            "vote_not_late", f"{who} is about seat {body.absent}, which is not the late seat decided on"
        )
    if body.voter in late:
        raise ProtocolError("vote_absent_voter", f"{who}: seat {body.voter} is late itself")
    if body.late_seq != late[absent]:
        raise ProtocolError(
            "vote_stale",
            f"{who} answers the wait of event {body.late_seq}; seat {absent} was named late by event {late[absent]}",
        )
    if not late[absent] <= body.ref_seq < before or head_at(body.ref_seq) != body.ref_head:
        raise ProtocolError(
            "vote_wrong_ref", f"{who} answers event {body.ref_seq} with a history that differs from this one"
        )
    return body


def check_decision(
    pub: dict[str, Any],
    *,
    game: bytes,
    players: Sequence[dict[str, Any]],
    late: dict[int, int],
    head_at: Callable[[int], bytes | None],
    before: int,
) -> list[VoteBody]:
    """The votes of a `decide` event `pub` {seat, choice, late, votes}, each checked
    (`check_vote`), one per voter, all for its choice, and as many as `required` asks.
    ProtocolError (a code of VOTE_CODES) otherwise."""
    absent, choice = pub["seat"], pub["choice"]
    if absent not in late or pub["late"] != late[absent]:
        raise ProtocolError(
            "vote_not_late", f"the decision is about seat {absent}, which is not late since event {pub['late']}"
        )
    bodies: list[VoteBody] = []
    for signed in pub["votes"]:
        body = check_vote(signed, game=game, players=players, absent=absent, late=late, head_at=head_at, before=before)
        if body.choice != choice:
            raise ProtocolError(
                "vote_wrong_choice", f"seat {body.voter} voted {body.choice!r}, the decision is {choice!r}"
            )
        if any(b.voter == body.voter for b in bodies):
            raise ProtocolError("vote_twice", f"the decision counts seat {body.voter}'s vote twice")
        bodies.append(body)
    eligible = voters(players, late)
    need = required(len(eligible), choice)
    if need is None or len(bodies) < need:
        raise ProtocolError(
            "vote_unbacked",
            f"the decision to {choice} about seat {absent} carries {len(bodies)} of the "
            f"{need if need is not None else 'no'} votes it needs (voters: seats {list(eligible)})",
        )
    return bodies
