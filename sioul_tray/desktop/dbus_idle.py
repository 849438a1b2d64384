"""Idle time and screen lock over D-Bus (Linux): Mutter's IdleMonitor, logind, screen savers."""

from __future__ import annotations

import os
import time

from PySide6.QtDBus import QDBusConnection, QDBusObjectPath

from sioul_tray.desktop.dbus import call, get_property

LOGIND = "org.freedesktop.login1"
LOGIND_PATH = "/org/freedesktop/login1"
MANAGER = "org.freedesktop.login1.Manager"
SESSION = "org.freedesktop.login1.Session"


class MutterIdle:
    """GNOME (X11 and Wayland): `GetIdletime()` in ms, no permission needed."""

    name = "Mutter IdleMonitor (GNOME)"

    def __init__(self, bus: QDBusConnection) -> None:
        self.bus = bus

    def idle(self) -> float | None:
        reply = call(
            self.bus,
            "org.gnome.Mutter.IdleMonitor",
            "/org/gnome/Mutter/IdleMonitor/Core",
            "org.gnome.Mutter.IdleMonitor",
            "GetIdletime",
            timeout_ms=1000,
        )
        if not reply:
            return None
        return float(reply[0]) / 1000.0


class LogindSession:
    """logind's session `IdleHint`/`IdleSinceHint` (coarse: set after the desktop's idle timeout)
    and `LockedHint`."""

    name = "logind IdleHint"

    def __init__(self, bus: QDBusConnection) -> None:
        self.bus = bus
        self._path: str | None = None

    def path(self) -> str | None:
        if self._path is None:
            reply = call(self.bus, LOGIND, LOGIND_PATH, MANAGER, "GetSessionByPID", os.getpid())
            if reply and isinstance(reply[0], QDBusObjectPath):
                self._path = reply[0].path()
            elif reply:
                self._path = str(reply[0])
            elif os.environ.get("XDG_SESSION_ID"):
                reply = call(self.bus, LOGIND, LOGIND_PATH, MANAGER, "GetSession",
                             os.environ["XDG_SESSION_ID"])  # fmt: skip
                if reply:
                    first = reply[0]
                    self._path = first.path() if isinstance(first, QDBusObjectPath) else str(first)
        return self._path

    def _get(self, name: str) -> object:
        path = self.path()
        if path is None:
            return None
        return get_property(self.bus, LOGIND, path, SESSION, name)

    def idle(self) -> float | None:
        hint = self._get("IdleHint")
        if hint is None:
            return None
        if not hint:
            return 0.0  # not idle: present within the desktop's idle timeout
        since = self._get("IdleSinceHint")  # microseconds, wall clock
        if not isinstance(since, int) or since <= 0:
            return None
        return max(0.0, time.time() - since / 1_000_000)

    def locked(self) -> bool | None:
        hint = self._get("LockedHint")
        return None if hint is None else bool(hint)


class ScreenSaverLock:
    """`org.freedesktop.ScreenSaver` / `org.gnome.ScreenSaver` `GetActive()`."""

    def __init__(self, bus: QDBusConnection, service: str, path: str) -> None:
        self.bus = bus
        self.service = service
        self.path = path
        self.name = service

    def locked(self) -> bool | None:
        reply = call(self.bus, self.service, self.path, self.service, "GetActive", timeout_ms=500)
        return bool(reply[0]) if reply else None


def screensaver_locks(bus: QDBusConnection) -> list[ScreenSaverLock]:
    """The screen savers that answer on this session bus."""
    out = []
    for service, path in (
        ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),
        ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
    ):
        lock = ScreenSaverLock(bus, service, path)
        if lock.locked() is not None:
            out.append(lock)
    return out
