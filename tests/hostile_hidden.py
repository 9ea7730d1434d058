"""An adversarial harness for the hidden deck: a real host (this process, real CurveZMQ
sockets on 127.0.0.1) whose code a test changes, and the honest clients it serves.

`HostileHost` wraps a running `Host` and its one hidden-hands table.  A test makes it:

* **rewrite, drop or refuse what it receives** (`on_frame`: every `act`, `deck` and `open`
  frame of a seat goes through the test's function first, which may change it, return an
  error code to refuse it, or None to drop it); everything a seat sent is kept
  (`received`), so a test can tell exactly what left an honest client;
* **skip its own checks** of the seats' signatures on deck steps (`skip_step_checks`), as
  a host running changed code would;
* **rewrite, reorder or re-sign what it sends** (`rewrite`: each event to each recipient
  goes through the test's function, which may change its public part; every later event
  to that recipient is re-chained and re-signed with the host's own key, so a recipient
  shown a changed event holds a history the host signed, a fork of the others');
* **inject events of its own** (`inject`), signed and chained like any other;
* **say what it learned** (`learned`): every card of a hand, not played, that it can
  decrypt with everything it holds (the public shares, every opening and share any seat
  sent it, and any deck secret it knows: its own substituted keys, or a seat's it runs).

It uses only what every version of the host has (it runs against older code too: the
attack tests say what each attack did on the base commit), so every changed behaviour is
patched in, not built in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from modernart.net.client.client import Client
from modernart.net.host.host import Host
from modernart.net.protocol import ProtocolError, decode_host_inner, pack
from modernart.net.protocol.signed import HOSTEV_TAG, chain_link
from modernart.net.trust.deck import Share, decrypt, card_lookup
from modernart.net.trust.group import GroupError, mul
from modernart.net.trust.identity import Keys

from .net_helpers import in_process_host

#: what a test's `on_frame` returns: the frame (changed or not), an error code, or None (dropped)
FrameVerdict = dict[str, Any] | str | None


@dataclass
class Received:
    """One frame a seat sent the host: its seat, kind and content, as it arrived."""

    seat: int | None
    kind: str
    msg: dict[str, Any]


@dataclass
class HostileHost:
    host: Host
    table: Any
    monkeypatch: pytest.MonkeyPatch
    received: list[Received] = field(default_factory=list)
    on_frame: Callable[[int | None, str, dict[str, Any]], FrameVerdict] | None = None
    rewrite: Callable[[int | None, int, dict[str, Any]], dict[str, Any] | None] | None = None
    known_secrets: dict[int, int] = field(default_factory=dict)  # seat -> a deck secret the host knows
    _chains: dict[bytes, bytes] = field(default_factory=dict)  # recipient -> the head of what it was sent

    @classmethod
    async def open(cls, tmp: Path, monkeypatch: pytest.MonkeyPatch, **table: Any) -> "HostileHost":
        host, tab = await in_process_host(tmp, hidden_hands=True, **table)
        hostile = cls(host, tab, monkeypatch)
        hostile._intercept_requests()
        hostile._intercept_sends()
        return hostile

    async def close(self) -> None:
        await self.host.close()

    @property
    def game(self) -> Any:
        return self.table.game

    # ------------------------------------------------------------------ what it receives

    def _intercept_requests(self) -> None:
        requests = self.host.game_requests
        for kind, name in (("act", "act"), ("deck", "deck"), ("open", "opening")):
            original = getattr(requests, name, None)
            if original is None:  # (this version of the host has no such request)
                continue

            def handler(peer: Any, msg: dict[str, Any], _kind: str = kind, _original: Any = original) -> None:
                self.received.append(Received(peer.seat, _kind, dict(msg)))
                verdict: FrameVerdict = msg
                if self.on_frame is not None:
                    verdict = self.on_frame(peer.seat, _kind, msg)
                if verdict is None:
                    return  # dropped: never answered
                if isinstance(verdict, str):
                    exc = ProtocolError(verdict, "refused by the host")
                    exc.request = msg.get("id")  # type: ignore[attr-defined]
                    raise exc
                _original(peer, verdict)

            setattr(requests, name, handler)

    def skip_step_checks(self) -> None:
        """The host no longer checks the seats' signatures over their deck steps."""
        from modernart.net.host import hidden_hands

        self.monkeypatch.setattr(hidden_hands.HiddenHands, "check_signed", lambda *a, **k: None, raising=False)

    def frames_of(self, kind: str, part: str | None = None) -> list[Received]:
        """The frames of `kind` (with field `part`, if given) the seats sent."""
        return [r for r in self.received if r.kind == kind and (part is None or part in r.msg)]

    # ------------------------------------------------------------------ what it sends

    def _intercept_sends(self) -> None:
        router = self.host.router
        send = router.send

        def hostile_send(rid: bytes, data: bytes) -> bool:
            if self.rewrite is not None:
                data = self._rewritten(rid, data)
            return send(rid, data)

        router.send = hostile_send  # type: ignore[method-assign]

    def seat_of(self, rid: bytes) -> int | None:
        for peer in self.host.connections.at(self.table):
            if peer.rid == rid:
                return peer.seat if peer.role != "spectator" else None
        return None

    def _rewritten(self, rid: bytes, data: bytes) -> bytes:
        frame = decode_host_inner(data)
        if not isinstance(frame, dict) or frame.get("t") not in ("ev", "evs"):
            return data
        if frame["t"] == "ev":
            return pack(self._event_for(rid, frame))
        events = [pack(self._event_for(rid, decode_host_inner(e))) for e in frame["evs"]]
        return pack({**frame, "evs": events})

    def _event_for(self, rid: bytes, event: dict[str, Any]) -> dict[str, Any]:
        assert self.rewrite is not None
        seq = event["seq"]
        prev = self._chains.get(rid)
        changed = self.rewrite(self.seat_of(rid), seq, decode_host_inner(event["pub"]))
        if changed is None and prev is None:
            return event  # nothing changed for this recipient so far: the host's own event
        pub = pack(changed) if changed is not None else event["pub"]
        before = prev if prev is not None else self.game.log[seq - 2].h if seq > 1 else None
        if before is None:
            from modernart.net.protocol.signed import chain_genesis

            before = chain_genesis(self.game.game_id)
        h = chain_link(before, seq, pub, list(event["ph"]))
        self._chains[rid] = h
        return {**event, "pub": pub, "h": h, "hs": self.host.keys.sign(HOSTEV_TAG, h)}

    def inject(self, kind: str, fields: dict[str, Any]) -> Any:
        """Make and send an event of the host's own choosing (signed and chained as any)."""
        sess = self.game
        event = sess._emit(kind, self.host.clock.now(), fields)
        self.host.fanout.publish_all(self.table, [event])
        return event

    # ------------------------------------------------------------------ what it learned

    def learned(self) -> dict[int, int]:
        """slot -> card of every slot of a hand, not played, that the host can decrypt with
        the shares it holds (public, and every one any seat sent it) and the secrets it knows."""
        ledger = self.game.hidden.ledger
        shares: dict[int, dict[int, bytes]] = {
            k: {s: sh.d for s, sh in ledger.shares[k].items()} for k in range(ledger.size)
        }
        for r in self.received:
            wires = list(r.msg.get("shares") or [])
            if r.kind == "act" and isinstance(r.msg.get("open"), dict):
                wires.append(r.msg["open"])
            if r.kind == "open" and isinstance(r.msg.get("open"), dict):
                wires.append(r.msg["open"])
            for wire in wires:
                try:
                    share = Share.from_wire(wire)
                except ValueError:
                    continue
                if 0 <= share.slot < ledger.size:
                    shares[share.slot][share.seat] = share.d
        lookup = card_lookup(ledger.game, ledger.size)
        out: dict[int, int] = {}
        if not ledger.shuffled:
            return out
        for slot in range(ledger.dealt):
            if slot in ledger.opened:
                continue
            held = dict(shares[slot])
            for seat, secret in self.known_secrets.items():
                held.setdefault(seat, mul(secret, ledger.deck[slot].c1))
            if len(held) < ledger.n:
                continue
            try:
                card = lookup.get(decrypt(ledger.deck[slot], list(held.values())))
            except GroupError:
                continue
            if card is not None:
                out[slot] = card
        return out


