"""The host's game requests: signed actions, shuffle seeds, sealed-bid commitments and
reveals (docs/protocol.md, docs/fair-play.md).

Each request goes to the table's `HostedGame`; its events go out once they are written
(net/host/fanout.py), with the answer to the sender after them.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from modernart.net.host.connections import Connections, Peer
from modernart.net.host.fanout import Fanout
from modernart.net.host.game import HostedGame
from modernart.net.host.presence import Presence
from modernart.net.host.shuffle_relay import ShuffleRelay
from modernart.net.protocol import ProtocolError
from modernart.net.protocol.frames import ack_frame, err_frame
from modernart.net.trust.sealed import REASONS


def started(peer: Peer) -> HostedGame:
    """The game of `peer`'s table, refused (`not_started`) before the deal's table starts one."""
    sess = peer.table.game
    if sess is None:
        raise ProtocolError("not_started", "the game has not started")
    return sess


@contextmanager
def for_request(request: int) -> Iterator[None]:
    """A refusal raised inside names the request it answers (its client matches it by id)."""
    try:
        yield
    except ProtocolError as exc:
        exc.request = request  # type: ignore[attr-defined]
        raise


class GameRequests:
    """Moves and fair-play messages of the peers of a running game."""

    def __init__(self, connections: Connections, fanout: Fanout, presence: Presence, clock: Any) -> None:
        self.connections = connections
        self.fanout = fanout
        self.presence = presence
        self.clock = clock  # MonotonicClock, or a test's ManualClock
        self.shuffles = ShuffleRelay(connections, fanout, clock)  # relayed while their proofs are checked

    def act(self, peer: Peer, msg: dict[str, Any]) -> None:
        request: int = msg["id"]  # required by its schema
        with for_request(request):
            sess = started(peer)
            if peer.seat is None or peer.role == "spectator":
                raise ProtocolError("not_seated", "spectators cannot act")
            if msg.get("conn", peer.conn) != peer.conn:  # sent before the client said hello again
                raise ProtocolError(
                    "stale", "not played: this move was sent before the client reconnected (look again)"
                )
            events, ctr = sess.submit(peer.vk, peer.seat, msg["b"], msg["s"], self.clock.now(), msg.get("open"))
        self.fanout.publish_all(peer.table, events, (peer.rid, ack_frame(request, events[0].seq, ctr)))

    def opening(self, peer: Peer, msg: dict[str, Any]) -> None:
        """The opening of a card play the host committed to (the `play` event): the card is
        played now (net/host/hidden_hands.py)."""
        request: int = msg["id"]
        with for_request(request):
            sess = started(peer)
            if peer.seat is None or peer.role != "player":
                raise ProtocolError("not_seated", "only a seated player opens its card")
            events = sess.submit_opening(peer.vk, peer.seat, msg["open"], self.clock.now())
        self.fanout.publish_all(peer.table, events, (peer.rid, ack_frame(request, events[0].seq)))

    def deck(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A step of the hidden deck: a deck key, a shuffle, shares, a disclosed key
        (net/host/hidden_hands.py); a shuffle is relayed at once and recorded once its proof
        is checked (net/host/shuffle_relay.py)."""
        request = msg["id"]
        with for_request(request):
            sess = started(peer)
            if peer.seat is None or peer.role != "player":
                raise ProtocolError("not_seated", "only a seated player sends its deck")
            if "shuffle" in msg and not ({"key", "shares", "secret"} & msg.keys()):
                self.shuffles.relay(peer.table, peer.rid, peer.vk, peer.seat, msg)  # answered once checked
                return
            events = sess.submit_deck(peer.vk, peer.seat, msg, self.clock.now())
        self.fanout.publish_all(peer.table, events, (peer.rid, ack_frame(request, events[0].seq)))

    def vote(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A seated person's vote on a late seat (net/trust/votes.py); its decision's event,
        if this vote decides."""
        request = msg["id"]
        with for_request(request):
            sess = started(peer)
            if peer.seat is None or peer.role != "player":
                raise ProtocolError("vote_no_seat", "only a seated player votes")
            events = sess.submit_vote(peer.vk, peer.seat, msg["vote"], self.clock.now())
        self.fanout.publish_all(peer.table, events, (peer.rid, ack_frame(request, events[0].seq if events else None)))

    def fair(self, peer: Peer, kind: str, msg: dict[str, Any]) -> None:
        """A seed, a sealed-bid commitment or a reveal (net/trust/shuffle.py, net/trust/sealed.py)."""
        request = msg["id"]
        now = self.clock.now()
        reply = ack_frame(request, None)
        with for_request(request):
            sess = started(peer)
            if kind == "reveal":  # any connection may carry a reveal: its signature proves it
                events, seat, why = sess.submit_reveal(msg["b"], msg["s"], now)
                if why is not None:
                    reply = err_frame(why, REASONS[why], request)
            else:
                if peer.seat is None or peer.role == "spectator":
                    raise ProtocolError("not_seated", "spectators cannot act")
                if kind == "commit":  # no event of its own: the set's, if this one completes it
                    events = sess.submit_commit(peer.vk, peer.seat, msg["b"], msg["s"], now)
                else:
                    events = sess.submit_seed(peer.vk, peer.seat, msg["b"], msg["s"], msg["seed"], now)
                reply["seq"] = events[0].seq if events else None
        self.fanout.publish_all(peer.table, events, (peer.rid, reply))
        if kind == "reveal" and events:
            self.presence.retire_standins(peer.table)
        elif kind == "reveal" and why is None:  # held until every reveal is in: tell whose are still awaited
            self.fanout.tick_soon(peer.table)
        elif kind == "commit" and not events:  # held until the set: tell who has sealed (clk.sealed)
            self.fanout.tick_soon(peer.table)
