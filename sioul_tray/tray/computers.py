"""The "Computers…" window: every computer of the folder, as this one knows it, kept up to date;
the files that do not read, with their reason; what the person can do about them.

Its own module, imported when the window opens, and the window is freed when closed: the table
widgets cost memory the tray does not need the rest of the time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from sioul_tray import phrases
from sioul_tray.i18n import Computers, translated
from sioul_tray.lease import PARTS
from sioul_tray.lease.lease import Snapshot
from sioul_tray.timefmt import ago, clock_time, span
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.model import View


@dataclass
class Row:
    """One computer, as this one knows it across both parts."""

    computer: str
    name: str
    heard: int | None = None  # the latest hearing of any of its claims (this computer's clock)
    active: int | None = None  # when its person was last at it, as its claims say
    keeps: list[str] = field(default_factory=list)  # parts it keeps, as seen here
    closed: list[str] = field(default_factory=list)  # parts whose claim says closed
    offset: int = 0  # how far its clock is ahead of this one's (seconds; negative: behind)
    waited: bool = False  # this computer waits for its acknowledgement


def rows(computer: str, view: View | None, snapshots: dict[str, Snapshot]) -> list[Row]:
    """The window's rows: this computer first, then the others by name."""
    found: dict[str, Row] = {}
    for part, seen in snapshots.items():
        p = view.parts.get(part) if view is not None else None
        for c in seen.claims:
            row = found.setdefault(c.computer, Row(c.computer, c.name))
            heard = seen.heard.get(c.computer)
            if heard is not None and (row.heard is None or heard > row.heard):
                row.heard = heard
            row.active = c.active if row.active is None else max(row.active, c.active)
            if c.closed:
                row.closed.append(part)
            if p is not None and p.keeper == c.computer:
                row.keeps.append(part)
            if p is not None and any(w.computer == c.computer for w in p.status.waiting):
                row.waited = True
            row.offset = seen.offsets.get(c.computer, row.offset)
    return sorted(
        found.values(), key=lambda r: (r.computer != computer, r.name.casefold(), r.computer)
    )


def shown_names(found: list[Row]) -> dict[str, str]:
    """Each computer's name as the window shows it: with its id where two share a name (the
    menu's words, `phrases.Names`)."""
    names = phrases.Names((row.computer, row.name) for row in found)
    return {row.computer: names(row.computer, row.name) for row in found}


class ComputersWindow(QDialog):
    """Every computer (name, what it keeps, when heard and used, closed, its clock), updated at
    every tick and folder change; every unreadable file with its reason. A computer can be
    declared gone for good from here, and a file found in its folder."""

    def __init__(
        self, controller: Controller, forget: Callable[[str], object] | None = None
    ) -> None:
        super().__init__()
        self.controller = controller
        self.forget = forget
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # its memory goes when it closes
        self.setWindowTitle(Computers.tr("Computers — sioul-tray"))
        layout = QVBoxLayout(self)
        columns = [
            Computers.tr("Computer"),
            Computers.tr("Keeps"),
            Computers.tr("Last heard"),
            Computers.tr("Last used"),
            Computers.tr("Claims"),
            Computers.tr("Clock"),
        ]
        self.table = QTableWidget(0, len(columns), self)
        self.table.setObjectName("computers")
        self.table.setHorizontalHeaderLabels(columns)
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
        self.gone = QPushButton(Computers.tr("Gone for good…"), self)
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
        self.computers: list[str] = []
        self.fill()
        controller.changed.connect(self.fill)  # live: every tick and every reread
        self._live = True
        self.finished.connect(self._stop)
        self.resize(self._fitting_width(), self.sizeHint().height())

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop()
        super().closeEvent(event)

    def _stop(self) -> None:
        """No more updates once closed (the window is being freed)."""
        if self._live:  # once: closing and finishing both come here
            self._live = False
            self.controller.changed.disconnect(self.fill)

    def fill(self, _view: object = None) -> None:
        """Show what the last tick read (no scan of its own)."""
        controller = self.controller
        view = controller.view
        snapshots = {part: controller.lease.last_read(part) for part in PARTS}
        found = rows(controller.computer, view, snapshots)
        names = shown_names(found)
        now = controller.clock()
        selected = self._current()
        self.table.setRowCount(len(found))
        self.computers = [row.computer for row in found]
        for r, row in enumerate(found):
            name = names[row.computer]
            if row.computer == controller.computer:
                name = Computers.tr("{name} (this computer)").format(name=name)
                state = [phrases.part_line(p, view.parts[p].status, view.names)
                         for p in PARTS if view is not None and p in view.parts]  # fmt: skip
            else:
                state = []
            cells = [
                (name, "\n".join(state) or row.computer),
                (", ".join(phrases.label(p) for p in row.keeps), ""),
                _when(row.heard, now, Computers.tr("not heard")),
                _when(row.active, now, ""),
                (
                    Computers.tr("closed: {parts}").format(
                        parts=", ".join(phrases.label(p) for p in row.closed)
                    )
                    if row.closed
                    else Computers.tr("open"),
                    "",
                ),
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
        report = view.sync if view is not None else None
        if report is not None:
            said = phrases.sync_lines(report) or [
                Computers.tr("Syncthing is connected to every computer sharing the folder.")
            ]
            self.sync.setText("\n".join(said))
        self.sync.setVisible(report is not None)
        problems = [(p, problem) for p, seen in snapshots.items() for problem in seen.problems]
        self.problems_title.setText(
            Computers.tr("Files that do not read:")
            if problems
            else Computers.tr("Every file reads.")
        )
        self.problems.clear()
        for part, problem in problems:
            line = QListWidgetItem(
                f"leases/{part}/{problem.file}: {translated(problem.reason)}", self.problems
            )
            line.setData(Qt.ItemDataRole.UserRole, str(controller.folder / "leases" / part))
        self.problems.setVisible(bool(problems))
        self.show_file.setVisible(bool(problems))

    def _current(self) -> str | None:
        rows_ = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows_ or rows_[0].row() >= len(self.computers):
            return None
        return self.computers[rows_[0].row()]

    def _selected(self) -> None:
        chosen = self._current()
        self.gone.setEnabled(
            self.forget is not None and chosen is not None and chosen != self.controller.computer
        )

    def _gone(self) -> None:
        chosen = self._current()
        if chosen is not None and self.forget is not None:
            self.forget(chosen)

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


def _when(t: int | None, now: float, never: str) -> tuple[str, str]:
    """A time as "3 min ago", with the exact date and time as its tooltip."""
    if t is None:
        return never, ""
    return ago(t, now), clock_time(t, always_date=True)


def _offset(seconds: int) -> str:
    if abs(seconds) < 60:
        return ""
    if seconds > 0:
        return Computers.tr("{span} ahead").format(span=span(seconds))
    return Computers.tr("{span} behind").format(span=span(seconds))
