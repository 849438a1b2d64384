"""First run and "Change sharing folder…": proposing sync folders, creating or joining the seal."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from sioul_tray.errors import SioulError, WrongPassphrase
from sioul_tray.install import Installation
from sioul_tray.share import Share
from sioul_tray.tray import setup


def test_candidates_are_the_sync_folders_present(tmp_path: Path) -> None:
    for name in ("Dropbox", "Sync", "Google Drive/My Drive", "Documents"):
        (tmp_path / name).mkdir(parents=True)
    onedrive = tmp_path / "corp" / "OneDrive - Example"
    onedrive.mkdir(parents=True)
    found = setup.candidates(tmp_path, {"OneDrive": str(onedrive)})
    assert found == [
        onedrive / "Sioul",
        tmp_path / "Dropbox" / "Sioul",
        tmp_path / "Sync" / "Sioul",
        tmp_path / "Google Drive" / "My Drive" / "Sioul",
    ]
    assert setup.candidates(tmp_path / "nobody", {}) == []


@pytest.fixture
def inst(tmp_path: Path) -> Installation:
    return Installation(tmp_path / "home")


def test_create_then_join_from_another_installation(inst: Installation, tmp_path: Path) -> None:
    folder = tmp_path / "Dropbox" / "Sioul"
    folder.parent.mkdir()
    assert setup.join_or_create(inst, folder, "pass phrase", "pass phrase") == "created"
    assert inst.share_folder() == folder
    assert Share.open(folder, "pass phrase").creator == inst.computer()
    other = Installation(tmp_path / "other")
    assert setup.join_or_create(other, folder, "pass phrase", None) == "joined"
    assert other.open_share().folder_id == inst.open_share().folder_id


def test_wrong_passphrase_or_mismatch_changes_nothing(inst: Installation, tmp_path: Path) -> None:
    folder = tmp_path / "share"
    with pytest.raises(SioulError, match="differ"):
        setup.join_or_create(inst, folder, "one", "two")
    assert not (folder / "sioul.seal").exists() and inst.share_folder() is None
    folder.mkdir()
    Share.create(folder, "the right one", "first_pc")
    seal = (folder / "sioul.seal").read_bytes()
    with pytest.raises(WrongPassphrase):
        setup.join_or_create(inst, folder, "wrong", None)
    assert inst.share_folder() is None and (folder / "sioul.seal").read_bytes() == seal
    with pytest.raises(SioulError, match="does not exist"):
        setup.join_or_create(inst, tmp_path / "no" / "such", "x", "x")


def test_window_says_create_or_join_and_reports_a_wrong_passphrase(
    inst: Installation, tmp_path: Path, qtbot: QtBot
) -> None:
    folder = tmp_path / "share"
    folder.mkdir()
    Share.create(folder, "the right one", "first_pc")
    window = setup.SetupWindow(inst)
    qtbot.addWidget(window)
    window.folder.setText(str(folder))
    assert "joins it" in window.what.text() and window.again.isHidden()
    window.passphrase.setText("wrong")
    window.accept()
    assert window.made is None and "Nothing was changed" in window.error.text()
    assert inst.share_folder() is None
    window.passphrase.setText("the right one")
    window.accept()
    assert window.made == "joined" and inst.share_folder() == folder
    fresh = setup.SetupWindow(Installation(tmp_path / "other"))
    qtbot.addWidget(fresh)
    fresh.folder.setText(str(tmp_path / "new"))
    assert "A new shared folder" in fresh.what.text() and not fresh.again.isHidden()


def test_a_headless_start_points_to_the_command_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    env["SIOUL_TRAY_HOME"] = str(tmp_path / "home")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-m", "sioul_tray.cli"], env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert "no display here; use the command line (sioul-tray --help)" in done.stderr
    assert not (tmp_path / "home").exists()  # nothing was set up or written
