"""Each window at its default size, in English and in French: no text cut off, nothing to scroll
sideways; a screenshot of each (docs/ is refreshed from them with SIOUL_UPDATE_DOCS=1)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QLabel,
    QPushButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from sioul_tray import i18n
from sioul_tray.install import Installation
from sioul_tray.lease import Lease
from sioul_tray.share import Share
from sioul_tray.tray import copied, setup
from sioul_tray.tray.app import STANDIN_AFTER, Tray
from sioul_tray.tray.computers import ComputersWindow
from sioul_tray.tray.controller import Controller
from tests.helpers import ROOT, Present

PASSPHRASE = "windows tests"


@pytest.fixture(params=["en", "fr"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert i18n.install(request.param)
    yield request.param
    i18n.install("en")


@pytest.fixture
def tray(qtbot: QtBot, tmp_path: Path, language: str) -> Iterator[Tray]:
    folder = tmp_path / "share"
    folder.mkdir()
    Share.create(folder, PASSPHRASE, "home_pc", cost=10)
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    controller = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    made = Tray(controller, notify=lambda k, t, b, a: "test")
    controller.start()
    Lease(Share.open(folder, PASSPHRASE), "office_pc", name="Office PC").renew(
        "invoices", take=True
    )
    Lease(Share.open(folder, PASSPHRASE), "vm_a1", name="vm").renew("medicines")
    Lease(Share.open(folder, PASSPHRASE), "vm_b2", name="vm").renew("medicines")
    (folder / "leases" / "invoices" / "office_pc (conflicted copy).lease").write_bytes(b"x")
    controller.tick()
    yield made
    controller.shutdown()


def cut_off(window: QWidget) -> list[str]:
    """What the person could not read whole at the window's size, one line per widget."""
    QApplication.processEvents()
    found = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        if label.wordWrap():
            if label.heightForWidth(label.width()) > label.height():
                found.append(f"label {label.text()[:40]!r}: {label.height()} px high, needs more")
        elif label.sizeHint().width() > label.width():
            found.append(f"label {label.text()[:40]!r}: {label.width()} px wide, needs more")
    for button in window.findChildren(QPushButton):
        if button.isVisible() and button.sizeHint().width() > button.width():
            found.append(f"button {button.text()!r}: {button.width()} px wide, needs more")
    for area in window.findChildren(QAbstractScrollArea):
        if area.isVisible() and area.horizontalScrollBar().maximum() > 0:
            found.append(f"{area.objectName() or type(area).__name__} scrolls sideways")
    return found


def shot(window: QWidget, name: str, language: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}-{language}.png"
    assert window.grab().save(str(path)) and path.stat().st_size > 1000
    if os.environ.get("SIOUL_UPDATE_DOCS") == "1":
        shutil.copyfile(path, ROOT / "docs" / "windows" / path.name)


def test_the_setup_window(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    home = tmp_path / "home"
    for tool in ("Dropbox", "Sync"):
        (home / tool).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    window = setup.SetupWindow(Installation(tmp_path / "sioul"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.passphrase.setText("correct horse")
    assert cut_off(window) == []
    shot(window, "setup", language, tmp_path)


def test_the_computers_window(tray: Tray, qtbot: QtBot, tmp_path: Path, language: str) -> None:
    window = tray.computers()
    assert isinstance(window, ComputersWindow)  # no state_dir: opened in this process
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    assert window.table.rowCount() == 4
    assert cut_off(window) == []
    shot(window, "computers", language, tmp_path)


def test_the_window_standing_in_for_the_icon(tray: Tray, tmp_path: Path, language: str) -> None:
    tray.tray_available = lambda: False
    for _ in range(STANDIN_AFTER):
        tray.show()
    assert tray.standin is not None
    assert cut_off(tray.standin) == []
    shot(tray.standin, "standin", language, tmp_path)
    tray.standin.close()


def test_the_question_of_a_copied_installation(qtbot: QtBot, tmp_path: Path, language: str) -> None:
    box, _ = copied.box("Office PC")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    assert cut_off(box) == []
    shot(box, "copied", language, tmp_path)
