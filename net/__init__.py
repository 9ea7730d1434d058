"""Transport, protocol, lobby, discovery and trust for LAN play (see docs/protocol.md).

Modules: `protocol` (frames, limits, schemas), `identity` (keys, signatures, join codes),
`chain` (the host's hash-chained event log), `wire` (engine values as wire data),
`lobby` (seats before the game), `session` (one running game), `clocks`, `journal`,
`sealed`, `host` (the ROUTER socket), `client` (the DEALER client API), `botclient`,
`beacon` (UDP discovery).
"""
