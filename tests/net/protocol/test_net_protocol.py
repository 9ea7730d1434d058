"""Frames, limits, schemas, join strings, join codes, key files and the hash chain (no sockets)."""

from __future__ import annotations

import os
import stat

import msgpack
import pytest

from modernart.net.trust import chain
from modernart.net.protocol.signed import (
    HOSTEV_TAG,
    chain_genesis,
    chain_link,
    decode_action_body,
    encode_action_body,
    private_hash,
)
from modernart.net.lan.address import JoinStringError, JoinTarget, parse_join_string
from modernart.net.trust.identity import Keys, join_code, normalise_code
from modernart.net.protocol import MAX_HOST_FRAME, ProtocolError, pack
from modernart.net.protocol.frames import decode_client_frame


def hello(**over):
    msg = {"t": "hello", "v": 1, "vk": b"k" * 32, "sig": b"s" * 64, "last_seq": 0}
    msg.update(over)
    return pack(msg)


@pytest.mark.parametrize(
    "data,code",
    [
        (b"\xc1\xff\x00garbage", "bad_frame"),  # reserved msgpack byte
        (pack({"t": "hello"})[:-2], "bad_frame"),  # truncated
        (b"\x91" * 100_000 + b"\x90", "too_big"),  # deeply nested and oversized
        (b"\x91" * 60_000 + b"\x90", "bad_frame"),  # deeply nested, under the size bound
        (b"\xdd\xff\xff\xff\xff", "bad_frame"),  # array32 claiming 4 billion items
        (pack({"t": "x" * 5000}), "bad_frame"),  # string over the limit
        (b"\x00" * (MAX_HOST_FRAME + 1), "too_big"),
        (pack([1, 2, 3]), "bad_frame"),  # not a map
        (pack({"t": "launch_missiles"}), "unknown_kind"),
        (pack({"t": 7}), "unknown_kind"),
        (hello(vk="not bytes"), "bad_field"),
        (hello(vk=b"short"), "bad_field"),
        (hello(last_seq=True), "bad_field"),  # bool is not an int
        (hello(extra=1), "bad_field"),
        (pack({"t": "lobby", "op": "sit", "id": 1, "args": {"name": "\x1b[2J"}}), "bad_field"),
        (pack({"t": "lobby", "op": "nuke", "id": 1}), "unknown_op"),
        (pack({"t": "act", "id": 1, "b": b"x" * 300, "s": b"s" * 64}), "bad_field"),
        (msgpack.packb({"t": "ping", "seq": msgpack.ExtType(5, b"x")}), "bad_frame"),
        (msgpack.packb({1: 2}), "bad_frame"),
    ],
)
def test_bad_frames_are_refused_with_a_code(data, code):
    with pytest.raises(ProtocolError) as info:
        decode_client_frame(data)
    assert info.value.code == code


def test_good_frames_pass():
    assert decode_client_frame(hello())["t"] == "hello"
    msg = decode_client_frame(pack({"t": "lobby", "op": "sit", "id": 3, "args": {"name": "Ana", "seat": 2}}))
    assert msg["args"]["seat"] == 2


def test_action_body_round_trip_and_limits():
    body = encode_action_body(b"g" * 16, 2, 7, [2, 3, 15], 40, {"n": b"x" * 16})
    act = decode_action_body(body)
    assert act["seat"] == 2 and act["ctr"] == 7 and act["move"] == [2, 3, 15] and act["extra"]["n"] == b"x" * 16
    for bad in (
        [1, b"g" * 16, 2, 7, [2, 3, 1], 0, None, 9],
        [1, b"g" * 15, 2, 7, [2, 3, 1], 0, None],
        [1, b"g" * 16, 9, 7, [2, 3, 1], 0, None],
        [1, b"g" * 16, 2, 0, [2, 3, 1], 0, None],
        [1, b"g" * 16, 2, 7, [2, "3", 1], 0, None],
    ):
        with pytest.raises(ProtocolError):
            decode_action_body(pack(bad))


