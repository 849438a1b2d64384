"""Where else claims come from: a remote overlay, and its folder-backed implementation.

An overlay gives sealed claim files from somewhere other than the sharing folder (a server, a second
synced folder). `Lease` merges its copies with the folder's: the higher ``seq`` wins, the folder's a
tie. Its files obey the folder's rules: same names, same seals, same limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from sioul_tray.files import make_folders
from sioul_tray.lease.folder import Entry, scan, write_atomic


class Overlay(Protocol):
    """Another source of claim files, in the folder's layout."""

    name: str

    def fetch(self, part: str) -> Iterable[Entry]:
        """The claim files this overlay holds for `part` (each with its bytes or its problem)."""
        ...

    def publish(self, part: str, file_name: str, data: bytes) -> None:
        """Store this computer's sealed claim file, so readers of the overlay get it too."""
        ...


class FolderOverlay:
    """An overlay backed by a folder with its own ``leases/<part>/`` tree."""

    def __init__(self, root: Path, name: str | None = None) -> None:
        self.root = Path(root)
        self.name = name or str(self.root)

    def fetch(self, part: str) -> Iterable[Entry]:
        return scan(self.root / "leases" / part, careful=True)

    def publish(self, part: str, file_name: str, data: bytes) -> None:
        folder = self.root / "leases" / part
        make_folders(folder, 0o755)
        write_atomic(folder / file_name, data)
