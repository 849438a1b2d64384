#!/usr/bin/env python3
"""How long a claim takes to reach another computer through Syncthing, with and without a nudge.

Two real Syncthing instances run on loopback (tests/sync/syncthing_pair.py: default watcher,
fsWatcherDelayS 10, a one-hour rescan). Each run writes a claim-sized file (200 random bytes,
through the claim writer ``folder.write_atomic``: temporary, fsync, rename) into A's copy of the
sharing folder and times, from the moment the write returns, until B's copy holds the same bytes:

  nudged    ``Nudger.nudge(path)`` right after the write (POST /rest/db/scan of that file);
  watcher   nothing: Syncthing's watcher finds the file by itself.

The two kinds alternate, the first kind swapped at each run, with a short pause between runs,
after one nudged warm-up run that is printed but not counted.

    python benchmarks/bench_sync.py            # 5 runs of each (about 1 to 2 minutes)
    python benchmarks/bench_sync.py --runs 10

This is a script, not a test: it asserts nothing and never fails on slow figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # measure this checkout, whatever the venv's editable install says

from sioul_tray.lease.folder import write_atomic  # noqa: E402
from sioul_tray.sync import Nudger, find  # noqa: E402
from tests.sync.syncthing_pair import SyncthingPair, binary, missing  # noqa: E402

CLAIM_BYTES = 200
TIMEOUT = 60.0  # per run: far beyond the watcher's worst case (1.5 x its 10 s delay)
PAUSE = 0.5
perf = time.perf_counter


def arrival(path: Path, data: bytes, since: float) -> float:
    """Seconds from `since` until `path` holds exactly `data` (polled every 5 ms)."""
    while perf() - since < TIMEOUT:
        try:
            if path.read_bytes() == data:
                return perf() - since
        except OSError:
            pass
        time.sleep(0.005)
    raise SystemExit(f"{path.name} did not arrive within {TIMEOUT:g} s")


def one_run(pair: SyncthingPair, nudger: Nudger | None, name: str) -> float:
    claim = pair.a.folder / "leases" / "medicines" / name
    data = os.urandom(CLAIM_BYTES)
    write_atomic(claim, data)
    closed = perf()
    if nudger is not None:
        nudger.nudge(claim)
    return arrival(pair.b.folder / claim.relative_to(pair.a.folder), data, closed)


def summary(label: str, seconds: list[float]) -> str:
    return (
        f"  {label:<8} median {statistics.median(seconds):7.3f} s   "
        f"min {min(seconds):7.3f} s   max {max(seconds):7.3f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each kind (default 5)")
    args = ap.parse_args()
    if missing() is not None:
        raise SystemExit(missing())
    version = subprocess.run(
        [str(binary()), "--version"], capture_output=True, text=True, timeout=30
    ).stdout.strip()
    started = perf()
    print("sioul-tray sync benchmark: close-to-arrival of a claim between two Syncthing instances")
    print(f"  {version}")
    print(
        f"  python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"  {CLAIM_BYTES}-byte claims, {args.runs} runs of each kind, interleaved")
    print()
    times: dict[str, list[float]] = {"nudged": [], "watcher": []}
    with (
        tempfile.TemporaryDirectory(prefix="bench-sync-") as root,
        SyncthingPair(Path(root)) as pair,
    ):
        pair.lay_out_share()
        syncthing = find(pair.a.folder, [pair.a.config_path])
        assert syncthing is not None, "find() did not see A's folder"
        nudger = Nudger(syncthing)
        try:
            # Not counted: the first nudge after the start has been slower (0.2 s against
            # 0.005 s), Syncthing still settling after the layout went across.
            warm_up = one_run(pair, nudger, "bench_warm_up.lease")
            print(f"warm-up nudged {warm_up:8.3f} (not counted)")
            time.sleep(PAUSE)
            print(f"{'run':>4} {'kind':<8} {'seconds':>8}")
            for run in range(args.runs):
                kinds = ("nudged", "watcher") if run % 2 == 0 else ("watcher", "nudged")
                for kind in kinds:
                    name = f"bench_{kind}_{run}.lease"
                    took = one_run(pair, nudger if kind == "nudged" else None, name)
                    times[kind].append(took)
                    print(f"{run + 1:>4} {kind:<8} {took:8.3f}", flush=True)
                    time.sleep(PAUSE)
            if nudger.problem is not None:
                print(f"  nudger problem: {nudger.problem}")
        finally:
            nudger.close()
    print()
    print("Close-to-arrival (from the write's return to the same bytes on B):")
    print(summary("nudged", times["nudged"]))
    print(summary("watcher", times["watcher"]))
    ratio = statistics.median(times["watcher"]) / statistics.median(times["nudged"])
    print(f"  ratio watcher / nudged (medians): {ratio:.0f}x")
    print()
    print(f"Total run time: {perf() - started:.0f} s")


if __name__ == "__main__":
    main()
