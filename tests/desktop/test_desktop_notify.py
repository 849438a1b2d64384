"""Notifications through a fake org.freedesktop.Notifications on a private session bus."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from pytestqt.qtbot import QtBot

from sioul_tray.desktop.notify import DBusNotifications, Notifier
from sioul_tray.lease import Lease
from sioul_tray.share import Share
from sioul_tray.tray.app import Tray
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.model import Action, Note
from tests.desktop.fakes import FakeService
from tests.desktop.virtual import PrivateBus
from tests.helpers import Present

pytestmark = pytest.mark.desktop
PASSPHRASE = "notify tests"


@pytest.fixture
def server(need: Callable[[str | None], None]) -> Iterator[tuple[FakeService, str]]:
    need(PrivateBus.missing())
    with PrivateBus() as bus, FakeService(bus.address, "notifications") as fake:
        yield fake, bus.address


def test_notify_sends_the_specified_signature_and_the_desktop_entry(
    server: tuple[FakeService, str], need: Callable[[str | None], None]
) -> None:
    fake, address = server
    need(None if shutil.which("dbus-monitor") else "dbus-monitor is not installed (dbus-bin)")
    monitor = subprocess.Popen(
        ["dbus-monitor", "--address", address, "member='Notify'"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        time.sleep(0.5)  # the monitor is on the bus before the call
        sender = DBusNotifications("sioul-tray", "sioul-tray", address)
        assert sender.send("Invoices are now made on Office PC", "Invoices: Office PC") is not None
        call = fake.wait(lambda e: e.get("member") == "Notify")
        # GDBus- and Qt-based servers reject any other signature (the uint32 replaces_id).
        assert call["signature"] == "susssasa{sv}i"
        assert call["args"][3:5] == ["Invoices are now made on Office PC", "Invoices: Office PC"]
        sender.close()
        time.sleep(0.3)
    finally:
        monitor.terminate()
        wire = monitor.communicate(timeout=10)[0]
    assert "uint32 0" in wire
    assert 'string "desktop-entry"\n         variant             string "sioul-tray"' in wire


def test_without_a_notification_service_the_balloon_is_used(
    need: Callable[[str | None], None],
) -> None:
    need(PrivateBus.missing())
    balloons: list[tuple[str, str]] = []
    with PrivateBus() as empty:  # a bus where nobody serves notifications
        notifier = Notifier(DBusNotifications("sioul-tray", "sioul-tray", empty.address),
                            lambda t, b: balloons.append((t, b)))  # fmt: skip
        assert notifier("invoices:x", "Title", "Body") == "fallback"
    assert balloons == [("Title", "Body")]
    assert Notifier(None, lambda t, b: balloons.append((t, b)))("k", "T2", "B2") == "fallback"


def home_pc(tmp_path: Path) -> tuple[Path, Lease, Controller]:
    """A sharing folder made by Home PC, its lease and its tray's controller (not started)."""
    folder = tmp_path / "share"
    folder.mkdir()
    Share.create(folder, PASSPHRASE, "home_pc")
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    return folder, lease, Controller(lease, "home_pc", folder, Present(), tmp_path / "state")


def test_a_handover_is_notified_once_over_dbus(
    server: tuple[FakeService, str], qtbot: QtBot, tmp_path: Path
) -> None:
    fake, address = server
    folder, _, controller = home_pc(tmp_path)
    balloons: list[tuple[str, str]] = []
    notifier = Notifier(DBusNotifications("sioul-tray", "sioul-tray", address),
                        lambda t, b: balloons.append((t, b)))  # fmt: skip
    tray = Tray(controller, notify=notifier)
    controller.start()
    try:
        office = Lease(Share.open(folder, PASSPHRASE), "office_pc", name="Office PC")
        office.renew("invoices", take=True)
        qtbot.waitUntil(lambda: "Office PC" in tray.texts()[2], timeout=2000)
        controller.tick()
        controller.reread()
        office.renew("invoices")
        qtbot.wait(600)  # the watcher's re-read of that renewal
        QCoreApplication.processEvents()
        notes = [c["args"][3] for c in fake.calls("Notify")]
        assert notes == ["Invoices move to Office PC"]
        assert balloons == []
    finally:
        controller.shutdown()


def test_a_button_pressed_on_a_notification_runs_its_action(
    server: tuple[FakeService, str],
    qtbot: QtBot,
    tmp_path: Path,
    need: Callable[[str | None], None],
) -> None:
    """The button goes out with the note; the server's ActionInvoked signal for it opens the
    Computers window. A signal for another notification, or a key never offered, does nothing."""
    need(None if shutil.which("dbus-send") else "dbus-send is not installed (dbus-bin)")
    fake, address = server
    _, lease, controller = home_pc(tmp_path)
    tray = Tray(controller)
    tray.use_notifier(
        Notifier(DBusNotifications("sioul-tray", "sioul-tray", address), lambda t, b: None)
    )
    controller.start()

    def press(number: int, key: str) -> None:
        subprocess.run(
            ["dbus-send", f"--bus={address}", "--type=signal", "/org/freedesktop/Notifications",
             "org.freedesktop.Notifications.ActionInvoked", f"uint32:{number}", f"string:{key}"],
            check=True, timeout=10,
        )  # fmt: skip

    try:
        tray._note(Note("unheard:laptop", "Invoices wait for Laptop", "…", Action.COMPUTERS))
        call = fake.wait(lambda e: e.get("member") == "Notify")
        assert call["args"][5] == ["computers", "Computers…"]
        shown = 1  # the fake's first notification
        press(shown + 50, "computers")  # another program's notification
        press(shown, "take-invoices")  # a button this notification never had
        qtbot.wait(500)
        assert tray.windows == []
        assert [c.taken for c in lease.claims("invoices")] == [None]  # not taken either
        press(shown, "computers")
        qtbot.waitUntil(lambda: len(tray.windows) == 1, timeout=5000)
    finally:
        for window in tray.windows:
            window.close()
        controller.shutdown()


SURVIVOR = """
import sys
from sioul_tray.desktop.notify import DBusNotifications
from tests.helpers import Present
sender = DBusNotifications("sioul-tray", "sioul-tray")  # the session bus, as in the tray
print("first", sender.send("a", "b"), flush=True)
sys.stdin.readline()  # the bus is stopped meanwhile
print("second", sender.send("c", "d"), flush=True)
print("alive", flush=True)
"""


def test_the_session_bus_going_away_does_not_end_the_tray(
    need: Callable[[str | None], None],
) -> None:
    need(PrivateBus.missing())
    root = Path(__file__).resolve().parents[2]
    with PrivateBus() as bus:
        env = {"PYTHONPATH": str(root), "DBUS_SESSION_BUS_ADDRESS": bus.address}
        pipe = subprocess.PIPE
        proc = subprocess.Popen([sys.executable, "-c", SURVIVOR], cwd=root, env=env,
                                stdin=pipe, stdout=pipe, text=True)  # fmt: skip
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline() == "first None\n"  # connected; nobody serves Notify
    out, _ = proc.communicate("go\n", timeout=30)
    assert out == "second None\nalive\n" and proc.returncode == 0
