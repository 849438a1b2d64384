"""Where an installation keeps its files: one home for all three, or the XDG rule of this user."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sioul_tray.dirs import APP, home_dirs, user_dirs

XDG = ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")

linux_only = pytest.mark.skipif(
    sys.platform != "linux", reason="the XDG rule is followed directly on Linux only"
)


@pytest.fixture
def person(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A person's home with no XDG variable and no SIOUL_TRAY_HOME set: the usual session."""
    home = tmp_path / "anna"
    monkeypatch.setenv("HOME", str(home))
    for name in (*XDG, "SIOUL_TRAY_HOME", "ANDROID_DATA", "ANDROID_ROOT"):
        monkeypatch.delenv(name, raising=False)
    return home


def test_a_home_holds_config_state_and_cache_side_by_side(person: Path, tmp_path: Path) -> None:
    root = tmp_path / "install"
    assert home_dirs(root) == (root / "config", root / "state", root / "cache")
    assert home_dirs(str(root)) == home_dirs(root)  # a str or a PathLike alike
    # "~" is the person's home, as a shell would have it.
    assert home_dirs("~/tray")[1] == person / "tray" / "state"


def test_the_home_variable_is_used_unless_a_home_is_given(
    person: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(tmp_path / "from-env"))
    assert home_dirs()[0] == tmp_path / "from-env" / "config"
    assert home_dirs(tmp_path / "given")[0] == tmp_path / "given" / "config"


@linux_only
def test_an_empty_home_variable_counts_as_unset(
    person: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIOUL_TRAY_HOME", "")  # `export SIOUL_TRAY_HOME=` in a profile
    assert home_dirs() == user_dirs()
    assert home_dirs()[0] == person / ".config" / APP  # never ./config, beside the cwd


@linux_only
def test_without_xdg_variables_the_defaults_under_home(person: Path) -> None:
    assert user_dirs() == (
        person / ".config" / APP,
        person / ".local" / "state" / APP,
        person / ".cache" / APP,
    )


@linux_only
def test_each_absolute_xdg_variable_moves_its_own_directory_only(
    person: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-here"))
    monkeypatch.setenv("XDG_CACHE_HOME", "")  # empty: as if unset
    config, state, cache = user_dirs()
    assert config == person / ".config" / APP
    assert state == tmp_path / "state-here" / APP
    assert cache == person / ".cache" / APP
