#!/usr/bin/env python3
"""How long a claim takes to reach another computer through Syncthing, with and without a nudge.

Two real Syncthing instances run on loopback (tests/sync/syncthing_pair.py: default watcher,
fsWatcherDelayS 10, a one-hour rescan). Each run writes a claim-sized file (200 random bytes,
through the claim writer ``files.write_atomic``: temporary, fsync, rename) into A's copy of the
sharing folder and times, from the moment the write returns, until B's copy holds the same bytes:

  nudged    ``Nudger.nudge(path)`` right after the write (POST /rest/db/scan of that file);
  watcher   nothing: Syncthing's watcher finds the file by itself.

The two kinds alternate, the first kind swapped at each run, with a short pause between runs,
after one nudged warm-up run that is printed but not counted.

Then the handover ("Make invoices here" on B while A keeps invoices), with real Leases on each
side of one real sealed folder, each reacting to its folder as the tray does (a look every
0.25 s; a renewal at once when the keeper changed): from B's take until B has read A's
acknowledgement of its tenure (B's `others_heard`). B acts at the later of that and SETTLING
(120 s after the take); the acknowledgement is the part the sync decides. Nudged: each Lease's
writes are nudged (``Lease(wrote_file=Nudger.nudge)``, as the tray and the command line do).

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

from sioul_tray.files import write_atomic  # noqa: E402
from sioul_tray.lease import Keeper, Lease  # noqa: E402
from sioul_tray.share import Share  # noqa: E402
from sioul_tray.sync import Nudger, Syncthing, find  # noqa: E402
from tests.sync.syncthing_pair import FOLDER_ID, SyncthingPair, binary, missing  # noqa: E402

CLAIM_BYTES = 200
PASSPHRASE = "bench sync"
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


POLL = 0.25  # the tray reads its folder this soon after a change (watcher + REREAD_DELAY)


class Side:
    """One computer of the handover: a Lease on its replica, nudged or not."""

    def __init__(self, folder: Path, computer: str, nudger: Nudger | None) -> None:
        share = Share.open(folder, PASSPHRASE)
        self.lease = Lease(share, computer, name=computer.upper(),
                           wrote_file=nudger.nudge if nudger is not None else None)  # fmt: skip
        self.computer = computer
        self.keeper: str | None = None

    def react(self) -> Keeper:
        """The tray's reread: look; renew at once when the keeper changed (the acknowledgement)."""
        seen = self.lease.look("invoices")
        if seen.computer != self.keeper:
            self.keeper = seen.computer
            seen = self.lease.renew("invoices")
        return seen


def handover(taker: Side, keeper: Side) -> float:
    """Seconds from `taker`'s take until it has read `keeper`'s acknowledgement of it."""
    # Takes in the same whole second tie (the smaller id wins): each in a second of its own.
    time.sleep(1.0 - time.time() % 1.0 + 0.05)
    taker.lease.renew("invoices", take=True)
    taker.keeper = taker.computer
    began = perf()
    while perf() - began < TIMEOUT:
        keeper.react()
        seen = taker.lease.look("invoices")
        if seen.computer == taker.computer and seen.others_heard:
            return perf() - began
        time.sleep(POLL)
    raise SystemExit(f"{keeper.computer} did not acknowledge within {TIMEOUT:g} s")


def sides(pair: SyncthingPair, kind: str) -> tuple[Side, Side]:
    a, b = pair.a.folder / kind, pair.b.folder / kind
    nudged = kind == "nudged"
    return (Side(a, "aa", Nudger(_found(a, pair.a.config_path)) if nudged else None),
            Side(b, "bb", Nudger(_found(b, pair.b.config_path)) if nudged else None))  # fmt: skip


def _found(share: Path, config: Path) -> Syncthing:
    found = find(share, [config])
    assert found is not None
    return found


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
    takes: dict[str, list[float]] = {"nudged": [], "watcher": []}
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
            # The handover: a sealed folder inside the synced one, on both sides.
            # One sealed folder per kind (a take waits on every computer in its folder), laid
            # out on both sides first, as for the claims above.
            for kind in ("nudged", "watcher"):
                (pair.a.folder / kind / "leases" / "invoices").mkdir(parents=True)
                Share.create(pair.a.folder / kind, PASSPHRASE, "aa", cost=10)
            pair.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
            wait_seal = perf()
            while not all(
                (pair.b.folder / kind / "sioul.seal").is_file()
                and (pair.b.folder / kind / "leases" / "invoices").is_dir()
                for kind in ("nudged", "watcher")
            ):
                if perf() - wait_seal > TIMEOUT:
                    raise SystemExit("the seal did not reach B")
                time.sleep(0.05)
            print()
            print(f"{'run':>4} {'kind':<8} {'take to acknowledged (s)':>24}")
            pairs = {kind: sides(pair, kind) for kind in ("nudged", "watcher")}
            for a, b in pairs.values():  # A keeps invoices, B has acknowledged it
                a.react()
                b.react()
                handover(a, b)
            for run in range(args.runs):
                kinds = ("nudged", "watcher") if run % 2 == 0 else ("watcher", "nudged")
                for kind in kinds:
                    a, b = pairs[kind]
                    taker, keeper = (b, a) if run % 2 == 0 else (a, b)
                    took = handover(taker, keeper)
                    takes[kind].append(took)
                    print(f"{run + 1:>4} {kind:<8} {took:24.3f}", flush=True)
                    time.sleep(PAUSE)
        finally:
            nudger.close()
    print()
    print("Close-to-arrival (from the write's return to the same bytes on B):")
    print(summary("nudged", times["nudged"]))
    print(summary("watcher", times["watcher"]))
    ratio = statistics.median(times["watcher"]) / statistics.median(times["nudged"])
    print(f"  ratio watcher / nudged (medians): {ratio:.0f}x")
    print()
    print("Take to acknowledged (B's take until B has read A's acknowledgement; B acts at the")
    print("later of this and 120 s of settling after the take):")
    print(summary("nudged", takes["nudged"]))
    print(summary("watcher", takes["watcher"]))
    print()
    print(f"Total run time: {perf() - started:.0f} s")


if __name__ == "__main__":
    main()
