"""Writers for test_crash.py, forked on request, each renewing one claim until it is killed.

Usage: python crash_writer.py FOLDER PASSPHRASE STATE_DIR. For each line read on stdin it forks a
writer, prints ``started <pid>``, waits for it to die and prints ``ended <pid> <status>``. The
imports happen once, here: a forked writer starts in milliseconds where a new interpreter with
cryptography takes a few hundred, so the test can kill often within its time.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import NoReturn

from sioul_tray.lease import Lease
from sioul_tray.share import Share


def write_forever(share: Share, state_dir: str) -> NoReturn:
    try:
        # A new Lease, as a restarted tray: it removes its leftovers, then renews in a tight loop.
        lease = Lease(share, "writer", name="Writer", state_dir=state_dir)
        while True:
            lease.renew("invoices")
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(1)  # never return into the parent's loop; only SIGKILL is a normal end


def main() -> None:
    folder, passphrase, state_dir = sys.argv[1:4]
    share = Share.open(folder, passphrase)
    for _ in sys.stdin:
        pid = os.fork()
        if pid == 0:
            write_forever(share, state_dir)
        print(f"started {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"ended {pid} {status}", flush=True)


if __name__ == "__main__":
    main()
