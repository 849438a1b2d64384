"""Start at login: the XDG autostart file (tested for real here), the LaunchAgent's content."""

from __future__ import annotations

import os
import plistlib
import stat
import sys
from pathlib import Path

import pytest

from sioul_tray.errors import SioulError
from sioul_tray.tray import autostart


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG file is Linux's way")
def test_xdg_autostart_file_on_and_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert not autostart.enabled()
    autostart.set_enabled(True, ["/opt/py 3/python", "-m", "sioul_tray.cli"])
    path = tmp_path / "autostart" / "org.sioul.tray.desktop"
    assert autostart.enabled() and path.is_file()
    lines = path.read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    assert 'Exec="/opt/py 3/python" -m sioul_tray.cli' in lines  # quoted for the space
    assert "Type=Application" in lines
    autostart.set_enabled(False)
    assert not autostart.enabled() and not path.exists()
    autostart.set_enabled(False)  # already off: nothing to do, no error


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG file is Linux's way")
def test_start_at_login_under_umask_000_and_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What runs at login is this user's alone to change: the folders made for it are 0700, the
    entry 0644, whatever the umask; a link planted at its name is replaced, never written
    through."""
    config = tmp_path / "config"  # ~/.config, not made yet
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    old = os.umask(0)
    try:
        autostart.set_enabled(True, ["sioul-tray"])
    finally:
        os.umask(old)
    path = config / "autostart" / "org.sioul.tray.desktop"
    assert [stat.S_IMODE(p.stat().st_mode) for p in (config, path.parent, path)] == [
        0o700,
        0o700,
        0o644,
    ]
    autostart.set_enabled(False)
    trap = tmp_path / "precious"
    trap.write_text("keep me\n")
    path.symlink_to(trap)
    autostart.set_enabled(True, ["sioul-tray"])
    assert trap.read_text() == "keep me\n"
    assert not path.is_symlink() and path.read_text().startswith("[Desktop Entry]")


def test_launch_agent_runs_at_load() -> None:
    plist = plistlib.loads(autostart.launch_agent(["/usr/bin/python3", "-m", "sioul_tray.cli"]))
    assert plist["Label"] == "org.sioul.tray"
    assert plist["ProgramArguments"] == ["/usr/bin/python3", "-m", "sioul_tray.cli"]
    assert plist["RunAtLoad"] is True


def test_the_command_starts_this_interpreter_on_this_package() -> None:
    # -P: not the current folder's source (a checkout's), the package installed.
    assert autostart.command() == [sys.executable, "-P", "-m", "sioul_tray.cli"]


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG file is Linux's way")
def test_the_file_of_0_1_0_counts_and_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    old = tmp_path / "autostart" / "sioul-tray.desktop"
    old.parent.mkdir()
    old.write_text("[Desktop Entry]\n")
    assert autostart.enabled()
    autostart.set_enabled(True, ["sioul-tray"])
    assert not old.exists() and autostart.xdg_file().is_file()
    autostart.set_enabled(False)
    assert not autostart.enabled()


@pytest.mark.parametrize(
    ("arg", "written"),
    [
        ("sioul-tray", "sioul-tray"),
        ("/opt/py 3/python", '"/opt/py 3/python"'),
        ("C:\\x", '"C:\\\\\\\\x"'),  # quoted, then the string escape: one backslash is four
        ("a$b", '"a\\\\$b"'),
        ('say "hi"', '"say \\\\"hi\\\\""'),
        ("100%", "100%%"),
        ("", '""'),
    ],
)
def test_exec_arguments_are_quoted_as_the_desktop_entry_spec_says(arg: str, written: str) -> None:
    assert autostart.exec_arg(arg) == written


def test_frozen_the_command_is_the_bundles_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = tmp_path / "sioul-tray"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(program))
    assert autostart.command() == [str(program)]
    if sys.platform == "win32":  # the windowed twin, when the bundle has it
        (tmp_path / "sioul-tray-gui.exe").touch()
        assert autostart.command() == [str(tmp_path / "sioul-tray-gui.exe")]


def test_login_starts_the_installed_entry_point_not_the_interpreter_by_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip installs `sioul-tray` beside the interpreter (a venv's bin/, Scripts\\ on Windows):
    login runs that, as the menu's entry does; the module by path only where there is none."""
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    python = venv / "python3"
    python.write_text("")
    monkeypatch.setattr(sys, "executable", str(python))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("SIOUL_TRAY_HOME", raising=False)
    assert autostart.login_command() == [str(python), "-P", "-m", "sioul_tray.cli"]
    script = venv / ("sioul-tray.exe" if sys.platform == "win32" else "sioul-tray")
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert autostart.login_command() == [str(script)]


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG folders are Linux's")
def test_the_menu_entry_and_its_icon_are_installed_once_never_over_the_persons(
    tmp_path: Path,
) -> None:
    from sioul_tray.tray.icons import RESOURCES

    data = tmp_path / "share"
    mine = data / "icons" / "hicolor" / "48x48" / "apps" / "sioul-tray.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"the person's own icon")
    written = autostart.install_launcher(RESOURCES, data)
    entry = data / "applications" / "org.sioul.tray.desktop"
    assert entry in written and mine not in written
    assert mine.read_bytes() == b"the person's own icon"
    lines = entry.read_text().splitlines()
    assert "Icon=sioul-tray" in lines and lines[0] == "[Desktop Entry]"
    assert any(line.startswith("Exec=") for line in lines)
    for size in (16, 22, 24, 32, 64, 128):
        png = data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "sioul-tray.png"
        assert png.read_bytes() == (RESOURCES / f"both-{size}.png").read_bytes()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "sioul-tray.svg").is_file()
    assert autostart.install_launcher(RESOURCES, data) == []  # once


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG folders are Linux's")
def test_an_installation_in_its_own_folder_starts_at_login_with_that_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Login sets no SIOUL_TRAY_HOME: the entry names the folder (absolute, from where the tray
    runs now), else a portable installation would start at login as the system's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIOUL_TRAY_HOME", "portable")
    command = autostart.login_command()
    assert command[-2:] == ["--home", str(tmp_path / "portable")]
    autostart.set_enabled(True)
    entry = autostart.xdg_file().read_text()
    assert f"--home {autostart.exec_arg(str(tmp_path / 'portable'))}" in entry
    monkeypatch.delenv("SIOUL_TRAY_HOME")
    assert "--home" not in autostart.login_command()


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG file is Linux's way")
def test_a_login_entry_no_utf8_can_carry_is_one_error_of_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UnicodeEncodeError escaped, and the first start after setup crashed."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    home = os.fsdecode(b"/home/caf\xe9")
    with pytest.raises(SioulError, match="not valid UTF-8"):
        autostart.set_enabled(True, ["sioul-tray", "--home", home])
    assert not autostart.enabled()
