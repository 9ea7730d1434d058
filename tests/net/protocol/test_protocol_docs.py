"""docs/protocol.md reads beside net/protocol/frames.py: the same frame kinds, in the same
order, under the same names, each with the builder the code has."""

from __future__ import annotations

import pathlib
import re

from modernart.net.protocol import frames

DOC = (pathlib.Path(__file__).resolve().parents[3] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _table_rows(heading: str) -> list[list[str]]:
    """The body rows of the first table after `heading`, as lists of cell texts."""
    section = DOC[DOC.index(heading) + len(heading) :]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:  # past the header and its rule
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _names(cells: list[str]) -> list[str]:
    return [re.fullmatch(r"`([^`]+)`", cell).group(1) for cell in cells]  # type: ignore[union-attr]


def test_client_frames_are_documented_in_schema_order():
    rows = _table_rows("### Client → host")
    assert _names([r[0] for r in rows]) == list(frames.CLIENT_SCHEMA)


def test_host_frames_are_documented_in_schema_order():
    rows = _table_rows("### Host → client")
    assert _names([r[0] for r in rows]) == list(frames.HOST_SCHEMA)


def test_event_kinds_are_documented_in_schema_order():
    rows = _table_rows("By kind:")
    assert _names([r[0] for r in rows]) == list(frames.EVENT_SCHEMA)


def test_every_documented_builder_builds_its_kind():
    """The builder named beside each kind exists in frames and makes a frame of that kind
    that its own decoder accepts (the documented fields are the schema's)."""
    from modernart.net.protocol import pack

    samples = {
        "hello_frame": lambda f: f(bytes(32), bytes(64), 0, False),
        "act_frame": lambda f: {**f(b"x", bytes(64), None), "id": 1},
        "seed_frame": lambda f: {**f(b"x", bytes(64), bytes(32)), "id": 1},
        "commit_frame": lambda f: {**f(b"x", bytes(64)), "id": 1},
        "reveal_frame": lambda f: {**f(b"x", bytes(64)), "id": 1},
        "deck_frame": lambda f: {**f([b"x", bytes(64)], secret=bytes(32)), "id": 1},
        "open_frame": lambda f: {**f({"slot": 0}), "id": 1},
        "vote_frame": lambda f: {**f([b"x", bytes(64)]), "id": 1},
        "lobby_op_frame": lambda f: {**f("leave", {}), "id": 1},
        "ping_frame": lambda f: f(0, None),
        "tables_request": lambda f: f(),
        "bye_frame": lambda f: f(),
        "tail_frame": lambda f: {**f([b"x"]), "id": 1},
    }
    for row in _table_rows("### Client → host"):
        kind, builder = _names(row[:2])
        frame = samples[builder](getattr(frames, builder))
        assert frame["t"] == kind
        assert frames.decode_client_frame(pack(frame))["t"] == kind
    for row in _table_rows("### Host → client"):
        kind, builder = _names(row[:2])
        assert callable(getattr(frames, builder)), builder
        assert builder.startswith(kind) or kind in ("evs", "ev"), builder


def test_documented_fields_are_the_schema_fields():
    """Each kind's row names every field of its schema."""
    for heading, schemas in (("### Client → host", frames.CLIENT_SCHEMA), ("### Host → client", frames.HOST_SCHEMA)):
        for row in _table_rows(heading):
            kind = _names(row[:1])[0]
            fields_cell = row[2]
            named = set(re.findall(r"`([a-z_]+)`", fields_cell.split(" — ")[0].split(" (below)")[0]))
            assert set(schemas[kind]) <= named, (kind, set(schemas[kind]) - named)


def test_nested_parts_are_documented():
    rows = _table_rows("Nested parts with a fixed shape")
    for part, builder, _fields in rows:
        name = part.strip("`")
        assert hasattr(frames, name), name
        if builder.startswith("`game_data."):
            continue
        assert callable(getattr(frames, builder.strip("`"))), builder


def test_lobby_ops_are_documented():
    paragraph = DOC[DOC.index("Lobby ops (`LOBBY_OPS`") :].split("\n\n")[0]
    for op in frames.LOBBY_OPS:
        assert f"`{op}" in paragraph, op
