"""First run, and "Change sharing folder…": choose the synced folder, create or join its seal.

The window proposes the folders the sync tools on this computer sync (read from their own
configuration: sioul_tray.sync.tools) and their usual folders, or any folder; it says whether it
creates the seal (a passphrase typed twice, with a word on its strength) or joins it, before the
passphrase is typed; it names this computer. A wrong passphrase changes nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sioul_tray.errors import SealExists, SioulError
from sioul_tray.files import make_folders
from sioul_tray.i18n import Core, Setup, message
from sioul_tray.install import Installation, check_writable, make_part_folders
from sioul_tray.share import Share
from sioul_tray.tray import autostart

SUBFOLDER = "Sioul"


class Place(NamedTuple):
    """A folder proposed for sharing: the sync tool's name and the folder Sioul would use."""

    tool: str
    folder: Path


# Where each tool keeps its folder by default, for tools whose configuration was not found.
_USUAL: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Dropbox", ("Dropbox",)),
    ("OneDrive", ("OneDrive",)),
    ("Syncthing", ("Sync",)),  # Syncthing's default folder
    ("Nextcloud", ("Nextcloud",)),
    ("iCloud Drive", ("Library", "Mobile Documents", "com~apple~CloudDocs")),
    ("Google Drive", ("Google Drive", "My Drive")),
    ("Google Drive", ("My Drive",)),  # Windows and macOS, as a mounted drive's folder
    ("Google Drive", ("Google Drive",)),
)


def candidates(home: Path, env: Mapping[str, str] | None = None) -> list[Place]:
    """The folders the sync tools on this computer sync (from their own configuration), then
    their usual folders under `home`; each with a "Sioul" folder inside."""
    from sioul_tray.sync.tools import synced_folders

    env = os.environ if env is None else env
    found: list[tuple[str, Path]] = [(f.tool, f.root) for f in synced_folders(home, env)]
    if env.get("OneDrive"):
        found.append(("OneDrive", Path(env["OneDrive"])))  # set by OneDrive on Windows
    found += [(tool, home.joinpath(*parts)) for tool, parts in _USUAL]
    places: list[tuple[str, Path]] = []
    for tool, root in found:
        if root.is_dir() and all(root != known for _, known in places):
            places.append((tool, root))
    # "Google Drive" itself is not synced when "Google Drive/My Drive" is: keep the inner one.
    inner = [
        (t, p) for t, p in places if not any(q != p and q.is_relative_to(p) for _, q in places)
    ]
    return [Place(tool, root / SUBFOLDER) for tool, root in inner]


def strength(passphrase: str) -> str:
    """A word on a new passphrase's strength, as it is typed (empty before it is)."""
    if not passphrase:
        return ""
    if len(passphrase) < 8:
        return Setup.tr("Too short: at least 8 characters.")
    words = len(passphrase.split())
    if len(passphrase) >= 20 or (words >= 4 and len(passphrase) >= 16):
        return Setup.tr("Strong.")
    if len(passphrase) >= 12 and words >= 2:
        return Setup.tr("Fair: one or two more words make it much harder to guess.")
    return Setup.tr("Weak: a few words of your own (four or more) are far harder to guess.")


def join_or_create(
    inst: Installation, folder: Path, passphrase: str, again: str | None, name: str | None = None
) -> str:
    """Set this installation up on `folder`: "created" or "joined"; raises SioulError (a wrong
    passphrase is `WrongPassphrase`) with nothing changed. `name`: this computer's, when given."""
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
    if folder.is_dir():
        check_writable(folder)
    if (folder / "sioul.seal").exists():
        share = Share.open(folder, passphrase)
        made = "joined"
    else:
        if again != passphrase:
            raise SioulError(Core.mark("the two passphrases differ; nothing was changed"))
        try:
            make_folders(folder, 0o755)  # whatever the umask: nobody else may write claims there
        except OSError as e:
            raise SioulError(
                Core.mark(
                    "cannot make {folder}: {error}", folder=folder, error=e.strerror or str(e)
                )
            ) from None
        try:
            share = Share.create(folder, passphrase, inst.computer())
            made = "created"
        except SealExists:
            # Another computer's seal arrived meanwhile: join it, never overwrite it.
            share = Share.open(folder, passphrase)
            made = "joined"
    make_part_folders(folder)
    if made == "created":
        inst.made_folder(share)
    inst.remember_key(share)
    inst.update_settings(share=str(folder))
    if name is not None:
        inst.set_name(name)
    return made


