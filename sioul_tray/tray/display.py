"""Whether there is a display to show a window on, known without Qt: Qt's xcb plugin aborts the
process when there is none (several lines, exit 134), where one line of ours says it."""

from __future__ import annotations

import os
import sys

from sioul_tray.i18n import App


def missing() -> bool:
    """No X11 or Wayland display to connect to (Windows and macOS always have theirs); an
    offscreen or minimal Qt platform needs none."""
    if sys.platform in ("win32", "darwin"):
        return False
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def say_missing() -> int:
    """Say there is no display, in one line (the tray, and each window's command); exit code 2."""
    print(App.tr("sioul-tray: no display here; use the command line (sioul-tray --help)"),
          file=sys.stderr)  # fmt: skip
    return 2
