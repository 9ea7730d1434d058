"""Every frame of both directions: its schema, the function that builds it, and the
decoder that checks it on arrival (docs/protocol.md "Frames", in the same order).

A frame is a msgpack map whose kind is in "t"; the other fields are the kind's schema
(field -> (check, required)).  A frame of an unknown kind is refused with code
`unknown_kind`, a field that is unknown, missing or of a wrong type or value with
`bad_field`, an undecodable frame with `bad_frame`, an oversized one with `too_big`.
Fixed-shape nested parts (lobby seats, table descriptions, clocks, a catch-up batch's
events, an event's public and private parts, the public view) have schemas too.
Host and client build frames only with the builders below, never with dict literals.
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from modernart.phase import Phase

from modernart.net.protocol import (
    COUNTER,
    MAX_ACTION_BYTES,
    MAX_CHAT,
    MAX_CLIENT_FRAME,
    MAX_HOST_BIN,
    MAX_NAME,
    MAX_TABLE_ID,
    MAX_TEXT,
    NONCE_BYTES,
    ProtocolError,
    REQUEST,
    SEAT,
    SEQ,
    Schema,
    VERSION,
    check_fields,
    decode_host_inner,
    is_bool,
    is_bytes,
    is_int,
    is_list,
    is_map,
    is_number,
    is_record,
    is_str,
    is_text,
    is_version,
    one_of,
    optional,
    Params,
    unpack_host_frame,
)


def is_params(v: Any) -> bool:
    """A refusal's parameters: at most 8, each a short name and an int or a short text."""
    return (
        is_map(8)(v)
        and all(0 < len(k) <= 32 for k in v)
        and all(is_int(-(2**31), 2**31)(x) or is_text(0, MAX_TEXT)(x) for x in v.values())
    )


ROLES = ("player", "standin", "spectator")
TABLE_STATES = ("lobby", "playing", "over")
#: Join strings a lobby frame gives besides `join`: the host's other addresses
MAX_OTHER_ADDRESSES = 8
_SIGNATURE = is_bytes(64)
_KEY = is_bytes(32)
_GAME_ID = is_bytes(16)
_SIGNED_BODY = is_bytes(1, MAX_ACTION_BYTES)
_SIGNED = is_list(is_bytes(1, MAX_ACTION_BYTES), 2, 2)  # [body, signature] as an event relays it
_CONN = is_bytes(8)
MAX_TAIL_EVENTS = 64  # events of one `tail` frame (it must fit the host's MAX_HOST_FRAME)
MAX_TAIL_EVENT = MAX_HOST_BIN  # one event as a client gives it back (its private part left out)

# ====================================================================== client -> host

