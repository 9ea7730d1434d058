"""The wire format, in one place: codec, limits and field checks (here), the frames of both
directions with their schemas and builders (`frames`), the signed and hashed bodies with
every domain-separation tag (`signed`), and engine values as wire data (`game_data`).

Every frame is a msgpack map with its kind in key "t".  Every incoming frame is
size-checked, decoded with tight msgpack limits and validated against the schema of its
kind before anything acts on it; a failure is a `ProtocolError` with a stable `code`.
All bounds live here, shared by host and client.  docs/protocol.md follows these modules
section by section.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import msgpack

#: The wire protocol's version (hello, welcome, tables).  2: a Sealed auction is three events
#: (the card, the complete commitment set, one settlement), docs/protocol.md "Sealed bids".
#: 3: every step of a hidden deck is signed by its seat, and a hidden card is played in two
#: steps (the host commits to the slot, then the owner opens it), docs/protocol.md "Hidden hands".
VERSION = 3
#: The version inside every signed body (action, commitment, reveal, seed): their bytes did
#: not change with protocol 2, so the signatures of older games still check
BODY_VERSION = 1

#: Milliseconds a client's CURVE handshake may take (its ZMQ_HANDSHAKE_IVL)
HANDSHAKE_MS = 5000
#: ... and the host's, longer: the host's timer starts later (at its accept) and runs longer,
#: so a handshake too slow for both always ends at the client's own timer, and a handshake the
#: host closes was closed for a reason of the host's, a key it cannot open (net/client/client.py)
HOST_HANDSHAKE_MS = HANDSHAKE_MS + 1000
#: Largest frame the host accepts (ZMQ MAXMSGSIZE drops the connection above it).
MAX_HOST_FRAME = 64 * 1024
#: Largest frame a client accepts (catch-up batches are the biggest host frames).
MAX_CLIENT_FRAME = 2 * 1024 * 1024
MAX_NAME = 24
MAX_CHAT = 200
MAX_ACTION_BYTES = 256
MAX_TABLE_ID = 32
MAX_TEXT = 1024  # a message, a path or a table name in a host frame
NONCE_BYTES = 8  # a catch-up batch's acknowledgement nonce (net/host/flow.py)
MAX_AMOUNT = 1_000_000  # bids are bounded by money (start money <= 10000); 4 bytes hold it
MAX_AUCTION = 1_000

#: one bytes value of a client frame: at most an event given back after a power loss (frames.py
#: MAX_TAIL_EVENT; every field's own schema bounds it tighter, the frame is at most MAX_HOST_FRAME)
MAX_HOST_BIN = 16 * 1024
_HOST_LIMITS = dict(max_str_len=1024, max_bin_len=MAX_HOST_BIN, max_array_len=64, max_map_len=32, max_ext_len=0)
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


#: A refusal's parameters as the `err` frame carries them (`args`): the numbers and names a
#: client puts into its own words for the code, in its own language (the text `msg` is the
#: host's English, for logs and old clients).
Params = dict[str, int | str]


class ProtocolError(ValueError):
    """A frame or request the receiver refuses.  `code` is stable; the text says why, in
    English; `params` are the facts a client renders the code with."""

    def __init__(self, code: str, message: str, params: Params | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: Params = dict(params or {})


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _unpack(data: bytes, limit: int, limits: Mapping[str, int]) -> Any:
    if len(data) > limit:
        raise ProtocolError("too_big", f"frame of {len(data)} bytes exceeds {limit}")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, **limits)
    except _DECODE_ERRORS as exc:
        raise ProtocolError("bad_frame", f"not a well-formed msgpack value: {type(exc).__name__}") from None


def unpack_host_frame(data: bytes) -> Any:
    """Decode a client -> host frame with the host's limits (not yet checked against a schema)."""
    return _unpack(data, MAX_HOST_FRAME, _HOST_LIMITS)


def unpack_inner(data: bytes, limit: int = MAX_ACTION_BYTES) -> Any:
    """Decode a small embedded msgpack value (signed action bodies) with host limits."""
    return _unpack(data, limit, _HOST_LIMITS)


def decode_host_inner(data: bytes) -> Any:
    """Decode a host -> client frame, or a part embedded in one (event public/private parts),
    with the client's limits (not yet checked against a schema)."""
    return _unpack(data, MAX_CLIENT_FRAME, _CLIENT_LIMITS)


# ---------------------------------------------------------------------- field checks

Check = Callable[[Any], bool]
#: field -> (check, required); a map with a field not named here is refused
Schema = Mapping[str, tuple[Check, bool]]


# Each check is a plain function (one Python-level call per field).  The checks of a list
# and of a record look inside in one pass, without a call per element where the element
# is an int, a bytes value or a list of ints: a list of ints is checked as its types (one
# C-level pass, `set(map(type, v))`) and its least and greatest item; bytes by their
# shortest and longest length.  What each accepts is exactly what the plain definition
# (the docstring) says (tests/net/protocol/test_net_protocol.py compares them on generated values).
# `int_range` / `bytes_range` / `int_list` on a check say what it is to the checks above it.

_JUST_INT = {int}
_JUST_BYTES = {bytes}


def is_int(lo: int, hi: int) -> Check:
    """`type(v) is int and lo <= v <= hi` (a bool is not an int here)."""
    check = lambda v: type(v) is int and lo <= v <= hi  # noqa: E731 (a lambda: the cheapest call)
    check.int_range = (lo, hi)  # type: ignore[attr-defined]
    return check


def is_bytes(lo: int, hi: int | None = None) -> Check:
    """`type(v) is bytes and lo <= len(v) <= hi` (`hi` defaults to `lo`)."""
    hi = lo if hi is None else hi
    check = lambda v: type(v) is bytes and lo <= len(v) <= hi  # noqa: E731
    check.bytes_range = (lo, hi)  # type: ignore[attr-defined]
    return check


