"""What Sioul pays to ask before it acts, against a bare interpreter in the same run.

    python benchmarks/bench_may.py [--runs 21]

Prints the median wall time of `sioul-tray may invoices` (a real status.json saying yes, and
one saying no), each against `python -c pass` run in turn with it, and their ratio pair by pair;
then the in-process cost of `sioul_tray.client.verdict` (the target: under 1 ms), and of
importing `sioul_tray.client` in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sioul_tray import client  # noqa: E402
from sioul_tray.boot import boot_id, boot_ticks  # noqa: E402


def status(acting: bool) -> dict[str, object]:
    part = {"acting": acting, "valid_until": int(time.time() + 3600) if acting else None,
            "valid_until_boot": boot_ticks() + 3600 if acting else None,
            "token": "desk_1234.77" if acting else None, "must_have": {"laptop_9": 41},
            "status": {"why": "acting" if acting else "nobody"}}  # fmt: skip
    return {"schema": 2, "computer": "desk_1234", "pid": os.getpid(), "boot": boot_id(),
            "running": True, "at": int(time.time()),
            "parts": {"invoices": part, "medicines": part}}  # fmt: skip


def wall(command: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def paired(command: list[str], env: dict[str, str], runs: int) -> tuple[float, float, float]:
    """Median seconds of `command` and of `python -c pass`, and the median of their ratios."""
    bare = [sys.executable, "-c", "pass"]
    wall(command, env), wall(bare, env)  # warm the caches
    mine, base = [], []
    for i in range(runs):
        pair = (command, bare) if i % 2 == 0 else (bare, command)
        first, second = wall(pair[0], env), wall(pair[1], env)
        a, b = (first, second) if pair[0] is command else (second, first)
        mine.append(a)
        base.append(b)
    ratios = [a / b for a, b in zip(mine, base, strict=True)]
    return statistics.median(mine), statistics.median(base), statistics.median(ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        state = Path(home) / "state"
        state.mkdir()
        env = dict(os.environ, SIOUL_TRAY_HOME=home, PYTHONPATH=str(ROOT))
        may = [sys.executable, "-m", "sioul_tray.cli", "may", "invoices"]
        print(f"{'case':<38} {'median':>9} {'python -c pass':>15} {'ratio':>7}")
        for acting in (True, False):
            (state / "status.json").write_text(json.dumps(status(acting)))
            a, b, r = paired(may, env, args.runs)
            case = "sioul-tray may invoices: " + ("yes" if acting else "no")
            print(f"{case:<38} {a * 1000:>7.1f} ms {b * 1000:>12.1f} ms {r:>7.2f}")
        (state / "status.json").write_text(json.dumps(status(True)))
        n = 2000
        seconds = min(timeit.repeat(lambda: client.verdict("invoices", state), number=n, repeat=5))
        print(f"client.verdict, in process: {seconds / n * 1e6:.0f} us a call (target: under 1 ms)")
        code = "import time; t = time.perf_counter(); import sioul_tray.client; " \
               "print(time.perf_counter() - t)"  # fmt: skip
        imports = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(7)
        ]
        print(f"import sioul_tray.client: {statistics.median(imports) * 1000:.1f} ms (median of 7)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
