"""Smoke test of a BUILT bundle: its command line, then its tray under Xvfb, trayer and a private
D-Bus, stopped with SIGTERM. Run by .ci/bundle:

    python packaging/smoke-bundle.py dist/sioul-tray/sioul-tray

Only the bundle's own program is run; this script reads what it prints and its status file. It
needs a Python that imports sioul_tray and this checkout's tests.desktop.virtual (Xvfb, trayer,
D-Bus), not PySide6.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sioul_tray import __version__  # noqa: E402
from sioul_tray.lease.status import SCHEMA  # noqa: E402
from tests.desktop.tray_process import children  # noqa: E402
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay  # noqa: E402

PARTS = ("medicines", "invoices")


def say(text: str) -> None:
    print(f"smoke: {text}", flush=True)


def run(program: Path, env: dict[str, str], *args: str) -> str:
    started = time.monotonic()
    done = subprocess.run([str(program), *args], env=env, capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    took = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"smoke: `sioul-tray {' '.join(args)}` exited {done.returncode}: "
                         f"{done.stderr.strip()}")  # fmt: skip
    say(f"`sioul-tray {' '.join(args)}` ok in {took:.2f} s")
    return done.stdout


def wait_for(what: Any, timeout: float, why: str) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := what()):
        if time.monotonic() > deadline:
            raise SystemExit(f"smoke: timed out after {timeout:.0f} s waiting for {why}")
        time.sleep(0.1)
    return value


def status(home: Path) -> dict[str, Any] | None:
    try:
        return json.loads((home / "state" / "status.json").read_text())  # type: ignore[no-any-return]
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def mine(program: Path, env: dict[str, str], computer: str) -> dict[str, dict[str, Any]]:
    """This computer's claim per part, as the bundle's `claims --json` reads the folder."""
    doc = json.loads(run(program, env, "claims", "--json"))
    return {p: c for p in PARTS for c in doc[p] if c["computer"] == computer}


def icon_colours(display: VirtualDisplay) -> int:
    """How many colours the icon docked in trayer shows (1: an empty, icon-less square)."""
    from tests.desktop.tray_process import tray_icons

    icons = wait_for(lambda: tray_icons(display.display), 15, "the icon to dock in trayer")
    x, y, w, h = icons[0]
    out = subprocess.run(
        ["import", "-window", "root", "-crop", f"{w}x{h}+{x}+{y}", "-format", "%k", "info:"],
        env=display.env(), capture_output=True, text=True, timeout=30, check=True,
    ).stdout  # fmt: skip
    return int(out.strip() or 0)


def main() -> int:
    program = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "dist/sioul-tray/sioul-tray")
    program = program.absolute()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sioul-smoke-") as tmp:
        home, share = Path(tmp) / "home", Path(tmp) / "share"
        env = dict(os.environ, SIOUL_TRAY_HOME=str(home), SIOUL_PASSPHRASE="smoke test phrase")
        env.pop("PYTHONPATH", None)  # the bundle carries its own modules

        version = run(program, env, "--version").strip()
        if version != f"sioul-tray {__version__}":
            raise SystemExit(f"smoke: --version says {version!r}, the source {__version__}")
        run(program, env, "setup", "--share", str(share))
        look = json.loads(run(program, env, "look", "--json"))
        # The parts, and the schema's version (Sioul reads it; docs/tray.md).
        if set(look) != {*PARTS, "schema"} or look["schema"] != SCHEMA:
            raise SystemExit(f"smoke: look --json has {sorted(look)}")
        # The French catalogue is in the bundle: compiled by the wheel's build, found when frozen.
        french = run(program, dict(env, SIOUL_TRAY_LANG="fr"), "look")
        if "Médicaments" not in french or "Factures" not in french:
            raise SystemExit(f"smoke: `look` under SIOUL_TRAY_LANG=fr is not French: {french!r}")

        for part in (VirtualDisplay, TrayHost, PrivateBus):
            if (why := part.missing()) is not None:
                raise SystemExit(f"smoke: cannot start the tray: {why}")
        with VirtualDisplay() as display, TrayHost(display), PrivateBus() as bus:
            tray_env = dict(
                display.env(), **{k: env[k] for k in ("SIOUL_TRAY_HOME", "SIOUL_PASSPHRASE")}
            )
            tray_env.pop("PYTHONPATH", None)
            # Private buses: the machine's logind and notification server are left alone.
            tray_env.update(DBUS_SESSION_BUS_ADDRESS=bus.address,
                            DBUS_SYSTEM_BUS_ADDRESS=bus.address)  # fmt: skip
            launched = time.monotonic()
            proc = subprocess.Popen([str(program)], env=tray_env, stderr=subprocess.PIPE,
                                    text=True)  # fmt: skip
            try:
                seen = wait_for(
                    lambda: (
                        proc.poll() is not None
                        or ((s := status(home)) and s.get("pid") == proc.pid and s)
                    ),
                    30,
                    "the tray's status file",
                )
                if proc.poll() is not None:
                    raise SystemExit(f"smoke: the tray exited {proc.returncode}: "
                                     f"{proc.stderr.read() if proc.stderr else ''}")  # fmt: skip
                computer = seen["computer"]
                claims = wait_for(
                    lambda: (
                        (c := mine(program, env, computer)).keys() == set(PARTS)
                        and not any(v["closed"] for v in c.values())
                        and c
                    ),
                    30,
                    "the tray's open claims",
                )
                say(f"the tray wrote its claims {time.monotonic() - launched:.2f} s after start")
                look = json.loads(run(program, env, "look", "--json"))
                if {look[p]["source"] for p in PARTS} != {"tray"}:
                    raise SystemExit(f"smoke: `look` did not reach the running tray: {look}")
                # Sioul's check, from the built program: an answer (0 or 1), never an error.
                asked = subprocess.run([str(program), "may", "invoices", "--json"], env=env,
                                       capture_output=True, text=True, timeout=30)  # fmt: skip
                if asked.returncode not in (0, 1) or "may" not in json.loads(asked.stdout):
                    raise SystemExit(f"smoke: `may invoices` failed: {asked.stderr}")
                say(f"`may invoices` answered {json.loads(asked.stdout)['reason']!r}")
                if shutil.which("import") and shutil.which("xwininfo"):
                    colours = icon_colours(display)
                    if colours < 3:
                        raise SystemExit(f"smoke: the docked icon shows {colours} colour(s): "
                                         "no icon drawn (are the SVGs in the bundle?)")  # fmt: skip
                    say(f"the icon is docked and drawn ({colours} colours)")
                # The Computers window runs in a process of its own: the bundle's program again
                # (`sioul-tray computers`), which asks the tray what to show.
                from sioul_tray.tray.client import ask

                if ask(home / "state", ["open", "computers"]) != (0, ""):
                    raise SystemExit("smoke: the tray did not open the Computers window")
                window = wait_for(lambda: children(proc.pid), 30, "the Computers window's process")
                time.sleep(2)  # a window process that fails exits at once
                if not children(proc.pid):
                    raise SystemExit("smoke: the Computers window's process ended by itself")
                ask(home / "state", ["close", "windows"])
                wait_for(lambda: not children(proc.pid), 15, "the Computers window to close")
                say(f"the Computers window ran in its own process ({window[0]}) and closed")
                stopping = time.monotonic()
                proc.send_signal(signal.SIGTERM)
                code = proc.wait(15)
                say(f"SIGTERM: exit code {code} after {time.monotonic() - stopping:.2f} s")
                if code != 0:
                    raise SystemExit(f"smoke: the tray exited {code} on SIGTERM: "
                                     f"{proc.stderr.read() if proc.stderr else ''}")  # fmt: skip
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
                if proc.stderr:
                    proc.stderr.close()
        after = mine(program, env, computer)
        for part in PARTS:
            if not after[part]["closed"] or after[part]["seq"] <= claims[part]["seq"]:
                raise SystemExit(f"smoke: {part}: the claim is not closed after SIGTERM")
        final = status(home)
        if final is None or final["running"] or any(p["acting"] for p in final["parts"].values()):
            raise SystemExit(f"smoke: the status file still says running or acting: {final}")
        say("both claims closed, status says stopped")
    say(f"passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
