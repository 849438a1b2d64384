"""Start at login: the XDG autostart file (tested for real here), the LaunchAgent's content."""

from __future__ import annotations

import plistlib
import sys
from pathlib import Path

import pytest

from sioul_tray.tray import autostart


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG file is Linux's way")
def test_xdg_autostart_file_on_and_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert not autostart.enabled()
    autostart.set_enabled(True, ["/opt/py 3/python", "-m", "sioul_tray.cli"])
    path = tmp_path / "autostart" / "sioul-tray.desktop"
    assert autostart.enabled() and path.is_file()
    lines = path.read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert "Exec='/opt/py 3/python' -m sioul_tray.cli" in lines  # quoted for the space
    assert "Type=Application" in lines
    autostart.set_enabled(False)
    assert not autostart.enabled() and not path.exists()
    autostart.set_enabled(False)  # already off: nothing to do, no error


def test_launch_agent_runs_at_load() -> None:
    plist = plistlib.loads(autostart.launch_agent(["/usr/bin/python3", "-m", "sioul_tray.cli"]))
    assert plist["Label"] == "org.sioul.tray"
    assert plist["ProgramArguments"] == ["/usr/bin/python3", "-m", "sioul_tray.cli"]
    assert plist["RunAtLoad"] is True


def test_the_command_starts_this_interpreter_on_this_package() -> None:
    assert autostart.command() == [sys.executable, "-m", "sioul_tray.cli"]
