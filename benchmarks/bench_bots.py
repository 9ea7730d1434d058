"""Bot speed figures: `python benchmarks/bench_bots.py [--seconds S] [--budget B] [--hard-games G] [--json]`."""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from modernart.cli.bench_bots import run  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="medium self-play time (default 10)")
    parser.add_argument("--budget", type=float, default=0.1, help="hard bot budget per decision (default 0.1)")
    parser.add_argument("--hard-games", type=int, default=2, help="games of hard vs 3 medium (default 2)")
    parser.add_argument("--json", action="store_true")
    raise SystemExit(run(parser.parse_args()))
