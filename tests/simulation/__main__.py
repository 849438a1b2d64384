"""Print the figures of every scenario: ``python -m tests.simulation [--seeds N] [--days D]``.

Runs each scenario for each seed, one after the other (one core), and prints one table.
Double-acting spans of invoices, which must never happen, are listed below the table with
their seed, so they can be replayed with ``--scenario NAME --first-seed SEED --seeds 1 --trace``.
"""

from __future__ import annotations

import argparse
import sys
import time

from .figures import Figures, spans_report, table
from .scenarios import SCENARIOS, Play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.simulation", description=__doc__)
    parser.add_argument("--seeds", type=int, default=3, help="runs per scenario (default 3)")
    parser.add_argument("--first-seed", type=int, default=1, help="seeds start here (default 1)")
    parser.add_argument(
        "--days", type=float, default=1.0, help="simulated days per run (default 1)"
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=sorted(SCENARIOS),
        help="only this scenario (repeatable); default: all",
    )
    parser.add_argument(
        "--nudge",
        choices=("on", "off", "both"),
        default="on",
        help="the sync tool nudged before sleep (Syncthing, as shipped; default), not (Dropbox "
        "and others: a row NAME/off), or both rows",
    )
    parser.add_argument(
        "--no-recheck",
        action="store_true",
        help="ignore the driver's reread at the end of a settling (the adapters before issue 12)",
    )
    parser.add_argument(
        "--no-away",
        action="store_true",
        help="trays close their claims at sleep only, not once the person has been away "
        "AWAY_AFTER from a machine that sleeps when idle (before issue 13)",
    )
    parser.add_argument(
        "--keep-kept",
        action="store_true",
        help="an alternative evaluated, not shipped: before sleep a tray closes only the parts "
        "it does not keep",
    )
    parser.add_argument(
        "--fresh",
        type=float,
        metavar="SECONDS",
        help="an alternative evaluated: acknowledgements count for this long, not FRESH "
        '(docs/protocol.md, "Gone for good")',
    )
    parser.add_argument(
        "--no-gate",
        action="store_true",
        help="the simulated Sioul numbers without waiting for must_have (the duplicates it "
        "prevents show)",
    )
    parser.add_argument(
        "--trace", action="store_true", help="print the calls before each double-acting span"
    )
    args = parser.parse_args(argv)
    if args.fresh is not None:
        from sioul_tray.lease import keeper, machine

        # Read at each call: the run's rule. machine's FRESH is its own name for keeper's,
        # imported there and not exported.
        keeper.FRESH = machine.FRESH = args.fresh  # type: ignore[attr-defined]
    names = args.scenario or list(SCENARIOS)
    rows = []
    began = time.monotonic()
    nudges = {"on": (True,), "off": (False,), "both": (False, True)}[args.nudge]
    for name in names:
        for nudged in nudges:
            row = name if nudged else f"{name}/off"
            figures = Figures(row)
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                t = time.monotonic()
                measures = Play(
                    SCENARIOS[name],
                    seed,
                    args.days,
                    nudged=nudged,
                    recheck=not args.no_recheck,
                    away=not args.no_away,
                    keep_kept=args.keep_kept,
                    records_gate=not args.no_gate,
                ).run()
                figures.add(seed, measures, time.monotonic() - t)
            rows.append(figures)
            print(f"{row}: {figures.days:.1f} days in {figures.wall:.0f} s", file=sys.stderr)
    print(table(rows))
    total_days = sum(f.days for f in rows)
    wall = time.monotonic() - began
    print(f"\n{total_days:.1f} simulated days in {wall:.0f} s: {total_days / wall:.2f} days/wall-s")
    for part in ("invoices", "medicines"):
        report = spans_report(rows, part, trace=args.trace and part == "invoices")
        if report:
            print(f"\nDouble-acting spans ({part}):\n{report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
