"""libX11 through ctypes: finding the library, opening a display, and who owns the system tray."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sioul_tray.desktop import x11
from tests.desktop.virtual import TrayHost, VirtualDisplay
from tests.helpers import wait_for

pytestmark = pytest.mark.desktop


def test_a_library_is_found_by_its_soname_else_by_its_short_name(
    need: Callable[[str | None], None],
) -> None:
    need(None if x11.libx11() is not None else "libX11 is not installed")
    assert x11.libx11() is x11.libx11()  # loaded and typed once per run
    # A soname this system lacks: `find_library` (ldconfig) finds the real one.
    found = x11.load("libX11.so.999", "X11")
    assert found is not None and hasattr(found, "XOpenDisplay")
    assert x11.load("libsioul-nothing.so.1", "sioul-nothing") is None


def unserved() -> str:
    """A display no X server serves: none holds its lock file. Far above the numbers Xvfb picks
    (the lowest free), so no test starting beside this one takes it meanwhile."""
    return next(f":{n}" for n in range(4200, 4300) if not Path(f"/tmp/.X{n}-lock").exists())


def test_a_display_opens_only_where_a_server_runs(need: Callable[[str | None], None]) -> None:
    need(VirtualDisplay.missing())
    with VirtualDisplay() as display:
        dpy = x11.open_display(display.display)
        assert isinstance(dpy, int) and dpy != 0
        x11.close_display(dpy)
    assert x11.open_display(unserved()) is None  # no server there: None
    assert x11.tray_owner(unserved()) == 0


def test_the_tray_owner_is_the_tray_host_s_window_while_it_runs(
    need: Callable[[str | None], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    need(VirtualDisplay.missing() or TrayHost.missing())
    with VirtualDisplay() as display:
        assert x11.tray_owner(display.display) == 0  # a bare X session: no tray
        with TrayHost(display):
            owner = x11.tray_owner(display.display)
            assert owner != 0
            # No name: the display of $DISPLAY, as the tray itself asks.
            monkeypatch.setenv("DISPLAY", display.display)
            assert x11.tray_owner() == owner
        wait_for(lambda: x11.tray_owner(display.display) == 0, 10, why="the selection to go")
