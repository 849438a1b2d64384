"""The real `sioul-tray` with a real StatusNotifierItem watcher and host, as on KDE or on GNOME
with the AppIndicator extension, beside the XEmbed tests with `trayer`.

Debian's `status-notifier-watcher` and `gtk-sni-tray-standalone` on a virtual X display and a
private session bus. The tray's item must be registered with the watcher (asked over D-Bus, and
its bus name owned by the tray's process) whether the tray or the watcher starts first, and again
after the watcher restarts; the host draws the icon (a screenshot, copied to
docs/windows/sni-host.png when SIOUL_UPDATE_DOCS=1); the stand-in window shown while no tray
exists goes away when the item registers.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.desktop.tray_process import ROOT, cli, env_for, first_missing, status, stop
from tests.desktop.virtual import PrivateBus, SniHost, VirtualDisplay
from tests.helpers import wait_for

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def missing() -> str | None:
    return first_missing((VirtualDisplay, PrivateBus, SniHost),
                         ("xdotool", "xwininfo", "import", "convert"))  # fmt: skip


@dataclass
class Desktop:
    home: Path
    display: VirtualDisplay
    bus: PrivateBus

    def tray(self) -> subprocess.Popen[str]:
        """The real tray, started and answering (its status written)."""
        env = env_for(self.home, DISPLAY=self.display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=self.bus.address,
                      DBUS_SYSTEM_BUS_ADDRESS=self.bus.address)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        wait_for(
            lambda: (status(self.home) or {}).get("pid") == proc.pid or proc.poll() is not None
        )
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        return proc

    def sni(self) -> SniHost:
        return SniHost(self.display, self.bus)

    def standin(self) -> list[str]:
        """The stand-in window, while it shows."""
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^sioul-tray$"],
                               env=self.display.env(), capture_output=True, text=True,
                               timeout=20).stdout  # fmt: skip
        return found.split()

    def shot(self, host: SniHost, name: str) -> Path:
        """The host's bar, as a picture."""
        x, y, w, h = wait_for(host.window, 10, why="the host's bar")
        screen, bar = self.home / "screen.png", self.home / f"{name}.png"
        env = self.display.env()
        subprocess.run(["import", "-window", "root", str(screen)], env=env, check=True, timeout=30)
        subprocess.run(["convert", str(screen), "-crop", f"{w}x{h}+{x}+{y}", "+repage", str(bar)],
                       check=True, timeout=30)  # fmt: skip
        return bar

    def icon_drawn(self, host: SniHost, name: str = "bar") -> Path:
        """The host's bar once it draws the icon: more than its plain grey background (the host
        fetched the icon from the tray over D-Bus)."""
        drawn: Path = wait_for(lambda: (b := self.shot(host, name)) and colours(b) > 10 and b,
                               10, why="the icon drawn in the host's bar")  # fmt: skip
        return drawn


def colours(picture: Path) -> int:
    out = subprocess.run(["convert", str(picture), "-format", "%k", "info:"],
                         capture_output=True, text=True, check=True, timeout=30).stdout  # fmt: skip
    return int(out)


def ours(host: SniHost, proc: subprocess.Popen[str]) -> list[str]:
    """The registered items whose bus name belongs to the tray's process."""
    return [item for item in host.items() or [] if host.pid_of(item) == proc.pid]


@pytest.fixture
def desktop(need: Callable[[str | None], None], tmp_path: Path) -> Iterator[Desktop]:
    need(missing())
    home, share = tmp_path / "home", tmp_path / "share"
    share.mkdir()
    done = cli(home, "setup", "--share", str(share))
    assert done.returncode == 0, done.stderr
    with VirtualDisplay() as display, PrivateBus() as bus:
        yield Desktop(home, display, bus)


def test_watcher_and_host_first_then_the_tray_registers_and_shows(desktop: Desktop) -> None:
    with desktop.sni() as host:
        assert host.items() == []
        proc = desktop.tray()
        try:
            mine = wait_for(lambda: ours(host, proc), 15, why="the tray's item to register")
            assert len(mine) == 1 and host.items() == mine, host.items()
            bar = desktop.icon_drawn(host, "sni-host")
            if os.environ.get("SIOUL_UPDATE_DOCS") == "1":
                shutil.copyfile(bar, ROOT / "docs" / "windows" / bar.name)
            assert desktop.standin() == []
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(15) == 0
            wait_for(lambda: host.items() == [], 10, why="the item to go with the tray")
        finally:
            stop(proc)


def test_the_tray_first_then_watcher_and_host_the_stand_in_goes(desktop: Desktop) -> None:
    proc = desktop.tray()
    try:
        # No tray at all: after some seconds, a person sees the tray's content in a window.
        assert wait_for(desktop.standin, 20, why="the stand-in window"), proc.stderr
        with desktop.sni() as host:  # a tray host starts after sioul-tray (login order)
            mine = wait_for(lambda: ours(host, proc), 15, why="the tray's item to register")
            assert host.items() == mine and len(mine) == 1, host.items()
            wait_for(lambda: not desktop.standin(), 10, why="the stand-in window to go")
            desktop.icon_drawn(host)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        stop(proc)


def test_the_watcher_restarts_while_the_tray_runs_the_item_registers_again(
    desktop: Desktop,
) -> None:
    with desktop.sni() as host:
        proc = desktop.tray()
        try:
            wait_for(lambda: ours(host, proc), 15, why="the tray's item to register")
        except BaseException:
            stop(proc)
            raise
    try:
        assert host.items() is None  # no watcher on the bus
        for restart in (1, 2):  # a session's panel may restart more than once
            with desktop.sni() as host:
                mine = wait_for(lambda: ours(host, proc), 10,
                                why=f"the item to register again (restart {restart})")  # fmt: skip
                assert host.items() == mine and len(mine) == 1, host.items()
                desktop.icon_drawn(host)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        stop(proc)


def test_the_watcher_first_then_the_tray_then_the_host(desktop: Desktop) -> None:
    with SniHost(desktop.display, desktop.bus, host=False) as host:
        proc = desktop.tray()
        try:
            wait_for(lambda: (status(desktop.home) or {}).get("running"), 10)
            host.start_host()
            mine = wait_for(lambda: ours(host, proc), 15, why="the tray's item to register")
            assert host.items() == mine and len(mine) == 1, host.items()
            desktop.icon_drawn(host)
        finally:
            stop(proc)
