"""``python -m tests.model [--computers N] [--depth D | --seconds S] [--alphabet NAME] ...``

Explores every sequence of events up to the depth (iterative deepening), printing each depth as
it completes, ``fixpoint`` when a depth brings no new state, and the trace of the first (and
shortest) counterexample if there is one. With ``--walk``, random deep walks over the same world
instead, for ``--seconds``: for the lengths no exhaustive search reaches.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from .checker import Report, explore, walk
from .world import FAULTS, FULL, JUMPS, NAMES, NARROW, Switches


def _lengths(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        pair = (int(low), int(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a length or a range: {text!r}") from None
    if not 1 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"not a length or a range: {text!r}")
    return pair


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.model", description=__doc__)
    parser.add_argument("--computers", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--depth", type=int, help="events per sequence (default 4, or as deep "
                        "as --seconds go)")  # fmt: skip
    parser.add_argument(
        "--alphabet",
        default="full",
        choices=["full", "faults", *NARROW],
        help="events explored (faults: the full alphabet and the claims-alone review's faults)",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=NAMES,
        help="a fix switched off",
    )
    parser.add_argument("--liveness", action="store_true", help="also check that a sync heals")
    parser.add_argument(
        "--seconds", type=float, help="stop after this long (the depth completed so far)"
    )
    parser.add_argument(
        "--small-jumps", action="store_true", help=f"clock jumps {JUMPS[1]:+d}/{JUMPS[2]:+d} s only"
    )
    parser.add_argument(
        "--replicas",
        action="store_true",
        help="each replica holds one version of each claim file, changed by delivery events "
        "(instead of any version chosen at each read)",
    )
    parser.add_argument("--walk", action="store_true", help="random deep walks (for --seconds)")
    parser.add_argument("--length", type=_lengths, default=(40, 80), help="events a walk (40-80)")
    parser.add_argument("--seed", type=int, default=0, help="the walks' random seed")
    args = parser.parse_args(argv)
    alphabet = {"full": FULL, "faults": FAULTS}.get(args.alphabet) or NARROW[args.alphabet]
    if args.small_jumps:
        alphabet = replace(alphabet, jumps=JUMPS[1:3])
    if args.replicas:
        alphabet = replace(alphabet, replicas=True)
    switches = Switches.without(*args.without)
    print(f"events: {alphabet.describe()}", flush=True)
    if args.walk:
        walks = walk(args.computers, alphabet=alphabet, switches=switches,
                     seconds=args.seconds or 60.0, length=args.length, seed=args.seed)  # fmt: skip
        print(walks.summary())
        for line in walks.violation or []:
            print("  " + line)
        return 1 if walks.violation else 0

    def completed(report: Report) -> None:
        new = report.per_depth[-1] - (report.per_depth[-2] if len(report.per_depth) > 1 else 0)
        rate = report.transitions / report.seconds if report.seconds else 0.0
        fixpoint = "; fixpoint: no new state" if report.exhausted else ""
        print(f"depth {report.depth}: {report.states:,} states ({new:+,}), "
              f"{report.transitions:,} transitions, {report.seconds:.0f} s "
              f"({rate:,.0f} transitions/s){fixpoint}", flush=True)  # fmt: skip

    depth = args.depth or (4 if args.seconds is None else 10**6)
    report = explore(args.computers, depth, alphabet=alphabet, switches=switches,
                     liveness=args.liveness, seconds=args.seconds, progress=completed)  # fmt: skip
    print(report.summary())
    if report.seq_behind:
        print(f"left out of the liveness check (a seq went back): {report.seq_behind:,} states")
    for line in report.violation or report.stuck or []:
        print("  " + line)
    return 1 if report.violation or report.stuck else 0


if __name__ == "__main__":
    sys.exit(main())
