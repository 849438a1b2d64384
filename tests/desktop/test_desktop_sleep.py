"""Sleep and wake through a fake logind on a private bus: the delay inhibitor is held, the claims
are closed on disk before it is released, and renewed after wake."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtDBus import QDBusConnection
from pytestqt.qtbot import QtBot

from sioul_tray.desktop import sleep
from sioul_tray.lease import Lease
from sioul_tray.share import Share
from sioul_tray.tray.controller import Controller
from tests.desktop.fakes import FakeService
from tests.desktop.virtual import PrivateBus
from tests.helpers import Present

pytestmark = pytest.mark.desktop
PASSPHRASE = "sleep tests"


@pytest.fixture
def logind(need: Callable[[str | None], None], qtbot: QtBot) -> Iterator[tuple[FakeService, str]]:
    need(PrivateBus.missing())
    with PrivateBus() as bus, FakeService(bus.address, "logind") as fake:
        yield fake, bus.address


def files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}  # fmt: skip


def test_claims_are_closed_on_disk_before_the_inhibitor_is_released_and_renewed_on_wake(
    logind: tuple[FakeService, str], tmp_path: Path
) -> None:
    fake, address = logind
    folder = tmp_path / "share"
    folder.mkdir()
    Share.create(folder, PASSPHRASE, "home_pc")
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc")
    controller = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    controller.start()
    bus = QDBusConnection.connectToBus(address, "sleep-test")
    assert bus.isConnected()
    watcher = sleep.LogindSleep(bus, controller.suspend, controller.resume)
    pump = QCoreApplication.processEvents
    try:
        assert watcher.connected
        inhibit = fake.wait(lambda e: e["event"] == "inhibit")
        assert inhibit["args"][0] == "sleep" and inhibit["args"][3] == "delay"
        assert watcher.fd is not None
        fake.send(f'set snapshot "{folder / "leases"}"')
        fake.wait(lambda e: e["event"] == "set")

        fake.send("sleep")
        released = fake.wait(lambda e: e["event"] == "released", pump=pump)
        # What logind would let sleep is exactly what is on disk now: both claims closed.
        assert released["files"] == files(folder / "leases")
        reader = Lease(Share.open(folder, PASSPHRASE), "reader")
        for part in ("medicines", "invoices"):
            assert next(c for c in reader.claims(part) if c.computer == "home_pc").closed
        assert watcher.fd is None and controller.asleep

        fake.send("wake")
        fake.wait(lambda e: e["event"] == "inhibit", pump=pump)  # held again for the next sleep
        assert watcher.fd is not None and not controller.asleep
        reader = Lease(Share.open(folder, PASSPHRASE), "reader2")
        for part in ("medicines", "invoices"):
            assert not next(c for c in reader.claims(part) if c.computer == "home_pc").closed
    finally:
        controller.shutdown()
        watcher.release()
        QDBusConnection.disconnectFromBus("sleep-test")


def test_no_logind_means_no_watcher_and_no_error(qtbot: QtBot) -> None:
    bus = QDBusConnection.connectToBus("unix:path=/nonexistent/bus", "no-bus")
    try:
        assert sleep.watch(lambda: None, lambda: None, bus) is None
    finally:
        QDBusConnection.disconnectFromBus("no-bus")


@pytest.mark.parametrize(
    ("message", "wparam", "expected"),
    [
        (0x0218, 0x0004, sleep.Power.SLEEP),
        (0x0218, 0x0012, sleep.Power.WAKE),
        (0x0218, 0x0007, sleep.Power.WAKE),
        (0x0218, 0x000A, None),  # PBT_APMPOWERSTATUSCHANGE: on battery, not sleep
        (0x0010, 0x0004, None),  # WM_CLOSE with the same wparam is not power
    ],
)
def test_windows_power_messages(message: int, wparam: int, expected: sleep.Power | None) -> None:
    assert sleep.decode_power(message, wparam) is expected


def test_windows_filter_reads_the_message_and_renews_once_per_wake() -> None:
    import ctypes
    from ctypes import wintypes

    from PySide6.QtCore import QByteArray

    calls: list[str] = []
    filt = sleep.WindowsPowerFilter(lambda: calls.append("sleep"), lambda: calls.append("wake"))
    kind = QByteArray(b"windows_generic_MSG")
    for wparam in (0x0004, 0x0004, 0x0007, 0x0012):  # suspend twice, both resume messages
        msg = wintypes.MSG(message=0x0218, wParam=wparam)
        assert filt.nativeEventFilter(kind, ctypes.addressof(msg)) == (False, 0)
    assert calls == ["sleep", "wake"]
    other = wintypes.MSG(message=0x0218, wParam=0x0004)
    filt.nativeEventFilter(QByteArray(b"xcb_generic_event_t"), ctypes.addressof(other))
    assert calls == ["sleep", "wake"]  # not a Windows message: not read


def test_the_time_logind_leaves_before_sleep_is_read(logind: tuple[FakeService, str]) -> None:
    fake, address = logind
    bus = QDBusConnection.connectToBus(address, "delay-test")
    assert bus.isConnected()
    try:
        unset = sleep.LogindSleep(bus, lambda: None, lambda: None)
        assert unset.delay == sleep.DEFAULT_DELAY == 5.0  # logind's default when not readable
        unset.release()
        fake.send("set InhibitDelayMaxUSec 12500000")
        fake.wait(lambda e: e["event"] == "set")
        configured = sleep.LogindSleep(bus, lambda: None, lambda: None)
        assert configured.delay == 12.5
        assert sleep.delay_of(configured) == 12.5 and sleep.delay_of(None) == 2.0
        configured.release()
    finally:
        QDBusConnection.disconnectFromBus("delay-test")


def test_about_names_the_sleep_source(logind: tuple[FakeService, str]) -> None:
    _, address = logind
    bus = QDBusConnection.connectToBus(address, "about-test")
    try:
        watcher = sleep.LogindSleep(bus, lambda: None, lambda: None)
        assert sleep.describe(watcher) == "logind PrepareForSleep, 5 s to close the claims"
        watcher.release()
        assert sleep.describe(None).startswith("none: a gap in the clock")
    finally:
        QDBusConnection.disconnectFromBus("about-test")
