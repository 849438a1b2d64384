"""Plain QtDBus method calls and property reads on a private bus: replies, errors and timeouts."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtDBus import QDBusConnection
from pytestqt.qtbot import QtBot

from sioul_tray.desktop.dbus import PROPERTIES, call, get_property
from tests.desktop.fakes import FakeService
from tests.desktop.virtual import PrivateBus

pytestmark = pytest.mark.desktop

BUS = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")
MUTTER = ("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core")


@pytest.fixture
def bus(need: Callable[[str | None], None], qtbot: QtBot) -> Iterator[tuple[QDBusConnection, str]]:
    """A connection to a private bus, and the bus's address."""
    need(PrivateBus.missing())
    with PrivateBus() as private:
        conn = QDBusConnection.connectToBus(private.address, "dbus-test")
        try:
            yield conn, private.address
        finally:
            QDBusConnection.disconnectFromBus("dbus-test")


@pytest.fixture
def mutter(bus: tuple[QDBusConnection, str]) -> Iterator[tuple[QDBusConnection, FakeService]]:
    conn, address = bus
    with FakeService(address, "mutter") as fake:
        yield conn, fake


def test_a_call_carries_its_arguments_and_gives_the_reply_s(
    bus: tuple[QDBusConnection, str],
) -> None:
    conn, _ = bus
    assert call(conn, *BUS, "NameHasOwner", "org.freedesktop.DBus") == [True]
    assert call(conn, *BUS, "NameHasOwner", "org.example.Nobody") == [False]
    assert call(conn, *BUS, "GetNameOwner", "org.freedesktop.DBus") == ["org.freedesktop.DBus"]


def test_an_error_reply_is_none(bus: tuple[QDBusConnection, str]) -> None:
    conn, _ = bus
    assert call(conn, "org.example.Nobody", "/", "org.example.Nobody", "Anything") is None
    assert call(conn, *BUS, "NoSuchMethod") is None
    assert call(conn, *BUS, "GetNameOwner", "org.example.Nobody") is None  # NameHasNoOwner


def test_a_connection_that_is_not_up_answers_none(tmp_path: Path, qtbot: QtBot) -> None:
    conn = QDBusConnection.connectToBus(f"unix:path={tmp_path / 'no-bus'}", "dbus-test-down")
    try:
        assert not conn.isConnected()
        assert call(conn, *BUS, "GetId") is None
        assert get_property(conn, *BUS, "Features") is None
    finally:
        QDBusConnection.disconnectFromBus("dbus-test-down")


def test_a_wedged_service_is_given_up_on_after_the_timeout(
    mutter: tuple[QDBusConnection, FakeService],
) -> None:
    conn, fake = mutter
    assert call(conn, *MUTTER, MUTTER[0], "GetIdletime") == [1234]
    assert fake.proc is not None
    os.kill(fake.proc.pid, signal.SIGSTOP)  # a hung desktop service: on the bus, never answering
    try:
        began = time.monotonic()
        assert call(conn, *MUTTER, MUTTER[0], "GetIdletime", timeout_ms=400) is None
        waited = time.monotonic() - began
    finally:
        os.kill(fake.proc.pid, signal.SIGCONT)
    assert 0.3 <= waited < 3, waited  # the timeout given, not D-Bus's default 25 s
    assert call(conn, *MUTTER, MUTTER[0], "GetIdletime") == [1234]


def test_a_property_comes_unwrapped_and_false_stays_false(
    mutter: tuple[QDBusConnection, FakeService],
) -> None:
    conn, fake = mutter
    idle = get_property(conn, *MUTTER, MUTTER[0], "idletime")
    assert idle == 1234 and type(idle) is int  # the value, not its QDBusVariant
    assert get_property(conn, *MUTTER, MUTTER[0], "active") is False  # a value, not "no answer"
    asked = [fake.wait(lambda e: e.get("member") == "Get") for _ in range(2)]
    assert [(c["interface"], c["args"]) for c in asked] == [
        (PROPERTIES, [MUTTER[0], "idletime"]),
        (PROPERTIES, [MUTTER[0], "active"]),
    ]


def test_a_property_nobody_has_is_none(mutter: tuple[QDBusConnection, FakeService]) -> None:
    conn, _ = mutter
    assert get_property(conn, *MUTTER, MUTTER[0], "NoSuchProperty") is None
    assert get_property(conn, "org.example.Nobody", "/", "org.example.Nobody", "Any") is None
