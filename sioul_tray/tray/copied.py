"""The question a copied installation asks before its tray starts: which computer is this?

Its computer id was made on another machine (`Installation.computer` raised `Copied`). Writing
claims under that id beside the original would make two computers one: the tray asks first, and
either answer gives this computer an id of its own (`Installation.become_new_computer`).
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QAbstractButton, QMessageBox

from sioul_tray.errors import Copied, SioulError
from sioul_tray.i18n import App, message
from sioul_tray.install import Installation
from sioul_tray.timefmt import clock_time

NEW, REPLACES = "new", "gone"


def box(name: str) -> tuple[QMessageBox, dict[QAbstractButton, str]]:
    """The question, and which answer each of its buttons gives (none: quit)."""
    made = QMessageBox(
        QMessageBox.Icon.Question,
        App.tr("sioul-tray was copied here"),
        App.tr("This sioul-tray was copied from another computer: {name}.").format(name=name),
    )
    made.setObjectName("copied")
    made.setInformativeText(
        App.tr(
            "Until you say which computer this is, it keeps no medicines and no invoices. "
            "If {name} still runs, choose \u201cThis is another computer\u201d."
        ).format(name=name)
    )
    another = made.addButton(App.tr("This is another computer"), QMessageBox.ButtonRole.AcceptRole)
    answers: dict[QAbstractButton, str] = {
        another: NEW,
        made.addButton(
            App.tr("This one replaces {name} for good").format(name=name),
            QMessageBox.ButtonRole.DestructiveRole,
        ): REPLACES,
    }
    quit_button = made.addButton(App.tr("Quit"), QMessageBox.ButtonRole.RejectRole)
    made.setEscapeButton(quit_button)
    made.setDefaultButton(another)  # the answer that is safe if the person is wrong
    return made, answers


def ask(inst: Installation, copied: Copied) -> bool:
    """Ask, and carry out the answer; False when the person quit or the answer failed."""
    try:
        name = inst.name_in_claims(copied.computer) or copied.computer
    except (SioulError, OSError):
        name = copied.computer
    made, answers = box(name)
    made.exec()
    answer = answers.get(made.clickedButton())
    if answer is None:
        return False
    try:
        done = inst.become_new_computer(replaces=answer == REPLACES)
    except (SioulError, OSError) as e:
        text = str(e) if isinstance(e, OSError) else message(e)
        QMessageBox.warning(None, "sioul-tray", text)
        print(App.tr("sioul-tray: {error}").format(error=text), file=sys.stderr)
        return False
    if done.declared and done.counts_from is not None:
        QMessageBox.information(
            None,
            App.tr("sioul-tray was copied here"),
            App.tr(
                "{name} counts as gone for invoices from {time}: until then it may still be "
                "numbering them, cut off from the sync."
            ).format(name=name, time=clock_time(done.counts_from)),
        )
    return True
