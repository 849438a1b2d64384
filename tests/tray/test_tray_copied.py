"""The question a copied installation asks before its tray starts, answered as a person would."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from sioul_tray.errors import Copied
from sioul_tray.install import Installation
from sioul_tray.share import Share
from sioul_tray.tray import copied


@pytest.fixture
def desk_and_copy(tmp_path: Path, share: Share) -> tuple[Installation, Installation]:
    """Desk, set up and renewing; then its installation copied to Laptop, another machine."""
    desk = Installation(tmp_path / "desk", machine=lambda: b"d" * 32)
    desk.update_settings(share=str(share.folder))
    desk.remember_key(share)
    desk.set_name("Desk")
    desk.lease().renew("invoices")
    shutil.copytree(tmp_path / "desk", tmp_path / "laptop")
    return desk, Installation(tmp_path / "laptop", machine=lambda: b"l" * 32)


def answer_with(qtbot: QtBot, button_text: str | None) -> None:
    """Click the button whose text starts with `button_text` (None: Escape) once the box shows."""

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        if button_text is None:
            box.escapeButton().click() if box.escapeButton() else box.reject()
            return
        (button,) = (b for b in box.buttons() if b.text().startswith(button_text))
        button.click()

    QTimer.singleShot(20, click)


def copy_error(inst: Installation) -> Copied:
    with pytest.raises(Copied) as raised:
        inst.computer()
    return raised.value


def test_the_question_names_the_original_and_defaults_to_the_safe_answer(
    qtbot: QtBot,
) -> None:
    box, answers = copied.box("Desk")
    qtbot.addWidget(box)
    assert "Desk" in box.text()
    assert sorted(answers.values()) == [copied.REPLACES, copied.NEW]
    assert answers[box.defaultButton()] == copied.NEW
    assert box.escapeButton() not in answers  # Escape quits, choosing nothing


def test_another_computer_gets_its_own_id(
    qtbot: QtBot, desk_and_copy: tuple[Installation, Installation]
) -> None:
    desk, laptop = desk_and_copy
    old = desk.computer()
    answer_with(qtbot, "This is another computer")
    assert copied.ask(laptop, copy_error(laptop))
    assert laptop.computer() not in (old, "")
    assert desk.computer() == old


def test_a_replacement_declares_the_original_gone(
    qtbot: QtBot, desk_and_copy: tuple[Installation, Installation], monkeypatch: pytest.MonkeyPatch
) -> None:
    desk, laptop = desk_and_copy
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: told.append(text))
    answer_with(qtbot, "This one replaces Desk")
    assert copied.ask(laptop, copy_error(laptop))
    (claim,) = (c for c in laptop.lease().claims("invoices") if c.computer == laptop.computer())
    assert desk.computer() in claim.forgets
    assert len(told) == 1 and "Desk counts as gone for invoices from" in told[0]


def test_quitting_changes_nothing(
    qtbot: QtBot, desk_and_copy: tuple[Installation, Installation]
) -> None:
    desk, laptop = desk_and_copy
    answer_with(qtbot, None)
    assert not copied.ask(laptop, copy_error(laptop))
    assert copy_error(laptop).computer == desk.computer()
