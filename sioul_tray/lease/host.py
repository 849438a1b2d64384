"""This computer: its clock of ticks, the name people call it, and an id for its claims."""

from __future__ import annotations

import functools
import os
import socket
import string
import sys
import time
from pathlib import Path

from sioul_tray.boot import boot_ticks
from sioul_tray.files import NotReadable, read_bounded

__all__ = ["boot_ticks", "host_name", "machine_id", "new_computer_id", "started"]


@functools.cache
def started() -> int:
    """When this process began, as the lease first asked (whole Unix seconds), then the same."""
    return int(time.time())


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
        # The system's file (a link followed): a few lines; a damaged one is no name.
        lines = read_bounded(Path(path), 64 * 1024, follow=True).decode("utf-8").splitlines()
    except (OSError, NotReadable, UnicodeDecodeError):
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


def machine_id() -> bytes | None:
    """What tells this machine from another, as its system keeps it; None where none is found.

    Linux: /etc/machine-id (systemd's, else D-Bus's copy), made at install time. macOS: the
    hardware's IOPlatformUUID. Windows: the MachineGuid Windows sets up at install time. A disk
    image cloned with that value (a virtual machine copied without `systemd-machine-id-setup`, a
    Windows image not generalised by sysprep) is not told apart: docs/protocol.md, "A copied
    installation".
    """
    if sys.platform == "darwin":
        return _mac_platform_uuid()
    if sys.platform == "win32":
        return _windows_machine_guid()
    return _linux_machine_id()


def _linux_machine_id(paths: tuple[str, ...] = ("/etc/machine-id", "/var/lib/dbus/machine-id")
                      ) -> bytes | None:  # fmt: skip
    for path in paths:
        try:
            text = read_bounded(Path(path), 64, follow=True).strip()  # 32 hex digits and a newline
        except (OSError, NotReadable):
            continue
        # "uninitialized" (systemd's first boot) or an empty file names no machine yet.
        if len(text) == 32 and all(c in b"0123456789abcdef" for c in text):
            return text
    return None


def _mac_platform_uuid() -> bytes | None:
    import subprocess  # here, not at the top: only macOS needs it

    try:
        done = subprocess.run(
            ["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"],
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == '"IOPlatformUUID"':
            value = value.strip().strip('"')
            return value.encode("ascii", "ignore") or None
    return None


def _windows_machine_guid() -> bytes | None:
    try:
        import winreg  # type: ignore[import-not-found,unused-ignore]

        with winreg.OpenKey(  # type: ignore[attr-defined,unused-ignore]
            winreg.HKEY_LOCAL_MACHINE,  # type: ignore[attr-defined,unused-ignore]
            r"SOFTWARE\Microsoft\Cryptography",
            0,
            winreg.KEY_READ | winreg.KEY_WOW64_64KEY,  # type: ignore[attr-defined,unused-ignore]
        ) as key:
            value, _ = winreg.QueryValueEx(key, "MachineGuid")  # type: ignore[attr-defined,unused-ignore]
    except (ImportError, OSError):
        return None
    return str(value).encode("ascii", "ignore") or None