def is_text(lo: int, hi: int) -> Check:
    return lambda v: type(v) is str and lo <= len(v) <= hi and v.isprintable()


def is_str(hi: int) -> Check:
    """Any string up to `hi` characters (shown only after the reader's own filter)."""
    return lambda v: type(v) is str and len(v) <= hi


def is_bool(v: Any) -> bool:
    return type(v) is bool


def is_number(lo: float, hi: float) -> Check:
    """An int or a float (not a bool, not NaN) within [lo, hi]."""
    return lambda v: type(v) in (int, float) and lo <= v <= hi


def is_map(max_len: int) -> Check:
    return lambda v: type(v) is dict and len(v) <= max_len and all(type(k) is str for k in v)


def is_list(item: Check, max_len: int, min_len: int = 0) -> Check:
    """`type(v) is list and min_len <= len(v) <= max_len and all(item(x) for x in v)`."""
    int_range = getattr(item, "int_range", None)
    bytes_range = getattr(item, "bytes_range", None)
    inner = getattr(item, "int_list", None)
    if int_range is not None:
        lo, hi = int_range

        def ints(v: Any) -> bool:
            if type(v) is not list or not min_len <= len(v) <= max_len:
                return False
            return not v or (set(map(type, v)) == _JUST_INT and lo <= min(v) and max(v) <= hi)

        ints.int_list = (lo, hi, min_len, max_len)  # type: ignore[attr-defined]
        return ints
    if bytes_range is not None:
        blo, bhi = bytes_range

        def bytes_items(v: Any) -> bool:
            if type(v) is not list or not min_len <= len(v) <= max_len:
                return False
            return not v or (set(map(type, v)) == _JUST_BYTES and blo <= min(map(len, v)) and max(map(len, v)) <= bhi)

        return bytes_items
    if inner is not None:  # a list of lists of ints (rows): one pass over the rows
        lo, hi, row_min, row_max = inner

        def rows(v: Any) -> bool:
            if type(v) is not list or not min_len <= len(v) <= max_len:
                return False
            for row in v:
                if type(row) is not list or not row_min <= len(row) <= row_max:
                    return False
                if row and not (set(map(type, row)) == _JUST_INT and lo <= min(row) and max(row) <= hi):
                    return False
            return True

        return rows
    return lambda v: type(v) is list and min_len <= len(v) <= max_len and all(item(x) for x in v)


class _Compiled:
    """A schema as `check_fields` uses it: the allowed and the required names as sets, and
    the checks in order (made once per schema, see `compiled`)."""

    __slots__ = ("names", "required", "checks")

    def __init__(self, schema: Schema, ignore: str | None = None) -> None:
        self.checks: dict[str, Check] = {k: c for k, (c, _req) in schema.items()}
        if ignore is not None:  # a frame's kind: present, and checked by whoever read it
            self.checks[ignore] = _anything
        self.names = frozenset(self.checks)
        self.required = frozenset(k for k, (_c, req) in schema.items() if req)

    def passes(self, data: Mapping[str, Any]) -> bool:
        """Whether `data` passes (no unknown or missing name, every field its check)."""
        keys = data.keys()
        if not (keys <= self.names and self.required <= keys):
            return False
        checks = self.checks
        for key, value in data.items():
            if not checks[key](value):
                return False
        return True


def _anything(v: Any) -> bool:
    return True


_COMPILED: dict[tuple[int, str | None], tuple[Schema, _Compiled]] = {}


def compiled(schema: Schema, ignore: str | None = None) -> _Compiled:
    """The compiled form of `schema` (with the field `ignore` allowed), made once: schemas
    are module constants; one made on the fly is compiled again (the entry names it)."""
    entry = _COMPILED.get((id(schema), ignore))
    if entry is None or entry[0] is not schema:
        if len(_COMPILED) > 4096:  # schemas made on the fly, each once: bounded all the same
            _COMPILED.clear()
        entry = (schema, _Compiled(schema, ignore))
        _COMPILED[(id(schema), ignore)] = entry
    return entry[1]


def is_record(schema: Schema) -> Check:
    """A map that passes `check_fields` against `schema`."""
    form = _Compiled(schema)

    def check(v: Any) -> bool:
        return type(v) is dict and form.passes(v)

    return check


def optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def one_of(*values: str) -> Check:
    return lambda v: type(v) is str and v in values


def is_version(v: Any) -> bool:
    """The protocol version, as an int: `True == 1` in Python, but a bool is never an int here."""
    return type(v) is int and v == VERSION


def is_body_version(v: Any) -> bool:
    """The version of a signed body (`BODY_VERSION`), as an int (never a bool)."""
    return type(v) is int and v == BODY_VERSION


SEQ = is_int(0, 1 << 40)
SEAT = is_int(0, 4)
REQUEST = is_int(0, 1 << 31)
COUNTER = is_int(0, 1 << 62)


def check_fields(data: Mapping[str, Any], schema: Schema, what: str, ignore: str | None = None) -> None:
    """Refuse (`bad_field`) a map with an unknown or missing field, or a field that fails its
    check; the field `ignore` (a frame's kind, checked by its reader) is left out."""
    if compiled(schema, ignore).passes(data):  # the usual case, in one pass
        return
    for key in data:
        if key not in schema and key != ignore:
            raise ProtocolError("bad_field", f"{what}: unknown field {key!r}")
    for key, (check, required) in schema.items():
        if key not in data:
            if required:
                raise ProtocolError("bad_field", f"{what}: missing field {key!r}")
        elif not check(data[key]):
            raise ProtocolError("bad_field", f"{what}: field {key!r} has a wrong type or value")
