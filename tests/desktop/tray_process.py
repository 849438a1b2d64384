"""Running the real `sioul-tray` process under a virtual desktop, for the desktop tests.

Imported by the tests in this folder as `tests.desktop.tray_process`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from sioul_tray.share import Share
from sioul_tray.timing import Timing

ROOT = Path(__file__).resolve().parents[2]
PASSPHRASE = "correct horse battery staple"


def seal_on_a_scale(folder: Path, home: Path, scale: int) -> Timing:
    """Seal `folder` as the installation at `home` would (its computer id the creator), its
    times the contract's divided by `scale`: `setup --share` then joins it as any folder, and
    every tray and command on it runs on the scale, a handover taking seconds. Only a test's
    setup can make such a folder (`Share.create`'s `timing`)."""
    from sioul_tray.install import Installation

    timing = Timing.scaled(scale)
    folder.mkdir(exist_ok=True)
    creator = Installation(home).computer()
    Share.create(folder, PASSPHRASE, creator, cost=10, timing=timing)
    return timing


def env_for(home: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["SIOUL_TRAY_HOME"] = str(home)
    env["SIOUL_PASSPHRASE"] = PASSPHRASE
    env.update(extra)
    return env


def cli(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli", *args],
        env=env_for(home, **extra),
        capture_output=True,
        text=True,
        timeout=60,
    )


def status(home: Path) -> dict[str, Any] | None:
    try:
        return json.loads((home / "state" / "status.json").read_text())  # type: ignore[no-any-return]
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def tray_icons(display: str) -> list[tuple[int, int, int, int]]:
    """The windows docked in trayer's panel: (x, y, width, height) on the screen."""
    out = subprocess.run(
        ["xwininfo", "-root", "-tree"], env=dict(os.environ, DISPLAY=display),
        capture_output=True, text=True, timeout=10,
    ).stdout  # fmt: skip
    lines = out.splitlines()
    icons = []
    for i, line in enumerate(lines):
        if '"panel": ("panel" "trayer")' not in line:
            continue
        indent = len(line) - len(line.lstrip())
        for child in lines[i + 1 :]:
            if child.strip() and len(child) - len(child.lstrip()) <= indent:
                break
            m = re.search(r"\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)", child)
            if m and len(child) - len(child.lstrip()) == indent + 3 and int(m.group(1)) > 4:
                w, h, x, y = map(int, m.groups())
                icons.append((x, y, w, h))
    return icons


def stop(proc: subprocess.Popen[str]) -> None:
    """After a test: a process still running is killed, waited for, and its pipe closed."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    if proc.stderr:
        proc.stderr.close()


def children(pid: int) -> list[int]:
    """The processes `pid` started and that still run (zombies not counted): the windows the
    tray runs in processes of their own."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def first_missing(parts: tuple[Any, ...], tools: tuple[str, ...] = ()) -> str | None:
    """Why these desktop parts (each with a `missing()`: Xvfb, a tray host, a bus) or programs
    cannot run here, the first that cannot; None when all can."""
    for part in parts:
        if (why := part.missing()) is not None:
            return str(why)
    for tool in tools:
        if shutil.which(tool) is None:
            return f"{tool} is not installed (see .ci/install-desktop)"
    return None
