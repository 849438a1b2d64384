"""``python -m tests.model [--computers N] [--depth D] [--alphabet NAME] [--without FIX] ...``

Explores every sequence of events up to the depth (iterative deepening: each depth completed is
reported), prints the figures, and the trace of the first counterexample if there is one.
"""

from __future__ import annotations

import argparse
import sys

from sioul_tray.lease.machine import FIXES

from .checker import explore
from .world import FAULTS, FULL, JUMPS, NARROW


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.model", description=__doc__)
    parser.add_argument("--computers", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--depth", type=int, default=4, help="events per sequence (default 4)")
    parser.add_argument(
        "--alphabet",
        default="full",
        choices=["full", "faults", *NARROW],
        help="events explored (faults: the full alphabet and the claims-alone review's faults)",
    )
    parser.add_argument(
        "--without", action="append", default=[], choices=sorted(FIXES), help="a fix switched off"
    )
    parser.add_argument("--liveness", action="store_true", help="also check that a sync heals")
    parser.add_argument(
        "--seconds", type=float, help="stop after this long (depth completed so far)"
    )
    parser.add_argument(
        "--small-jumps", action="store_true", help=f"clock jumps {JUMPS[1]:+d}/{JUMPS[2]:+d} s only"
    )
    args = parser.parse_args(argv)
    alphabet = {"full": FULL, "faults": FAULTS}.get(args.alphabet) or NARROW[args.alphabet]
    if args.small_jumps:
        from dataclasses import replace

        alphabet = replace(alphabet, jumps=JUMPS[1:3])
    print(f"events: {alphabet.describe()}", flush=True)
    report = explore(
        args.computers,
        args.depth,
        alphabet=alphabet,
        without=frozenset(args.without),
        liveness=args.liveness,
        seconds=args.seconds,
    )
    print(report.summary())
    print("distinct states within each depth: " + ", ".join(f"{n:,}" for n in report.per_depth))
    if report.seq_behind:
        print(f"left out of the liveness check (a seq went back): {report.seq_behind:,} states")
    for line in report.violation or report.stuck or []:
        print("  " + line)
    return 1 if report.violation or report.stuck else 0


if __name__ == "__main__":
    sys.exit(main())
