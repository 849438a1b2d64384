"""First run, and "Change sharing folder…": choose the synced folder, create or join its seal.

The window proposes the sync folders it finds, or any folder; it creates the seal with a passphrase
typed twice, or joins with the passphrase, and says which. A wrong passphrase changes nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sioul_tray.errors import SealExists, SioulError
from sioul_tray.i18n import Core, Setup, message
from sioul_tray.install import Installation
from sioul_tray.share import Share

SUBFOLDER = "Sioul"


def candidates(home: Path, env: Mapping[str, str] | None = None) -> list[Path]:
    """The sync tools' folders present under `home` (each with a "Sioul" folder inside)."""
    env = os.environ if env is None else env
    found: list[Path] = []
    places = [
        Path(env["OneDrive"]) if env.get("OneDrive") else None,  # set by OneDrive on Windows
        home / "Dropbox",
        home / "OneDrive",
        home / "Sync",  # Syncthing's default folder
        home / "Nextcloud",
        home / "Library" / "Mobile Documents" / "com~apple~CloudDocs",  # iCloud Drive
        home / "Google Drive" / "My Drive",
        home / "My Drive",  # Google Drive on Windows and macOS, as a mounted drive's folder
        home / "Google Drive",
    ]
    for place in places:
        if place is not None and place.is_dir() and place not in found:
            found.append(place)
    # "Google Drive" itself is not synced when "Google Drive/My Drive" is: keep the inner one.
    found = [p for p in found if not any(q != p and q.is_relative_to(p) for q in found)]
    return [place / SUBFOLDER for place in found]


def join_or_create(inst: Installation, folder: Path, passphrase: str, again: str | None) -> str:
    """Set this installation up on `folder`: "created" or "joined"; raises SioulError (a wrong
    passphrase is `WrongPassphrase`) with nothing changed."""
    folder = folder.expanduser().absolute()
    if not passphrase:
        raise SioulError(Core.mark("the passphrase is empty"))
    if not folder.parent.is_dir():
        raise SioulError(
            Core.mark(
                "{folder} does not exist: choose a folder your sync tool syncs",
                folder=folder.parent,
            )
        )
    if (folder / "sioul.seal").exists():
        share = Share.open(folder, passphrase)
        made = "joined"
    else:
        if again != passphrase:
            raise SioulError(Core.mark("the two passphrases differ; nothing was changed"))
        folder.mkdir(exist_ok=True)
        try:
            share = Share.create(folder, passphrase, inst.computer())
            made = "created"
        except SealExists:
            # Another computer's seal arrived meanwhile: join it, never overwrite it.
            share = Share.open(folder, passphrase)
            made = "joined"
    inst.remember_key(share)
    inst.update_settings(share=str(folder))
    return made


class SetupWindow(QDialog):
    def __init__(self, inst: Installation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.inst = inst
        self.made: str | None = None
        self.setWindowTitle(Setup.tr("Sharing folder — sioul-tray"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(Setup.tr(
            "Choose the folder your sync tool (Dropbox, OneDrive, Syncthing, Nextcloud, iCloud "
            "Drive, Google Drive…) shares between your computers."), wordWrap=True,
        ))  # fmt: skip
        self.places = QListWidget(self)
        for place in candidates(Path.home()):
            self.places.addItem(str(place))
        self.places.currentTextChanged.connect(self._chosen)
        layout.addWidget(self.places)
        other = QPushButton(Setup.tr("Another folder…"), self)
        other.clicked.connect(self._browse)
        layout.addWidget(other)
        form = QFormLayout()
        self.folder = QLineEdit(self)
        self.folder.textChanged.connect(self._explain)
        form.addRow(Setup.tr("Folder:"), self.folder)
        self.passphrase = QLineEdit(self, echoMode=QLineEdit.EchoMode.Password)
        form.addRow(Setup.tr("Passphrase:"), self.passphrase)
        self.again = QLineEdit(self, echoMode=QLineEdit.EchoMode.Password)
        self.again_label = QLabel(Setup.tr("Passphrase again:"), self)
        form.addRow(self.again_label, self.again)
        layout.addLayout(form)
        self.what = QLabel(self, wordWrap=True)
        layout.addWidget(self.what)
        self.error = QLabel(self, wordWrap=True)
        self.error.setStyleSheet("color: #b91c1c")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        current = inst.share_folder()
        if current is not None:
            self.folder.setText(str(current))
        elif self.places.count():
            self.places.setCurrentRow(0)
        self._explain(self.folder.text())
        if self.folder.text():
            self.passphrase.setFocus()  # a folder is proposed: the passphrase is what is left

    def _chosen(self, text: str) -> None:
        self.folder.setText(text)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, Setup.tr("Sharing folder"), str(Path.home())
        )
        if chosen:
            self.folder.setText(chosen)

    def _explain(self, text: str) -> None:
        sealed = bool(text) and (Path(text).expanduser() / "sioul.seal").exists()
        self.again.setVisible(not sealed)
        self.again_label.setVisible(not sealed)
        if not text:
            self.what.setText("")
        elif sealed:
            self.what.setText(Setup.tr(
                "This folder is shared already: this computer joins it with "
                "the passphrase chosen on the first computer."))  # fmt: skip
        else:
            self.what.setText(Setup.tr(
                "A new shared folder is created here, sealed with this "
                "passphrase. Type it twice; the other computers need it to join."))  # fmt: skip

    def accept(self) -> None:
        try:
            self.made = join_or_create(
                self.inst, Path(self.folder.text()), self.passphrase.text(),
                self.again.text() if self.again.isVisible() else None,
            )  # fmt: skip
        except SioulError as e:
            # str(e) is English: it tells whether the message says so already.
            said = message(e)
            text = Setup.tr("{error}. Nothing was changed.").format(error=said)
            self.error.setText(text if "nothing" not in str(e) else said)
            return
        except OSError as e:
            self.error.setText(f"{e.filename or self.folder.text()}: {e.strerror or e}")
            return
        super().accept()


def ask(inst: Installation) -> str | None:
    """Show the window; "created", "joined", or None when the person cancelled."""
    window = SetupWindow(inst)
    if sys.platform == "darwin":
        window.raise_()
    window.exec()
    return window.made
