"""First run and "Change sharing folder…": proposing sync folders, creating or joining the seal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest
from pytestqt.qtbot import QtBot

from sioul_tray.errors import SioulError, WrongPassphrase
from sioul_tray.install import Installation
from sioul_tray.lease import statefile
from sioul_tray.share import Share
from sioul_tray.tray import setup

if TYPE_CHECKING:
    from PySide6.QtCore import QObject

W = TypeVar("W", bound="QObject")


def child(parent: QObject, kind: type[W], name: str) -> W:
    """`parent`'s child of that kind and object name, which the test expects there."""
    found = parent.findChild(kind, name)
    assert found is not None, name
    return found


def test_candidates_are_the_sync_folders_present(tmp_path: Path) -> None:
    for name in ("Dropbox", "Sync", "Google Drive/My Drive", "Documents"):
        (tmp_path / name).mkdir(parents=True)
    onedrive = tmp_path / "corp" / "OneDrive - Example"
    onedrive.mkdir(parents=True)
    found = setup.candidates(tmp_path, {"OneDrive": str(onedrive)})
    assert found == [
        setup.Place("OneDrive", onedrive / "Sioul"),
        setup.Place("Dropbox", tmp_path / "Dropbox" / "Sioul"),
        setup.Place("Syncthing", tmp_path / "Sync" / "Sioul"),
        setup.Place("Google Drive", tmp_path / "Google Drive" / "My Drive" / "Sioul"),
    ]
    assert setup.candidates(tmp_path / "nobody", {}) == []


def test_candidates_come_first_from_the_tools_own_configuration(tmp_path: Path) -> None:
    # Syncthing syncs ~/Family (not its default ~/Sync): read from its config.xml.
    family = tmp_path / "Family"
    family.mkdir()
    config = tmp_path / ".config" / "syncthing" / "config.xml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '<configuration version="36"><folder id="fam" label="Family" path="~/Family"></folder>'
        "<gui><address>127.0.0.1:8384</address><apikey>k</apikey></gui></configuration>"
    )
    assert setup.candidates(tmp_path, {"HOME": str(tmp_path)}) == [
        setup.Place("Syncthing", family / "Sioul")
    ]


def test_a_new_passphrase_gets_a_word_on_its_strength() -> None:
    said = [setup.strength(p) for p in ("", "abc", "password", "correct horse", "correct horse "
            "battery staple")]  # fmt: skip
    assert said[0] == ""
    assert said[1].startswith("Too short")
    assert said[2].startswith("Weak")
    assert said[3].startswith("Fair")
    assert said[4] == "Strong."


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
    # The creator's state file begins as it seals the folder: its first run shows it made it,
    # and may act on an empty view; a joiner's does not (docs/protocol.md, S2).
    folder_id = inst.open_share().folder_id
    assert statefile.load(statefile.state_file(inst.state_dir, folder_id, inst.computer())).found
    assert not statefile.state_file(other.state_dir, folder_id, other.computer()).exists()


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
    assert "joins it" in window.what.text() and not window.again.isEnabled()
    window.passphrase.setText("wrong")
    assert window.strength.text() == ""  # joining: the passphrase was chosen already
    window.accept()
    assert window.made is None and "Nothing was changed" in window.error.text()
    assert inst.share_folder() is None
    window.passphrase.setText("the right one")
    window.accept()
    assert window.made == "joined" and inst.share_folder() == folder
    fresh = setup.SetupWindow(Installation(tmp_path / "other"))
    qtbot.addWidget(fresh)
    fresh.folder.setText(str(tmp_path / "new"))
    assert "A new shared folder" in fresh.what.text() and fresh.again.isEnabled()


def test_the_window_is_used_with_the_keyboard_and_nothing_moves(
    inst: Installation, tmp_path: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest  # what qtbot's untyped keyClick(s) call
    from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QListWidget, QWidget

    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))  # no sync tool here
    window = setup.SetupWindow(inst)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert not child(window, QListWidget, "places").isVisible()
    assert "No sync tool's folder was found" in child(window, QLabel, "no_places").text()
    folder, passphrase = (
        child(window, QLineEdit, "folder"),
        child(window, QLineEdit, "passphrase"),
    )
    again, name = child(window, QLineEdit, "again"), child(window, QLineEdit, "name")
    assert name.text() == setup.proposed_name(inst)  # prefilled with the name people call it

    def where() -> dict[QLineEdit, object]:
        QApplication.processEvents()  # the layout's pending requests: what the person sees
        layout = window.layout()
        assert layout is not None
        layout.activate()
        return {w: w.geometry() for w in (passphrase, again, name)}

    def focused() -> QWidget:
        widget = window.focusWidget()
        assert widget is not None
        return widget

    places = where()
    QTest.keyClicks(folder, str(tmp_path / "share"))  # the explanation appears...
    assert "A new shared folder" in child(window, QLabel, "what").text()
    assert where() == places  # ...and no field moved
    QTest.keyClick(folder, Qt.Key.Key_Tab)
    QTest.keyClicks(focused(), "correct horse battery staple")
    assert child(window, QLabel, "strength").text() == "Strong."
    assert where() == places
    QTest.keyClick(focused(), Qt.Key.Key_Tab)
    assert window.focusWidget() is again
    QTest.keyClicks(again, "correct horse battery staple")
    QTest.keyClick(again, Qt.Key.Key_Tab)
    assert window.focusWidget() is name
    name.selectAll()
    QTest.keyClicks(name, "Kitchen PC")
    QTest.keyClick(name, Qt.Key.Key_Return)  # the default button: OK
    assert window.made == "created" and inst.share_folder() == tmp_path / "share"
    assert inst.name() == "Kitchen PC"


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


