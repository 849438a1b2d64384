"""The sync model: the sync service's copy of the folder, and one sync client per computer.

Hub and spokes, as Dropbox, OneDrive, iCloud and Nextcloud work (Syncthing is peer to peer, but a
change still goes out from its writer and in to each reader): a claim written in replica A is
uploaded after A's upload delay, then downloaded into each other replica after that replica's
download delay. A transfer carries the *current* bytes at the time it happens, so quick rewrites
coalesce as they do in real tools, and a download lands with a rename: no reader sees a torn file.

The nudge (sioul_tray/sync/): the tray asks Syncthing to scan a claim file right after writing it,
and before sleep holds logind's delay inhibitor until Syncthing reports it sent. A client that is
`nudged` sends what waits to go up within NUDGE_SEND of a told sleep (measured: 0.05 s to the other
Syncthing, against 5.9 to 14.4 s for its watcher alone), when its uploads can go at all; a stopped,
stalled-up, offline or between-bursts client still holds them. Other writes keep their drawn
delays (conservative: the real nudge sends every claim sooner).

Faults live here too: a stopped sync, a download stall, a phone whose client only runs in bursts,
claims evicted to placeholders, a restored older version, conflicted copies beside claims.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .records import FOLDER

if TYPE_CHECKING:
    from .world import Computer, World

Delay = Callable[[random.Random], float]

NUDGE_SEND = 0.05  # a nudged upload reaches the other devices this soon (measured, true s)
HISTORY_EVERY = 1800.0  # the service keeps a version of a claim at most this often (true s)
HISTORY_KEEP = 3 * 86400.0  # and forgets versions older than this


def write_replica(path: Path, data: bytes) -> None:
    """Put bytes in a replica as a sync tool does: a temporary beside it, then one rename."""
    tmp = path.with_name(f".syncthing.{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def read_replica(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


@dataclass
class Cloud:
    """The sync service's copy of every claim, with a sparse version history (for restores)."""

    files: dict[str, bytes] = field(default_factory=dict)
    history: dict[str, list[tuple[float, bytes]]] = field(default_factory=dict)

    def put(self, rel: str, data: bytes, now: float) -> bool:
        """Store a new version; False when the service has these bytes already."""
        if self.files.get(rel) == data:
            return False
        self.files[rel] = data
        kept = self.history.setdefault(rel, [])
        if not kept or now - kept[-1][0] >= HISTORY_EVERY:
            kept.append((now, data))
            while kept and now - kept[0][0] > HISTORY_KEEP:
                kept.pop(0)
        return True

    def older(self, rel: str, now: float, rng: random.Random) -> bytes | None:
        """A kept version at least an hour old, as a restore from the version history brings."""
        versions = [data for when, data in self.history.get(rel, []) if now - when >= 3600]
        if not versions or versions[-1] == self.files.get(rel):
            return None
        return rng.choice(versions)


