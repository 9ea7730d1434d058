"""A refusal in the client's words: the host's code and parameters, put into a sentence here.

The host's `err` frame carries a stable `code`, `args` (numbers and names) and an English
`msg` for logs.  A client speaking English shows `msg` as the host wrote it (it names the
rule broken, e.g. "(§4.2: ...)", which the log keeps); any other language words the code
itself from its catalog, filling in the parameters, so two players at one table read the
same refusal each in their own language.  A code this client does not know is still said,
with the code, rather than in another language.
"""

from __future__ import annotations

from typing import Any, Mapping

from modernart.cli.i18n import _, language


def _templates() -> dict[str, str]:
    """Code -> the sentence for it, in this context's language (written call by call so that
    Babel extracts them).  `{seat_number}` is the parameter `seat` (0-based on the wire) as
    players count seats, from 1."""
    return {
        # the engine's rules (modernart/errors.py)
        "illegal": _("The rules do not allow that move now"),
        "malformed": _("The host could not read that move"),
        "game_over": _("The game has ended"),
        "unknown_seat": _("There is no such seat"),
        "not_your_turn": _("It is not your turn"),
        "wrong_phase": _("That does not belong to this step of the game"),
        "card_not_in_hand": _("That painting is not in your hand"),
        "second_card_mismatch": _("The second card must be of the Double's artist, and not a Double"),
        "bid_too_low": _("A bid must be above the high bid"),
        "bid_over_money": _("You cannot bid or pay more money than you have"),
        "high_bidder": _("You hold the high bid: you can neither raise nor pass"),
        "already_passed": _("You have already passed; a new bid lets you back in"),
        "not_auctioneer": _("Only the auctioneer can close an Open auction"),
        "already_bid": _("Each player makes exactly one sealed bid"),
        "price_out_of_range": _("The price must be between 1 and the auctioneer's money"),
        "cannot_afford": _("You cannot accept a price above your money"),
        # the lobby (net/host/lobby.py)
        "not_admin": _("Only the host (the player who opened the table) may do that"),
        "seat_taken": _("Seat {seat_number} is taken"),
        "table_full": _("All {seats} seats are taken"),
        "bad_name": _("A name must not be blank"),
        "not_seated": _("Take a seat first"),
        "bad_level": _("Unknown bot level {level}; choose from {levels}"),
        "not_a_bot": _("Seat {seat_number} holds no bot"),
        "bad_options": _("The host refused these rule options"),
        "bad_clocks": _("The host refused these clock settings"),
        "bad_count": _("A game needs {low} to {high} players; {seated} are seated"),
        "bot_not_ready": _("The bot in seat {seat_number} has not connected yet"),
        "not_ready": _("{player} (seat {seat_number}) is not ready"),
        "started": _("The game has already started"),
        "fixed_deal": _("This table's fixed deal does not fit these rules"),
        "removed": _("The host removed you from this table"),
        "locked": _("The host locked this table to the players seated"),
        "not_removable": _("The host cannot remove themselves"),
        "no_such_key": _("Nobody with key {fpr} is at this table"),
        "watchers_full": _("This table has as many watchers as it serves; try again later"),
        # the host's protocol checks (net/host/)
        "not_started": _("The game has not started"),
        "not_dealt": _("The cards are not dealt yet"),
        "not_your_seat": _("This connection may not act for that seat"),
        "replayed": _("That move was already sent"),
        "use_commit": _("A sealed bid is sent sealed (committed first)"),
        "no_reveal": _("No Sealed auction waits for a reveal"),
        "bad_action": _("The host could not read that move"),
        "wrong_game": _("That move belongs to another game"),
        "rate_limited": _("Too many messages: slow down"),
        "version": _("This host speaks another version of the protocol: update modernart"),
        "no_table": _("The host has no such table"),
        "bad_signature": _("A signature did not verify"),
        "bad_token": _("This seat token is unknown or already used"),
        "lagging": _("The host is waiting for this client to catch up"),
        "hello_first": _("The host did not know this client yet"),
        # a sealed bid's reveal (net/trust/sealed.py)
        "missing": _("no reveal arrived before the deadline"),
        "mismatch": _("the reveal does not match the sealed bid"),
        "wrong_digest": _("the reveal names a different set of sealed bids"),
        "over_budget": _("the revealed bid is more than the player's money"),
        # this client's own (net/client/)
        "timeout": _("The host did not answer in time"),
        "closed": _("The connection was closed"),
        "connection_lost": _("The connection to the host was lost"),
        "host_closed": _("The host closed the table"),
        "out_of_touch": _("Not sent: out of touch with the host"),
        "catching_up": _("Not sent: still catching up with the table (the screen shows an earlier moment)"),
        "already_committed": _("Your sealed bid is already sealed"),
        "host_key_changed": _("The host's key has changed since you last joined it"),
        "host_key_mismatch": _("The host's key is not the one in the join string"),
        "untrusted_host": _("The host sent something that fails this client's checks: the game cannot be trusted"),
        "bad_host_frame": _("A message from the host was malformed and was left out"),
        "audit": _("The check of the finished game found a problem (see the client's log)"),
        "fair_play": _("A fair-play check failed (see the client's log)"),
        "commitment_left_out": _("The host left a sealed bid out"),
        "reveal_dropped": _("The host acknowledged your reveal but counted it as missing"),
        "step_unrecorded": _(
            "The host names you late with a deck step this client sent, and sent again: the host has not recorded it"
        ),
        "save_failed": _("The game's record could not be saved"),
        "not_played": _("Your move was not played: it did not reach the host in time (look again)"),
        # a hidden card's play (net/client/client.py): the host committed to it, its opening follows
        "play_pending": _("Your card play is committed and waits for its opening: no other card now"),
        "card_shown": _(
            "A painting of yours was shown to the host when its play was not completed: only that painting can be played now"
        ),
        "not_opened": _("The host committed to your card play but has not played it yet"),
        # a vote on a late seat (net/trust/votes.py)
        "vote_unsigned": _("The vote was not signed"),
        "vote_bad_signature": _("The vote is not signed by this seat's key"),
        "vote_wrong_game": _("The vote belongs to another game"),
        "vote_no_seat": _("Only a seated player votes"),
        "vote_not_a_person": _("Bots do not vote"),
        "vote_absent_voter": _("A late seat does not vote on the wait"),
        "vote_not_late": _("Nobody is late any more: there is nothing to vote on"),
        "vote_stale": _("That vote was for an earlier wait"),
        "vote_wrong_ref": _("The vote answers a history the host does not hold"),
        "vote_not_dealt": _("Nothing is dealt yet: there is no game to end"),
    }


def refusal_text(code: str | None, params: Mapping[str, Any] | None, message: str) -> str:
    """The words for a refusal.  In English: the host's own `message` when there is one.
    Otherwise the code's sentence, with its parameters filled in."""
    if language() == "en" and message:
        return message
    template = _templates().get(code or "")
    if template is None:
        return _("The host refused this ({code})").format(code=code or "?")
    values = {k: v for k, v in (params or {}).items() if isinstance(v, (int, str))}
    if isinstance(values.get("seat"), int):
        values["seat_number"] = int(values["seat"]) + 1
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):  # parameters missing: the sentence without them
        return _("The host refused this ({code})").format(code=code)


def forfeit_reason(why: str) -> str:
    """Why a sealed bid was forfeited (a reveal's code), in words."""
    return _templates().get(why, why)
