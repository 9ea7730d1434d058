"""The host side: one ROUTER socket serving tables (`host`), the hello and catch-up
(`admission`), lobby and game requests, presence and clocks, per-connection flow control,
a table's lobby, game, journal and record, and `serve` (what `modernart host` runs)."""
