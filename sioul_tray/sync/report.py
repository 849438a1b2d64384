"""What Syncthing knows of the sharing folder's sync, asked now and then from a thread of its own.

The tray's menu says it instead of guessing ("is the sync running?"): Syncthing does not answer,
has paused the folder, or is not connected to a computer that shares it (since when). Asking
takes a few requests under a second each; the tray's loop only reads the last answer.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass

from sioul_tray.sync.syncthing import Client, Syncthing, SyncToolError

EVERY = 30.0  # seconds between two questions


@dataclass(frozen=True)
class Unconnected:
    """A device sharing the folder that Syncthing is not connected to now."""

    name: str  # as Syncthing names it (its configuration), else its id's first block
    last_seen: float | None  # Unix seconds; None: never connected


@dataclass(frozen=True)
class SyncReport:
    answering: bool
    problem: str | None = None  # why Syncthing could not be asked
    paused: bool = False  # the sharing folder is paused in Syncthing
    unconnected: tuple[Unconnected, ...] = ()
    connected: int = 0  # devices sharing the folder connected now


def ask(syncthing: Syncthing, client: Client) -> SyncReport:
    """Syncthing's answer now, or what stops it answering (never raises SyncToolError)."""
    folder = syncthing.folder
    try:
        paused = client.folder_paused(folder.id)
        me = client.my_id()
        links = client.connections()
        seen = client.last_seen()
    except SyncToolError as e:
        return SyncReport(False, problem=str(e))
    names = {d.id: d.name for d in syncthing.config.devices}
    unconnected = []
    connected = 0
    for device in folder.devices:
        if device == me:
            continue
        link = links.get(device)
        if link is not None and link.connected and not link.paused:
            connected += 1
            continue
        name = names.get(device) or device.split("-")[0]
        unconnected.append(Unconnected(name, seen.get(device)))
    return SyncReport(True, paused=paused, unconnected=tuple(unconnected), connected=connected)


class Watch:
    """Asks Syncthing every `every` seconds from a daemon thread; `report` is the last answer
    (None until the first)."""

    def __init__(
        self,
        syncthing: Syncthing,
        client: Client | None = None,
        every: float = EVERY,
        changed: Callable[[], None] | None = None,
    ) -> None:
        self.syncthing = syncthing
        self.client = client
        self.every = every
        # Told (from this thread) when an answer differs from the last: the menu says it now.
        self.changed = changed
        self.report: SyncReport | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sioul-sync-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # The menu's Syncthing line is this thread's: nothing may end it, neither an answer
        # however odd (a problem it reports) nor the one it tells.
        while not self._stop.is_set():
            before = self.report
            self.report = self._asked()
            if self.changed is not None and self.report != before:
                with contextlib.suppress(Exception):
                    self.changed()
            self._stop.wait(self.every)

    def _asked(self) -> SyncReport:
        try:
            return ask(self.syncthing, self.client or self.syncthing.client())
        except SyncToolError as e:
            return SyncReport(False, problem=str(e))
        except Exception as e:  # a surprise of the client's: said, and asked again next time
            return SyncReport(False, problem=f"Syncthing could not be asked: {type(e).__name__}")

    def close(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(timeout)
