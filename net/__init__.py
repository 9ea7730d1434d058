"""Transport, protocol, lobby, discovery and trust for LAN play (see docs/protocol.md and
docs/fair-play.md).

Subsystems: `protocol` (the wire format, all of it: `protocol` itself holds the codec,
limits and field checks; `protocol.frames` every frame of both directions with its schema
and builder; `protocol.signed` every signed or hashed body and all domain-separation tags;
`protocol.game_data` engine values as wire data and the Observation rebuilt from events),
`clocks`, `host/` (`Host`, composed of parts: the ROUTER socket, rate limits,
connections, fan-out, the table registry, in-process bots, presence, admission, lobby and
game requests; flow control, the hosted game, tables, journal, serve), `client/` (the
DEALER `Client` the UI drives, composed of parts: its updates, requests, receiving,
lobby requests, fair-play duties; and the bot client), `trust/` (identity, chain, the verified game, sealed, shuffle, vault, transcript,
audit), `lan/` (beacon, join strings, the machine's interfaces, known hosts), and what
differs between Linux, macOS and Windows: `user_dirs` (the per-user config, data and
state directories), `runtime` (the event loop, stop signals, a parent's stop through
stdin), `durable` (binary files, directory syncs).  The client never imports the host.
"""
