"""Before the computer sleeps, close this computer's claims; after it wakes, renew them.

Linux: logind's `PrepareForSleep(true/false)` on the system bus, holding a *delay* inhibitor so the
claims are on disk before the machine stops (logind waits up to `InhibitDelayMaxSec`, 5 s by
default, for the inhibitor's file descriptor to close). Windows: `WM_POWERBROADCAST` through a
native event filter. macOS: NSWorkspace's sleep and wake notifications (pyobjc, macOS only).
Everywhere, the controller also treats a wall-clock gap between ticks as a wake.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from enum import Enum
from typing import Any

from PySide6.QtCore import SLOT, QAbstractNativeEventFilter, QObject, Slot

from sioul_tray.i18n import App

LOGIND = "org.freedesktop.login1"
LOGIND_PATH = "/org/freedesktop/login1"
MANAGER = "org.freedesktop.login1.Manager"
DEFAULT_DELAY = 5.0  # logind's InhibitDelayMaxSec unless configured


class LogindSleep(QObject):
    """logind's PrepareForSleep with a delay inhibitor held while awake."""

    def __init__(
        self,
        bus: Any,  # QDBusConnection: the system bus, or a private one in tests
        before_sleep: Callable[[], None],
        after_wake: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.bus = bus
        self.before_sleep = before_sleep
        self.after_wake = after_wake
        self.fd: int | None = None
        self.delay = self._inhibit_delay()
        # QtDBus wants a QObject slot here, not a Python function (see the field notes).
        slot = SLOT("prepare(bool)")
        self.connected = bool(
            bus.connect(LOGIND, LOGIND_PATH, MANAGER, "PrepareForSleep", self, slot)
        )
        self.inhibit()

    def _inhibit_delay(self) -> float:
        """How long logind waits for a delay inhibitor, in seconds (InhibitDelayMaxUSec; 5 s,
        logind's default, when it cannot be read)."""
        from sioul_tray.desktop.dbus import get_property

        usec = get_property(self.bus, LOGIND, LOGIND_PATH, MANAGER, "InhibitDelayMaxUSec")
        if isinstance(usec, int) and not isinstance(usec, bool) and 0 < usec < 3600 * 10**6:
            return usec / 1e6
        return DEFAULT_DELAY

    def inhibit(self) -> bool:
        """Take a delay inhibitor (a file descriptor logind watches); True when held."""
        from PySide6.QtDBus import QDBusUnixFileDescriptor

        from sioul_tray.desktop.dbus import call

        if self.fd is not None:
            return True
        reply = call(self.bus, LOGIND, LOGIND_PATH, MANAGER, "Inhibit", "sleep", "sioul-tray",
                     "Closing this computer's claims before sleep", "delay")  # fmt: skip
        if not reply or not isinstance(reply[0], QDBusUnixFileDescriptor) or not reply[0].isValid():
            return False
        # Our own duplicate, closed explicitly on release; Qt's copies die with the reply.
        self.fd = os.dup(reply[0].fileDescriptor())
        del reply
        return True

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None

    @Slot(bool)
    def prepare(self, going: bool) -> None:
        if going:
            try:
                self.before_sleep()  # claims closed on disk...
            finally:
                self.release()  # ...then logind may go on
        else:
            self.inhibit()
            self.after_wake()


# -- Windows ------------------------------------------------------------------------------------

WM_POWERBROADCAST = 0x0218
PBT_APMSUSPEND = 0x0004
PBT_APMRESUMESUSPEND = 0x0007
PBT_APMRESUMEAUTOMATIC = 0x0012


class Power(Enum):
    SLEEP = "sleep"
    WAKE = "wake"


def decode_power(message: int, wparam: int) -> Power | None:
    """What a window message says about sleep, if anything (pure, tested on every platform)."""
    if message != WM_POWERBROADCAST:
        return None
    if wparam == PBT_APMSUSPEND:
        return Power.SLEEP
    if wparam in (PBT_APMRESUMEAUTOMATIC, PBT_APMRESUMESUSPEND):
        return Power.WAKE
    return None


class WindowsPowerFilter(QAbstractNativeEventFilter):
    """Reads WM_POWERBROADCAST sent to the app's hidden top-level window (a tray icon alone
    receives none: the app keeps a never-shown QWidget with a real `winId()`)."""

    def __init__(self, before_sleep: Callable[[], None], after_wake: Callable[[], None]) -> None:
        super().__init__()
        self.before_sleep = before_sleep
        self.after_wake = after_wake
        self.asleep = False
        self.window: Any = None  # the hidden window that receives the messages

    def nativeEventFilter(self, event_type: Any, message: Any) -> Any:
        if bytes(event_type) != b"windows_generic_MSG":
            return False, 0
        from ctypes import wintypes

        msg = wintypes.MSG.from_address(int(message))
        power = decode_power(int(msg.message), int(msg.wParam or 0))
        if power is Power.SLEEP and not self.asleep:
            self.asleep = True
            self.before_sleep()
        elif power is Power.WAKE and self.asleep:
            # Both resume messages may arrive: renew once.
            self.asleep = False
            self.after_wake()
        return False, 0


# -- macOS --------------------------------------------------------------------------------------


class MacSleep:
    """NSWorkspaceWillSleep/DidWake on the workspace's own notification center (Qt's application
    delegate stays as it is)."""

    def __init__(self, before_sleep: Callable[[], None], after_wake: Callable[[], None]) -> None:
        import AppKit  # type: ignore[import-not-found]  # pyobjc, a macOS-only dependency
        import Foundation  # type: ignore[import-not-found]

        center = AppKit.NSWorkspace.sharedWorkspace().notificationCenter()
        queue = Foundation.NSOperationQueue.mainQueue()
        self._tokens = [
            center.addObserverForName_object_queue_usingBlock_(
                AppKit.NSWorkspaceWillSleepNotification, None, queue, lambda _n: before_sleep()
            ),
            center.addObserverForName_object_queue_usingBlock_(
                AppKit.NSWorkspaceDidWakeNotification, None, queue, lambda _n: after_wake()
            ),
        ]


def describe(watcher: Any) -> str:
    """The sleep source in use, for About (the system's own names)."""
    if isinstance(watcher, LogindSleep):
        return App.tr("logind PrepareForSleep, {delay} s to close the claims").format(
            delay=f"{watcher.delay:g}"
        )
    if isinstance(watcher, WindowsPowerFilter):
        return "WM_POWERBROADCAST"
    if isinstance(watcher, MacSleep):
        return "NSWorkspace will-sleep and did-wake"
    return App.tr("none: a gap in the clock between two renewals is taken as a wake")


def delay_of(watcher: Any) -> float:
    """How long the system waits for `before_sleep` (logind's delay; elsewhere the usual 2 s a
    sleep notification leaves before the system goes on)."""
    return float(getattr(watcher, "delay", 2.0))


def watch(
    before_sleep: Callable[[], None], after_wake: Callable[[], None], system_bus: Any = None
) -> Any:
    """The platform's sleep watcher, or None where none is available (the wall-clock gap stays)."""
    if sys.platform == "win32":
        from PySide6.QtCore import QCoreApplication
        from PySide6.QtWidgets import QWidget

        filt = WindowsPowerFilter(before_sleep, after_wake)
        app = QCoreApplication.instance()
        if app is not None:
            app.installNativeEventFilter(filt)
        # WM_POWERBROADCAST goes to top-level windows only: a real, never shown one.
        filt.window = QWidget()
        filt.window.winId()
        return filt
    if sys.platform == "darwin":
        try:
            return MacSleep(before_sleep, after_wake)
        except ImportError:
            return None
    if system_bus is None or not system_bus.isConnected():
        return None
    return LogindSleep(system_bus, before_sleep, after_wake)
