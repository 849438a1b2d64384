"""The Qt adapter of the tray's loop: a QTimer and a folder watcher over the `driver.Driver`.

Every decision is the driver's (Qt-free, also what tests/simulation runs); this class only turns
time and folder changes into its calls, and its results into Qt signals. No widgets here (the
offscreen tests drive it directly): the app renders `changed` into the menu and `notify` into
notifications.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from sioul_tray.lease import PARTS, Keeper
from sioul_tray.tray.driver import REREAD_DELAY, ActiveLike, Driver, LeaseLike
from sioul_tray.tray.model import View


class Controller(QObject):
    changed = Signal(object)  # View: after every tick and reread
    notify = Signal(object)  # Note: a handover or a warning a person should see
    woke = Signal()  # after sleep (told or seen by the core): the tray host may have lost our icon

    def __init__(
        self,
        lease: LeaseLike,
        computer: str,
        folder: Path,
        active: ActiveLike,
        state_dir: Path | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        interval_ms: int | None = None,
        parent: QObject | None = None,
        away_after: float | None = None,
    ) -> None:
        super().__init__(parent)
        self.folder = Path(folder)
        self.driver = Driver(
            lease,
            computer,
            active,
            state_dir,
            clock=clock,
            monotonic=monotonic,
            publish=self.changed.emit,
            notify=self.notify.emit,
            woke=self.woke.emit,
            recheck=self._recheck_in,
            away_after=away_after,
        )
        self.timer = QTimer(self)
        # A tick every RENEW of the folder's timing, unless a test asks otherwise.
        self.timer.setInterval(
            interval_ms if interval_ms is not None else round(lease.timing.renew * 1000)
        )
        self.timer.timeout.connect(self.tick)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._folder_changed)
        self.watcher.fileChanged.connect(self._folder_changed)
        self._reread = QTimer(self)
        self._reread.setSingleShot(True)
        self._reread.setInterval(int(REREAD_DELAY * 1000))
        self._reread.timeout.connect(self.reread)
        self._recheck = QTimer(self)  # the driver's "read again then" (a part settles)
        self._recheck.setSingleShot(True)
        self._recheck.timeout.connect(self.reread)

    # -- the driver's state, as the app reads it --------------------------------------------

    @property
    def lease(self) -> LeaseLike:
        return self.driver.lease

    @property
    def computer(self) -> str:
        return self.driver.computer

    @property
    def view(self) -> View | None:
        return self.driver.view

    @property
    def running(self) -> bool:
        return self.driver.running

    @property
    def asleep(self) -> bool:
        return self.driver.asleep

    @property
    def paused(self) -> set[str]:
        return self.driver.paused

    @property
    def clock(self) -> Callable[[], float]:
        return self.driver.clock

    # -- time and the folder ----------------------------------------------------------------

    def start(self) -> None:
        self._watch()
        self.driver.start()
        self.timer.start()

    def tick(self) -> None:
        self.driver.tick()

    def reread(self) -> None:
        if self.driver.running and not self.driver.asleep:
            self._watch()
        self.driver.reread()

    def _recheck_in(self, seconds: float) -> None:
        self._recheck.start(max(0, round(seconds * 1000)))

    def _folder_changed(self, _path: str) -> None:
        self._reread.start()

    def _watch(self) -> None:
        """Watch each part's folder; watch the folders above only until those exist (the sync
        folder's root changes for many reasons that are not claims)."""
        leases = self.folder / "leases"
        parts = [str(leases / part) for part in PARTS]
        complete = all(os.path.isdir(p) for p in parts)
        wanted = parts if complete else [str(self.folder), str(leases), *parts]
        present = set(self.watcher.directories())
        missing = [p for p in wanted if p not in present and os.path.isdir(p)]
        if missing:
            self.watcher.addPaths(missing)
        extra = [p for p in present if p not in wanted]
        if extra:
            self.watcher.removePaths(extra)

    # -- requests from the menu, the command line and the platform --------------------------

    def take(self, part: str = "invoices") -> Keeper:
        return self.driver.take(part)

    def forget(self, computer: str) -> None:
        self.driver.forget(computer)

    def forget_counts_from(self, computer: str) -> int | None:
        """When a declaration that `computer` is gone would count here (None: at once)."""
        return self.driver.forget_counts_from(computer)

    def forget_stands_on_close(self, computer: str) -> bool:
        """A declaration that `computer` is gone cannot count here until it is heard."""
        return self.driver.forget_stands_on_close(computer)

    def pause(self, parts: list[str]) -> OSError | None:
        return self.driver.pause(parts)

    def unpause(self, parts: list[str]) -> OSError | None:
        return self.driver.unpause(parts)

    def mark(self, part: str, wrote: int, token: str, by: float | None = None) -> str | None:
        return self.driver.mark(part, wrote, token, by)

    def confirm(self, part: str, wrote: int) -> str | None:
        return self.driver.confirm(part, wrote)

    def close_claims(self) -> None:
        self.driver.close_claims()

    def suspend(self) -> None:
        self.timer.stop()
        self._reread.stop()
        self._recheck.stop()
        self.driver.suspend()

    def resume(self) -> None:
        if not self.driver.running:
            return
        self.driver.resume()
        self.timer.start()

    def shutdown(self) -> None:
        if not self.driver.running:
            return
        self.timer.stop()
        self._reread.stop()
        self._recheck.stop()
        self.driver.shutdown()