class Client:
    """One computer's sync client: pending uploads and downloads, and its faults.

    A transfer waits (stays pending) while the client cannot move it: the machine is off or asleep,
    the sync is stopped, downloads stall, or (a phone) the client is between two bursts.
    """

    def __init__(self, world: World, host: Computer, delay: Delay) -> None:
        self.world = world
        self.host = host
        self.delay = delay
        self.up: dict[str, bool] = {}  # pending uploads: rel -> a transfer is scheduled
        self.down: dict[str, bool] = {}  # pending downloads: rel -> a transfer is scheduled
        self.stopped = 0  # nested "sync stopped" windows (both directions)
        self.stalled = 0  # nested "downloads stall" windows
        self.bursty = False  # a phone: the client only runs during bursts
        self.in_burst = False
        self.reconnecting = False  # just woke or booted: the client is not connected yet
        self.evicted: set[str] = set()  # claims that are placeholders here for now
        self.nudged = False  # the tray nudges this sync tool (Syncthing); False: Dropbox and others

    # -- state ------------------------------------------------------------------------------

    def can_up(self) -> bool:
        return (
            self.host.online
            and not self.reconnecting
            and not self.stopped
            and (not self.bursty or self.in_burst)
        )

    def can_down(self) -> bool:
        return self.can_up() and not self.stalled

    @property
    def healthy(self) -> bool:
        """Both directions flow as a desktop sync tool's do (a phone between bursts does not)."""
        return self.can_down() and not self.bursty

    # -- transfers ---------------------------------------------------------------------------

    def local_changed(self, rel: str) -> None:
        """This computer wrote `rel` in its replica: upload it."""
        self.up.setdefault(rel, False)
        self._kick(self.up, rel, self._upload, self.can_up())

    def remote_changed(self, rel: str) -> None:
        """The service has a new version of `rel`: download it."""
        self.down.setdefault(rel, False)
        self._kick(self.down, rel, self._download, self.can_down())

    def send_now(self) -> bool:
        """The nudge before sleep: what waits to go up goes within NUDGE_SEND, if uploads can go
        and the tool is nudged. True when it was sent that way (the inhibitor is released then)."""
        if not (self.nudged and self.can_up()):
            return False
        for rel in sorted(self.up):
            self.up[rel] = True  # a later scheduled transfer finds it gone and does nothing
            self.world.after(NUDGE_SEND, self._upload, rel)
        return True

    def resume(self) -> None:
        """Something that held transfers back ended: schedule what waits."""
        for rel in sorted(self.up):
            self._kick(self.up, rel, self._upload, self.can_up())
        for rel in sorted(self.down):
            self._kick(self.down, rel, self._download, self.can_down())

    def _kick(
        self, pending: dict[str, bool], rel: str, move: Callable[[str], None], can: bool
    ) -> None:
        if pending.get(rel) is False and can:
            pending[rel] = True
            numberer = self.world.numberer
            if numberer is not None and rel.startswith(f"{FOLDER}/"):
                # Records: later than the claims, on their own draws (the claims' timeline is
                # the same with them or without).
                self.world.after(self.delay(numberer.rng) + numberer.delay(), move, rel)
                return
            self.world.after(self.delay(self.world.rng), move, rel)

    def _upload(self, rel: str) -> None:
        if rel not in self.up:
            return
        if not self.can_up():
            self.up[rel] = False  # waits for resume
            return
        del self.up[rel]
        data = read_replica(self.host.replica / rel)
        if data is None:
            return
        if self.world.cloud.put(rel, data, self.world.now):
            for other in self.world.clients():
                if other is not self:
                    other.remote_changed(rel)

    def _download(self, rel: str) -> None:
        if rel not in self.down:
            return
        if not self.can_down():
            self.down[rel] = False
            return
        del self.down[rel]
        if rel in self.evicted:
            return  # the placeholder stays; the file comes back with the service's bytes later
        self.deliver(rel)

    def deliver(self, rel: str) -> None:
        """Copy the service's current bytes of `rel` into this replica; tell the tray."""
        data = self.world.cloud.files.get(rel)
        path = self.host.replica / rel
        if data is None or read_replica(path) == data:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        write_replica(path, data)
        if not rel.startswith(f"{FOLDER}/"):  # the tray watches its claims, not Sioul's records
            self.host.folder_changed()

    # -- faults ------------------------------------------------------------------------------

    def evict(self, rel: str) -> None:
        """The file becomes a placeholder (iCloud up to macOS 13): the claim is not there."""
        path = self.host.replica / rel
        if rel in self.evicted or not path.exists():
            return
        self.evicted.add(rel)
        path.unlink()
        path.with_name(f".{path.name}.icloud").write_bytes(b"placeholder")
        self.host.folder_changed()

    def restore(self, rel: str) -> None:
        """The placeholder is downloaded again, with the service's current bytes."""
        if rel not in self.evicted:
            return
        self.evicted.discard(rel)
        path = self.host.replica / rel
        path.with_name(f".{path.name}.icloud").unlink(missing_ok=True)
        self.down.setdefault(rel, False)
        self._kick(self.down, rel, self._download, self.can_down())
