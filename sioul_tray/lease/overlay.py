"""Where else claims come from: a remote overlay, and its folder-backed implementation.

An overlay gives sealed claim files from somewhere other than the sharing folder (a server, a second
synced folder). `Lease` merges its copies with the folder's: the higher ``seq`` wins, the folder's a
tie. Its files obey the folder's rules: same names, same seals, same limits.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from sioul_tray.files import make_folders, write_atomic
from sioul_tray.lease.folder import Entry, linked_folder, scan


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
        # A link planted as `leases/` or the part's folder is refused, as in the sharing folder:
        # followed, it would have claims listed and written wherever it points.
        refused = linked_folder(self.root, part)
        if refused:
            return [Entry(refused[0], problem=refused[1])]
        return scan(self.root / "leases" / part, careful=True)

    def publish(self, part: str, file_name: str, data: bytes) -> None:
        folder = self.root / "leases" / part
        refused = linked_folder(self.root, part)
        if refused:
            raise OSError(errno.ELOOP, refused[1], str(folder))
        make_folders(folder, 0o755)
        write_atomic(folder / file_name, data)
