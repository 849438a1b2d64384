"""An example Sioul: numbers invoices into the sharing folder, only while this computer may.

    sioul-tray run invoices --wait 3600 -- python examples/numberer.py --share DIR
    python examples/numberer.py --share DIR --loop     # the same, again after each loss

Each invoice is one line, ``NUMBER TOKEN``, in ``DIR/records/<computer>.log`` (or in
``--records``, a folder synced some other way): every computer writes only its own log, so the
sync tool never merges two writers. An invoice is made as docs/integration.md tells a Sioul to:

1. the verdict (`sioul_tray.client`) says yes, under the token this run started with;
2. this computer's own records past its `wrote` mark are void (made, then refused a mark, or
   cut off before it): they are dropped; fewer than the mark (a sync brought back an older copy
   of the log), it waits;
3. every other computer's log here reaches the `wrote` mark its claim carries (`must_have`);
4. the number is one past the highest that counts (a log's records past its writer's mark are
   void), the line is written and synced to disk;
5. ``sioul-tray wrote invoices COUNT`` asks the tray to carry the mark: the invoice is made once
   it answers yes, which it does only while this computer acts under the token. Any claim that
   hands invoices on is written after that answer, so it carries the mark, and the next keeper
   waits for this record. Refused (the part already went on, with the mark before it), the
   record is void, and dropped at step 2.

`sioul-tray run` stops this process the moment the verdict is lost: wherever it stops, the
record is whole (one line, fsynced) and counts only if its mark was taken.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from sioul_tray import client


def records(folder: Path) -> dict[str, list[int]]:
    """Every computer's invoice numbers, as this copy of the records holds them."""
    found: dict[str, list[int]] = {}
    for log in folder.glob("*.log") if folder.is_dir() else []:
        lines = log.read_text(encoding="ascii").splitlines()
        found[log.stem] = [int(line.split()[0]) for line in lines if line.strip()]
    return found


def verdict_holds(token: str) -> client.Verdict | None:
    """This computer's verdict on invoices, when it still holds under `token`."""
    found = client.verdict("invoices")
    return found if found and found.token == token else None


def counted(held: Mapping[str, list[int]], marks: Mapping[str, int]) -> list[int]:
    """The numbers that count: a log's records up to its writer's mark (past it, void), every
    record of a log whose writer's mark is not known here (a computer forgotten)."""
    return [n for c, numbers in held.items() for n in numbers[: marks.get(c, len(numbers))]]


def records_reached(held: Mapping[str, list[int]], must_have: Mapping[str, int], me: str) -> bool:
    """Every other keeper's records here reach the mark its claim carries."""
    return all(len(held.get(c, [])) >= mark for c, mark in must_have.items() if c != me)


def drop_void(log: Path, keep: int) -> bool:
    """This computer's own records past its mark are void: the log keeps the first `keep`. False
    when it holds fewer (a sync brought back an older copy of it): wait until they are back."""
    lines = log.read_bytes().splitlines(keepends=True) if log.exists() else []
    if len(lines) > keep:
        with open(log, "r+b") as f:
            f.truncate(sum(len(line) for line in lines[:keep]))
            os.fsync(f.fileno())
    return len(lines) >= keep


def number_one(folder: Path, me: str, token: str) -> bool:
    """Make one invoice if the verdict and the records allow; True when one was made."""
    found = verdict_holds(token)
    if found is None:
        return False  # `run` stops this process too; never a record on a lost verdict
    log = folder / f"{me}.log"
    if not drop_void(log, found.wrote):
        return False  # records this computer's claim marks are missing here: never renumbered
    held = records(folder)
    if not records_reached(held, found.must_have, me):
        return False  # another keeper's records have not all arrived: wait for them
    number = max(counted(held, {**found.must_have, me: found.wrote}), default=0) + 1
    folder.mkdir(exist_ok=True)
    with open(log, "a", encoding="ascii") as f:
        f.write(f"{number} {token}\n")
        f.flush()
        os.fsync(f.fileno())
    mark = [sys.executable, "-m", "sioul_tray.cli", "wrote", "invoices", str(found.wrote + 1),
            "--token", token]  # fmt: skip
    return subprocess.run(mark).returncode == 0  # refused: void, dropped before the next


def number(folder: Path, every: float) -> int:
    token = os.environ["SIOUL_LEASE_TOKEN"]
    me = token.rsplit(".", 1)[0]
    must_have = json.loads(os.environ.get("SIOUL_LEASE_MUST_HAVE", "{}"))
    print(f"numbering as {me} under {token}, after {must_have or 'nobody'}", flush=True)
    while True:
        number_one(folder, me, token)
        time.sleep(every)


def this_program() -> list[str]:
    return [sys.executable, __file__]


def loop(args: list[str]) -> int:
    """`sioul-tray run` again and again: numbering resumes whenever this computer may."""
    while True:
        subprocess.run(
            [sys.executable, "-m", "sioul_tray.cli", "run", "invoices", "--wait", "3600", "--",
             *this_program(), *args],
        )  # fmt: skip
        time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--share", type=Path, required=True, help="the sharing folder")
    parser.add_argument("--records", type=Path, help="the records' folder (default: in --share)")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between invoices")
    parser.add_argument("--loop", action="store_true", help="run under `sioul-tray run`, again")
    args = parser.parse_args()
    folder = args.records or args.share / "records"
    if args.loop:
        return loop(["--share", str(args.share), "--records", str(folder),
                     "--every", str(args.every)])  # fmt: skip
    return number(folder, args.every)


if __name__ == "__main__":
    sys.exit(main())
