"""A desktop that runs without a screen: Xvfb, a tray host (trayer, or a StatusNotifierItem
watcher and host) and private D-Bus buses.

The tests and the benchmark use it to run the real tray exactly as on a
person's desktop. Every helper starts its own processes and stops only those.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from sioul_tray.desktop import x11


def _stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class VirtualDisplay:
    """An Xvfb server on a free display number (``-displayfd`` lets Xvfb pick it)."""

    def __init__(self, size: str = "800x600x24", screensaver: bool = True) -> None:
        self.size = size
        self.screensaver = screensaver
        self.proc: subprocess.Popen[bytes] | None = None
        self.display = ""

    @staticmethod
    def missing() -> str | None:
        """Why a virtual display cannot run here, or None."""
        if shutil.which("Xvfb") is None:
            return "Xvfb is not installed (apt-get install xvfb; see .ci/install-desktop)"
        if x11.libx11() is None:
            return "libX11 is not installed"
        return None

    def __enter__(self) -> Self:
        read, write = os.pipe()
        # -noreset: without it the server resets when its last client leaves (our own probes),
        # and a client connecting during the reset fails ("cannot open display").
        args = ["Xvfb", "-displayfd", str(write), "-screen", "0", self.size, "-nolisten", "tcp",
                "-noreset"]  # fmt: skip
        if not self.screensaver:
            # Removes the MIT-SCREEN-SAVER extension, to test the path where it is missing.
            args += ["-extension", "MIT-SCREEN-SAVER"]
        self.proc = subprocess.Popen(
            args, pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            number = pipe.readline().strip().decode()
        if not number:
            _stop(self.proc)
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"
        deadline = time.monotonic() + 10
        while (dpy := x11.open_display(self.display)) is None:
            if time.monotonic() > deadline:
                _stop(self.proc)
                raise RuntimeError(f"Xvfb on {self.display} does not accept connections")
            time.sleep(0.05)
        x11.close_display(dpy)
        return self

    def env(self) -> dict[str, str]:
        """The environment for a program that should draw on this display."""
        env = dict(os.environ, DISPLAY=self.display, QT_QPA_PLATFORM="xcb")
        env.pop("WAYLAND_DISPLAY", None)
        return env

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        _stop(self.proc)


class TrayHost:
    """Debian's ``trayer`` (an XEmbed system tray) docked at the top right of a display."""

    def __init__(self, display: VirtualDisplay, width: int = 160, height: int = 32) -> None:
        self.display = display
        self.width = width
        self.height = height
        self.proc: subprocess.Popen[bytes] | None = None

    @staticmethod
    def missing() -> str | None:
        if shutil.which("trayer") is None:
            return "trayer is not installed (apt-get install trayer; see .ci/install-desktop)"
        return None

    def __enter__(self) -> Self:
        args = [
            "trayer", "--edge", "top", "--align", "right", "--widthtype", "pixel",
            "--width", str(self.width), "--height", str(self.height), "--heighttype", "pixel",
            "--SetDockType", "true", "--transparent", "false", "--tint", "0xd0d0d0",
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            args, env=self.display.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while x11.tray_owner(self.display.display) == 0:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                _stop(self.proc)
                raise RuntimeError("trayer did not take the system tray selection")
            time.sleep(0.05)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        _stop(self.proc)


_BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
"""


class PrivateBus:
    """A dbus-daemon of our own: stands in for the system or the session bus in tests."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.address = ""
        self._dir: tempfile.TemporaryDirectory[str] | None = None

    @staticmethod
    def missing() -> str | None:
        if shutil.which("dbus-daemon") is None:
            return "dbus-daemon is not installed (apt-get install dbus; see .ci/install-desktop)"
        return None

    def __enter__(self) -> Self:
        self._dir = tempfile.TemporaryDirectory(prefix="sioul-bus-")
        config = Path(self._dir.name) / "bus.conf"
        config.write_text(_BUS_CONFIG.format(dir=self._dir.name))
        self.proc = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.proc.stdout is not None
        self.address = self.proc.stdout.readline().decode().strip()
        if not self.address:
            _stop(self.proc)
            raise RuntimeError("dbus-daemon did not print its address")
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        _stop(self.proc)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if self._dir is not None:
            self._dir.cleanup()


def dbus_call(address: str, dest: str, path: str, method: str, *args: str) -> str | None:
    """`dbus-send --print-reply` on the bus at `address`: its reply, or None when the call
    fails (no such name, no such method)."""
    done = subprocess.run(
        ["dbus-send", f"--bus={address}", "--print-reply", f"--dest={dest}", path, method, *args],
        capture_output=True, text=True, timeout=10,
    )  # fmt: skip
    return done.stdout if done.returncode == 0 else None


class SniHost:
    """A StatusNotifierItem watcher and host, as KDE or GNOME's AppIndicator extension has them:
    Debian's ``status-notifier-watcher`` and ``gtk-sni-tray-standalone`` (a bar at the top right
    of the display, the colour of trayer's) on a display and a session bus."""

    WATCHER = "org.kde.StatusNotifierWatcher"

    def __init__(self, display: VirtualDisplay, bus: PrivateBus, host: bool = True) -> None:
        self.display = display
        self.bus = bus
        self.with_host = host  # False: the watcher alone, until start_host()
        self.watcher: subprocess.Popen[bytes] | None = None
        self.host: subprocess.Popen[bytes] | None = None

    @staticmethod
    def missing() -> str | None:
        for tool, package in (
            ("status-notifier-watcher", "haskell-status-notifier-item-utils"),
            ("gtk-sni-tray-standalone", "haskell-gtk-sni-tray-utils"),
            ("dbus-send", "dbus-bin"),
        ):
            if shutil.which(tool) is None:
                return (
                    f"{tool} is not installed (apt-get install {package}; see .ci/install-desktop)"
                )
        return None

    def env(self) -> dict[str, str]:
        # NO_AT_BRIDGE: GTK would look for an accessibility bus the private bus does not have.
        return dict(self.display.env(), DBUS_SESSION_BUS_ADDRESS=self.bus.address, NO_AT_BRIDGE="1")

    def _property(self, name: str) -> str | None:
        return dbus_call(
            self.bus.address, self.WATCHER, "/StatusNotifierWatcher",
            "org.freedesktop.DBus.Properties.Get", f"string:{self.WATCHER}", f"string:{name}",
        )  # fmt: skip

    def _wait(self, proc: subprocess.Popen[bytes], ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 15
        while not ready():
            if proc.poll() is not None or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError(f"{what} did not start")
            time.sleep(0.05)

    def __enter__(self) -> Self:
        env = self.env()
        self.watcher = subprocess.Popen(
            ["status-notifier-watcher"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._wait(self.watcher, lambda: self.items() is not None, "status-notifier-watcher")
        if self.with_host:
            self.start_host()
        return self

    def start_host(self) -> None:
        """The host (the bar that shows the items), registered with the watcher."""
        self.host = subprocess.Popen(
            ["gtk-sni-tray-standalone", "--top", "--end", "--size", "32", "--length", "1 % 5",
             "--color", "#d0d0d0"],
            env=self.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._wait(self.host, self.host_registered, "gtk-sni-tray-standalone")

    def host_registered(self) -> bool:
        return "boolean true" in (self._property("IsStatusNotifierHostRegistered") or "")

    def items(self) -> list[str] | None:
        """The watcher's RegisteredStatusNotifierItems, or None while no watcher answers."""
        reply = self._property("RegisteredStatusNotifierItems")
        return None if reply is None else re.findall(r'string "([^"]*)"', reply)

    def pid_of(self, item: str) -> int | None:
        """The process that owns a registered item's bus name ("name" or "name/path")."""
        reply = dbus_call(
            self.bus.address, "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.GetConnectionUnixProcessID", f"string:{item.split('/')[0]}",
        )  # fmt: skip
        found = re.search(r"uint32 (\d+)", reply or "")
        return int(found.group(1)) if found else None

    def window(self) -> tuple[int, int, int, int] | None:
        """The bar on the screen: (x, y, width, height), or None."""
        out = subprocess.run(
            ["xwininfo", "-root", "-tree"], env=self.display.env(), capture_output=True,
            text=True, timeout=10,
        ).stdout  # fmt: skip
        window = (
            r'"gtk-sni-tray-standalone": \(.*\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)'
        )
        bars = [tuple(map(int, m.groups())) for m in re.finditer(window, out)]
        if not bars:
            return None
        w, h, x, y = max(bars)  # the bar, not GTK's 10x10 leader window
        return x, y, w, h

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        _stop(self.host)
        _stop(self.watcher)
