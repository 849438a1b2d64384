"""Where Syncthing keeps its config.xml (`sioul_tray.sync.places`), per platform and in the order
Syncthing itself looks, known without loading the configuration parser."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from sioul_tray.sync import places
from sioul_tray.sync.places import config_candidates


def test_linux_candidates_follow_syncthing_order(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"XDG_CONFIG_HOME": "/xdg/config", "XDG_STATE_HOME": "/xdg/state", "STHOMEDIR": "/st"}
    assert config_candidates(env, home, "Linux") == [
        Path("/st/config.xml"),
        Path("/xdg/config/syncthing/config.xml"),
        home / ".config/syncthing/config.xml",  # Debian 12's 1.19, any install before 1.27
        Path("/xdg/state/syncthing/config.xml"),
        home / ".local/state/syncthing/config.xml",  # 1.27+ on a new install
    ]


def test_relative_xdg_variables_are_ignored(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": ""}
    assert config_candidates(env, tmp_path, "Linux") == [
        tmp_path / ".config/syncthing/config.xml",
        tmp_path / ".local/state/syncthing/config.xml",
    ]


def test_macos_and_windows_candidates(tmp_path: Path) -> None:
    assert config_candidates({}, tmp_path, "Darwin") == [
        tmp_path / "Library/Application Support/Syncthing/config.xml"
    ]
    local = "C:/Users/x/AppData/Local"
    assert config_candidates({"LOCALAPPDATA": local}, tmp_path, "Windows") == [
        Path(local) / "Syncthing" / "config.xml"
    ]
    assert config_candidates({}, tmp_path, "Windows") == [
        tmp_path / "AppData/Local/Syncthing/config.xml"
    ]


def test_syncthing_s_own_variables_come_first_each_folder_once(tmp_path: Path) -> None:
    env = {
        "STCONFDIR": "/st/conf",
        "STHOMEDIR": "/st/conf",
        "XDG_CONFIG_HOME": str(tmp_path / ".config"),
    }
    assert config_candidates(env, tmp_path, "Linux") == [
        Path("/st/conf/config.xml"),
        tmp_path / ".config/syncthing/config.xml",  # named twice, looked at once
        tmp_path / ".local/state/syncthing/config.xml",
    ]
    assert config_candidates({"STHOMEDIR": "/st/home"}, tmp_path, "Darwin")[0] == Path(
        "/st/home/config.xml"
    )


def test_the_system_is_named_as_platform_names_it() -> None:
    """Told from sys.platform: `platform` itself is not loaded for it."""
    assert places.system_name() == (
        platform.system() if platform.system() != "FreeBSD" else "Linux"
    )


@pytest.mark.skipif(places.system_name() != "Linux", reason="the Linux places")
def test_a_config_in_any_standard_place_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("STCONFDIR", "STHOMEDIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    assert not places.any_config()
    state = tmp_path / ".local/state/syncthing"
    (state / "config.xml").mkdir(parents=True)  # a folder of that name is not a config
    assert not places.any_config()
    (state / "config.xml").rmdir()
    (state / "config.xml").write_text("<configuration/>")
    assert places.any_config()
