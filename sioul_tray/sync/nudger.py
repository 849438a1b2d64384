"""Asks Syncthing to send a claim file now, without ever making the writer wait.

`Nudger.nudge(path)` only queues the path; a daemon thread turns what is queued into one
``POST /rest/db/scan`` (duplicates coalesced, several paths in one request). A nudge is a hint:
if Syncthing does not answer, its watcher still sends the file ~10 s later, so failures are kept
in `problem` for the tray to show and are never raised, and nothing is retried.
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

from sioul_tray.sync.syncthing import (
    DEFAULT_TIMEOUT,
    Client,
    Syncthing,
    SyncToolError,
    sent_to_all,
)

_STOP = object()  # queued by close(): the worker ends


class Nudger:
    """Scans the files it is told about in `syncthing`'s folder, from its own thread."""

    def __init__(self, syncthing: Syncthing, client: Client | None = None) -> None:
        self.syncthing = syncthing
        self._client = client
        self._queue: queue.SimpleQueue[Path | object] = queue.SimpleQueue()
        self._lock = threading.Condition()
        self._pending = 0  # nudges queued or being sent; guarded by _lock
        self._closed = False
        self._problem: str | None = None
        self._scans = 0
        self._worker = threading.Thread(target=self._work, name="sioul-nudger", daemon=True)
        self._worker.start()

    @property
    def problem(self) -> str | None:
        """The last failure, None since the last scan that went through."""
        with self._lock:
            return self._problem

    @property
    def scans(self) -> int:
        """How many scan requests Syncthing accepted."""
        with self._lock:
            return self._scans

    def nudge(self, path: Path) -> None:
        """Queue a scan of `path` (a file inside the folder); returns at once. Ignored once
        closed."""
        with self._lock:
            if self._closed:
                return
            self._pending += 1
            self._queue.put(path)

    def flush(self, timeout: float) -> bool:
        """Wait until every nudge queued so far has been tried (see `problem` for how it went);
        False when `timeout` seconds passed first."""
        with self._lock:
            return self._lock.wait_for(lambda: self._pending == 0, timeout)

    def sent_to_all(self, timeout: float) -> bool:
        """flush(), then wait until every connected device has everything (`sent_to_all` in
        syncthing.py) within what is left of `timeout`. Never raises: a failure is `problem`."""
        deadline = time.monotonic() + timeout
        if not self.flush(timeout):
            return False
        try:
            return sent_to_all(
                self._get_client(), self.syncthing.folder, max(0.0, deadline - time.monotonic())
            )
        except SyncToolError as e:
            self._record(str(e))
            return False

    def close(self, timeout: float = 2 * DEFAULT_TIMEOUT) -> None:
        """Stop the worker after what is queued; waits at most `timeout` seconds."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(_STOP)
        self._worker.join(timeout)

    # -- the worker -----------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Whatever else is queued already goes in the same request.
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = _STOP in batch
            paths = [item for item in batch if isinstance(item, Path)]
            try:
                self._send(paths)
            except Exception as e:  # the worker must outlive any surprise
                self._record(f"Could not ask Syncthing to scan: {type(e).__name__}: {e}")
            finally:
                with self._lock:
                    self._pending -= len(paths)
                    self._lock.notify_all()
            if stop:
                return

    def _send(self, paths: list[Path]) -> None:
        subs: dict[str, None] = {}  # ordered and without duplicates
        outside = None
        for path in paths:
            try:
                subs[self.syncthing.sub(path)] = None
            except SyncToolError as e:
                outside = str(e)
        if subs:
            try:
                self._get_client().scan(self.syncthing.folder.id, *subs)
            except SyncToolError as e:
                self._record(str(e))
                return
            with self._lock:
                self._scans += 1
                self._problem = outside
        elif outside is not None:
            self._record(outside)

    def _get_client(self) -> Client:
        if self._client is None:
            self._client = self.syncthing.client()  # raises when there is no GUI to ask
        return self._client

    def _record(self, problem: str) -> None:
        with self._lock:
            self._problem = problem
