"""Who owes which deck step now at a table that hides hands, from the public record alone
(the deck's ledger and the run of the rules): the host names a seat late only for a step it
owes (net/host/deck_deadlines.py), and every client and the audit check each `dlate`
against their own ledger and rules the same way (net/trust/verified_game.py), so that a host
cannot name a present seat late (and so leave it out of a vote, net/trust/votes.py).

    >>> from modernart.net.trust.hidden_deck import DeckLedger
    >>> owed_steps(DeckLedger(bytes(16), 3, 70), [None] * 3, None, over=False)
    {0: 'key', 1: 'key', 2: 'key'}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from modernart.phase import Phase

if TYPE_CHECKING:
    from modernart.game import GameState

    from modernart.net.trust.hidden_deck import DeckLedger


def owed_steps(ledger: DeckLedger, secrets: Sequence[object], state: GameState | None, over: bool) -> dict[int, str]:
    """seat -> the deck step it owes now (only the first kind, in the order the game needs
    them): `secrets` holds each seat's disclosed deck key or None, `state` the rules' game
    (None before the deal), `over` whether it is over."""
    if over:
        return {s: "secret" for s, x in enumerate(secrets) if x is None}
    missing = [s for s in range(ledger.n) if ledger.keys[s] is None]
    if missing:
        return {s: "key" for s in missing}
    shuffler = ledger.next_shuffler
    if shuffler is not None:
        return {shuffler: "shuffle"}
    owed = {s: "shares" for s in range(ledger.n) if ledger.owed(s)}
    if owed:
        return owed
    if state is not None and state.phase == Phase.PLAY_CARD:  # only the auctioneer can open its card
        return {state.auctioneer: "card"}
    return {}
