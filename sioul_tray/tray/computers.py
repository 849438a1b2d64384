"""The "Computers…" window: every computer of the folder, as this one knows it, kept up to date;
the files that do not read, with their reason; what the person can do about them.

The window runs in a process of its own (`sioul-tray computers`, started by the tray): its widgets,
the Qt libraries and the fonts it touches cost the tray nothing, and all of it goes when the window
closes. It asks the running tray for what to show (the `computers` request: `listing.Listing`)
every second. In the tray's process (the tests, or when the process cannot start) it reads the
controller directly: `ControllerSource`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from sioul_tray import phrases
from sioul_tray.i18n import Computers
from sioul_tray.lease import PARTS
from sioul_tray.timefmt import ago, clock_time, span
from sioul_tray.tray.listing import Listing, Row, forget_question, read, rows, shown_names

if TYPE_CHECKING:
    from sioul_tray.tray.controller import Controller

__all__ = ["ComputersWindow", "ControllerSource", "Row", "TraySource", "rows", "shown_names"]

POLL_MS = 1000  # how often the window asks the running tray


class Source(Protocol):
    """Where the window's content comes from."""

    def fetch(self) -> Listing | None:
        """What to show now; None when the tray does not answer."""

    def forget(self, computer: str) -> bool:
        """Ask, then declare `computer` gone for good; whether it was."""

    def can_forget(self) -> bool: ...

    def live(self, update: Callable[[], None]) -> Callable[[], None]:
        """Call `update` whenever the content may have changed; the function that stops it."""


class ControllerSource:
    """In the tray's process: the controller's view and what its last tick read."""

    def __init__(self, controller: Controller, forget: Callable[[str], object] | None = None):
        self.controller = controller
        self._forget = forget

    def fetch(self) -> Listing:
        return read(self.controller)

    def can_forget(self) -> bool:
        return self._forget is not None

    def forget(self, computer: str) -> bool:
        return self._forget is not None and bool(self._forget(computer))

    def live(self, update: Callable[[], None]) -> Callable[[], None]:
        def changed(_view: object) -> None:
            update()

        self.controller.changed.connect(changed)  # every tick and every reread

        def stop() -> None:
            self.controller.changed.disconnect(changed)

        return stop


Ask = Callable[..., "tuple[int, str] | None"]
Confirm = Callable[[str, str], bool]


def _ask_question(title: str, text: str) -> bool:
    """Yes or no before declaring a computer gone: No is the default, for the step is risky."""
    no, yes = QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes
    return QMessageBox.question(None, title, text, yes | no, no) == yes


class TraySource:
    """In a process of its own: the running tray's answers over its local socket."""

    def __init__(self, state_dir: Path, ask: Ask | None = None, confirm: Confirm | None = None):
        from sioul_tray.tray.client import ask as ask_tray

        self.state_dir = state_dir
        self.ask: Ask = ask or ask_tray
        self.confirm = confirm or _ask_question
        self.last: Listing | None = None
        self._timer: QTimer | None = None

    def fetch(self) -> Listing | None:
        answer = self.ask(self.state_dir, ["computers"], timeout_ms=2000)
        self.last = None
        if answer is not None and answer[0] == 0:
            with contextlib.suppress(ValueError):  # not a listing: a tray of another version
                self.last = Listing.from_json(answer[1])
        return self.last

    def can_forget(self) -> bool:
        return True

    def forget(self, computer: str) -> bool:
        """The menu's question, then the `forget` request to the tray (the one writer)."""
        names = {row.computer: row.shown for row in self.last.rows} if self.last else {}
        if not self.confirm(*forget_question(names.get(computer) or computer)):
            return False
        answer = self.ask(self.state_dir, ["forget", computer])
        return answer is not None and answer[0] == 0

    def live(self, update: Callable[[], None]) -> Callable[[], None]:
        timer = QTimer()
        timer.setInterval(POLL_MS)
        timer.timeout.connect(update)
        timer.start()
        self._timer = timer
        return timer.stop


