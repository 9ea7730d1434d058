"""Wire frames: msgpack maps with a kind in key "t", bounded and schema-checked.

Client -> host: one frame, one map.  Host -> client: one frame, one map (the ROUTER adds
the routing id).  Every incoming frame is size-checked, decoded with tight msgpack limits
and validated against the schema of its kind before anything acts on it; a failure is a
`ProtocolError` with a stable `code`.  All bounds live here, shared by host and client.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, cast

import msgpack

VERSION = 1

#: Largest frame the host accepts (ZMQ MAXMSGSIZE drops the connection above it).
MAX_HOST_FRAME = 64 * 1024
#: Largest frame a client accepts (catch-up batches are the biggest host frames).
MAX_CLIENT_FRAME = 2 * 1024 * 1024
MAX_NAME = 24
MAX_CHAT = 200
MAX_ACTION_BYTES = 256
MAX_TABLE_ID = 32
NONCE_BYTES = 8  # a catch-up batch's acknowledgement nonce (net/host/flow.py)

_HOST_LIMITS = dict(max_str_len=1024, max_bin_len=1024, max_array_len=64, max_map_len=32, max_ext_len=0)
_CLIENT_LIMITS = dict(
    max_str_len=4096, max_bin_len=MAX_CLIENT_FRAME, max_array_len=4096, max_map_len=256, max_ext_len=0
)
_DECODE_ERRORS = (
    ValueError,
    TypeError,
    msgpack.ExtraData,
    msgpack.FormatError,
    msgpack.StackError,
    UnicodeDecodeError,
    OverflowError,
)


class ProtocolError(ValueError):
    """A frame or request the receiver refuses.  `code` is stable; the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _unpack(data: bytes, limit: int, limits: Mapping[str, int]) -> Any:
    if len(data) > limit:
        raise ProtocolError("too_big", f"frame of {len(data)} bytes exceeds {limit}")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, **limits)
    except _DECODE_ERRORS as exc:
        raise ProtocolError("bad_frame", f"not a well-formed msgpack value: {type(exc).__name__}") from None


def unpack_inner(data: bytes, limit: int = MAX_ACTION_BYTES) -> Any:
    """Decode a small embedded msgpack value (signed action bodies) with host limits."""
    return _unpack(data, limit, _HOST_LIMITS)


# ---------------------------------------------------------------------- field checks

Check = Callable[[Any], bool]


def is_int(lo: int, hi: int) -> Check:
    return lambda v: type(v) is int and lo <= v <= hi


def is_bytes(lo: int, hi: int | None = None) -> Check:
    hi = lo if hi is None else hi
    return lambda v: type(v) is bytes and lo <= len(v) <= hi


def is_text(lo: int, hi: int) -> Check:
    return lambda v: type(v) is str and lo <= len(v) <= hi and v.isprintable()


def is_bool(v: Any) -> bool:
    return type(v) is bool


def is_map(max_len: int) -> Check:
    return lambda v: type(v) is dict and len(v) <= max_len and all(type(k) is str for k in v)


def optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def one_of(*values: str) -> Check:
    return lambda v: type(v) is str and v in values


def is_version(v: Any) -> bool:
    """The protocol version, as an int: `True == 1` in Python, but a bool is never an int here."""
    return type(v) is int and v == VERSION


SEQ = is_int(0, 1 << 40)
SEAT = is_int(0, 4)

# kind -> {field: (check, required)}; unknown fields are refused
CLIENT_SCHEMA: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {
        "v": (is_int(0, 255), True),
        "table": (optional(is_text(1, MAX_TABLE_ID)), False),
        "vk": (is_bytes(32), True),
        "sig": (is_bytes(64), True),
        "last_seq": (SEQ, False),
        "last_hash": (optional(is_bytes(32)), False),
        "game": (optional(is_bytes(16)), False),
        "spectate": (is_bool, False),
        "token": (optional(is_bytes(16)), False),
    },
    # conn: the mark of the welcome the move was made under (net/host/game_requests.py refuses another)
    "act": {
        "id": (is_int(0, 1 << 31), True),
        "b": (is_bytes(1, MAX_ACTION_BYTES), True),
        "s": (is_bytes(64), True),
        "conn": (is_bytes(8), False),
    },
    # fair play (net/trust/commitments.py): a sealed-bid commitment, its reveal, a shuffle seed
    "commit": {"id": (is_int(0, 1 << 31), True), "b": (is_bytes(1, MAX_ACTION_BYTES), True), "s": (is_bytes(64), True)},
    "reveal": {"id": (is_int(0, 1 << 31), True), "b": (is_bytes(1, MAX_ACTION_BYTES), True), "s": (is_bytes(64), True)},
    "seed": {
        "id": (is_int(0, 1 << 31), True),
        "b": (is_bytes(1, MAX_ACTION_BYTES), True),
        "s": (is_bytes(64), True),
        "seed": (is_bytes(32), True),
    },
    "lobby": {"op": (is_text(1, 16), True), "id": (is_int(0, 1 << 31), True), "args": (is_map(8), False)},
    # an acknowledgement too: the last event held, the nonce of the last catch-up batch applied
    "ping": {"seq": (SEQ, False), "n": (is_bytes(NONCE_BYTES), False)},
    "tables": {"id": (is_int(0, 1 << 31), False)},
    "bye": {},
}

