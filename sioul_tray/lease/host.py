"""This computer: its clock of ticks, the name people call it, and an id for its claims."""

from __future__ import annotations

import functools
import os
import socket
import string
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


@functools.cache
def host_name() -> str:
    """The name people call this computer, asked once per process.

    macOS: the ComputerName ("Anna's MacBook Air"), from one call to scutil. Linux: the pretty host
    name of /etc/machine-info when set. Else (Windows too) the host name, with its case.
    """
    name = ""
    if sys.platform == "darwin":
        name = _mac_computer_name()
    elif sys.platform.startswith("linux"):
        name = _pretty_hostname()
    return name or socket.gethostname().split(".")[0] or "this computer"


def _mac_computer_name() -> str:
    import subprocess  # here, not at the top: only macOS needs it (0.7 MB resident elsewhere)

    try:
        done = subprocess.run(
            ["scutil", "--get", "ComputerName"], capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _pretty_hostname(path: str = "/etc/machine-info") -> str:
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "PRETTY_HOSTNAME":
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            return value.replace('\\"', '"').strip()
    return ""


_ID_CHARS = string.ascii_lowercase + string.digits


def new_computer_id(name: str) -> str:
    """An id for this installation's claims: the name in ``[a-z0-9_]`` plus a random suffix.

    The suffix keeps two "MacBook-Air"s from ever sharing a claim file.
    """
    import unicodedata  # here: made once per installation, not worth its tables in the tray

    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    base = "".join(ch if ch.isalnum() else "_" for ch in ascii_name.lower())
    base = "_".join(part for part in base.split("_") if part)[:58] or "computer"
    # os.urandom, not secrets: secrets pulls in hashlib and the system's libcrypto (3 MB resident
    # in the tray) for what is a name, not a secret. 256 % 36 leaves a bias too small to matter.
    suffix = "".join(_ID_CHARS[b % len(_ID_CHARS)] for b in os.urandom(4))
    return f"{base}_{suffix}"
