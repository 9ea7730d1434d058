"""Transport, protocol, lobby, discovery and trust for LAN play (see docs/protocol.md and
docs/fair-play.md).

Subsystems: `protocol` (the wire format, all of it: `protocol` itself holds the codec,
limits and field checks; `protocol.frames` every frame of both directions with its schema
and builder; `protocol.signed` every signed or hashed body and all domain-separation tags;
`protocol.game_data` engine values as wire data and the Observation rebuilt from events),
`clocks`, `host/` (the ROUTER socket and what it serves: admission, lobby and game
requests, presence, flow, the hosted game, tables, journal, serve), `client/` (the
DEALER client API the UI drives: receiving, lobby requests, fair-play duties, the bot
client), `trust/` (identity, chain, the verified game, sealed, shuffle, vault, transcript,
audit), `lan/` (beacon, join strings, known hosts).  The client never imports the host.
"""
