"""The host side.  `Host` (`host`) is composed of parts, each a class with its own state:
the ROUTER socket (`router`), frames per key (`rates`), peers and links (`connections`),
what goes out to a table's peers (`fanout`), the tables by id (`registry`), in-process bot
clients (`bot_clients`), liveness, grace periods, stand-ins and clocks (`presence`), the
hello and catch-up (`admission`), `lobby_requests` and `game_requests`.  Beside them:
per-connection flow control (`flow`), a table's lobby, game, journal and record (`lobby`,
`game`, `journal`, `table`), and `serve` (what `modernart host` runs)."""
