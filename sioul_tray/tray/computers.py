"""The "Computers…" window: every claim, and every file that does not read, with its reason.

Its own module, imported when the window opens: the table widgets cost memory the tray does not
need until then.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from sioul_tray.i18n import Computers, translated
from sioul_tray.lease import PARTS
from sioul_tray.tray import model
from sioul_tray.tray.controller import Controller


class ComputersWindow(QDialog):
    """Every claim (name, last heard, used, keeps, closed, how far it wrote), every unreadable
    file with its reason."""

    def __init__(self, controller: Controller) -> None:
        super().__init__()
        self.setWindowTitle(Computers.tr("Computers — sioul-tray"))
        layout = QVBoxLayout(self)
        columns = [
            Computers.tr("Part"),
            Computers.tr("Computer"),
            Computers.tr("Last heard"),
            Computers.tr("Used"),
            Computers.tr("Keeps"),
            Computers.tr("Closed"),
            Computers.tr("Wrote"),
        ]
        self.table = QTableWidget(0, len(columns), self)
        self.table.setHorizontalHeaderLabels(columns)
        layout.addWidget(self.table)
        self.problems = QLabel(self)
        self.problems.setWordWrap(True)
        layout.addWidget(self.problems)
        self.fill(controller)
        self.resize(720, 320)

    def fill(self, controller: Controller) -> None:
        lease = controller.lease
        view = controller.view
        rows: list[list[str]] = []
        snapshots = {part: lease.last_read(part) for part in PARTS}  # no scan: the last tick's
        for part, seen in snapshots.items():
            keeper = view.parts[part].keeper if view is not None and part in view.parts else None
            for c in seen.claims:
                when = seen.heard.get(c.computer)
                rows.append([
                    model.label(part),
                    Computers.tr("{name} (this computer)").format(name=c.name)
                    if c.computer == controller.computer else c.name,
                    model.hhmm(when) if when is not None else Computers.tr("not heard"),
                    model.hhmm(c.active),
                    Computers.tr("yes") if c.computer == keeper else "",
                    Computers.tr("closed") if c.closed else "",
                    str(c.wrote),
                ])  # fmt: skip
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for col, text in enumerate(row):
                self.table.setItem(r, col, QTableWidgetItem(text))
        problems = [f"leases/{p}/{problem.file}: {translated(problem.reason)}"
                    for p, seen in snapshots.items() for problem in seen.problems]  # fmt: skip
        self.problems.setText(
            Computers.tr("Files that do not read:") + "\n" + "\n".join(problems)
            if problems
            else Computers.tr("Every file reads.")
        )