async def honest_clients(
    hostile: HostileHost,
    count: int,
    prepare: Callable[[list[Client]], None] | None = None,
    state_dirs: Path | None = None,
    **options: Any,
) -> list[Client]:
    """`count` honest clients, each with its own key (and its own state dir under
    `state_dirs`, where it keeps its transcript and any evidence against the host), seated
    and ready (the game starts); in seat order (`prepare` sees them so before they are
    ready: a test makes one malicious).  They do not wait for the deal: an attack may stop it."""
    clients = []
    for i in range(count):
        if state_dirs is not None:
            options["state_dir"] = str(state_dirs / f"c{i}")
        c = Client(hostile.host.target(), keys=Keys.generate(), updates=False, **options)
        await c.connect()
        assert (await c.take_seat(f"P{i}")).ok
        clients.append(c)
    clients.sort(key=lambda c: c.state.seat)
    if prepare is not None:
        prepare(clients)
    for c in clients:
        assert (await c.ready()).ok
    return clients


async def evidence_audited(clients: list[Client], timeout: float = 30.0) -> list[list[str]]:
    """Wait until every client has saved its evidence against the host; the problems
    `modernart audit` finds in each (net/trust/audit.py `audit_evidence`)."""
    from modernart.net.trust.audit import audit_evidence

    for c in clients:
        await c.wait_until(lambda s: getattr(s, "saved_evidence", None) is not None, timeout)
    return [audit_evidence(c.state.saved_evidence).problems for c in clients]


async def untrusted(clients: list[Client], timeout: float = 30.0) -> list[str]:
    """Wait until every client in `clients` has stopped trusting the host; what each said."""
    for c in clients:
        await c.wait_until(lambda s: s.status == "failed", timeout)
    return [next(m for code, m in c.state.errors if code == "untrusted_host") for c in clients]


async def close_clients(clients: list[Client]) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
