"""Before an idle sleep: which machines close their claims once the person has been away.

Issue 13: a claim closed only at sleep leaves if the sync tool sends it within logind's delay;
the simulation (docs/reliability.md, "Before sleep") chose to close both parts on a machine that
sleeps when idle once the person has been away `AWAY_AFTER` (idle or screen locked, as
`desktop.idle.ActiveClock` says), and to reopen them at the first tick with the person back. A
machine that stays on (a desktop) closes at sleep and quit only. No Qt here: the driver applies
it (`Driver.away_after`), the app only chooses the value.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sioul_tray.files import NotReadable, read_bounded

AWAY_AFTER = 300.0  # seconds away before a machine that sleeps when idle closes its claims
POWER = Path("/sys/class/power_supply")


def sleeps_when_idle(power: Path = POWER, platform: str = sys.platform) -> bool:
    """A laptop: on Linux, a system battery (not a mouse's: scope Device). Elsewhere unknown
    for now: False, and the claims close at sleep only."""
    if not platform.startswith("linux"):
        return False
    try:
        supplies = list(power.iterdir())
    except OSError:
        return False
    return any(
        _read(supply / "type") == "Battery" and _read(supply / "scope") != "Device"
        for supply in supplies
    )


def _read(path: Path) -> str | None:
    """A word of the kernel's. /sys links its devices (followed); each attribute is at most a page,
    which is what it says its size is."""
    try:
        return read_bounded(path, 4096, follow=True).decode("ascii").strip()
    except (OSError, NotReadable, UnicodeError):
        return None


def away_after(power: Path = POWER, platform: str = sys.platform) -> float | None:
    """The driver's `away_after` for this machine."""
    return AWAY_AFTER if sleeps_when_idle(power, platform) else None
