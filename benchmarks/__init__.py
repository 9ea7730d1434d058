"""The project's benchmarks, run from a checkout: `python -m benchmarks engine|bots|net|fairplay|client|memory`.

They are not part of the installed package: several start the checkout's own processes
(hosts, players, the client in a pseudo-terminal) and read its files.  Each module has
`add_arguments(parser)` for its own options and `run(args) -> int`; every figure is printed
with the machine and the date beside it (`benchmarks.machine`).
"""
