"""The tray's cost on a desktop, measured against a bare PySide6 tray icon in the same run.

    python benchmarks/bench_tray.py [--minutes 10] [--handovers 10]

Runs both under a virtual X display docked in `trayer`, with a notification service on a private
session bus (see .ci/install-desktop), and prints:
resident memory of each after start and after the idle minutes, the CPU seconds each used while
idle, and the time from a peer's claim landing in the sharing folder to the tray's menu showing it.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sioul_tray.lease import Lease  # noqa: E402
from sioul_tray.share import Share  # noqa: E402
from sioul_tray.tray import single  # noqa: E402
from tests.desktop.tray_process import children  # noqa: E402
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay  # noqa: E402
from tests.helpers import wait_for  # noqa: E402

PASSPHRASE = "benchmark passphrase"

BARE = """
import sys
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon
app = QApplication(sys.argv)
pixmap = QPixmap(22, 22)
pixmap.fill(QColor("gray"))
icon = QSystemTrayIcon(QIcon(pixmap))
menu = QMenu()
menu.addAction("Quit", app.quit)
icon.setContextMenu(menu)
icon.show()
print("ready", flush=True)
app.exec()
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def private_mb(pid: int) -> float:
    """Memory only this process holds (anonymous: heap, stacks): resident memory minus the pages of
    files it maps (library code, fonts), which the system shares and can drop at any time."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Anonymous:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no Anonymous")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="idle time measured")
    parser.add_argument("--handovers", type=int, default=10, help="peer handovers timed")
    args = parser.parse_args()

    # As installed: pip writes the bytecode at install time, so an installed tray never compiles
    # its sources at start (a checkout under PYTHONDONTWRITEBYTECODE does: 0.1 MB more, measured).
    compileall.compile_dir(str(ROOT / "sioul_tray"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="sioul-bench-") as tmp:
        home, folder = Path(tmp) / "home", Path(tmp) / "share"
        folder.mkdir()
        # The platform's directories (XDG), as a person's tray finds them, not SIOUL_TRAY_HOME:
        # the tray then loads platformdirs as it does on a desktop.
        env = {k: v for k, v in os.environ.items()
               if k not in ("SIOUL_TRAY_HOME", "PYTHONDONTWRITEBYTECODE")}  # fmt: skip
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
                   XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"),
                   SIOUL_PASSPHRASE=PASSPHRASE, PYTHONPATH=str(ROOT))  # fmt: skip
        subprocess.run([sys.executable, "-m", "sioul_tray.cli", "setup", "--share", str(folder)],
                       env=env, check=True, capture_output=True)  # fmt: skip
        with VirtualDisplay() as display, TrayHost(display, width=200), PrivateBus() as bus:
            env.update(
                DISPLAY=display.display,
                QT_QPA_PLATFORM="xcb",
                DBUS_SESSION_BUS_ADDRESS=bus.address,
                DBUS_SYSTEM_BUS_ADDRESS=bus.address,
            )
            # A desktop has a notification service: without one the tray's first notification
            # falls back to a Qt balloon, whose widget and fonts cost 5 MB the bare tray never
            # pays. The tests' minimal service stands in for it.
            service = subprocess.Popen(
                [sys.executable, str(ROOT / "tests" / "desktop" / "fake_dbus_service.py"),
                 bus.address, "notifications"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            assert service.stdout is not None
            service.stdout.readline()  # ready
            bare = subprocess.Popen([sys.executable, "-c", BARE], env=env,
                                    stdout=subprocess.PIPE, text=True)  # fmt: skip
            tray = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env)
            try:
                assert bare.stdout is not None
                bare.stdout.readline()
                state = home / "state" / "sioul-tray"
                wait_for(lambda: single.ask(state, ["look"]) is not None)
                time.sleep(3)  # both settle after showing their icon
                start = {"bare": rss_mb(bare.pid), "tray": rss_mb(tray.pid)}
                cpu0 = {"bare": cpu_seconds(bare.pid), "tray": cpu_seconds(tray.pid)}
                print(f"idle for {args.minutes:g} min...", flush=True)
                time.sleep(args.minutes * 60)
                cpu = {"bare": cpu_seconds(bare.pid) - cpu0["bare"],
                       "tray": cpu_seconds(tray.pid) - cpu0["tray"]}  # fmt: skip
                end = {"bare": rss_mb(bare.pid), "tray": rss_mb(tray.pid)}

                peer = Lease(Share.open(folder, PASSPHRASE), "office_pc", name="Office PC")
                delays = []
                for _ in range(args.handovers):
                    landed = time.monotonic()
                    peer.renew("invoices", take=True)
                    wait_for(lambda: "Invoices: Office PC" in menu_text(state))
                    delays.append(time.monotonic() - landed)
                    # Takes in the same whole second tie (the smaller id wins): take back, for the
                    # next round, in the next second.
                    time.sleep(1.0 - time.time() % 1.0 + 0.05)
                    single.ask(state, ["take", "invoices"])
                    wait_for(lambda: "Invoices: here" in menu_text(state))
                    time.sleep(1.0 - time.time() % 1.0 + 0.05 + random.random() * 0.5)
                # A window's memory goes when it closes: the Computers window, three times. It
                # runs in a process of its own, the tray's child: its memory is counted apart.
                before_windows = rss_mb(tray.pid)
                before_private = private_mb(tray.pid)
                for _ in range(3):
                    single.ask(state, ["open", "computers"])
                    window = wait_for(lambda: children(tray.pid))
                    time.sleep(1.5)  # shown, and asked the tray once more
                    opened = rss_mb(tray.pid)
                    opened_private = private_mb(tray.pid)
                    child = {"rss": sum(rss_mb(p) for p in window),
                             "private": sum(private_mb(p) for p in window)}  # fmt: skip
                    single.ask(state, ["close", "windows"])
                    wait_for(lambda: not children(tray.pid))
                    time.sleep(1.0)
                after_windows = rss_mb(tray.pid)
                after_private = private_mb(tray.pid)
                # The About box (a process of its own too), three times.
                for _ in range(3):
                    single.ask(state, ["open", "about"])
                    time.sleep(1.0)
                    about_open = rss_mb(tray.pid)
                    single.ask(state, ["close", "windows"])
                    time.sleep(1.0)
                after_about = rss_mb(tray.pid)
                # "Change sharing folder…" (a process of its own too; cancelled: closed unanswered).
                for _ in range(3):
                    single.ask(state, ["open", "setup"])
                    wait_for(lambda: children(tray.pid))
                    time.sleep(1.5)
                    setup_open = rss_mb(tray.pid)
                    single.ask(state, ["close", "windows"])
                    wait_for(lambda: not children(tray.pid))
                    time.sleep(1.0)
                after_setup = rss_mb(tray.pid)
            finally:
                for proc in (tray, bare):
                    proc.terminate()
                    proc.wait(20)
                if bare.stdout is not None:
                    bare.stdout.close()
                service.communicate("quit\n", timeout=20)

    minutes = args.minutes
    print()
    print("| figure | bare PySide6 tray | sioul-tray | ratio |")
    print("| --- | --- | --- | --- |")
    print(f"| resident memory after start | {start['bare']:.1f} MB | {start['tray']:.1f} MB "
          f"| {start['tray'] / start['bare']:.2f} |")  # fmt: skip
    print(f"| resident memory after {minutes:g} min | {end['bare']:.1f} MB | {end['tray']:.1f} MB "
          f"| {end['tray'] / end['bare']:.2f} |")  # fmt: skip
    print(f"| CPU seconds in {minutes:g} idle min | {cpu['bare']:.2f} s | {cpu['tray']:.2f} s | |")
    print(
        f"| peer's claim landing to the menu showing it ({len(delays)} handovers) | | "
        f"median {statistics.median(delays) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms | |"
    )
    print(
        f"| Computers window opened and closed 3 times | | {before_windows:.1f} MB before, "
        f"{opened:.1f} MB open, {after_windows:.1f} MB after | |"
    )
    print(
        f"| the same, private memory only (no library code or font pages) | | "
        f"{before_private:.1f} MB before, {opened_private:.1f} MB open, "
        f"{after_private:.1f} MB after | |"
    )
    print(
        f"| the Computers window's own process while open | | {child['rss']:.1f} MB resident, "
        f"{child['private']:.1f} MB private | |"
    )
    print(
        f"| About opened and closed 3 times (in a process of its own) | | "
        f"{after_windows:.1f} MB before, {about_open:.1f} MB open, {after_about:.1f} MB after | |"
    )
    print(
        f"| Change sharing folder… opened and closed 3 times (a process of its own) | | "
        f"{after_about:.1f} MB before, {setup_open:.1f} MB open, {after_setup:.1f} MB after | |"
    )
    per_ten = cpu["tray"] * 10 / minutes if minutes else float("nan")
    print()
    print(
        f"targets: memory <= 1.25x bare: {end['tray'] / end['bare'] <= 1.25}; "
        f"idle CPU < 1 s per 10 min: {per_ten < 1} ({per_ten:.2f} s); "
        f"handover visible within 2 s: {max(delays) < 2}; "
        f"back within 2 MB of the start after every window: {after_setup - start['tray'] <= 2}"
    )


def menu_text(state: Path) -> str:
    answer = single.ask(state, ["menu"])
    return "\n".join(json.loads(answer[1])["texts"]) if answer else ""


if __name__ == "__main__":
    main()
