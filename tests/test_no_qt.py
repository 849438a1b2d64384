"""The core never imports Qt: the tray renders it, never the other way round."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import python_env

CORE = [
    "sioul_tray.lease",
    "sioul_tray.share",
    "sioul_tray.sync",
    "sioul_tray.install",
    "sioul_tray.cli",
    "sioul_tray.commands",
    "sioul_tray.phrases",
    "sioul_tray.files",
    "sioul_tray.tray.model",
    "sioul_tray.tray.driver",  # the tray's loop: Qt only in its adapter (tray.controller)
    "sioul_tray.tray.away",  # which machines close their claims before an idle sleep
    "sioul_tray.tray.request",  # what travels to the running tray
    "sioul_tray.tray.client",  # the command line asks the tray without loading Qt (Unix)
    "sioul_tray.tray.listing",  # what the Computers window shows, built in the tray
]


def test_the_core_and_the_command_line_import_no_qt() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6')))\n"
        + "print(','.join(qt))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=python_env(),
    )
    assert done.stdout.strip() == ""


def test_the_check_would_see_qt() -> None:
    # The probe above must be able to fail: importing Qt shows up in sys.modules.
    done = subprocess.run(
        [sys.executable, "-c", "import sys, PySide6.QtCore; print('PySide6' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "True"
