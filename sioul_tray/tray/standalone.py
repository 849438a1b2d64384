"""The Qt application of a window that runs in a process of its own (`sioul-tray computers`,
`about`, `folder`): named as the tray is, in the language the tray passes (--lang)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from sioul_tray import i18n


def application(language: str | None) -> QApplication:
    app = QApplication(sys.argv[:1])
    app.setApplicationName("sioul-tray")
    app.setDesktopFileName("org.sioul.tray")
    # The tray's language: it passes its own, as it words what it sends.
    i18n.install(i18n.pick_language(language, QLocale.system().uiLanguages()))
    i18n.install_qt(app)
    return app
