"""This computer's boot clock, and which boot it counts from. No other import: Sioul's side
(`sioul_tray.client`) reads it too, and must start fast."""

from __future__ import annotations

import sys
import time


def boot_ticks() -> float:
    """Seconds of a clock that is never set and goes on while the computer sleeps.

    The lease judges every local observation on it (docs/protocol.md, "Two clocks"): Linux's
    CLOCK_BOOTTIME; macOS's CLOCK_MONOTONIC, which counts sleep there (mach_continuous_time);
    elsewhere (Windows) `time.monotonic`, which counts sleep on Windows.
    """
    return time.clock_gettime(_BOOT_CLOCK) if _BOOT_CLOCK is not None else time.monotonic()


_BOOT_CLOCK: int | None = getattr(
    time,
    "CLOCK_BOOTTIME",
    getattr(time, "CLOCK_MONOTONIC", None) if sys.platform == "darwin" else None,
)


def boot_id() -> str | None:
    """Which boot `boot_ticks` counts from (Linux's random boot id); None where the system does
    not say, and a reader then relies on the wall clock to tell a boot from the next."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read(64).strip() or None
    except (OSError, UnicodeDecodeError):
        return None
