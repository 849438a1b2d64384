"""The D-Bus idle and lock sources (Mutter, logind, screen savers) against fake services on a
private bus, and what each says when its service is missing or its answer is unusable."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest
from PySide6.QtDBus import QDBusConnection
from pytestqt.qtbot import QtBot

from sioul_tray.desktop.dbus_idle import (
    LogindSession,
    MutterIdle,
    ScreenSaverLock,
    screensaver_locks,
)
from tests.desktop.fake_dbus_service import SESSION_PATH
from tests.desktop.fakes import FakeService, setv
from tests.desktop.virtual import PrivateBus

pytestmark = pytest.mark.desktop


def test_mutter_idle_monitor(buses: tuple[QDBusConnection, dict[str, FakeService]]) -> None:
    bus, fakes = buses
    assert MutterIdle(bus).idle() == pytest.approx(1.234)
    setv(fakes["mutter"], "idletime", "90000")
    assert MutterIdle(bus).idle() == pytest.approx(90.0)


def test_logind_idle_and_locked_hints(
    buses: tuple[QDBusConnection, dict[str, FakeService]],
) -> None:
    bus, fakes = buses
    session = LogindSession(bus)
    assert session.idle() == 0.0  # not idle: present within the desktop's timeout
    assert session.locked() is False
    since = int((time.time() - 600) * 1_000_000)
    setv(fakes["logind"], "IdleHint", "true")
    setv(fakes["logind"], "IdleSinceHint", str(since))
    setv(fakes["logind"], "LockedHint", "true")
    assert session.idle() == pytest.approx(600, abs=2)
    assert session.locked() is True


def test_logind_s_session_is_asked_for_once_by_this_process_s_pid(
    buses: tuple[QDBusConnection, dict[str, FakeService]],
) -> None:
    bus, fakes = buses
    logind = fakes["logind"]
    session = LogindSession(bus)
    assert session.path() == SESSION_PATH
    asked = logind.wait(lambda e: e.get("member") == "GetSessionByPID")
    assert asked["args"] == [os.getpid()]
    session.locked()
    read = logind.wait(lambda e: e.get("member") == "Get")  # after any second lookup, in order
    assert read["path"] == SESSION_PATH and read["args"][1] == "LockedHint"
    assert logind.calls("GetSessionByPID") == []  # the path is kept: one lookup per run


def test_an_idle_hint_without_a_usable_time_is_unknown_or_now(
    buses: tuple[QDBusConnection, dict[str, FakeService]],
) -> None:
    bus, fakes = buses
    session = LogindSession(bus)
    setv(fakes["logind"], "IdleHint", "true")
    # Idle "since 0": logind does not know since when; never read as idle since 1970.
    assert session.idle() is None
    ahead = int((time.time() + 3600) * 1_000_000)  # the wall clock was set back meanwhile
    setv(fakes["logind"], "IdleSinceHint", str(ahead))
    assert session.idle() == 0.0


def test_a_screen_saver_lock_follows_get_active(
    buses: tuple[QDBusConnection, dict[str, FakeService]],
) -> None:
    bus, fakes = buses
    lock = ScreenSaverLock(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver")
    assert lock.name == "org.freedesktop.ScreenSaver" and lock.locked() is False
    setv(fakes["screensaver"], "active", "true")
    assert lock.locked() is True
    # The fake owns org.gnome.ScreenSaver too, with nothing at its path: no answer, no lock.
    gnome = ScreenSaverLock(bus, "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver")
    assert gnome.locked() is None
    assert [found.name for found in screensaver_locks(bus)] == ["org.freedesktop.ScreenSaver"]


def test_on_a_bus_without_the_services_every_source_says_unknown(
    need: Callable[[str | None], None], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    need(PrivateBus.missing())
    monkeypatch.setenv("XDG_SESSION_ID", "31")  # the fallback lookup finds nothing either
    with PrivateBus() as empty:
        conn = QDBusConnection.connectToBus(empty.address, "dbus-idle-empty")
        try:
            assert MutterIdle(conn).idle() is None
            session = LogindSession(conn)
            assert session.path() is None
            assert session.idle() is None and session.locked() is None
            assert screensaver_locks(conn) == []
        finally:
            QDBusConnection.disconnectFromBus("dbus-idle-empty")