def test_join_string_round_trip_and_errors():
    key = Keys.generate().curve_public_raw
    for target in (
        JoinTarget("192.168.1.5", 47000, key),
        JoinTarget("::1", 5, key, "t2"),
        JoinTarget("host.lan", 1, key, "t1"),
    ):
        assert parse_join_string(str(target)) == target
    for bad in (
        "http://x:1/AAAA",
        "ma://x:99999/" + "A" * 52,
        "ma://x:1/" + "A" * 51,
        "ma://x/KEY",
        "ma://x:1/" + "1" * 52,
    ):
        with pytest.raises(JoinStringError):
            parse_join_string(bad)


def test_join_code_is_60_bits_and_typing_tolerant():
    key = Keys.generate().curve_public_raw
    code = join_code(key)
    assert len(code) == 14 and code.count("-") == 2
    typed = code.lower().replace("-", " ").replace("O", "0")
    assert normalise_code(typed) == code
    assert join_code(Keys.generate().curve_public_raw) != code


def test_key_file_is_private_and_stable(tmp_path):
    keys = Keys.load_or_create(tmp_path, "player")
    path = tmp_path / "player.key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = Keys.load_or_create(tmp_path, "player")
    assert again.vk == keys.vk and again.curve_public == keys.curve_public
    path.write_text("{broken")
    with pytest.raises(ValueError, match="corrupt"):
        Keys.load_or_create(tmp_path, "player")


def test_config_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MODERNART_CONFIG_DIR", str(tmp_path / "cfg"))
    keys = Keys.load_or_create(None, "player")
    assert (tmp_path / "cfg" / "player.key").exists() and keys.vk


def test_chain_accepts_the_host_history_and_catches_tampering():
    host = Keys.generate()
    game = b"G" * 16
    head = chain_genesis(game)
    events = []
    for seq in range(1, 5):
        pub = pack({"k": "move", "n": seq})
        privs = [pack({"salt": os.urandom(16), "hand": [seq, s]}) for s in range(3)]
        hashes = [private_hash(p) for p in privs]
        head = chain_link(head, seq, pub, hashes)
        events.append((seq, pub, privs, hashes, head, host.sign(HOSTEV_TAG, head)))
    verifier = chain.ChainVerifier(game, host.vk)
    for seq, pub, privs, hashes, h, sig in events:
        verifier.accept(seq, pub, hashes, h, sig, 1, privs[1])
    seq, pub, privs, hashes, h, sig = events[0]
    fresh = chain.ChainVerifier(game, host.vk)
    with pytest.raises(chain.ChainError):  # another public part under the same hash
        fresh.accept(seq, pack({"k": "move", "n": 99}), hashes, h, sig)
    with pytest.raises(chain.ChainError):  # a private part that is not the one hashed
        fresh.accept(seq, pub, hashes, h, sig, 1, privs[2])
    with pytest.raises(chain.ChainError):  # signed by someone else
        fresh.accept(seq, pub, hashes, h, Keys.generate().sign(HOSTEV_TAG, h))
    with pytest.raises(chain.ChainError):  # a gap
        fresh.accept(2, *events[1][1:2], events[1][3], events[1][4], events[1][5])


from hypothesis import given, settings, strategies as st  # noqa: E402

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 63), (1 << 64) - 1) | st.binary(max_size=40) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_ever_raise_protocol_errors(data):
    try:
        decode_client_frame(data)
    except ProtocolError:
        pass


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["hello", "act", "lobby", "ping", "tables", "bye", "x"]),
    st.dictionaries(
        st.sampled_from(
            ["v", "vk", "sig", "b", "s", "id", "op", "args", "seq", "table", "last_seq", "spectate", "token", "zz"]
        ),
        _values,
        max_size=6,
    ),
)
def test_random_maps_only_ever_raise_protocol_errors(kind, fields):
    try:
        msg = decode_client_frame(pack({"t": kind, **fields}))
    except ProtocolError:
        return
    assert msg["t"] == kind  # what passes has exactly the schema's fields and types


