"""The stand-in window: the menu's items as labels and buttons, a click running its item, rebuilt
only when the items change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from sioul_tray.tray.model import SEPARATOR, Action, Item
from sioul_tray.tray.standin import StandIn

THIS = Item("This computer: Home PC", Action.COMPUTERS, "this")
PART = Item("Invoices: here", Action.COMPUTERS, "invoices")
NOTE = Item("No news from Laptop since 08:00", None)
TAKE = Item("Make invoices here…", Action.TAKE_INVOICES, enabled=False)
COMPUTERS = Item("Computers…  ", Action.COMPUTERS)  # no data: the command, not a part line
AUTOSTART = Item("Start at login", Action.AUTOSTART, checkable=True, checked=True)
QUIT = Item("Quit", Action.QUIT)
MENU = [THIS, PART, NOTE, SEPARATOR, TAKE, COMPUTERS, SEPARATOR, AUTOSTART, QUIT]


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[tuple[StandIn, list[Item]]]:
    ran: list[Item] = []
    made = StandIn(ran.append)
    qtbot.addWidget(made)
    made.show_items(MENU)
    made.show()
    yield made, ran


def button(window: StandIn, text: str) -> QPushButton:
    """The button the window shows for `text` (not one of an earlier render, deleted later)."""
    items = [window.lines.itemAt(i) for i in range(window.lines.count())]
    shown = [item.widget() for item in items if item is not None]
    (found,) = [b for b in shown if isinstance(b, QPushButton) and b.text() == text]
    return found


def test_lines_are_read_and_commands_are_buttons(window: tuple[StandIn, list[Item]]) -> None:
    shown, _ = window
    # Separators are dropped; a button's trailing blanks (the menu's alignment) too.
    assert shown.texts() == [
        THIS.text, PART.text, NOTE.text, TAKE.text, "Computers…", AUTOSTART.text, QUIT.text,
    ]  # fmt: skip
    labels = {label.text() for label in shown.findChildren(QLabel) if label is not shown.hint}
    assert labels == {THIS.text, PART.text, NOTE.text}
    assert {b.text() for b in shown.findChildren(QPushButton)} == {
        TAKE.text, "Computers…", AUTOSTART.text, QUIT.text,
    }  # fmt: skip


def test_a_click_runs_its_item_and_a_disabled_one_runs_nothing(
    window: tuple[StandIn, list[Item]],
) -> None:
    shown, ran = window
    QTest.mouseClick(button(shown, "Computers…"), Qt.MouseButton.LeftButton)
    QTest.mouseClick(button(shown, QUIT.text), Qt.MouseButton.LeftButton)
    take = button(shown, TAKE.text)
    assert not take.isEnabled()
    QTest.mouseClick(take, Qt.MouseButton.LeftButton)
    assert ran == [COMPUTERS, QUIT]  # the items themselves, with their data


def test_a_checkable_item_is_a_button_showing_its_state(
    window: tuple[StandIn, list[Item]],
) -> None:
    shown, ran = window
    start = button(shown, AUTOSTART.text)
    assert start.isCheckable() and start.isChecked()
    assert not button(shown, QUIT.text).isCheckable()
    QTest.mouseClick(start, Qt.MouseButton.LeftButton)
    assert ran == [AUTOSTART]
    shown.show_items([*MENU[:-2], Item(AUTOSTART.text, Action.AUTOSTART, checkable=True), QUIT])
    assert not button(shown, AUTOSTART.text).isChecked()  # the state the next render says


def test_the_same_items_keep_the_widgets_and_new_ones_replace_them(
    window: tuple[StandIn, list[Item]], qtbot: QtBot
) -> None:
    shown, _ = window
    before = button(shown, QUIT.text)
    shown.show_items(list(MENU))  # an equal list, as each tick renders it
    assert button(shown, QUIT.text) is before
    shown.show_items([Item("Invoices: on Laptop", Action.COMPUTERS, "invoices"), QUIT])
    assert shown.texts() == ["Invoices: on Laptop", QUIT.text]
    # The old widgets go at the next turn of the event loop, and none is left behind.
    qtbot.waitUntil(lambda: len(shown.findChildren(QPushButton)) == 1, timeout=2000)
    assert len([w for w in shown.findChildren(QLabel) if w is not shown.hint]) == 1


def test_it_says_how_to_get_a_tray(window: tuple[StandIn, list[Item]]) -> None:
    shown, _ = window
    assert shown.objectName() == "standin" and shown.windowTitle() == "sioul-tray"
    hint = shown.findChild(QWidget, "hint")
    assert isinstance(hint, QLabel) and hint.wordWrap()
    assert "AppIndicator" in hint.text() and hint.text() not in shown.texts()
    assert shown.minimumWidth() >= shown.fontMetrics().averageCharWidth() * 52
