"""The hidden deck (net/trust/deck.py, shuffle_proof.py, hidden_deck.py): a joint shuffle
that nobody can read, cards opened for their owner only or for everyone with a proof, and
every kind of tampering refused at once or named by the audit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from modernart.net.trust.deck import (
    Ciphertext,
    DeckError,
    DeckKey,
    Share,
    Shuffle,
    card_lookup,
    decrypt,
    make_share,
    new_key,
    shuffle_deck,
)
from modernart.net.trust.group import GroupError, L, add, base, check_point, mul, read_scalar, scalar_bytes, sub
from modernart.net.trust.hidden_deck import (
    DeckLedger,
    DeckStepError,
    Play,
    SeatDeck,
    audit_deal,
    step_from_wire,
    step_to_wire,
)
from modernart.net.trust import shuffle_proof

GAME = bytes(range(16))
SIZE = 70


def table(n: int, *, checking: bool = True, size: int = SIZE) -> tuple[DeckLedger, list[SeatDeck]]:
    """A ledger with every key in and every seat's shuffle done."""
    ledger = DeckLedger(GAME, n, size, checking=checking)
    seats = [SeatDeck(GAME, s, size) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    for seat in seats:
        ledger.add_shuffle(seat.shuffle(ledger)[0])
    return ledger, seats


def deal(ledger: DeckLedger, seats: list[SeatDeck], k: int) -> None:
    ledger.deal([k] * len(seats))
    for seat in seats:
        for share in seat.shares(ledger):
            ledger.add_share(share)


def truth(ledger: DeckLedger, seats: list[SeatDeck]) -> list[int | None]:
    """Every slot's card, read with every secret (what the audit can do at the end)."""
    x = sum(s.secret for s in seats) % L
    lookup = card_lookup(GAME, ledger.size)
    return [lookup.get(decrypt(c, [mul(x, c.c1)])) for c in ledger.deck]


# ---------------------------------------------------------------------- the honest game


def test_a_joint_shuffle_deals_every_card_once_and_each_seat_reads_only_its_own() -> None:
    ledger, seats = table(5)
    assert sorted(truth(ledger, seats)) == list(range(SIZE))  # a permutation of the deck
    for k in (8, 3, 3):
        deal(ledger, seats, k)
    hands = [seat.hand(ledger) for seat in seats]
    every = truth(ledger, seats)
    for s, hand in enumerate(hands):
        assert len(hand) == 14
        assert all(ledger.owner[slot] == s and every[slot] == card for slot, card in hand.items())
    assert sorted(c for h in hands for c in h.values()) == list(range(SIZE))
    # a seat cannot read another seat's card: its own share is missing from the sum
    other = seats[1]
    slot = next(iter(hands[0]))
    points = [sh.d for sh in ledger.shares[slot].values()] + [mul(other.secret, ledger.deck[slot].c1)]
    assert card_lookup(GAME, SIZE).get(decrypt(ledger.deck[slot], points)) is None


def test_the_deck_is_not_in_card_order_after_the_shuffles() -> None:
    ledger, seats = table(3)
    assert truth(ledger, seats) != list(range(SIZE))


def test_a_played_card_is_opened_for_everyone_with_its_owners_proof() -> None:
    ledger, seats = table(3)
    deal(ledger, seats, 10)
    card = next(iter(seats[2].hand(ledger).values()))
    opening = seats[2].opening(ledger, card)
    assert ledger.open(2, opening, card) == card
    assert ledger.play_slot(card) == opening.slot
    assert card not in seats[2].hand(ledger).values()
    with pytest.raises(DeckStepError) as exc:  # the same slot again
        ledger.open(2, opening, card)
    assert exc.value.code == "not_your_card"


def test_later_rounds_come_from_the_same_stock() -> None:
    ledger, seats = table(4)
    deal(ledger, seats, 9)
    first = {s.seat: set(s.hand(ledger).values()) for s in seats}
    deal(ledger, seats, 4)
    second = {s.seat: set(s.hand(ledger).values()) for s in seats}
    assert ledger.dealt == 52
    for s in range(4):
        assert first[s] < second[s] and len(second[s]) == 13
    assert not set.intersection(*[second[s] - first[s] for s in range(4)])


def test_a_client_restarting_from_its_secret_reads_the_same_hand() -> None:
    ledger, seats = table(3)
    deal(ledger, seats, 10)
    again = SeatDeck(GAME, 1, SIZE, seats[1].secret)
    assert again.key.h == seats[1].key.h
    assert again.hand(ledger) == seats[1].hand(ledger)


# ---------------------------------------------------------------------- refused at once


def test_a_rogue_or_copied_deck_key_is_refused() -> None:
    ledger = DeckLedger(GAME, 3, SIZE)
    x0, k0 = new_key(GAME, 0)
    ledger.add_key(k0)
    # seat 1 picks h1 = X - h0 to know the joint secret X: it cannot prove knowledge of log h1
    rogue = DeckKey(1, sub(base(12345), k0.h), k0.e, k0.z)
    with pytest.raises(DeckStepError, match="seat 1's deck key carries a proof that does not verify") as exc:
        ledger.add_key(rogue)
    assert exc.value.code == "bad_deck_key"
    with pytest.raises(DeckStepError, match="seat 1's deck key"):  # seat 0's proof copied to seat 1
        ledger.add_key(replace(k0, seat=1))
    with pytest.raises(DeckStepError, match="already"):
        ledger.add_key(new_key(GAME, 0)[1])
    with pytest.raises(DeckStepError, match="seats 0..2"):
        ledger.add_key(new_key(GAME, 3)[1])
    with pytest.raises(DeckStepError, match="seat 2's deck key"):  # a proof from another game
        ledger.add_key(new_key(b"\x01" * 16, 2)[1])
    assert ledger.keys[1] is None and ledger.steps == [k0]


def keyed(n: int) -> tuple[DeckLedger, list[SeatDeck]]:
    ledger = DeckLedger(GAME, n, SIZE)
    seats = [SeatDeck(GAME, s, SIZE) for s in range(n)]
    for seat in seats:
        ledger.add_key(seat.key)
    return ledger, seats


def test_a_shuffle_that_duplicates_drops_or_swaps_a_card_is_refused() -> None:
    ledger, seats = keyed(3)
    before = ledger.deck
    good, secret = seats[0].shuffle(ledger)
    # a duplicated card: out[3] is a re-encryption of the same input as out[5]
    perm = list(secret.perm)
    perm[3] = perm[5]
    cheat = [
        Ciphertext(add(before[j].c1, base(r)), add(before[j].c2, mul(r, ledger.joint)))
        for j, r in zip(perm, secret.rho)
    ]
    pairs = [(c.c1, c.c2) for c in cheat]
    proof = shuffle_proof.prove(b"x", ledger.joint, [(c.c1, c.c2) for c in before], pairs, perm, secret.rho)
    for bad in (
        Shuffle(0, tuple(cheat), good.proof),
        Shuffle(0, tuple(cheat), proof),
        Shuffle(0, good.deck[1:] + good.deck[:1], good.proof),  # reordered after proving
        Shuffle(0, before, good.proof),  # the deck not shuffled at all
        replace(good, proof=replace(good.proof, e=(good.proof.e + 1) % L)),
    ):
        with pytest.raises(DeckStepError, match="seat 0's shuffle carries a proof that does not verify") as exc:
            ledger.add_shuffle(bad)
        assert exc.value.code == "bad_shuffle"
    assert ledger.shuffles == []
    with pytest.raises(DeckStepError, match="seat 1 may not shuffle now") as exc:
        ledger.add_shuffle(seats[1].shuffle(ledger)[0])
    assert exc.value.code == "not_your_shuffle"
    other_game = shuffle_deck(b"\x02" * 16, 0, ledger.joint, before)[0]  # replayed from another game
    with pytest.raises(DeckStepError, match="does not verify"):
        ledger.add_shuffle(other_game)
    ledger.add_shuffle(good)
    assert len(ledger.shuffles) == 1


def test_a_wrong_or_misplaced_share_is_refused() -> None:
    ledger, seats = table(3)
    ledger.deal([10, 10, 10])
    deck = ledger.deck
    right = make_share(GAME, 1, seats[1].secret, 0, deck[0])
    wrong_secret = make_share(GAME, 1, seats[2].secret, 0, deck[0])  # seat 2's key, named seat 1
    moved = make_share(GAME, 1, seats[1].secret, 1, deck[0])  # proven for the card of slot 0, named slot 1
    forged = replace(right, d=base(99))
    for bad in (wrong_secret, moved, forged):
        with pytest.raises(DeckStepError, match="share of slot") as exc:
            ledger.add_share(bad)
        assert exc.value.code == "bad_share"
    with pytest.raises(DeckStepError, match="it is dealt to it"):  # the owner never sends its share
        ledger.add_share(make_share(GAME, 0, seats[0].secret, 0, deck[0]))
    with pytest.raises(DeckStepError, match="not dealt"):
        ledger.add_share(make_share(GAME, 1, seats[1].secret, 40, deck[40]))
    ledger.add_share(right)
    with pytest.raises(DeckStepError, match="already"):
        ledger.add_share(right)
    assert list(ledger.shares[0]) == [1]


def test_a_card_play_whose_proof_fails_is_refused_with_its_reason() -> None:
    ledger, seats = table(3)
    deal(ledger, seats, 10)
    hand0 = seats[0].hand(ledger)
    slot, card = next(iter(hand0.items()))
    other_card = next(c for c in hand0.values() if c != card)
    opening = seats[0].opening(ledger, card)
    cases = [
        (0, opening, other_card, "wrong_card", f"the move plays card {other_card}, slot {slot} holds card {card}"),
        (0, replace(opening, d=base(7)), card, "bad_opening", "does not verify"),
        (0, make_share(GAME, 0, seats[1].secret, slot, ledger.deck[slot]), card, "bad_opening", "does not verify"),
        (1, opening, card, "bad_opening", "seat 0's share, the card is seat 1's"),
        (
            1,
            make_share(GAME, 1, seats[1].secret, slot, ledger.deck[slot]),
            card,
            "not_your_card",
            "not dealt to seat 1",
        ),
    ]
    for seat, share, named, code, message in cases:
        with pytest.raises(DeckStepError, match=message) as exc:
            ledger.open(seat, share, named)
        assert exc.value.code == code
    assert ledger.opened == {}
    with pytest.raises(DeckStepError, match="not in seat 1's hand"):
        seats[1].opening(ledger, card)
    assert ledger.open(0, opening, card) == card


def test_a_card_waits_for_every_share_before_it_can_be_played() -> None:
    ledger, seats = table(3)
    ledger.deal([10, 10, 10])
    for share in seats[1].shares(ledger):
        ledger.add_share(share)
    assert seats[0].hand(ledger) == {}  # seat 2's shares are missing
    opening = make_share(GAME, 0, seats[0].secret, 0, ledger.deck[0])
    with pytest.raises(DeckStepError) as exc:
        ledger.open(0, opening, 0)
    assert exc.value.code == "not_readable"


def test_malformed_wire_values_are_refused_with_a_specific_message() -> None:
    ledger, seats = table(3)
    good = ledger.shuffles[0].to_wire()
    assert Shuffle.from_wire(good, SIZE) == ledger.shuffles[0]
    assert DeckKey.from_wire(seats[0].key.to_wire()) == seats[0].key
    with pytest.raises(DeckError, match="holds 70 cards"):
        Shuffle.from_wire({**good, "deck": good["deck"][:-64]}, SIZE)
    with pytest.raises(DeckError, match="holds 70 values in chain"):
        Shuffle.from_wire({**good, "proof": {**good["proof"], "chain": [b"x"] * 70}}, SIZE)
    with pytest.raises(DeckError, match="canonical"):
        Shuffle.from_wire({**good, "proof": {**good["proof"], "e": b"\xff" * 32}}, SIZE)
    with pytest.raises(DeckError, match="canonical"):
        DeckKey.from_wire({**seats[0].key.to_wire(), "z": (L + 1).to_bytes(32, "little")})
    with pytest.raises(DeckError, match="is {seat, slot, d, e, z}"):
        Share.from_wire({"seat": 0})
    with pytest.raises(DeckError, match="is {seat, h, e, z}"):
        DeckKey.from_wire({"seat": True, "h": b"", "e": b"", "z": b""})
    share = make_share(GAME, 1, seats[1].secret, 0, ledger.deck[0])
    assert Share.from_wire(share.to_wire()) == share


def test_the_group_refuses_points_outside_the_prime_order_subgroup() -> None:
    small_order = bytes([1] + [0] * 31)  # the identity
    with pytest.raises(GroupError):
        check_point(small_order)
    with pytest.raises(GroupError):
        mul(3, small_order)
    with pytest.raises(GroupError):
        read_scalar(scalar_bytes(5)[:31])
    assert read_scalar(scalar_bytes(L + 5)) == 5


# ---------------------------------------------------------------------- the audit


def played_game(n: int = 3) -> tuple[DeckLedger, list[SeatDeck]]:
    """A recorded deal: two rounds dealt, a card played by each seat."""
    ledger, seats = table(n, checking=False)
    for k in (10, 6):
        deal(ledger, seats, k)
    for seat in seats:
        card = next(iter(seat.hand(ledger).values()))
        ledger.open(seat.seat, seat.opening(ledger, card), card)
    return ledger, seats


def test_the_audit_passes_an_honest_deal() -> None:
    ledger, seats = played_game()
    assert audit_deal(ledger, [s.secret for s in seats]) == []


def test_the_audit_names_a_wrong_or_missing_disclosed_key() -> None:
    ledger, seats = played_game()
    assert audit_deal(ledger, [seats[0].secret, 5, seats[2].secret]) == [
        "seat 1's disclosed deck key does not match the key it published"
    ]
    assert audit_deal(ledger, [seats[0].secret, seats[1].secret, None]) == ["seat 2 did not disclose its deck key"]


def test_the_audit_names_a_shuffle_that_duplicates_and_drops_a_card() -> None:
    ledger = DeckLedger(GAME, 3, SIZE, checking=False)
    seats = [SeatDeck(GAME, s, SIZE) for s in range(3)]
    for seat in seats:
        ledger.add_key(seat.key)
    ledger.add_shuffle(seats[0].shuffle(ledger)[0])
    before = ledger.deck
    good, secret = seats[1].shuffle(ledger)
    perm = list(secret.perm)
    perm[3] = perm[5]
    cheat = tuple(
        Ciphertext(add(before[j].c1, base(r)), add(before[j].c2, mul(r, ledger.joint)))
        for j, r in zip(perm, secret.rho)
    )
    ledger.add_shuffle(Shuffle(1, cheat, good.proof))
    ledger.add_shuffle(seats[2].shuffle(ledger)[0])
    x = sum(s.secret for s in seats) % L
    lookup = card_lookup(GAME, SIZE)
    dropped = lookup[decrypt(before[secret.perm[3]], [mul(x, before[secret.perm[3]].c1)])]
    doubled = lookup[decrypt(before[perm[5]], [mul(x, before[perm[5]].c1)])]
    assert audit_deal(ledger, [s.secret for s in seats]) == [
        f"seat 1's shuffle duplicates card {doubled} and drops card {dropped}"
    ]


def test_the_audit_names_a_wrong_share() -> None:
    ledger, seats = table(3, checking=False)
    ledger.deal([10, 10, 10])
    bad = make_share(GAME, 2, seats[1].secret, 4, ledger.deck[4])
    ledger.add_share(bad)
    assert audit_deal(ledger, [s.secret for s in seats]) == [
        "seat 2's share of slot 4 is wrong (not its key times the card)"
    ]


def test_the_audit_names_a_substituted_card() -> None:
    ledger, seats = table(3, checking=False)
    deal(ledger, seats, 10)
    hand = seats[0].hand(ledger)
    slot, card = next(iter(hand.items()))
    other = next(c for c in range(SIZE) if c not in hand.values())
    ledger.open(0, seats[0].opening(ledger, card), other)  # the host let a false card through
    assert audit_deal(ledger, [s.secret for s in seats]) == [
        f"seat 0 played card {other} from slot {slot}, which holds card {card}: a substituted card"
    ]


def test_the_audit_names_a_play_recorded_with_a_bad_proof() -> None:
    ledger, seats = table(3, checking=False)
    deal(ledger, seats, 10)
    slot, card = next(iter(seats[0].hand(ledger).items()))
    ledger.open(0, replace(seats[0].opening(ledger, card), z=5), card)
    problems = audit_deal(ledger, [s.secret for s in seats])
    assert len(problems) == 1 and "seat 0's share of slot" in problems[0] and "does not verify" in problems[0]
    assert isinstance(ledger.steps[-1], Play)


def test_a_recorded_deal_read_back_from_its_wire_form_is_audited_step_by_step() -> None:
    """The steps as the journal and the record keep them: read back, audited; a card
    changed in the record, or a share's point, is named."""
    ledger, seats = played_game()
    wire = [step_to_wire(s) for s in ledger.steps]
    secrets = [s.secret for s in seats]
    back = DeckLedger.from_steps(GAME, 3, SIZE, [step_from_wire(w, SIZE) for w in wire], checking=False)
    assert audit_deal(back, secrets) == []
    order = back.card_order(secrets)
    assert sorted(c for c in order if c is not None) == list(range(SIZE))
    plays = [i for i, w in enumerate(wire) if "play" in w]
    swapped = [dict(w) for w in wire]
    played = wire[plays[0]]["play"]
    other = next(c for c in range(SIZE) if c not in back.cards_opened)
    swapped[plays[0]] = {"play": {**played, "card": other}}
    tampered = DeckLedger.from_steps(GAME, 3, SIZE, [step_from_wire(w, SIZE) for w in swapped], checking=False)
    assert audit_deal(tampered, secrets) == [
        f"seat {played['share']['seat']} played card {other} from slot {played['slot']}, "
        f"which holds card {played['card']}: a substituted card"
    ]
    shares = [i for i, w in enumerate(wire) if "share" in w]
    forged = [dict(w) for w in wire]
    first = wire[shares[0]]["share"]
    forged[shares[0]] = {"share": {**first, "d": wire[shares[1]]["share"]["d"]}}
    tampered = DeckLedger.from_steps(GAME, 3, SIZE, [step_from_wire(w, SIZE) for w in forged], checking=False)
    assert audit_deal(tampered, secrets) == [
        f"seat {first['seat']}'s share of slot {first['slot']} is wrong (not its key times the card)"
    ]
    with pytest.raises(DeckStepError, match="does not verify"):  # a checking ledger refuses it at once
        DeckLedger.from_steps(GAME, 3, SIZE, [step_from_wire(w, SIZE) for w in forged], checking=True)