def proposed_name(inst: Installation) -> str:
    """The name the window proposes for this computer: the one chosen before, else the name
    people call it (`host_name`: the pretty host name, hostnamectl's PRETTY_HOSTNAME in
    /etc/machine-info); where that is the bare host name, with a capital ("vm" → "Vm")."""
    import socket

    name = inst.name()
    chosen = inst.settings().get("name")
    if isinstance(chosen, str) and chosen.strip():
        return name
    if name == socket.gethostname().split(".")[0] and name.islower():
        return name[:1].upper() + name[1:]
    return name


def short(folder: Path, home: Path | None = None) -> str:
    """A folder as the person reads it: under the home folder, with ``~``."""
    home = home or Path.home()
    return str(Path("~") / folder.relative_to(home)) if folder.is_relative_to(home) else str(folder)


W = TypeVar("W", bound=QWidget)


def named(widget: W, name: str) -> W:
    """`widget`, with the object name the tests find it by."""
    widget.setObjectName(name)
    return widget


class SetupWindow(QDialog):
    """Choose the folder, then the passphrase; what will happen (create or join) is said as soon
    as the folder is known, before any passphrase is typed. Every line keeps its place: nothing
    moves under the pointer while the person types."""

    def __init__(self, inst: Installation, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.inst = inst
        self.made: str | None = None
        self.setWindowTitle(Setup.tr("Sharing folder — sioul-tray"))
        layout = QVBoxLayout(self)
        # Wide enough that the explanations take two or three lines, not five.
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 72)
        heading = QLabel(Setup.tr("Choose the sharing folder"), self)
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        heading.setFont(font)
        layout.addWidget(heading)
        layout.addWidget(QLabel(Setup.tr(
            "The folder your sync tool (Syncthing, Dropbox, OneDrive, Nextcloud, iCloud Drive, "
            "Google Drive…) shares between your computers. Sioul keeps its files in it."),
            wordWrap=True,
        ))  # fmt: skip
        self.places = named(QListWidget(self), "places")
        home = Path.home()
        for place in candidates(home):
            item = QListWidgetItem(f"{place.tool}: {short(place.folder)}", self.places)
            item.setToolTip(str(place.folder))
            item.setData(Qt.ItemDataRole.UserRole, short(place.folder))
        # A long path is shortened in its middle (the whole of it in the tooltip), not scrolled.
        self.places.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.places.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.places.currentItemChanged.connect(self._chosen)
        self.places.setMaximumHeight(self.fontMetrics().lineSpacing() * 6)
        layout.addWidget(self.places)
        self.no_places = named(QLabel(Setup.tr(
            "No sync tool's folder was found on this computer. Choose the folder your sync tool "
            "shares with “Another folder…”."), self, wordWrap=True), "no_places",
        )  # fmt: skip
        layout.addWidget(self.no_places)
        found = self.places.count() > 0
        self.places.setVisible(found)
        self.no_places.setVisible(not found)
        other = named(QPushButton(Setup.tr("Another folder…"), self), "browse")
        other.clicked.connect(self._browse)
        layout.addWidget(other)
        form = QFormLayout()
        self.folder = named(QLineEdit(self), "folder")
        self.folder.textChanged.connect(self._explain)
        form.addRow(Setup.tr("&Folder:"), self.folder)
        # Said before any passphrase is typed; four lines kept for it whatever it says.
        self.what = named(QLabel(self, wordWrap=True), "what")
        # Fixed, not a minimum: a form row's wrapped label was given two lines under Xvfb's
        # fonts and its third ran under the passphrase field.
        self.what.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 4)
        self.what.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        form.addRow(self.what)
        self.passphrase = named(QLineEdit(self, echoMode=QLineEdit.EchoMode.Password), "passphrase")
        self.passphrase.textChanged.connect(self._rate)
        self.passphrase.textChanged.connect(self._retyped)
        form.addRow(Setup.tr("&Passphrase:"), self.passphrase)
        # Kept in place when joining (disabled): hiding it would move the rows below.
        self.again = named(QLineEdit(self, echoMode=QLineEdit.EchoMode.Password), "again")
        self.again_label = QLabel(Setup.tr("Passphrase &again:"), self)
        self.again_label.setBuddy(self.again)
        form.addRow(self.again_label, self.again)
        # Two lines kept for the hint whatever it says: a longer one wraps, nothing moves.
        self.strength = named(QLabel(self, wordWrap=True), "strength")
        self.strength.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.strength.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        form.addRow("", self.strength)
        self.name = named(QLineEdit(proposed_name(inst), self), "name")
        self.name.setMaxLength(64)
        self.show_passphrase = named(QCheckBox(Setup.tr("S&how the passphrase"), self), "show")
        self.show_passphrase.toggled.connect(self._show)
        form.addRow("", self.show_passphrase)
        form.addRow(Setup.tr("This computer's &name:"), self.name)
        layout.addLayout(form)
        # On by default at the first run: a tray that is not running reminds nothing and numbers
        # nothing, and nothing else would say so.
        self.at_login = named(
            QCheckBox(Setup.tr("&Start sioul-tray when I log in"), self), "at_login"
        )
        self.at_login.setChecked(inst.share_folder() is None or autostart.enabled())
        self.at_login.setToolTip(Setup.tr(
            "While sioul-tray is not running on this computer, it reminds no medicines and "
            "numbers no invoices."))  # fmt: skip
        layout.addWidget(self.at_login)
        self.setTabOrder(self.name, self.show_passphrase)
        self.setTabOrder(self.show_passphrase, self.at_login)
        self.error = named(QLabel(self, wordWrap=True), "error")
        self.error.setStyleSheet("color: #b91c1c")
        self.error.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)
        layout.addWidget(self.error)
        self.folder.textChanged.connect(self._retyped)
        self.again.textChanged.connect(self._retyped)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        current = inst.share_folder()
        if current is not None:
            self.folder.setText(short(current))
        elif self.places.count():
            self.places.setCurrentRow(0)
        self._explain(self.folder.text())
        (self.passphrase if self.folder.text() else self.folder).setFocus()

    @property
    def joining(self) -> bool:
        text = self.folder.text()
        return bool(text) and (Path(text).expanduser() / "sioul.seal").exists()

    def _chosen(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.folder.setText(str(item.data(Qt.ItemDataRole.UserRole)))

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, Setup.tr("Sharing folder"), str(Path.home())
        )
        if chosen:
            self.folder.setText(short(Path(chosen)))

    def _explain(self, text: str) -> None:
        joining = self.joining
        self.again.setEnabled(not joining)
        self.again_label.setEnabled(not joining)
        self.again.setPlaceholderText(Setup.tr("not needed to join") if joining else "")
        if not text:
            self.what.setText("")
        elif joining:
            self.what.setText(Setup.tr(
                "This folder is shared already: this computer joins it with "
                "the passphrase chosen on the first computer."))  # fmt: skip
        else:
            self.what.setText(Setup.tr(
                "A new shared folder is created here, sealed with this passphrase. Type it "
                "twice and keep it: it cannot be recovered. A second computer? First wait for "
                "this folder's sioul.seal to arrive through the sync."))  # fmt: skip
        self._rate(self.passphrase.text())

    def _retyped(self, _text: str) -> None:
        # What went wrong is about what was typed then: it goes as soon as that changes.
        self.error.setText("")

    def _show(self, shown: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.passphrase.setEchoMode(mode)
        self.again.setEchoMode(mode)

    def _rate(self, passphrase: str) -> None:
        # Only a new passphrase is rated: joining takes the one already chosen.
        self.strength.setText("" if self.joining else strength(passphrase))

    def accept(self) -> None:
        try:
            self.made = join_or_create(
                self.inst, Path(self.folder.text()), self.passphrase.text(),
                None if self.joining else self.again.text(), self.name.text(),
            )  # fmt: skip
        except SioulError as e:
            # str(e) is English: it tells whether the message says so already.
            said = message(e)
            text = Setup.tr("{error}. Nothing was changed.").format(error=said)
            text = text if "nothing" not in str(e) else said
            self.error.setText(text[:1].upper() + text[1:])
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
    if window.made is not None:
        settle_login(window.at_login.isChecked())
    return window.made


def settle_login(at_login: bool) -> None:
    """After the folder is set: start at login as the window's box says, and where no package
    installed them, the menu entry and its icon. Neither stops the setup: a failure is said on
    stderr, and "Start at login" in the menu can be tried again."""
    from sioul_tray.tray.icons import RESOURCES

    try:
        if at_login != autostart.enabled():
            autostart.set_enabled(at_login)
        autostart.install_launcher(RESOURCES)
    except OSError as e:
        print(f"sioul-tray: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
    except SioulError as e:  # a path no login entry can carry
        print(f"sioul-tray: {message(e)}", file=sys.stderr)


def change_folder(state_dir: Path, language: str | None = None) -> int:
    """`sioul-tray folder`: the window in a process of its own, for the tray's
    "Change sharing folder…"; exit 0 when it closed, the folder changed or not (the tray follows
    the folder saved: it starts again there, or stays), another code when it failed. (`state_dir`
    is the installation's, as the tray sees it.)"""
    from sioul_tray.tray.standalone import application

    app = application(language)
    ask(Installation())
    app.quit()  # and the application lives until here
    return 0