def test_the_first_run_offers_start_at_login_on_by_default(
    inst: Installation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """A tray that does not run reminds nothing and numbers nothing: the first run starts it at
    login unless the person unticks the box; the menu entry and its icon come with it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    window = setup.SetupWindow(inst)
    qtbot.addWidget(window)
    box = window.at_login
    assert box.objectName() == "at_login" and box.isChecked()
    setup.settle_login(box.isChecked())
    autostart_file = tmp_path / "config" / "autostart" / "org.sioul.tray.desktop"
    assert autostart_file.is_file()
    assert (tmp_path / "data" / "applications" / "org.sioul.tray.desktop").is_file()
    setup.settle_login(False)  # unticked, as in "Change sharing folder…"
    assert not autostart_file.exists()
    # Once set up, the window shows the setting as it is.
    inst.update_settings(share=str(tmp_path / "share"))
    assert not setup.SetupWindow(inst).at_login.isChecked()


def test_the_window_speaks_as_a_person_reads(
    inst: Installation, tmp_path: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error begins with a capital and goes as soon as the person types again; the field
    shows a folder as the list does (with ~); the passphrase can be shown; creating says it
    cannot be recovered and what a second computer waits for."""
    from PySide6.QtWidgets import QLineEdit

    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "Dropbox").mkdir()
    window = setup.SetupWindow(inst)
    qtbot.addWidget(window)
    assert window.places.item(0).text() == "Dropbox: ~/Dropbox/Sioul"
    assert window.folder.text() == "~/Dropbox/Sioul"
    assert "cannot be recovered" in window.what.text() and "sioul.seal" in window.what.text()
    window.accept()  # no passphrase typed
    assert window.error.text() == "The passphrase is empty. Nothing was changed."
    window.passphrase.setText("c")
    assert window.error.text() == ""
    assert window.passphrase.echoMode() is QLineEdit.EchoMode.Password
    window.show_passphrase.setChecked(True)
    assert window.passphrase.echoMode() is window.again.echoMode() is QLineEdit.EchoMode.Normal
    window.passphrase.setText("correct horse battery staple")
    window.again.setText("correct horse battery staple")
    window.accept()
    assert window.made == "created" and inst.share_folder() == tmp_path / "Dropbox" / "Sioul"


def test_a_folder_change_is_all_or_nothing(inst: Installation, tmp_path: Path) -> None:
    """Found as a person: the folder window saved the new folder, then failed; the tray went on
    writing claims in the old folder while `look` read the new one, and nothing was said. The
    tray follows the folder saved, or puts the old one back and says why."""
    from sioul_tray.tray.app import follow_folder

    def sealed(name: str, remembered: bool) -> Path:
        made = tmp_path / name
        made.mkdir()
        share = Share.create(made, "pass phrase", inst.computer(), cost=10)
        if remembered:
            inst.remember_key(share)
        return made

    old = sealed("old", remembered=True)
    inst.update_settings(share=str(old))
    left: list[list[str]] = []
    assert not follow_folder(inst, old, left.append)  # cancelled: nothing changed
    # Saved, but the new folder cannot be opened here (no key for it): stays, says why.
    inst.update_settings(share=str(sealed("no key", remembered=False)))
    with pytest.raises(SioulError, match="has no key for"):
        follow_folder(inst, old, left.append)
    assert inst.share_folder() == old and left == []  # `look` reads the folder the tray keeps
    inst.update_settings(share=str(tmp_path / "gone"))
    with pytest.raises(SioulError, match="missing"):
        follow_folder(inst, old, left.append)
    assert inst.share_folder() == old and left == []
    # A folder that opens: the tray leaves for the installed program, in its language.
    new = sealed("new", remembered=True)
    inst.update_settings(share=str(new))
    assert follow_folder(inst, old, left.append)
    assert left == [[sys.executable, "-P", "-m", "sioul_tray.cli", "--lang", "en"]]
    assert inst.share_folder() == new


def test_the_first_run_proposes_the_name_people_call_the_computer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """Found as a person: the first-run window proposed "vm", the bare host name."""
    import socket

    from sioul_tray import install

    monkeypatch.setattr(socket, "gethostname", lambda: "vm.example.org")
    monkeypatch.setattr(install, "host_name", lambda: "vm")  # no pretty host name set
    fresh = Installation(tmp_path / "fresh")
    window = setup.SetupWindow(fresh)
    qtbot.addWidget(window)
    assert window.name.text() == "Vm"
    # /etc/machine-info's PRETTY_HOSTNAME, as the person wrote it; a name chosen before.
    monkeypatch.setattr(install, "host_name", lambda: "anna's laptop")
    assert setup.proposed_name(fresh) == "anna's laptop"
    fresh.set_name("kitchen")
    assert setup.proposed_name(fresh) == "kitchen"