CLIENT_SCHEMA: dict[str, Schema] = {
    "hello": {
        "v": (is_int(0, 255), True),
        "table": (optional(is_text(1, MAX_TABLE_ID)), False),
        "vk": (_KEY, True),
        "sig": (_SIGNATURE, True),
        "last_seq": (SEQ, False),
        "last_hash": (optional(is_bytes(32)), False),
        "game": (optional(_GAME_ID), False),
        "spectate": (is_bool, False),
        "token": (optional(is_bytes(16)), False),
    },
    # conn: the mark of the welcome the move was made under (net/host/game_requests.py refuses another)
    # open: a card played at a hidden-hands table, its owner's proven share (net/trust/deck.py)
    "act": {
        "id": (REQUEST, True),
        "b": (_SIGNED_BODY, True),
        "s": (_SIGNATURE, True),
        "conn": (_CONN, False),
        "open": (is_map(5), False),
    },
    # fair play (net/protocol/signed.py): a shuffle seed, a sealed-bid commitment, its reveal
    "seed": {"id": (REQUEST, True), "b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True), "seed": (_KEY, True)},
    "commit": {"id": (REQUEST, True), "b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)},
    "reveal": {"id": (REQUEST, True), "b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)},
    # the hidden deck (net/trust/hidden_deck.py): exactly one of a deck key, a shuffle, the
    # shares of a deal, or (after the game) the secret deck key; each value's shape is
    # checked by net/trust/deck.py as the host reads it
    "deck": {
        "id": (REQUEST, True),
        "key": (is_map(4), False),
        "shuffle": (is_map(3), False),
        "shares": (is_list(is_map(5), 64, 1), False),
        "secret": (is_bytes(32), False),
        "on": (is_bytes(32), False),  # with a shuffle: the digest of the deck it shuffled
        # [body, signature] of the step under the seat's own key (net/trust/deck_steps.py)
        "signed": (_SIGNED, True),
    },
    # a card play's opening, once the host has committed to the play (the `play` event)
    "open": {"id": (REQUEST, True), "open": (is_map(5), True)},
    # a seated person's vote on a seat late with its deck step: [body, signature] under its
    # seat key (net/trust/votes.py)
    "vote": {"id": (REQUEST, True), "vote": (_SIGNED, True)},
    "lobby": {"op": (is_text(1, 16), True), "id": (REQUEST, True), "args": (is_map(8), False)},
    # an acknowledgement too: the last event held, the nonce of the last catch-up batch applied
    "ping": {"seq": (SEQ, False), "n": (is_bytes(NONCE_BYTES), False)},
    "tables": {"id": (REQUEST, False)},
    "bye": {},
    # events given back to a host that lost them (a power loss): packed `ev` frames, oldest first
    "tail": {"id": (REQUEST, True), "evs": (is_list(is_bytes(1, MAX_TAIL_EVENT), MAX_TAIL_EVENTS), True)},
}

#: Watchers a lobby frame lists (a host serves at most this many without a seat per table)
MAX_LISTED_WATCHERS = 64

# lobby op -> {arg: (check, required)}
LOBBY_OPS: dict[str, Schema] = {
    "sit": {"name": (is_text(1, MAX_NAME), True), "seat": (optional(SEAT), False)},
    "leave": {},
    "ready": {"ready": (is_bool, False)},
    "chat": {"text": (is_text(1, MAX_CHAT), True)},
    "add_bot": {"level": (is_text(1, 16), False), "seat": (optional(SEAT), False)},
    "remove_bot": {"seat": (SEAT, True)},
    # the admin removes a seated person or bot, or a watcher, by its key's fingerprint
    "remove": {"fpr": (is_text(1, 16), True)},
    "lock": {"lock": (is_bool, True)},  # the admin locks the table to the keys seated, or opens it
    "options": {"options": (is_map(64), True)},  # every RuleOptions field (RuleOptions.from_dict checks them)
    "clocks": {"clocks": (is_map(16), True)},  # every ClockSettings field
    "start": {},
}


def hello_frame(
    vk: bytes,
    sig: bytes,
    last_seq: int,
    spectate: bool,
    *,
    table: str | None = None,
    game: bytes | None = None,
    last_hash: bytes | None = None,
    token: bytes | None = None,
) -> dict[str, Any]:
    """`sig` signs `signed.hello_bytes` of this connection; `game`/`last_hash`: what it holds."""
    msg: dict[str, Any] = {"t": "hello", "v": VERSION, "vk": vk, "sig": sig, "last_seq": last_seq, "spectate": spectate}
    if table:
        msg["table"] = table
    if game is not None:
        msg["game"], msg["last_hash"] = game, last_hash
    if token is not None:
        msg["token"] = token
    return msg


def act_frame(body: bytes, sig: bytes, conn: bytes | None, opening: dict[str, Any] | None = None) -> dict[str, Any]:
    """A signed action (`signed.encode_action_body`); the request `id` is added as it is sent.
    `opening`: a card played at a hidden-hands table, its owner's proven share."""
    msg: dict[str, Any] = {"t": "act", "b": body, "s": sig}
    if conn is not None:
        msg["conn"] = conn
    if opening is not None:
        msg["open"] = opening
    return msg


def deck_frame(signed: list[bytes], **part: Any) -> dict[str, Any]:
    """One step of the hidden deck: `key=`, `shuffle=`, `shares=` or `secret=` (wire forms of
    net/trust/deck.py), with `signed`, the seat's signed step (net/trust/deck_steps.py); the
    request `id` is added as it is sent."""
    return {"t": "deck", **part, "signed": signed}


def vote_frame(signed: list[bytes]) -> dict[str, Any]:
    """A seated person's signed vote on a late seat (net/trust/votes.py); the request `id`
    is added as it is sent."""
    return {"t": "vote", "vote": signed}


def open_frame(opening: dict[str, Any]) -> dict[str, Any]:
    """The opening of the card play the host committed to (a `play` event): the owner's
    proven share of the slot; the request `id` is added as it is sent."""
    return {"t": "open", "open": opening}


def seed_frame(body: bytes, sig: bytes, seed: bytes) -> dict[str, Any]:
    return {"t": "seed", "b": body, "s": sig, "seed": seed}


def commit_frame(body: bytes, sig: bytes) -> dict[str, Any]:
    return {"t": "commit", "b": body, "s": sig}


def reveal_frame(body: bytes, sig: bytes) -> dict[str, Any]:
    return {"t": "reveal", "b": body, "s": sig}


def lobby_op_frame(op: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """A lobby operation (`LOBBY_OPS`); arguments that are None are left out."""
    return {"t": "lobby", "op": op, "args": {k: v for k, v in args.items() if v is not None}}


def ping_frame(seq: int, nonce: bytes | None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "ping", "seq": seq}
    if nonce is not None:
        msg["n"] = nonce
    return msg


def tail_frame(events: list[bytes]) -> dict[str, Any]:
    """Events this client holds past the host's log (the welcome's `tail`), as packed `ev` frames."""
    return {"t": "tail", "evs": events}


def tables_request() -> dict[str, Any]:
    return {"t": "tables"}


def bye_frame() -> dict[str, Any]:
    return {"t": "bye"}


def _kind_and_schema(msg: Any, schemas: Mapping[str, Schema], what: str, key: str = "t") -> tuple[str, Schema]:
    """The kind a decoded map names in `key`, and its schema (ProtocolError if it has none)."""
    if type(msg) is not dict:
        raise ProtocolError("bad_frame", f"{what} is a map")
    kind = msg.get(key)
    schema = schemas.get(kind) if type(kind) is str else None
    if schema is None:
        raise ProtocolError("unknown_kind", f"unknown {what} kind {kind!r}")
    return cast(str, kind), schema  # a str: it named a schema


def _checked(msg: Any, schemas: Mapping[str, Schema], what: str) -> dict[str, Any]:
    kind, schema = _kind_and_schema(msg, schemas, what)
    check_fields(msg, schema, kind, ignore="t")
    return cast(dict[str, Any], msg)


def decode_client_frame(data: bytes) -> dict[str, Any]:
    """Decode and validate one client -> host frame (raises ProtocolError)."""
    msg = unpack_host_frame(data)
    kind, schema = _kind_and_schema(msg, CLIENT_SCHEMA, "client frame")
    body = {k: v for k, v in msg.items() if k != "t"}
    try:
        check_fields(body, schema, kind)
        if kind == "lobby":
            op_schema = LOBBY_OPS.get(body["op"])
            if op_schema is None:
                raise ProtocolError("unknown_op", f"unknown lobby operation {body['op']!r}")
            check_fields(body.get("args") or {}, op_schema, f"lobby {body['op']}")
    except ProtocolError as exc:
        request = msg.get("id")
        if type(request) is int:
            exc.request = request  # type: ignore[attr-defined]  # lets the client match the error
        raise
    return msg


# ====================================================================== host -> client: nested parts

_NAME = is_text(0, MAX_TEXT)
_ID = is_text(1, MAX_TEXT)
_OPTIONS = is_map(64)  # modernart.rules.RuleOptions fields (RuleOptions.from_dict checks them)

#: one seat of a lobby description (`standin` only once the game runs)
SEAT_DESCRIPTION: Schema = {
    "seat": (SEAT, True),
    "name": (optional(_NAME), True),
    "bot": (optional(is_text(1, 16)), True),
    "ready": (is_bool, True),
    "fpr": (optional(is_text(1, 16)), True),
    "admin": (is_bool, True),
    "connected": (is_bool, True),
    "standin": (is_bool, False),
}

#: one table of a `tables` answer (and of the beacon, net/lan/beacon.py)
TABLE_INFO: Schema = {
    "id": (_ID, True),
    "name": (_NAME, True),
    "state": (one_of(*TABLE_STATES), True),
    "taken": (is_int(0, 5), True),
    "free": (is_int(0, 5), True),
    "options": (_OPTIONS, True),
    "hidden": (is_bool, False),  # hands hidden even from the host (docs/fair-play.md "The hidden deck")
}

#: the clock remainders in a tick and in every event after the deal (seconds; `owe`: the
#: seats whose reveal the host still waits for)
CLOCK_VIEW: Schema = {
    "open": (optional(is_number(0, 1e9)), True),
    "decide": (optional(is_number(0, 1e9)), True),
    "reveal": (optional(is_number(0, 1e9)), True),
    "owe": (is_list(SEAT, 5), False),
    "call": (is_number(0, 1e9), False),
    "sealed": (is_list(SEAT, 5), False),
    "deck": (is_number(0, 1e9), False),
    "late": (is_list(SEAT, 5), False),
}

#: a fixed deal a table announces (lobby `fixed_deal`, event 1 `fixed`): the deck order and
#: the first auctioneer (net/trust/shuffle.py `FixedDeal`, which also checks it fits the deck);
#: with fresh deals every round (docs/rules.md §10.2) the order is four deck orders in a row
FIXED_DEAL: Schema = {"order": (is_list(is_int(0, 255), 1024, 1), True), "first": (SEAT, True)}


def seat_description(
    seat: int,
    name: str | None,
    bot: str | None,
    ready: bool,
    fpr: str | None,
    admin: bool,
    connected: bool,
    standin: bool | None = None,
) -> dict[str, Any]:
    """One seat as the lobby frame lists it (`SEAT_DESCRIPTION`)."""
    entry: dict[str, Any] = {
        "seat": seat,
        "name": name,
        "bot": bot,
        "ready": ready,
        "fpr": fpr,
        "admin": admin,
        "connected": connected,
    }
    if standin is not None:
        entry["standin"] = standin
    return entry


def table_info(
    table_id: str, name: str, state: str, taken: int, free: int, options: dict[str, Any], hidden: bool = False
) -> dict[str, Any]:
    """One table as the `tables` answer and the beacon list it (`TABLE_INFO`); `hidden`: its
    hands are hidden even from the host."""
    info = {"id": table_id, "name": name, "state": state, "taken": taken, "free": free, "options": options}
    if hidden:
        info["hidden"] = True
    return info


def clock_view(
    open_left: float | None,
    decide_left: float | None,
    reveal_left: float | None,
    owe: list[int] | None,
    call_left: float | None = None,
    sealed: list[int] | None = None,
    deck_left: float | None = None,
    late: list[int] | None = None,
) -> dict[str, Any]:
    """Seconds left on each clock (`CLOCK_VIEW`); `owe` only while reveals are awaited,
    `call` only while the auctioneer's hammer is being called (an Open auction), `sealed`
    only while a Sealed auction's commitments come in: the seats whose commitment the host
    holds (who, never what: the commitments themselves are published in the complete set);
    at a hidden-hands table `deck` while a seat owes a deck step (seconds until the next such
    step is late: net/host/deck_deadlines.py) and `late`, the seats late with theirs."""
    view: dict[str, Any] = {"open": open_left, "decide": decide_left, "reveal": reveal_left}
    if owe is not None:
        view["owe"] = owe
    if sealed is not None:
        view["sealed"] = sealed
    if call_left is not None:
        view["call"] = call_left
    if deck_left is not None:
        view["deck"] = deck_left
    if late:
        view["late"] = late
    return view


# ====================================================================== host -> client

_SEAT_OR_NONE = optional(SEAT)
_HASHES = is_list(is_bytes(32), 5, 1)

HOST_SCHEMA: dict[str, Schema] = {
    "welcome": {
        "v": (is_version, True),
        "table": (_ID, True),
        "seat": (_SEAT_OR_NONE, True),
        "role": (one_of(*ROLES), True),
        "game": (optional(_GAME_ID), True),
        "head": (SEQ, True),
        "ctr": (COUNTER, True),
        "reset": (is_bool, True),
        "host_vk": (_KEY, True),
        "conn": (_CONN, True),
        # the host lost events past this one (a power loss): give back what you hold after it
        "tail": (SEQ, False),
    },
    "seat": {"seat": (_SEAT_OR_NONE, True), "role": (one_of(*ROLES), True)},
    "lobby": {
        "table": (_ID, True),
        "name": (_NAME, True),
        "state": (one_of(*TABLE_STATES), True),
        "join": (is_text(1, MAX_TEXT), True),
        "also": (is_list(is_text(1, MAX_TEXT), MAX_OTHER_ADDRESSES), False),
        "code": (is_text(1, 32), True),
        "clocks": (is_map(16), True),
        "seats": (is_list(optional(is_record(SEAT_DESCRIPTION)), 5), True),
        "options": (_OPTIONS, True),
        "admin": (optional(is_text(1, 16)), True),
        # in the lobby: the fingerprints of its watchers (the admin may remove them), whether
        # the admin locked it to the keys seated
        "watchers": (is_list(is_text(1, 16), MAX_LISTED_WATCHERS), False),
        "locked": (is_bool, False),
        "game": (_GAME_ID, False),
        "record": (is_str(MAX_TEXT), False),
        "fixed_deal": (is_record(FIXED_DEAL), False),
        "hidden_hands": (is_bool, False),  # hands hidden even from the host (docs/fair-play.md)
    },
    "ev": {
        "seq": (is_int(1, 1 << 40), True),
        "pub": (is_bytes(1, MAX_CLIENT_FRAME), True),
        "ph": (_HASHES, True),
        "h": (is_bytes(32), True),
        "hs": (_SIGNATURE, True),
        "priv": (optional(is_bytes(1, MAX_CLIENT_FRAME)), True),
    },
    "evs": {"evs": (is_list(is_bytes(1, MAX_CLIENT_FRAME), 4096), True), "n": (is_bytes(NONCE_BYTES), False)},
    "ack": {"id": (REQUEST, True), "seq": (optional(SEQ), True), "ctr": (COUNTER, False)},
    "reply": {"id": (REQUEST, True), "ok": (is_bool, True)},
    "err": {
        "id": (REQUEST, False),
        "code": (is_text(1, 64), True),
        "msg": (is_str(MAX_TEXT * 4), True),
        "args": (is_params, False),
    },
    "tick": {"head": (SEQ, True), "clk": (is_record(CLOCK_VIEW), False)},
    # a shuffle relayed before its proof is checked (nil: the relayed shuffles from `seat` on
    # are withdrawn); the next seat shuffles its deck at once (docs/protocol.md "Hidden hands")
    "dnext": {"g": (_GAME_ID, True), "seat": (SEAT, True), "sh": (optional(is_map(3)), True)},
    "chat": {"seat": (_SEAT_OR_NONE, True), "name": (_NAME, True), "text": (is_text(1, MAX_CHAT), True)},
    "tables": {
        "id": (REQUEST, True),
        "tables": (is_list(is_record(TABLE_INFO), 256), True),
        "v": (is_int(0, 255), True),
    },
    # the paths are the host's own; the client shows them only if printable
    "closed": {
        "table": (optional(is_str(MAX_TEXT)), True),
        "journal": (optional(is_str(MAX_TEXT)), True),
        "record": (optional(is_str(MAX_TEXT)), True),
    },
}


def welcome_frame(
    table: str,
    seat: int | None,
    role: str,
    game: bytes | None,
    head: int,
    ctr: int,
    reset: bool,
    host_vk: bytes,
    conn: bytes,
    *,
    tail: int | None = None,
) -> dict[str, Any]:
    msg = {
        "t": "welcome",
        "v": VERSION,
        "table": table,
        "seat": seat,
        "role": role,
        "game": game,
        "head": head,
        "ctr": ctr,
        "reset": reset,
        "host_vk": host_vk,
        "conn": conn,
    }
    if tail is not None:
        msg["tail"] = tail
    return msg


def seat_frame(seat: int | None, role: str) -> dict[str, Any]:
    return {"t": "seat", "seat": seat, "role": role}


def lobby_frame(description: Mapping[str, Any]) -> dict[str, Any]:
    """The table as its lobby shows it (net/host/table.py `Table.lobby_description`)."""
    return {"t": "lobby", **description}


def event_frame(seq: int, pub: bytes, ph: list[bytes], h: bytes, hs: bytes, priv: bytes | None) -> dict[str, Any]:
    """One event as one seat (or a watcher: `priv` None) receives it."""
    return {"t": "ev", "seq": seq, "pub": pub, "ph": ph, "h": h, "hs": hs, "priv": priv}


def batch_frame(events: list[bytes], nonce: bytes) -> dict[str, Any]:
    """A catch-up batch: packed `ev` frames, and the nonce its acknowledgement names."""
    return {"t": "evs", "evs": events, "n": nonce}


def ack_frame(request: int, seq: int | None, ctr: int | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "ack", "id": request, "seq": seq}
    if ctr is not None:
        msg["ctr"] = ctr
    return msg


def reply_frame(request: int) -> dict[str, Any]:
    return {"t": "reply", "id": request, "ok": True}


def err_frame(code: str, message: str, request: int | None = None, params: Params | None = None) -> dict[str, Any]:
    """A refusal: `code` (stable), `message` (English, for logs), `params` (the facts a client
    puts into its own words for the code: nothing on the wire is meant to be shown as it is)."""
    msg: dict[str, Any] = {"t": "err", "code": code, "msg": message}
    if request is not None:
        msg["id"] = request
    if params:
        msg["args"] = dict(params)
    return msg


def tick_frame(head: int, clocks: dict[str, Any] | None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "tick", "head": head}
    if clocks is not None:
        msg["clk"] = clocks
    return msg


def dnext_frame(game: bytes, seat: int, shuffle: dict[str, Any] | None) -> dict[str, Any]:
    """Seat `seat`'s shuffle relayed ahead of its event (None: withdrawn, with every later one)."""
    return {"t": "dnext", "g": game, "seat": seat, "sh": shuffle}


def chat_frame(seat: int | None, name: str, text: str) -> dict[str, Any]:
    return {"t": "chat", "seat": seat, "name": name, "text": text}


def tables_frame(request: int, tables: list[dict[str, Any]]) -> dict[str, Any]:
    return {"t": "tables", "id": request, "tables": tables, "v": VERSION}


def closed_frame(table: str, journal: str | None, record: str | None) -> dict[str, Any]:
    return {"t": "closed", "table": table, "journal": journal, "record": record}


def decode_host_frame(data: bytes) -> dict[str, Any]:
    """Decode and validate one host -> client frame (raises ProtocolError)."""
    return _checked(decode_host_inner(data), HOST_SCHEMA, "host frame")


def decode_batch_event(data: bytes) -> dict[str, Any]:
    """One event of a catch-up batch: an `ev` frame, validated (raises ProtocolError)."""
    msg = decode_host_frame(data)
    if msg["t"] != "ev":
        raise ProtocolError("bad_field", f"evs: a catch-up batch holds events, not {msg['t']!r}")
    return msg


# ====================================================================== event parts

_INT = is_int(-(1 << 31), 1 << 31)
_INTS = is_list(_INT, 64)
_ROWS = is_list(is_list(_INT, 8), 64)

#: the public view `pv` of every event after the deal (net/protocol/game_data.py `public_view`)
PUBLIC_VIEW: Schema = {
    name: (check, True)
    for name, check in {
        "round": _INT,
        "phase": is_int(0, len(Phase) - 1),
        "to_move": _INTS,
        "hand_sizes": _INTS,
        "stock_size": _INT,
        "counts": _INTS,
        "tiles": _ROWS,
        "bought": is_list(is_list(_INT, 70), 5),
        "auctioneer": _INT,
        "original": _INT,
        "turn": _INT,
        "lot": is_list(_INT, 2),
        "high": _INT,
        "high_seat": _INT,
        "bids": _ROWS,
        "passed": _INTS,
        "sealed_done": _INTS,
        "price": _INT,
        "auction_no": _INT,
        "offenders": _ROWS,
        "final_money": _INTS,
        "winners": _INTS,
        # the variants' steps (docs/rules.md §10)
        "candidates": _INTS,
        "responses": _INTS,
        "mystery_size": _INT,
        "flipped": is_list(_INT, 70),
        "flipped_before": is_list(_INT, 70),
    }.items()
} | {"kind": (is_int(-1, 3), False)}  # the running auction's type (announced, FA-15); -1 between; older hosts omit it

ENGINE_EVENT_KINDS = ("auction", "sealed", "sale", "round", "end", "dealt", "mystery")


def _engine_event(v: Any) -> bool:
    """A public engine event as `game_data.event_to_wire` makes it (its fields are checked
    as `game_data.event_from_wire` parses it)."""
    return is_map(16)(v) and v.get("k") in ENGINE_EVENT_KINDS


#: one player of the `start` event
PLAYER: Schema = {"name": (_NAME, True), "vk": (_KEY, True), "bot": (optional(is_text(1, 16)), True)}
#: one seat of a commitment set (net/protocol/signed.py `SetEntry.to_wire`)
SET_ENTRY: Schema = {"seat": (SEAT, True), "c": (_SIGNED, False), "default": (is_int(0, 0), False)}
#: one seat's settled sealed bid in a `settle` event (net/trust/sealed.py `SealedRound.settle`):
#: the engine move, how it was settled, and its proof
SETTLED_BID: Schema = {
    "m": (is_list(_INT, 3, 3), True),
    "by": (one_of("reveal", "offender", "clock", "recovered"), True),
    "reveal": (optional(_SIGNED), False),
    "why": (is_text(1, 32), False),
}

_SEEDS = is_list(optional(is_bytes(32)), 5, 1)
#: what every event's public part may carry once the cards are dealt
_AFTER_DEAL: Schema = {
    "ev": (is_list(_engine_event, 64), False),
    "pv": (is_record(PUBLIC_VIEW), False),
    "clk": (is_record(CLOCK_VIEW), False),
}

#: event kind (`k`) -> its own fields, besides `k`, `g` (the game id) and `_AFTER_DEAL`
EVENT_SCHEMA: dict[str, Schema] = {
    "start": {
        # (protocol 3 on) the protocol the host plays, signed with event 1 (none: protocol 1 or 2)
        "v": (is_int(3, 255), False),
        "players": (is_list(is_record(PLAYER), 5, 1), True),
        "options": (_OPTIONS, True),
        "hseed": (is_bytes(32), True),
        "fixed": (is_record(FIXED_DEAL), False),
        "hidden": (is_bool, False),  # hands hidden from the host (docs/fair-play.md "The hidden deck")
    },
    "seed": {"seat": (SEAT, True), "c": (_SIGNED, True)},
    "deal": {"first": (SEAT, True), "missing": (is_list(SEAT, 5), True)},
    "move": {
        "m": (is_list(_INT, 3, 3), True),
        "by": (one_of("player", "clock", "reveal", "offender", "recovered", "call", "flip"), True),
        "signer": (is_int(0, 1), False),
        "act": (is_record({"b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)}), False),
        "why": (is_text(1, 32), False),
        "reveal": (optional(_SIGNED), False),
        "open": (is_map(5), False),  # a card played at a hidden-hands table: its opening
        "play": (SEQ, False),  # (protocol 3) the `play` event this card play completes
    },
    # (protocol 3) a hidden-hands table's card play, committed: the owner's signed action
    # names the slot (`m` [seat, action, slot]) of deck `deck`, not the card; only then does
    # the owner send the opening, and the `move` event that plays the card follows
    "play": {
        "m": (is_list(_INT, 3, 3), True),
        "deck": (is_int(0, 255), True),
        "signer": (is_int(0, 0), True),
        "act": (is_record({"b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)}), True),
    },
    "call": {
        "m": (is_list(_INT, 3, 3), True),
        "signer": (is_int(0, 1), True),
        "act": (is_record({"b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)}), True),
    },
    # a hidden-hands table: the signed FLIP_MYSTERY of the player who may turn up the
    # mystery hand's top card, in `slot`; it is turned up (a `move` by "flip") once every
    # seat has published its share of that slot
    "flip": {
        "m": (is_list(_INT, 3, 3), True),
        "slot": (is_int(0, 255), True),
        "signer": (is_int(0, 1), True),
        "act": (is_record({"b": (_SIGNED_BODY, True), "s": (_SIGNATURE, True)}), True),
    },
    # protocol 1 only (its transcripts are still audited): each commitment as it came
    "commit": {"auction": (is_int(1, 1 << 20), True), "seat": (SEAT, True), "c": (_SIGNED, True)},
    "commits": {
        "auction": (is_int(1, 1 << 20), True),
        "set": (is_list(is_record(SET_ENTRY), 5, 1), True),
        "d": (is_bytes(32), True),
    },
    # a Sealed auction settled in one event: every seat's bid or forfeit, in seat order
    # ("by": "recovered": made again after a crash lost it, without the proofs the host held in memory)
    "settle": {
        "auction": (is_int(1, 1 << 20), True),
        "bids": (is_list(is_record(SETTLED_BID), 5, 1), True),
        "by": (one_of("recovered"), False),
    },
    "delegate": {"seat": (SEAT, True), "vk": (optional(_KEY), True)},
    "disclose": {
        "host": (is_bytes(32), True),
        "seeds": (_SEEDS, True),
        "salt_keys": (is_list(is_bytes(32), 5, 1), True),
    },
    # the hidden deck's public steps (net/trust/hidden_deck.py), each as the seat sent it
    # with the seat's signed step `signed` (protocol 3; net/trust/deck_steps.py)
    "dkey": {"seat": (SEAT, True), "key": (is_map(4), True), "signed": (_SIGNED, False)},
    "dshuffle": {"seat": (SEAT, True), "sh": (is_map(3), True), "signed": (_SIGNED, False)},
    "dshares": {"seat": (SEAT, True), "shares": (is_list(is_map(5), 64, 1), True), "signed": (_SIGNED, False)},
    "dsecret": {"seat": (SEAT, True), "x": (is_bytes(32), True), "signed": (_SIGNED, False)},
    # a seat that owes a deck step longer than the `deck_step` clock (net/host/deck_deadlines.py)
    "dlate": {
        "seat": (SEAT, True),
        "step": (one_of("key", "shuffle", "shares", "card", "secret"), True),
        "waited": (is_number(0, 1e9), True),
    },
    # the table's decision on a late seat, with the signed votes that back it (net/trust/votes.py):
    # "wait" (one more deadline) or "end" (the game ends now, scored as it stands)
    "decide": {
        "seat": (SEAT, True),
        "choice": (one_of("wait", "end"), True),
        "late": (is_int(1, 1 << 40), True),
        "votes": (is_list(_SIGNED, 5), True),
    },
}

#: each event kind's whole schema: the game, what every event after the deal may carry, its own
_FULL_EVENT_SCHEMA: dict[str, Schema] = {
    kind: {"g": (_GAME_ID, True), **_AFTER_DEAL, **schema} for kind, schema in EVENT_SCHEMA.items()
}

#: Event kinds that change nothing a player decides on: a stand-in taking over (or giving
#: back) a seat, and (protocol 1) another seat's sealed commitment (its amount is hidden).  A move made
#: before one of these is still made against the state that is current; every other event
#: (a move, a clock's default, the deal, the closing of a commitment set, ...) makes a move
#: decided before it stale.  Clock ticks and presence are not events at all.  The start of a
#: hammer call is not a decision either: a bid made just before it is exactly the bid the
#: call waits for (docs/protocol.md "Stale moves"); nor is a step of the hidden deck (a
#: key, a shuffle, shares, a disclosed key).  The host and the bots both go by it.
NOT_DECISIONS = frozenset({"delegate", "commit", "call", "dkey", "dshuffle", "dshares", "dsecret", "dlate"})

#: a seat's private part of an event (net/protocol/game_data.py `private_part`)
PRIVATE_PART: Schema = {
    "salt": (is_bytes(16), True),
    "hand": (is_list(_INT, 70), False),  # absent at a hidden-hands table: the host does not know it
    "money": (_INT, True),
    "dealt": (is_list(_INT, 70), False),
}


def event_public(kind: str, game: bytes, fields: Mapping[str, Any]) -> dict[str, Any]:
    """An event's public part: its kind, the game, its own fields (`EVENT_SCHEMA`)."""
    return {"k": kind, "g": game, **fields}


def decode_event_public(data: bytes) -> dict[str, Any]:
    """Decode and validate an event's public part (raises ProtocolError)."""
    pub = decode_host_inner(data)
    kind, _schema = _kind_and_schema(pub, EVENT_SCHEMA, "event", key="k")
    check_fields(pub, _FULL_EVENT_SCHEMA[kind], f"event {kind}", ignore="k")
    return pub


def decode_event_private(data: bytes) -> dict[str, Any]:
    """Decode and validate a seat's private part of an event (raises ProtocolError)."""
    priv = decode_host_inner(data)
    if type(priv) is not dict:
        raise ProtocolError("bad_frame", "an event's private part is a map")
    check_fields(priv, PRIVATE_PART, "private part")
    return priv
