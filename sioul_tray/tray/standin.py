"""The window that stands in for the tray icon on a desktop with no system tray.

Stock GNOME without the AppIndicator extension, or a bare X session, shows no tray icon at all:
without this window a person there could neither see who keeps what nor act. It shows the same
lines and commands as the menu (the same `model.Item`s), says how to get a tray on this desktop,
and goes away when a tray appears (the icon then takes over).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from sioul_tray.i18n import App
from sioul_tray.tray.model import Action, Item


class StandIn(QWidget):
    """The menu's lines as labels and its commands as buttons, rebuilt at each render."""

    def __init__(self, run: Callable[[Item], None]) -> None:
        super().__init__()
        self.run = run
        self.setObjectName("standin")
        self.setWindowTitle("sioul-tray")
        self.setWindowFlag(Qt.WindowType.WindowStaysOnTopHint, False)
        layout = QVBoxLayout(self)
        self.lines = QVBoxLayout()
        layout.addLayout(self.lines)
        self.hint = QLabel(
            App.tr(
                "This desktop shows no tray icons, so sioul-tray shows itself here. On GNOME, "
                "the “AppIndicator and KStatusNotifierItem Support” extension adds a tray; "
                "sioul-tray moves there as soon as one appears."
            ),
            self,
        )
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(placeholder-text)")
        layout.addWidget(self.hint)
        self.items: list[Item] = []
        self.checkables: list[tuple[QPushButton, Item]] = []
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 52)  # the hint in 4 lines

    def show_items(self, items: list[Item]) -> None:
        if items == self.items:
            # A click ticks a check box before its command runs, and the command may fail.
            for button, item in self.checkables:
                button.setChecked(item.checked)
            return
        self.items = items
        self.checkables = []
        while self.lines.count():
            child = self.lines.takeAt(0)
            widget = child.widget() if child is not None else None
            if widget is not None:
                widget.deleteLater()
        for item in items:
            if item.separator:
                continue
            # The part lines and notes open Computers in the menu; here they are what is read.
            if item.action is None or (item.action is Action.COMPUTERS and item.data):
                label = QLabel(item.text, self)
                label.setWordWrap(True)
                self.lines.addWidget(label)
            else:
                button = QPushButton(item.text.rstrip(), self)
                button.setEnabled(item.enabled)
                if item.checkable:
                    button.setCheckable(True)
                    button.setChecked(item.checked)
                    self.checkables.append((button, item))
                button.clicked.connect(lambda _c=False, i=item: self.run(i))
                self.lines.addWidget(button)

    def texts(self) -> list[str]:
        """What the window shows, line by line (the tests read it back)."""
        out = []
        for i in range(self.lines.count()):
            child = self.lines.itemAt(i)
            widget = child.widget() if child is not None else None
            if isinstance(widget, (QLabel, QPushButton)):
                out.append(widget.text())
        return out
