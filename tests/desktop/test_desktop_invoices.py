"""Proof on the invoice numbers, end to end: two installations on two copies of a folder that real
Syncthing keeps in step, each with its real tray, and on each the example numberer
(examples/numberer.py) numbering through `sioul-tray run invoices`. The part changes hands by a
take, by a tray stopped (SIGSTOP: its verdict lapses, nobody numbers, until it goes on) and by a
quit. At the end the merged records hold every number once, with no gap, each record under a
token of the computer that wrote it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sioul_tray.install import Installation
from tests.desktop import test_desktop_syncthing
from tests.desktop.tray_process import ROOT, cli, env_for, status, stop
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay
from tests.helpers import wait_for
from tests.sync.syncthing_pair import FOLDER_ID, SyncthingPair

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

NUMBERER = ROOT / "examples" / "numberer.py"
HANDOVER = 400.0  # seconds allowed for a part to change hands (SETTLING, acks, the sync)

pair = test_desktop_syncthing.pair  # the same fixture: two Syncthings, skipped without them


def logs(share: Path) -> dict[str, list[tuple[int, str]]]:
    """Each computer's records, (number, token), as this copy of the folder holds them."""
    found = {}
    for log in sorted((share / "records").glob("*.log")):
        lines = log.read_text(encoding="ascii").splitlines()
        found[log.stem] = [(int(n), token) for n, token in (line.split() for line in lines)]
    return found


def count(share: Path, computer: str) -> int:
    return len(logs(share).get(computer, []))


def test_no_invoice_number_twice_through_takes_a_stopped_tray_and_a_quit(
    pair: SyncthingPair, tmp_path: Path
) -> None:
    a_share, b_share = pair.a.folder / "sioul", pair.b.folder / "sioul"
    homes = {"a": tmp_path / "a-home", "b": tmp_path / "b-home"}
    syncthing = {"a": {"STCONFDIR": str(pair.a.config_path.parent)},
                 "b": {"STCONFDIR": str(pair.b.config_path.parent)}}  # fmt: skip
    a_share.mkdir()
    assert cli(homes["a"], "setup", "--share", str(a_share), **syncthing["a"]).returncode == 0
    pair.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
    wait_for(lambda: (b_share / "sioul.seal").is_file(), 30, why="the seal to reach b")
    assert cli(homes["b"], "setup", "--share", str(b_share), **syncthing["b"]).returncode == 0
    ids = {side: Installation(home).computer() for side, home in homes.items()}
    shares = {"a": a_share, "b": b_share}
    procs: list[subprocess.Popen[str]] = []
    with VirtualDisplay() as display, TrayHost(display), PrivateBus() as session:

        def env(side: str) -> dict[str, str]:
            return env_for(homes[side], DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                           DBUS_SESSION_BUS_ADDRESS=session.address, **syncthing[side])  # fmt: skip

        def start_tray(side: str) -> subprocess.Popen[str]:
            proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env(side),
                                    cwd=ROOT, stderr=subprocess.PIPE, text=True)  # fmt: skip
            procs.append(proc)
            wait_for(lambda: (status(homes[side]) or {}).get("pid") == proc.pid
                     or proc.poll() is not None, 30, why=f"{side}'s tray to start")  # fmt: skip
            assert proc.poll() is None
            return proc

        def numbering(side: str, more_than: int) -> None:
            wait_for(lambda: count(shares[side], ids[side]) > more_than, HANDOVER,
                     why=f"{side} to number invoices")  # fmt: skip

        try:
            trays = {side: start_tray(side) for side in ("a", "b")}
            for side in ("a", "b"):
                procs.append(subprocess.Popen(
                    [sys.executable, str(NUMBERER), "--share", str(shares[side]), "--loop",
                     "--every", "0.3"],
                    env=env(side), cwd=ROOT, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                ))  # fmt: skip
            wait_for(lambda: any(count(shares[s], ids[s]) > 3 for s in shares), HANDOVER,
                     why="some computer to number invoices")  # fmt: skip
            first = next(s for s in shares if count(shares[s], ids[s]) > 3)
            other = "b" if first == "a" else "a"

            # A take: "Make invoices here" on the other computer.
            assert cli(homes[other], "take", "invoices", **syncthing[other]).returncode == 0
            numbering(other, 0)
            stopped_at = count(shares[first], ids[first])
            time.sleep(2)
            assert count(shares[first], ids[first]) == stopped_at  # the first numbers no more

            # A tray stopped: its verdict lapses within RENEW, and its numberer with it.
            os.kill(trays[other].pid, signal.SIGSTOP)
            time.sleep(75)
            frozen = count(shares[other], ids[other])
            time.sleep(5)
            assert count(shares[other], ids[other]) == frozen  # nobody numbers on a stale verdict
            os.kill(trays[other].pid, signal.SIGCONT)
            numbering(other, frozen)

            # A quit: the tray closes its claims, the first computer numbers again.
            trays[other].send_signal(signal.SIGTERM)
            trays[other].wait(30)
            numbering(first, stopped_at)
            time.sleep(3)
        finally:
            for proc in procs:
                if proc.args[1] == str(NUMBERER) and proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)  # the loop and its `run`
                stop(proc)
    # Every record on both copies, once Syncthing has carried them.
    pair.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
    pair.b.post(f"/rest/db/scan?folder={FOLDER_ID}")
    wait_for(lambda: logs(a_share) == logs(b_share), 60, why="the records to reach both copies")
    merged = logs(a_share)
    numbers = sorted(n for records in merged.values() for n, _ in records)
    assert len(numbers) > 20
    assert numbers == list(range(1, len(numbers) + 1))  # none twice, none missing
    for computer, records in merged.items():
        assert all(token.startswith(computer + ".") for _, token in records)
    assert {ids["a"], ids["b"]} <= set(merged)
    made = ", ".join(f"{computer} {len(records)}" for computer, records in merged.items())
    print(f"\n2 handovers (a take, a quit) and a tray stopped 80 s; {len(numbers)} invoices "
          f"({made}); numbers made twice: 0; gaps: 0")  # fmt: skip