# lobby op -> {arg: (check, required)}
LOBBY_OPS: dict[str, dict[str, tuple[Check, bool]]] = {
    "sit": {"name": (is_text(1, MAX_NAME), True), "seat": (optional(SEAT), False)},
    "leave": {},
    "ready": {"ready": (is_bool, False)},
    "chat": {"text": (is_text(1, MAX_CHAT), True)},
    "add_bot": {"level": (is_text(1, 16), False), "seat": (optional(SEAT), False)},
    "remove_bot": {"seat": (SEAT, True)},
    "options": {"options": (is_map(16), True)},
    "clocks": {"clocks": (is_map(8), True)},
    "start": {},
}


def check_fields(data: Mapping[str, Any], schema: Mapping[str, tuple[Check, bool]], what: str) -> None:
    for key in data:
        if key not in schema:
            raise ProtocolError("bad_field", f"{what}: unknown field {key!r}")
    for key, (check, required) in schema.items():
        if key not in data:
            if required:
                raise ProtocolError("bad_field", f"{what}: missing field {key!r}")
        elif not check(data[key]):
            raise ProtocolError("bad_field", f"{what}: field {key!r} has a wrong type or value")


def decode_client_frame(data: bytes) -> dict[str, Any]:
    """Decode and validate one client -> host frame (raises ProtocolError)."""
    msg = _unpack(data, MAX_HOST_FRAME, _HOST_LIMITS)
    if type(msg) is not dict:
        raise ProtocolError("bad_frame", "a frame is a map")
    kind = msg.get("t")
    schema = CLIENT_SCHEMA.get(kind) if type(kind) is str else None
    if schema is None:
        raise ProtocolError("unknown_kind", f"unknown message kind {kind!r}")
    body = {k: v for k, v in msg.items() if k != "t"}
    try:
        check_fields(body, schema, cast(str, kind))  # a str: it named a schema
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


# ---------------------------------------------------------------------- signed bodies


def hello_bytes(host_curve: bytes, client_curve: bytes, table: str | None) -> bytes:
    """What a hello signature covers: both CURVE keys of this connection and the table."""
    return pack([host_curve, client_curve, table or ""])


def decode_action_body(data: bytes) -> dict[str, Any]:
    """Decode the (already signature-checked) body of a signed action.

    Body = msgpack array [v, game_id(16B), seat, ctr, [seat, action, arg], ref_seq, extra]
    where extra is a small map (sealed-bid fields) or None.
    """
    body = unpack_inner(data)
    if type(body) is not list or len(body) != 7:
        raise ProtocolError("bad_action", "an action body is a list of 7 fields")
    v, game, seat, ctr, move, ref, extra = body
    if not is_version(v) or not is_bytes(16)(game) or not SEAT(seat) or not is_int(1, (1 << 62))(ctr):
        raise ProtocolError("bad_action", "action header fields have wrong types or values")
    if type(move) is not list or len(move) != 3 or not all(type(x) is int for x in move):
        raise ProtocolError("bad_action", "an action's move is [seat, action, arg]")
    if not SEQ(ref) or not optional(is_map(4))(extra):
        raise ProtocolError("bad_action", "action ref_seq or extra fields are malformed")
    return {"game": game, "seat": seat, "ctr": ctr, "move": move, "ref": ref, "extra": extra or {}}


def encode_action_body(
    game: bytes, seat: int, ctr: int, move: list[int], ref: int, extra: Mapping[str, Any] | None = None
) -> bytes:
    return pack([VERSION, game, seat, ctr, list(move), ref, dict(extra) if extra else None])


# ---------------------------------------------------------------------- host -> client


def decode_host_frame(data: bytes) -> dict[str, Any]:
    """Decode one host -> client frame; the client validates each kind as it uses it."""
    msg = _unpack(data, MAX_CLIENT_FRAME, _CLIENT_LIMITS)
    if type(msg) is not dict or type(msg.get("t")) is not str:
        raise ProtocolError("bad_frame", "a host frame is a map with a kind")
    return msg


def decode_host_inner(data: bytes) -> Any:
    """Decode a part embedded in a host frame (event public/private parts)."""
    return _unpack(data, MAX_CLIENT_FRAME, _CLIENT_LIMITS)