# ---------------------------------------------------------------------- the one-pass checks

_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**33), 2**33)
    | st.floats(allow_nan=True)
    | st.binary(max_size=40)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=20,
)


def _plain_int(lo, hi):
    return lambda v: type(v) is int and lo <= v <= hi


def _plain_bytes(lo, hi):
    return lambda v: type(v) is bytes and lo <= len(v) <= hi


def _plain_list(item, max_len, min_len=0):
    return lambda v: type(v) is list and min_len <= len(v) <= max_len and all(item(x) for x in v)


def _plain_record(schema):
    def check(v):
        if type(v) is not dict:
            return False
        if any(k not in schema for k in v):
            return False
        return all((k in v and c(v[k])) or (k not in v and not req) for k, (c, req) in schema.items())

    return check


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.integers(-3, 3), st.integers(0, 4), st.integers(0, 4))
def test_the_one_pass_checks_accept_exactly_what_their_plain_definitions_do(value, lo, span, max_len):
    """Lists of ints, of bytes, of rows of ints and records, checked in one pass (net/protocol
    `is_list`, `is_record`, `check_fields`), accept exactly the values their plain definitions
    accept: a bool is never an int, a bytes value is never text, lengths and bounds hold."""
    from modernart.net.protocol import check_fields, is_bytes, is_int, is_list, is_record

    hi = lo + span
    pairs = [
        (is_list(is_int(lo, hi), max_len), _plain_list(_plain_int(lo, hi), max_len)),
        (is_list(is_int(lo, hi), max_len, 1), _plain_list(_plain_int(lo, hi), max_len, 1)),
        (is_list(is_bytes(0, span), max_len), _plain_list(_plain_bytes(0, span), max_len)),
        (
            is_list(is_list(is_int(lo, hi), max_len), 3),
            _plain_list(_plain_list(_plain_int(lo, hi), max_len), 3),
        ),
        (is_list(is_list(is_bytes(1, 3), 2), 4), _plain_list(_plain_list(_plain_bytes(1, 3), 2), 4)),
    ]
    for fast, plain in pairs:
        assert fast(value) == plain(value), value
        assert fast([value]) == plain([value]), value
        assert fast([value, value]) == plain([value, value]), value
    schema = {"a": (is_int(lo, hi), True), "b": (is_list(is_int(lo, hi), max_len), False)}
    plain_schema = {"a": (_plain_int(lo, hi), True), "b": (_plain_list(_plain_int(lo, hi), max_len), False)}
    for candidate in (value, {"a": value}, {"a": lo, "b": value}, {"b": value}, {"a": hi, "c": value}):
        expected = _plain_record(plain_schema)(candidate)
        assert is_record(schema)(candidate) == expected, candidate
        if type(candidate) is dict:
            try:
                check_fields(candidate, schema, "x")
                passed = True
            except ProtocolError:
                passed = False
            assert passed == expected, candidate
            with_kind = {**candidate, "t": value}
            try:
                check_fields(with_kind, schema, "x", ignore="t")
                passed = True
            except ProtocolError:
                passed = False
            assert passed == expected, with_kind


def test_a_refused_field_is_named_as_before():
    """The one-pass check decides; the message still names the first unknown, missing or
    wrong field, in that order."""
    from modernart.net.protocol import check_fields, is_int

    schema = {"a": (is_int(0, 1), True), "b": (is_int(0, 1), False)}
    for data, message in (
        ({"a": 0, "z": 1}, "x: unknown field 'z'"),
        ({"b": 0}, "x: missing field 'a'"),
        ({"a": 0, "b": True}, "x: field 'b' has a wrong type or value"),
    ):
        with pytest.raises(ProtocolError) as err:
            check_fields(data, schema, "x")
        assert err.value.code == "bad_field" and err.value.message == message
    check_fields({"a": 1, "t": "anything"}, schema, "x", ignore="t")
    with pytest.raises(ProtocolError, match="unknown field 't'"):
        check_fields({"a": 1, "t": "anything"}, schema, "x")
