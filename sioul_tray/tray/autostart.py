"""Start at login: an XDG autostart file (Linux), a LaunchAgent (macOS), the Run key (Windows)."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from pathlib import Path

APP = "sioul-tray"
LABEL = "org.sioul.tray"


def command() -> list[str]:
    """How to start this tray again: the same interpreter running the same package."""
    return [sys.executable, "-m", "sioul_tray.cli"]


def xdg_file(config_home: Path | None = None) -> Path:
    base = config_home or Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "autostart" / f"{APP}.desktop"


def xdg_entry(argv: list[str]) -> str:
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=sioul-tray",
        "Comment=Keeps Sioul's medicines and invoices on one computer at a time",
        f"Exec={shlex.join(argv)}",
        "Icon=sioul-tray",
        "Terminal=false",
        "X-GNOME-Autostart-enabled=true",
        "",
    ])  # fmt: skip


def launch_agent_file(home: Path | None = None) -> Path:
    return (home or Path.home()) / "Library" / "LaunchAgents" / f"{LABEL}.plist"


def launch_agent(argv: list[str]) -> bytes:
    import plistlib  # here, not at the top: xml and expat cost the tray 1 MB elsewhere

    return plistlib.dumps({"Label": LABEL, "ProgramArguments": argv, "RunAtLoad": True,
                           "ProcessType": "Interactive"})  # fmt: skip


_RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


def enabled() -> bool:
    if sys.platform == "win32":
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _RUN_KEY) as key:
                winreg.QueryValueEx(key, APP)
            return True
        except OSError:
            return False
    path = launch_agent_file() if sys.platform == "darwin" else xdg_file()
    return path.exists()


def set_enabled(on: bool, argv: list[str] | None = None) -> None:
    argv = argv or command()
    if sys.platform == "win32":
        import subprocess
        import winreg

        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, _RUN_KEY) as key:
            if on:
                winreg.SetValueEx(key, APP, 0, winreg.REG_SZ, subprocess.list2cmdline(argv))
            else:
                with contextlib.suppress(FileNotFoundError):
                    winreg.DeleteValue(key, APP)
        return
    path = launch_agent_file() if sys.platform == "darwin" else xdg_file()
    if not on:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform == "darwin":
        path.write_bytes(launch_agent(argv))
    else:
        path.write_text(xdg_entry(argv), encoding="utf-8")
