"""`python -m benchmarks WHAT [options]`: measure and print one benchmark's figures."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

#: benchmark name -> module (each has `add_arguments(parser)` and `run(args) -> int`)
BENCHMARKS = {
    "engine": "benchmarks.engine",
    "bots": "benchmarks.bots",
    "net": "benchmarks.net",
    "fairplay": "benchmarks.fairplay",
    "client": "benchmarks.client",
    "memory": "benchmarks.memory",
    "tablebots": "benchmarks.table_bots",
    "coach": "benchmarks.coach",
    "handshakes": "benchmarks.handshakes",
    "connections": "benchmarks.connections",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description="Measure and print speed figures.")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    for name, module_name in BENCHMARKS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=(module.__doc__ or "").split("\n")[0], description=module.__doc__)
        p.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
        p.add_argument("--json", action="store_true", help="print JSON instead of a table")
        if hasattr(module, "add_arguments"):
            module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, stream=sys.stderr)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