class ComputersWindow(QDialog):
    """Every computer (name, what it keeps, when heard and used, closed, its clock), updated at
    every tick and folder change; every unreadable file with its reason. A computer can be
    declared gone for good from here, and a file found in its folder."""

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # its memory goes when it closes
        self.setWindowTitle(Computers.tr("Computers — sioul-tray"))
        layout = QVBoxLayout(self)
        # Said when the tray does not answer (it is not running): nothing else to show.
        self.absent = QLabel(
            Computers.tr("The tray is not running: start sioul-tray to see the computers."), self
        )
        self.absent.setObjectName("absent")
        self.absent.setWordWrap(True)
        self.absent.setVisible(False)
        layout.addWidget(self.absent)
        # Each column with what it means, on its header's tooltip.
        columns = [
            (Computers.tr("Computer"), Computers.tr("Each computer that shares the folder")),
            (Computers.tr("Keeps"), Computers.tr("What it reminds or numbers, as seen here")),
            (Computers.tr("Last heard"), Computers.tr(
                "When this computer last saw it renew its claims through the sync")),
            (Computers.tr("Last used"), Computers.tr("When someone last used it")),
            (Computers.tr("sioul-tray"), Computers.tr(
                "Running; not acting: it keeps a part but does not act on it; silent: not "
                "heard for 5 minutes; or closed: quit, or asleep")),
            (Computers.tr("Clock"), Computers.tr("How far its clock is from this one's")),
        ]  # fmt: skip
        self.table = QTableWidget(0, len(columns), self)
        self.table.setObjectName("computers")
        for col, (title, meaning) in enumerate(columns):
            header_item = QTableWidgetItem(title)
            header_item.setToolTip(meaning)
            self.table.setHorizontalHeaderItem(col, header_item)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)  # each column as its content: the sum fits the width
        self.table.itemSelectionChanged.connect(self._selected)
        layout.addWidget(self.table)
        actions = QHBoxLayout()
        self.gone = QPushButton(Computers.tr("Treat as gone for good…"), self)
        self.gone.setObjectName("gone")
        self.gone.setEnabled(False)
        self.gone.clicked.connect(self._gone)
        actions.addWidget(self.gone)
        actions.addStretch(1)
        layout.addLayout(actions)
        # What Syncthing says of the folder, where it syncs it (hidden otherwise).
        self.sync = QLabel(self)
        self.sync.setObjectName("sync")
        self.sync.setWordWrap(True)
        layout.addWidget(self.sync)
        self.problems_title = QLabel(self)
        layout.addWidget(self.problems_title)
        self.problems = QListWidget(self)
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)  # a long file name wraps instead of scrolling sideways
        self.problems.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problems.setMaximumHeight(self.fontMetrics().lineSpacing() * 7)
        self.problems.itemActivated.connect(self._show_file)
        layout.addWidget(self.problems)
        self.show_file = QPushButton(Computers.tr("Show in the folder"), self)
        self.show_file.setObjectName("show_file")
        self.show_file.clicked.connect(lambda: self._show_file(self.problems.currentItem()))
        layout.addWidget(self.show_file, alignment=Qt.AlignmentFlag.AlignLeft)
        # What changed hands lately, as this tray saw it (`sioul-tray history` has more).
        self.changes_title = QLabel(Computers.tr("Lately, newest first:"), self)
        layout.addWidget(self.changes_title)
        self.changes = QLabel(self)
        self.changes.setObjectName("changes")
        self.changes.setWordWrap(True)
        layout.addWidget(self.changes)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.computers: list[str] = []
        self.here: str | None = None  # this computer
        self.raised: int | None = None  # the tray's count of "Computers…", as last seen
        self.fill()
        self._stop_live: Callable[[], None] | None = source.live(self.fill)  # live
        self.finished.connect(self._stop)
        self.resize(self._fitting_width(), self.sizeHint().height())

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop()
        super().closeEvent(event)

    def _stop(self) -> None:
        """No more updates once closed (the window is being freed)."""
        if self._stop_live is not None:  # once: closing and finishing both come here
            stop, self._stop_live = self._stop_live, None
            stop()

    def fill(self) -> None:
        """Show what the tray's last tick read (no scan of its own)."""
        shown = self.source.fetch()
        self.absent.setVisible(shown is None)
        if shown is None:
            shown = Listing(self.here or "", 0.0)
        elif self.raised is not None and shown.raised != self.raised:
            # "Computers…" again while open: the window comes forward.
            self.showNormal()
            self.raise_()
            self.activateWindow()
        self.raised = shown.raised
        self.here = shown.computer
        selected = self._current()
        self.table.setRowCount(len(shown.rows))
        self.computers = [row.computer for row in shown.rows]
        for r, row in enumerate(shown.rows):
            name = row.shown or row.name
            if row.computer == shown.computer:
                name = Computers.tr("{name} (this computer)").format(name=name)
            cells = [
                (name, "\n".join(row.lines) or row.computer),
                (", ".join(phrases.label(p) for p in row.keeps), ""),
                _when(row.heard, shown.now, Computers.tr("not heard")),
                _when(row.active, shown.now, ""),
                _state(row.closed, row.heard, shown.now, shown.alive, row.idle),
                (_offset(row.offset), ""),
            ]
            if row.waited:
                cells[0] = (cells[0][0], Computers.tr("Invoices here wait for its confirmation"))
            for col, (text, tip) in enumerate(cells):
                item = QTableWidgetItem(text)
                if tip:
                    item.setToolTip(tip)
                self.table.setItem(r, col, item)
        if selected in self.computers:
            self.table.selectRow(self.computers.index(selected))
        self._selected()
        if shown.sync is not None:
            self.sync.setText("\n".join(shown.sync))
        self.sync.setVisible(shown.sync is not None)
        problems = shown.problems
        self.problems_title.setText(
            Computers.tr("Files in the sharing folder that cannot be read:")
            if problems
            else Computers.tr("Every file in the sharing folder can be read.")
        )
        self.problems_title.setVisible(self.absent.isHidden())
        self.problems.clear()
        for problem in problems:
            line = QListWidgetItem(
                f"leases/{problem.part}/{problem.file}: {problem.reason}", self.problems
            )
            line.setData(Qt.ItemDataRole.UserRole, problem.folder)
        self.problems.setVisible(bool(problems))
        self.show_file.setVisible(bool(problems))
        self.changes.setText("\n".join(shown.changes))
        self.changes.setVisible(bool(shown.changes))
        self.changes_title.setVisible(bool(shown.changes))

    def _current(self) -> str | None:
        rows_ = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows_ or rows_[0].row() >= len(self.computers):
            return None
        return self.computers[rows_[0].row()]

    def _selected(self) -> None:
        chosen = self._current()
        self.gone.setEnabled(
            self.source.can_forget() and chosen is not None and chosen != self.here
        )

    def _gone(self) -> None:
        chosen = self._current()
        if chosen is not None and self.source.can_forget() and self.source.forget(chosen):
            self.fill()  # the tray wrote its claim: show it now, not at the next poll

    def _show_file(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(item.data(Qt.ItemDataRole.UserRole)))

    def _fitting_width(self) -> int:
        """Wide enough for every column's content and header: nothing cut, no scrolling."""
        header = self.table.horizontalHeader()
        width = sum(
            max(self.table.sizeHintForColumn(c), header.sectionSizeHint(c))
            for c in range(self.table.columnCount())
        )
        width += self.table.verticalScrollBar().sizeHint().width() + 2 * self.table.frameWidth()
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else None
        return width + (margins.left() + margins.right() if margins is not None else 0) + 8


