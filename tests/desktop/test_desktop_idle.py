"""When the person was last here: XScreenSaver under Xvfb with xdotool input, the choice among
the D-Bus sources against fakes (each source alone: test_desktop_dbus_idle.py), and the pure parts
(Windows tick wrap-around, locking, the "none works" fallback)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable

import pytest
from PySide6.QtDBus import QDBusConnection

from sioul_tray.desktop import idle
from sioul_tray.desktop.dbus_idle import LogindSession, MutterIdle, screensaver_locks
from tests.desktop.fakes import FakeService, setv
from tests.desktop.virtual import PrivateBus, VirtualDisplay


def missing_x() -> str | None:
    why = VirtualDisplay.missing()
    if why is None and shutil.which("xdotool") is None:
        why = "xdotool is not installed (see .ci/install-desktop)"
    return why


@pytest.mark.desktop
def test_xscreensaver_idle_grows_and_input_resets_it(need: Callable[[str | None], None]) -> None:
    need(missing_x())
    with VirtualDisplay() as display:
        source = idle.XScreenSaverIdle(display.display)
        try:
            first = source.idle()
            assert first is not None
            time.sleep(1.5)
            later = source.idle()
            assert later is not None and later >= first + 1.0
            subprocess.run(["xdotool", "mousemove", "10", "20"], env=display.env(), check=True,
                           timeout=10)  # fmt: skip
            subprocess.run(["xdotool", "mousemove", "30", "40"], env=display.env(), check=True,
                           timeout=10)  # fmt: skip
            after = source.idle()
            assert after is not None and after < 0.5
            clock = idle.ActiveClock(source, [], session_start=0)
            now = time.time()
            assert abs(clock.active(now) - now) <= 1
        finally:
            source.close()


@pytest.mark.desktop
def test_without_the_screensaver_extension_nothing_works_and_the_session_start_is_used(
    need: Callable[[str | None], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    need(missing_x())
    with VirtualDisplay(screensaver=False) as display:
        source = idle.XScreenSaverIdle(display.display)
        assert source.idle() is None
        monkeypatch.setenv("DISPLAY", display.display)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
        chosen = idle.active_clock(display=display.display)
        assert not chosen.known and chosen.name == "none"
        # Never "now": a computer nobody uses must not pull medicines to itself.
        assert chosen.active(time.time()) == idle.session_start()
        assert chosen.active(time.time() + 600) == idle.session_start()


@pytest.mark.desktop
def test_choose_prefers_mutter_without_x_and_a_locked_screen_counts_as_away(
    buses: tuple[QDBusConnection, dict[str, FakeService]], monkeypatch: pytest.MonkeyPatch
) -> None:
    bus, fakes = buses
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    clock = idle.active_clock(session_bus=bus, system_bus=bus)
    assert clock.known and clock.name == MutterIdle.name
    assert [lock.name for lock in screensaver_locks(bus)] == ["org.freedesktop.ScreenSaver"]
    now = time.time()
    before = clock.active(now)
    assert before == pytest.approx(now - 1.234, abs=1)
    setv(fakes["screensaver"], "active", "true")
    setv(fakes["mutter"], "idletime", "0")  # typing the password on the lock screen
    assert clock.active(now + 300) == before


@pytest.mark.desktop
def test_logind_is_asked_only_where_it_knows_this_session(
    buses: tuple[QDBusConnection, dict[str, FakeService]],
    need: Callable[[str | None], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bus, _ = buses
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    with_logind = idle.active_clock(system_bus=bus)
    assert [lock.name for lock in with_logind.locks] == [LogindSession.name]
    with PrivateBus() as empty:  # a system bus with no logind on it (a container, a BSD)
        conn = QDBusConnection.connectToBus(empty.address, "no-logind")
        try:
            without = idle.active_clock(system_bus=conn)
            assert without.locks == []  # not asked again at every tick
            assert without.active(time.time()) == idle.session_start() and not without.known
        finally:
            QDBusConnection.disconnectFromBus("no-logind")


class Scripted:
    name = "scripted"

    def __init__(self) -> None:
        self.value: float | None = 5.0

    def idle(self) -> float | None:
        return self.value


class Lock:
    name = "lock"

    def __init__(self) -> None:
        self.on = False

    def locked(self) -> bool | None:
        return self.on


def test_active_clock_rules() -> None:
    source, lock = Scripted(), Lock()
    clock = idle.ActiveClock(source, [lock], session_start=1000)
    assert clock.active(2000) == 1995
    source.value = None  # a source that stops answering keeps the last known time
    assert clock.active(2100) == 1995
    source.value = 3000.0  # a larger idle than before does not move the last input back
    assert clock.active(2200) == 1995
    source.value = 0.0
    lock.on = True  # locked: frozen at the last input before the lock
    assert clock.active(2300) == 1995
    lock.on = False
    assert clock.active(2400) == 2400
    assert clock.active(100) == 100  # the clock was set back: never in the future


def test_active_clock_with_no_source_starts_at_the_session() -> None:
    clock = idle.ActiveClock(idle.NoIdle(), [], session_start=1234)
    assert clock.active(5000) == 1234 and not clock.known


@pytest.mark.parametrize(
    ("tick64", "last_input", "expected"),
    [
        (10_000, 4_000, 6_000),
        (2**32 + 500, 2**32 - 1_500, 2_000),  # the 32-bit count wrapped between input and now
        (3 * 2**32 + 10, 5, 5),  # 149 days up: only the low 32 bits matter
        (2**32 - 1, 2**32 - 1, 0),
    ],
)
def test_windows_idle_wraps_around(tick64: int, last_input: int, expected: int) -> None:
    assert idle.windows_idle_ms(tick64, last_input) == expected
