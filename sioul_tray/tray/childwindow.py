"""A window that runs in a process of its own (`sioul-tray computers`, `about`, `folder`).

Qt keeps the code of a window's widgets in a process after the window closes: opened in the tray,
a window would stay in its memory for the tray's whole life. In a process of its own it asks the
running tray what to show (the requests of `answers`) and takes its memory with it when it ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from sioul_tray import i18n
from sioul_tray.tray import autostart

if TYPE_CHECKING:
    from PySide6.QtCore import QProcess

# A window's process that fails within this many seconds of its start failed to start (no display
# for it, a broken install): its window opens in the tray's process instead.
CHILD_CHECK = 5.0


class ChildWindow(QObject):
    """One window's process: started by `open`, ended by the person closing the window or by
    `close`. `instead` opens the window in the tray's process, for a process that failed at
    once; `ended` (given to `open`) is told whether the process ended well (code 0)."""

    def __init__(
        self, command: str, parent: QObject, instead: Callable[[], object] | None = None
    ) -> None:
        super().__init__(parent)
        self.command = command
        self.instead = instead
        self.process: QProcess | None = None
        self._since = 0.0
        self._ended: Callable[[bool], None] | None = None

    def running(self) -> bool:
        return (
            self.process is not None
            and self.process.state() is not self.process.ProcessState.NotRunning
        )

    def open(self, state_dir: Path | None, ended: Callable[[bool], None] | None = None) -> bool:
        """Start the window's process, unless it runs already. False when it cannot run in a
        process of its own (no state folder to find the tray by, or the program does not
        start): the caller shows the window in the tray's process."""
        if state_dir is None:
            return False
        if self.running():
            return True
        # As autostart starts the tray: the bundle's program when frozen (its windowed twin on
        # Windows), else this interpreter; in the tray's language. A QProcess, not `subprocess`,
        # which would stay in the tray's memory. Imported only when a window first opens: once
        # made, the class and its enums stay in the tray's memory too.
        from PySide6.QtCore import QProcess

        argv = [*autostart.command(), "--lang", i18n.language(), self.command,
                "--state-dir", str(state_dir)]  # fmt: skip
        child = QProcess(self)
        child.setProcessChannelMode(QProcess.ProcessChannelMode.ForwardedChannels)
        child.setStandardInputFile(QProcess.nullDevice())
        child.finished.connect(lambda code, how: self._finished(child, code, how))
        child.start(argv[0], argv[1:])
        if not child.waitForStarted(5000):
            child.deleteLater()
            return False
        self.process, self._since, self._ended = child, time.monotonic(), ended
        return True

    def close(self) -> None:
        """End the window's process; `ended` hears that it closed unanswered (False)."""
        child, ended = self.process, self._ended
        self.process = self._ended = None
        if child is None:
            return
        if child.state() is not child.ProcessState.NotRunning:
            child.terminate()
            if not child.waitForFinished(5000):
                child.kill()
                child.waitForFinished(5000)
        if ended is not None:
            ended(False)

    def _finished(self, child: QProcess, code: int, how: QProcess.ExitStatus) -> None:
        child.deleteLater()
        if child is not self.process:
            return  # ended by `close`, which said so
        ended = self._ended
        self.process = self._ended = None
        well = code == 0 and how is child.ExitStatus.NormalExit
        if not well and time.monotonic() - self._since < CHILD_CHECK and self.instead is not None:
            self.instead()
        elif ended is not None:
            ended(well)
