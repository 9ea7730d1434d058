"""Transport, protocol, lobby, discovery and trust for LAN play (see docs/protocol.md).

Modules: `protocol` (frames, limits, schemas), `identity` (keys, signatures, join codes),
`address` (join strings), `chain` (the host's hash-chained event log), `wire` (engine
values as wire data), `lobby` (seats before the game), `session` (one running game),
`clocks`, `journal`, `sealed`, `table` (lobby, game, journal, resume), `host` (the ROUTER
socket) with `host_lobby` and `presence`, `client` (the DEALER client API the UI drives)
with `follow` (event checking), `botclient`, `beacon` (UDP discovery), `serve` (what
`modernart host` runs).
"""
