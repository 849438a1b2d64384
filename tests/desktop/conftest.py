"""Fixtures for the desktop tests: see tests/qtkit.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtDBus import QDBusConnection
from pytestqt.qtbot import QtBot

from tests.desktop.fakes import FakeService
from tests.desktop.virtual import PrivateBus
from tests.qtkit import need

__all__ = ["buses", "need"]


@pytest.fixture
def buses(
    need: Callable[[str | None], None], qtbot: QtBot
) -> Iterator[tuple[QDBusConnection, dict[str, FakeService]]]:
    """A private session bus with the idle and lock services a desktop has (Mutter's idle
    monitor, logind, a screensaver), and a connection to it."""
    need(PrivateBus.missing())
    with (
        PrivateBus() as bus,
        FakeService(bus.address, "mutter") as mutter,
        FakeService(bus.address, "logind") as logind,
        FakeService(bus.address, "screensaver") as screensaver,
    ):
        conn = QDBusConnection.connectToBus(bus.address, "idle-test")
        try:
            yield conn, {"mutter": mutter, "logind": logind, "screensaver": screensaver}
        finally:
            QDBusConnection.disconnectFromBus("idle-test")
