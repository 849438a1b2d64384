"""The tray's engine: runs the core's `Lease` on a timer and on folder changes, publishes a `View`.

No widgets here (the offscreen tests drive it directly): the app renders `changed` into the menu
and `notify` into notifications.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from sioul_tray.lease import PARTS, RENEW
from sioul_tray.tray import model
from sioul_tray.tray.model import PartView, Peer, View

# After a wake the first reads catch up on everything that happened while asleep: not news.
QUIET_AFTER_WAKE = 10.0
# Folder changes come in bursts (a sync tool writing several claims): read once they settle.
REREAD_DELAY_MS = 100


class LeaseLike(Protocol):
    def renew(
        self, part: str, active: int | None = None, take: bool = False, wrote: int | None = None
    ) -> Any: ...
    def close(self, part: str, wrote: int | None = None) -> None: ...
    def look(self, part: str) -> Any: ...
    def claims(self, part: str) -> list[Any]: ...
    def forget(self, computer: str) -> None: ...
    def last_read(self, part: str) -> Any: ...


class ActiveLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def known(self) -> bool: ...
    def active(self, now: float) -> int: ...


def write_status(path: Path, content: dict[str, Any]) -> None:
    """Atomically: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".~{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(content, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Controller(QObject):
    changed = Signal(object)  # View
    notify = Signal(object)  # Note
    woke = Signal()  # after sleep (told or guessed): the tray host may have lost our icon

    def __init__(
        self,
        lease: LeaseLike,
        computer: str,
        folder: Path,
        active: ActiveLike,
        state_dir: Path | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        interval_ms: int = RENEW * 1000,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.lease = lease
        self.computer = computer
        self.folder = Path(folder)
        self.active = active
        self.status_path = Path(state_dir) / "status.json" if state_dir is not None else None
        self.clock = clock
        self.monotonic = monotonic
        self.wrote: dict[str, int | None] = dict.fromkeys(PARTS)
        # Parts closed on request (`sioul-tray close PART`): kept closed across restarts of the
        # tray until `sioul-tray renew`, as the person asked.
        self.paused_path = Path(state_dir) / "closed.json" if state_dir is not None else None
        self.paused: set[str] = self._load_paused()
        self.view: View | None = None
        self.running = False
        self.asleep = False
        self._closed = False
        self._last_tick: float | None = None
        self._status: dict[str, Any] | None = None
        self.notifier = model.Notifier(self.notify.emit)

        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.tick)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._folder_changed)
        self.watcher.fileChanged.connect(self._folder_changed)
        self._reread = QTimer(self)
        self._reread.setSingleShot(True)
        self._reread.setInterval(REREAD_DELAY_MS)
        self._reread.timeout.connect(self.reread)

    # -- running -------------------------------------------------------------------------------

    def start(self) -> None:
        self.running = True
        self._closed = False
        self._watch()
        self.tick()
        self.timer.start()

    def tick(self) -> None:
        """Renew both parts (the timer, a wake, a request)."""
        if not self.running or self.asleep:
            return
        now = self.clock()
        if self._last_tick is not None and abs(now - self._last_tick) > 2 * RENEW:
            # The machine slept without telling us (or the clock was set): the core resets its
            # settling on such a jump; the catch-up that follows is not news.
            self.notifier.quiet(self.monotonic() + QUIET_AFTER_WAKE)
            self.woke.emit()
        self._last_tick = now
        active = self.active.active(now)
        self._closed = False
        keepers: dict[str, Any] = {}
        error = None
        for part in PARTS:
            try:
                if part in self.paused:
                    keepers[part] = self.lease.look(part)  # closed on request: read only
                else:
                    keepers[part] = self.lease.renew(part, active=active, wrote=self.wrote[part])
            except OSError as exc:
                error = _describe(exc)
        self._publish(keepers, error)

    def reread(self) -> None:
        """Read the folder again without writing (another computer's claim arrived)."""
        if not self.running or self.asleep:
            return
        self._watch()
        keepers: dict[str, Any] = {}
        error = None
        for part in PARTS:
            try:
                keepers[part] = self.lease.look(part)
            except OSError as exc:
                error = _describe(exc)
        before = self.view
        changed = before is not None and any(
            part in before.parts and before.parts[part].keeper != keeper.computer
            for part, keeper in keepers.items()
        )
        if changed:
            # Acknowledge the new keeper at once (our claim's `sees`): the handover waits on it.
            self.tick()
        else:
            self._publish(keepers, error)

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

    # -- reading the core into a View ----------------------------------------------------------

    def _publish(self, keepers: dict[str, Any], error: str | None) -> None:
        now = self.clock()
        parts: dict[str, PartView] = {}
        peers: dict[str, tuple[Peer, ...]] = {}
        offsets: dict[str, int] = {}
        problems: list[tuple[str, str, str]] = []
        for part, keeper in keepers.items():
            parts[part] = PartView.of(keeper)
            seen = self.lease.last_read(part)  # what this tick read: no second scan
            peers[part] = tuple(
                Peer(c.computer, c.name, seen.heard.get(c.computer), bool(c.closed))
                for c in seen.claims
                if c.computer != self.computer
            )
            for computer, offset in seen.offsets.items():
                if abs(offset) > abs(offsets.get(computer, 0)):
                    offsets[computer] = offset
            problems += [(part, name, reason) for name, reason in seen.problems]
        if not parts and self.view is not None:
            parts = dict(self.view.parts)  # keep showing the last known keepers with the error
        view = View(
            computer=self.computer,
            now=now,
            parts=parts,
            peers=peers,
            offsets=offsets,
            problems=tuple(problems),
            idle_source=self.active.name,
            idle_known=self.active.known,
            error=error,
            state_problem=getattr(self.lease, "state_problem", None),
        )
        self.view = view
        self.notifier.update(view, self.monotonic())
        self._write_status(running=True)
        self.changed.emit(view)

    def _write_status(self, running: bool) -> None:
        if self.status_path is None:
            return
        content = model.status(self.view, self.computer, os.getpid(), running, self.clock())
        comparable = {k: v for k, v in content.items() if k != "at"}
        if self._status == comparable and running:
            return  # written on each change only
        self._status = comparable
        with contextlib.suppress(OSError):
            write_status(self.status_path, content)

    # -- requests from the menu, the command line and the platform -----------------------------

    def take(self, part: str = "invoices") -> Any:
        keeper = self.lease.renew(part, active=self.active.active(self.clock()), take=True,
                                  wrote=self.wrote[part])  # fmt: skip
        self.tick()
        return keeper

    def forget(self, computer: str) -> None:
        self.lease.forget(computer)
        self.tick()

    def pause(self, parts: list[str]) -> None:
        """Close these parts and keep them closed until `unpause` (the command line's close)."""
        for part in parts:
            self.lease.close(part, wrote=self.wrote[part])
            self.paused.add(part)
        self._save_paused()
        self.tick()

    def unpause(self, parts: list[str]) -> None:
        self.paused -= set(parts)
        self._save_paused()
        self.tick()

    def _load_paused(self) -> set[str]:
        if self.paused_path is None:
            return set()
        try:
            content = json.loads(self.paused_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return set()
        except (OSError, ValueError):
            return set()  # unreadable: both parts renew, as before any `close`
        parts = content.get("closed") if isinstance(content, dict) else None
        return {p for p in parts if p in PARTS} if isinstance(parts, list) else set()

    def _save_paused(self) -> None:
        if self.paused_path is None:
            return
        with contextlib.suppress(OSError):
            write_status(self.paused_path, {"closed": sorted(self.paused)})

    def set_wrote(self, part: str, wrote: int) -> None:
        if part not in PARTS:
            raise ValueError(f"no part named {part!r}")
        self.wrote[part] = wrote

    def close_claims(self) -> None:
        """Close both parts (with `wrote`): nothing is marked here until the next renew."""
        if self._closed:
            return
        for part in PARTS:
            with contextlib.suppress(OSError):
                self.lease.close(part, wrote=self.wrote[part])
        self._closed = True

    def suspend(self) -> None:
        """Before sleep: close both claims and stop renewing until `resume`."""
        self.asleep = True
        self.timer.stop()
        self._reread.stop()
        self.close_claims()
        self._write_status(running=False)

    def resume(self) -> None:
        """After wake: renew at once, quietly."""
        if not self.running:
            return
        self.asleep = False
        self.notifier.quiet(self.monotonic() + QUIET_AFTER_WAKE)
        self._last_tick = None
        self.tick()
        self.timer.start()
        self.woke.emit()

    def shutdown(self) -> None:
        """Quit, SIGTERM, SIGINT, end of session: close both parts before the process exits."""
        if not self.running:
            return
        self.running = False
        self.timer.stop()
        self._reread.stop()
        self.close_claims()
        self._write_status(running=False)


def _describe(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{exc.strerror or exc}{where}"
