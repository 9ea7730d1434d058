"""The hammer call ("going once, going twice", docs/protocol.md "Hammer call"): the seller's
hammer in an Open auction starts a call of `hammer_call` seconds during which anyone may
still outbid; a bid stops it; the HAMMER is recorded when the call completes.

Attacker's view: a seller who puts a painting up and hammers at once cannot keep it before
the others could bid; the host cannot bring a hammer down that the seller never signed,
nor claim a call for a hammer that was outbid."""

from __future__ import annotations

import pytest

from modernart.cards import AuctionType
from modernart.moves import Action, Move
from modernart.phase import Phase
from modernart.net.clocks import ClockSettings
from modernart.net.host.lobby import Lobby
from modernart.net.host.table import Table
from modernart.net.protocol import ProtocolError, decode_host_inner, pack
from modernart.net.protocol.signed import ACT_TAG, encode_action_body
from modernart.net.trust.chain import ChainError
from modernart.net.trust.identity import Keys
from modernart.net.trust.verified_game import VerifiedGame

from tests.net_helpers import SessionDriver

CALL = 3.0


class Seats:
    """A started table (no sockets) whose seats sign their own moves, as clients would."""

    def __init__(self, tmp, players: int = 4, hammer_call: float = CALL) -> None:
        self.host = Keys.generate()
        self.keys = [Keys.generate() for _ in range(players)]
        lobby = Lobby(clocks=ClockSettings(open_countdown=0, decision=0, hammer_call=hammer_call))
        for k in self.keys:
            _seat, token = lobby.add_bot(None, "random")
            lobby.claim_bot(token, k.vk)
        self.table = Table("t1", "test", self.host, journal_dir=str(tmp), lobby=lobby, fsync=False)
        self.table.start(0.0)
        self.game = self.table.game
        self.ctr = [0] * players
        self.now = 0.0
        driver = SessionDriver(self.game, self.keys)
        driver.seed_all()
        self.driver = driver

    def act(self, move: Move, *, ref: int | None = None):
        """Seat `move.seat` signs and sends `move` (made at event `ref`, default: the newest)."""
        seat = move.seat
        self.ctr[seat] += 1
        body = encode_action_body(
            self.game.game_id, seat, self.ctr[seat], move.to_list(), self.game.seq if ref is None else ref
        )
        events, _ctr = self.game.submit(self.keys[seat].vk, seat, body, self.keys[seat].sign(ACT_TAG, body), self.now)
        return events

    def open_auction(self) -> int:
        """Play on until the auctioneer holds an Open card, then put it up; the auctioneer's seat."""
        state = self.game.state
        while True:
            if state.phase == Phase.PLAY_CARD:
                seat = state.auctioneer
                open_cards = [c for c in state.hands[seat] if state.deck[c].kind == AuctionType.OPEN]
                if open_cards:
                    self.act(Move.play(seat, open_cards[0]))
                    assert state.phase == Phase.OPEN
                    return seat
            self.driver.step()
            assert not state.is_over()


def kinds(events):
    return [(decode_host_inner(e.public)["k"], decode_host_inner(e.public).get("by")) for e in events]


def test_a_seller_cannot_hammer_before_the_others_could_bid(tmp_path):
    seats = Seats(tmp_path)
    game, state = seats.game, seats.game.state
    seller = seats.open_auction()
    bidder = (seller + 1) % state.n
    moves_before = state.move_count
    events = seats.act(Move.hammer(seller))  # at once, 0 s after putting the painting up
    assert kinds(events) == [("call", None)]
    assert state.phase == Phase.OPEN and state.move_count == moves_before  # not sold
    pub = decode_host_inner(events[0].public)
    assert pub["clk"]["call"] == CALL  # every screen is told how long the call runs
    seats.now = 1.0
    events = seats.act(Move.bid(bidder, 1))  # within the call: the bid stands, the call is off
    assert kinds(events) == [("move", "player")]
    assert game.call is None and "call" not in decode_host_inner(events[0].public)["clk"]
    seats.now = 10.0
    assert game.apply_defaults(seats.now) == []  # no call left to complete
    assert state.phase == Phase.OPEN and state.high_seat == bidder


