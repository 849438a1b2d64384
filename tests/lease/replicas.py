"""Several computers, each on its own replica of one sharing folder, synced by hand.

The adversarial review's set-up: each computer runs a real `Lease` on its own replica folder with
its own fake clock (and, when asked, its own state directory); "sync" is copying one claim file
into another replica through a temporary and a rename, as a sync tool does, so the tests decide
exactly which version lands where and when.
"""

from __future__ import annotations

import os
from pathlib import Path

from sioul_tray.lease import Keeper, Lease, statefile
from sioul_tray.lease.rules import EVERY_FIX, Fixes
from sioul_tray.share import SEAL_NAME, Share
from tests.helpers import T0, FakeClock

PASSPHRASE = "correct horse battery staple"


class Replicas:
    """Replicas of one folder, one per computer; the first id creates the seal."""

    def __init__(self, root: Path, ids: list[str], offsets: dict[str, float] | None = None) -> None:
        self.root = root
        self.ids = ids
        self.clocks = {c: FakeClock(T0 + (offsets or {}).get(c, 0.0)) for c in ids}
        self.shares: dict[str, Share] = {}
        first = root / ids[0]
        first.mkdir(parents=True)
        made = Share.create(first, PASSPHRASE, ids[0], cost=10)
        # As the setup that sealed it does, the creator's state file begins: its first run shows
        # it made the folder (`Installation.made_folder`).
        statefile.begin(statefile.state_file(root / "state" / ids[0], made.folder_id, ids[0]))
        self.shares[ids[0]] = made
        for c in ids[1:]:
            folder = root / c
            folder.mkdir()
            (folder / SEAL_NAME).write_bytes((first / SEAL_NAME).read_bytes())
            self.shares[c] = Share.unlock(folder, made.folder_key)

    def folder(self, c: str) -> Path:
        return self.shares[c].folder

    def lease(self, c: str, *, state: bool = True, fixes: Fixes = EVERY_FIX) -> Lease:
        """`c`'s tray, started: with its state directory (kept across restarts) or memory only;
        with every fix, or the core before one (`fixes`)."""
        own = Share.unlock(self.folder(c), self.shares[c].folder_key)
        state_dir = self.root / "state" / c if state else None
        return Lease(own, c, name=c.upper(), clock=self.clocks[c], state_dir=state_dir, fixes=fixes)

    def advance(self, seconds: float) -> None:
        """True time passes for every computer."""
        for clock in self.clocks.values():
            clock.advance(seconds)

    def claim_file(self, c: str, owner: str, part: str = "invoices") -> Path:
        return self.folder(c) / "leases" / part / f"{owner}.lease"

    def version(self, owner: str, part: str = "invoices") -> bytes:
        """The bytes of `owner`'s claim as it is now in its own replica (to deliver later)."""
        return self.claim_file(owner, owner, part).read_bytes()

    def deliver(self, data: bytes, owner: str, to: str, part: str = "invoices") -> None:
        """One version of `owner`'s claim lands in `to`'s replica (temporary, then rename)."""
        target = self.claim_file(to, owner, part)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".syncthing.{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)

    def sync(self, owner: str, to: str, part: str = "invoices") -> None:
        """`owner`'s current claim reaches `to`."""
        self.deliver(self.version(owner, part), owner, to, part)

    def sync_all(self, part: str = "invoices") -> None:
        for owner in self.ids:
            if self.claim_file(owner, owner, part).exists():
                for to in self.ids:
                    if to != owner:
                        self.sync(owner, to, part)


def acting(*keepers: Keeper) -> list[str]:
    return sorted(k.computer or "?" for k in keepers if k.acting)