def main(state_dir: Path, language: str | None = None) -> int:
    """`sioul-tray computers`: the window, in a process of its own, fed by the running tray."""
    from sioul_tray.tray.standalone import application

    app = application(language)
    window = ComputersWindow(TraySource(state_dir))
    window.show()
    return int(app.exec())


def _when(t: int | None, now: float, never: str) -> tuple[str, str]:
    """A time as "3 min ago", with the exact date and time as its tooltip."""
    if t is None:
        return never, ""
    return ago(t, now), clock_time(t, always_date=True)


def _state(
    closed: Sequence[str],
    heard: float | None,
    now: float,
    alive: float,
    idle: Sequence[str] = (),
) -> tuple[str, str]:
    """The "sioul-tray" column: running (its claims open and heard renewing), not acting (heard,
    but it keeps a part without acting on it long after its take: a take by the command line
    where no tray runs, renewed by a timer), silent (open, not heard within ALIVE: an open claim
    alone, a take by the command line, says no tray runs), or closed (quit or asleep)."""
    if not closed:
        if heard is None or now - heard > alive:
            return Computers.tr("silent"), Computers.tr(
                "Its claims are open but were not renewed lately: sioul-tray is not running "
                "there, or its sync has stopped"
            )
        if idle:
            parts = ", ".join(phrases.label(p) for p in idle)
            return Computers.tr("not acting"), Computers.tr(
                "It keeps {parts} but does not act on them: its claims are renewed without "
                "sioul-tray running there (a timer's sioul-tray renew), or it waits for "
                "another computer"
            ).format(parts=parts)
        return Computers.tr("running"), ""
    if set(closed) >= set(PARTS):
        return Computers.tr("closed"), Computers.tr("It quit, or the computer sleeps")
    parts = ", ".join(phrases.label(p) for p in closed)
    return Computers.tr("closed for {parts}").format(parts=parts), ""


def _offset(seconds: int) -> str:
    if abs(seconds) < 60:
        return ""
    if seconds > 0:
        return Computers.tr("{span} ahead").format(span=span(seconds))
    return Computers.tr("{span} behind").format(span=span(seconds))
