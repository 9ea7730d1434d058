"""Transport, protocol, lobby, discovery and trust for LAN play (see docs/protocol.md and
docs/fair-play.md).

Modules: `protocol` (frames, limits, schemas), `identity` (keys, signatures, join
codes), `address` (join strings), `known_hosts` (host keys met before), `chain` (the
host's hash-chained event log), `wire` (engine values as wire data), `lobby` (seats
before the game), `session` (one running game), `clocks`, `journal`, `table` (lobby,
game, journal, resume), `host` (the ROUTER socket) with `host_hello`, `host_lobby`,
`host_game` and `presence` (and `host_base`: what they use of it, typed; `flow`: the
bytes it holds per connection), `client` (the DEALER client API the UI drives) with
`client_state`, `client_recv` (frames, bursts of events), `client_lobby`, `follow`
(event checking) and `fairclient` (its fair-play duties), `botclient`, `beacon` (UDP
discovery), `serve` (what `modernart host` runs). Fair play:
`commitments` (the hash constructions and signed bodies), `sealed` (commit-reveal rounds
and their checks), `shuffle` (seeds and the deck), `vault` (a client's secrets on disk),
`transcript` (game transcripts), `audit` (`modernart audit`).
"""
