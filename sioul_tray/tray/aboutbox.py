"""`sioul-tray about`: the About box in a process of its own, with the text the running tray
sends (the `about` request); the tray's memory never holds the box's widgets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from sioul_tray.i18n import App
from sioul_tray.tray import icons
from sioul_tray.tray.model import Icon

Ask = Callable[..., "tuple[int, str] | None"]


def text_from(state_dir: Path, ask: Ask | None = None) -> str:
    """The running tray's About text, or why there is none."""
    from sioul_tray.tray.client import ask as ask_tray

    answer = (ask or ask_tray)(state_dir, ["about"], timeout_ms=2000)
    if answer is None or answer[0] != 0:
        return App.tr("The tray is not running: start sioul-tray to see what it uses.")
    return answer[1].rstrip("\n")


def box(text: str) -> QMessageBox:
    made = QMessageBox(QMessageBox.Icon.NoIcon, App.tr("About sioul-tray"), text)
    made.setObjectName("about")
    made.setIconPixmap(icons.icon(Icon.NOTHING).pixmap(48, 48))
    return made


def main(state_dir: Path, language: str | None = None) -> int:
    from sioul_tray.tray.standalone import application

    app = application(language)
    shown = box(text_from(state_dir))
    shown.show()
    return int(app.exec())
