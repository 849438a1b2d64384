"""When the person was last at this computer: the platform's idle time behind one small interface.

A claim's `active` decides who keeps medicines (it follows the person), so it must come from real
input, not from "the tray is running". Each source answers `idle()` in seconds, or None when it
cannot tell right now; `active_clock()` probes them once at start and `ActiveClock` turns the
answer into the `active` time of a claim, counting a locked screen as away.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Sequence
from typing import Any, Protocol

from sioul_tray.desktop import x11


class IdleSource(Protocol):
    name: str

    def idle(self) -> float | None:
        """Seconds since the last keyboard or mouse input, or None when unknown now."""
        ...


class LockSource(Protocol):
    name: str

    def locked(self) -> bool | None:
        """True while the screen is locked, None when this source cannot tell."""
        ...


class NoIdle:
    """No source works: the tray says so and counts the person present since the session start."""

    name = "none"

    def idle(self) -> float | None:
        return None


class XScreenSaverIdle:
    """X11: `XScreenSaverQueryInfo` from libXss (idle in ms). Meaningless on Wayland."""

    name = "XScreenSaver (X11)"

    class _Info(ctypes.Structure):
        _fields_ = [
            ("window", ctypes.c_ulong),
            ("state", ctypes.c_int),
            ("kind", ctypes.c_int),
            ("til_or_since", ctypes.c_ulong),
            ("idle", ctypes.c_ulong),
            ("event_mask", ctypes.c_ulong),
        ]

    def __init__(self, display: str | None = None) -> None:
        self._dpy: int | None = None
        self._info: Any = None
        lib = x11.libx11()
        xss = x11.load("libXss.so.1", "Xss")
        if lib is None or xss is None:
            return
        dpy = x11.open_display(display)
        if dpy is None:
            return
        xss.XScreenSaverQueryExtension.argtypes = [
            ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)
        ]  # fmt: skip
        xss.XScreenSaverAllocInfo.restype = ctypes.POINTER(self._Info)
        xss.XScreenSaverQueryInfo.argtypes = [
            ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(self._Info)
        ]  # fmt: skip
        event, error = ctypes.c_int(), ctypes.c_int()
        if not xss.XScreenSaverQueryExtension(ctypes.c_void_p(dpy), event, error):
            x11.close_display(dpy)  # the server lacks MIT-SCREEN-SAVER
            return
        self._xss = xss
        self._lib = lib
        self._dpy = dpy
        self._root = lib.XDefaultRootWindow(ctypes.c_void_p(dpy))
        self._info = xss.XScreenSaverAllocInfo()

    def idle(self) -> float | None:
        if self._dpy is None or not self._info:
            return None
        if not self._xss.XScreenSaverQueryInfo(ctypes.c_void_p(self._dpy), self._root, self._info):
            return None
        return float(self._info.contents.idle) / 1000.0

    def close(self) -> None:
        if self._dpy is not None:
            if self._info:
                self._lib.XFree(self._info)
            x11.close_display(self._dpy)
            self._dpy = None


def windows_idle_ms(tick_count64: int, last_input: int) -> int:
    """Milliseconds since the last input on Windows.

    `GetLastInputInfo` gives a 32-bit tick count that wraps every 49.7 days, `GetTickCount64` does
    not: compare in 32 bits, modulo 2**32, so a wrap between the two reads still gives the small
    true difference.
    """
    return ((tick_count64 & 0xFFFFFFFF) - (last_input & 0xFFFFFFFF)) & 0xFFFFFFFF


class WindowsIdle:
    name = "GetLastInputInfo (Windows)"

    def __init__(self) -> None:
        from ctypes import wintypes

        class LastInputInfo(ctypes.Structure):
            _fields_ = [("cbSize", wintypes.UINT), ("dwTime", wintypes.DWORD)]

        windll = ctypes.windll  # type: ignore[attr-defined]
        self._user32 = windll.user32
        self._kernel32 = windll.kernel32
        self._kernel32.GetTickCount64.restype = ctypes.c_ulonglong
        self._info = LastInputInfo()
        self._info.cbSize = ctypes.sizeof(LastInputInfo)

    def idle(self) -> float | None:
        if not self._user32.GetLastInputInfo(ctypes.byref(self._info)):
            return None
        now = int(self._kernel32.GetTickCount64())
        return windows_idle_ms(now, int(self._info.dwTime)) / 1000.0


class WindowsLock:
    """The input desktop cannot be switched to while the workstation is locked."""

    name = "input desktop (Windows)"
    _DESKTOP_SWITCHDESKTOP = 0x0100

    def locked(self) -> bool | None:
        user32 = ctypes.windll.user32  # type: ignore[attr-defined]
        desk = user32.OpenInputDesktop(0, False, self._DESKTOP_SWITCHDESKTOP)
        if not desk:
            return True
        try:
            return not user32.SwitchDesktop(desk)
        finally:
            user32.CloseDesktop(desk)


class MacIdle:
    """macOS: `CGEventSourceSecondsSinceLastEventType(HID system state, any input)`."""

    name = "CoreGraphics (macOS)"
    _HID_SYSTEM_STATE = 1
    _ANY_INPUT = 0xFFFFFFFF

    def __init__(self) -> None:
        cg = ctypes.CDLL("/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics")
        cg.CGEventSourceSecondsSinceLastEventType.restype = ctypes.c_double
        cg.CGEventSourceSecondsSinceLastEventType.argtypes = [ctypes.c_int32, ctypes.c_uint32]
        self._cg = cg

    def idle(self) -> float | None:
        value = float(
            self._cg.CGEventSourceSecondsSinceLastEventType(self._HID_SYSTEM_STATE, self._ANY_INPUT)
        )
        return value if value >= 0 else None


class MacLock:
    name = "CGSession (macOS)"

    def locked(self) -> bool | None:
        try:
            import Quartz  # type: ignore[import-not-found]  # pyobjc, a macOS-only dependency
        except ImportError:
            return None
        session = Quartz.CGSessionCopyCurrentDictionary()
        if session is None:
            return None
        return bool(session.get("CGSSessionScreenIsLocked", False))


class ActiveClock:
    """The `active` time of this computer's claims, from an idle source and lock sources.

    Never "now" by default: with no working source it stays at the session start, so a computer
    nobody uses does not pull medicines to itself. A locked screen freezes the time at the last
    input before the lock (typing the password on a lock screen is not using Sioul).
    """

    def __init__(
        self, source: IdleSource, locks: Sequence[LockSource], session_start: float
    ) -> None:
        self.source = source
        self.locks = list(locks)
        self.session_start = session_start
        self._last: float | None = None

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def known(self) -> bool:
        return not isinstance(self.source, NoIdle)

    def locked(self) -> bool:
        return any(lock.locked() for lock in self.locks)

    def active(self, now: float) -> int:
        if self.locked() and self._last is not None:
            return int(self._last)
        idle = self.source.idle()
        if idle is None:
            value = self._last if self._last is not None else self.session_start
        else:
            value = now - max(idle, 0.0)
        if self._last is not None:
            value = max(value, self._last)  # the last input never moves back...
        value = min(value, now)  # ...unless the clock was set back
        self._last = value
        return int(value)


def session_start() -> int:
    """When this tray's session began: the last input assumed where no idle source answers, so
    a tray alone counts as used since it started (the lease's `started`)."""
    from sioul_tray.lease.host import started

    return started()


def active_clock(
    session_bus: Any = None, system_bus: Any = None, display: str | None = None
) -> ActiveClock:
    """The first idle source that answers on this platform, and the lock sources that apply.

    `session_bus` and `system_bus` are QDBusConnections (tests pass private ones).
    """
    candidates: list[IdleSource] = []
    locks: list[LockSource] = []
    try:
        if sys.platform == "win32":
            candidates.append(WindowsIdle())
            locks.append(WindowsLock())
        elif sys.platform == "darwin":
            candidates.append(MacIdle())
            locks.append(MacLock())
        else:
            from sioul_tray.desktop import dbus_idle

            wayland = os.environ.get("XDG_SESSION_TYPE") == "wayland" or bool(
                os.environ.get("WAYLAND_DISPLAY")
            )
            if not wayland and (display or os.environ.get("DISPLAY")):
                candidates.append(XScreenSaverIdle(display))
            if session_bus is not None:
                candidates.append(dbus_idle.MutterIdle(session_bus))
                locks += dbus_idle.screensaver_locks(session_bus)
            if system_bus is not None:
                logind = dbus_idle.LogindSession(system_bus)
                # Asked once: without logind, or a session it knows, every tick would ask again.
                if logind.path() is not None:
                    candidates.append(logind)
                    locks.append(logind)
    except OSError:
        pass
    for source in candidates:
        if source.idle() is not None:
            return ActiveClock(source, locks, session_start())
    return ActiveClock(NoIdle(), locks, session_start())