def test_the_call_completes_and_the_hammer_is_recorded_then(tmp_path):
    seats = Seats(tmp_path)
    game, state = seats.game, seats.game.state
    seller = seats.open_auction()
    seats.act(Move.bid((seller + 1) % state.n, 5))
    seats.now = 2.0
    seats.act(Move.hammer(seller))
    assert game.next_deadline() == pytest.approx(2.0 + CALL)
    with pytest.raises(ProtocolError) as refused:  # a second hammer while the first is called
        seats.act(Move.hammer(seller))
    assert refused.value.code == "hammer_called"
    assert game.apply_defaults(4.9) == []  # not yet
    events = game.apply_defaults(5.0)
    assert kinds(events)[0] == ("move", "call")
    assert state.phase != Phase.OPEN and game.call is None
    journal = open(game.journal.path).read().splitlines()
    assert journal[-1] == '{"m":[%d,%d,0]}' % (seller, Action.HAMMER)  # journaled when it fell


def test_a_pass_by_everyone_who_could_outbid_ends_the_call_early(tmp_path):
    seats = Seats(tmp_path, players=3)
    game, state = seats.game, seats.game.state
    seller = seats.open_auction()
    high, other = (seller + 1) % 3, (seller + 2) % 3
    seats.act(Move.bid(high, 3))
    seats.act(Move.hammer(seller))
    assert game.call is not None
    events = seats.act(Move.pass_(other))  # the last who could outbid says no: sold at once
    assert [k for k in kinds(events)][:2] == [("move", "player"), ("move", "call")]
    assert state.phase != Phase.OPEN


def test_nobody_left_to_outbid_means_no_call(tmp_path):
    seats = Seats(tmp_path, players=3)
    state = seats.game.state
    seller = seats.open_auction()
    for seat in range(3):
        if seat != seller:
            seats.act(Move.pass_(seat))
    assert kinds(seats.act(Move.hammer(seller))) == [("move", "player")]
    assert state.phase != Phase.OPEN


def test_a_zero_call_hammers_at_once(tmp_path):
    seats = Seats(tmp_path, hammer_call=0)
    seller = seats.open_auction()
    assert kinds(seats.act(Move.hammer(seller))) == [("move", "player")]


def test_only_the_auctioneer_can_call_and_bad_settings_are_refused(tmp_path):
    seats = Seats(tmp_path)
    seller = seats.open_auction()
    with pytest.raises(ProtocolError) as refused:
        seats.act(Move.hammer((seller + 1) % 4))
    assert refused.value.code == "not_auctioneer" and seats.game.call is None
    for bad in (-1, 61, float("nan"), True):
        with pytest.raises(ValueError):
            ClockSettings(hammer_call=bad)


def test_clients_check_the_call_and_refuse_a_hammer_without_one(tmp_path):
    """A client's verified copy accepts the call and its completion, and refuses a hammer
    `by` "call" that the seller's signed call does not back (outbid meanwhile)."""
    seats = Seats(tmp_path)
    game, state = seats.game, seats.game.state
    seller = seats.open_auction()
    bidder = (seller + 1) % state.n
    seats.act(Move.hammer(seller))
    seats.act(Move.bid(bidder, 1))  # the call is off
    follower = VerifiedGame(game.game_id, seats.host.vk)
    for event in game.log:
        follower.apply(event.frame_for(0), 0)
    assert follower.call is None
    # a forged event: the host brings the hammer down "by call" although the call was outbid
    from modernart.net.protocol.frames import event_public
    from modernart.net.protocol.signed import HOSTEV_TAG, chain_link, private_hash

    forged_state = state.clone()
    forged_state.apply(Move.hammer(seller))
    public = pack(event_public("move", game.game_id, {"m": [seller, int(Action.HAMMER), 0], "by": "call"}))
    hashes = [private_hash(None)] * state.n
    h = chain_link(game.head, game.seq + 1, public, hashes)
    from modernart.net.protocol.frames import event_frame

    frame = event_frame(game.seq + 1, public, hashes, h, seats.host.sign(HOSTEV_TAG, h), None)
    with pytest.raises(ChainError, match="without its call"):
        follower.apply(frame, None)


def test_a_host_resumed_during_a_call_calls_again_and_completes_it(tmp_path):
    seats = Seats(tmp_path)
    game, state = seats.game, seats.game.state
    seller = seats.open_auction()
    seats.act(Move.bid((seller + 1) % state.n, 4))
    seats.act(Move.hammer(seller))
    assert game.call is not None
    game.journal.sync()
    resumed = Table.resume(seats.table.journal_path, seats.host, 50.0, fsync=False).game
    assert resumed.call is not None and resumed.call.seat == seller
    assert resumed.call.end == pytest.approx(50.0 + CALL)  # the call starts again
    assert resumed.state.phase == Phase.OPEN and resumed.counters == game.counters
    events = resumed.apply_defaults(50.0 + CALL)
    assert kinds(events)[0] == ("move", "call") and resumed.state.phase != Phase.OPEN
