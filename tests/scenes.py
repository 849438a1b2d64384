"""Every status the core can produce, each from real Leases on a real folder (no hand-built state).

`scene(why, ...)` returns the `Keeper` this computer ("pc", "This PC") sees for a part in a
situation that gives that reason, with the lease and the clock, so the menu, the command line and
the notifications are tested on what the core really says. Times start at `T0` (a fake clock).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sioul_tray.lease import ALIVE, RENEW, SETTLING, Keeper, Lease
from sioul_tray.lease.status import Why
from sioul_tray.share import SEAL_NAME, Share
from tests.helpers import FakeClock

T0 = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC
PASS = "correct horse battery"


@dataclass
class Scene:
    keeper: Keeper
    lease: Lease  # this computer's
    clock: FakeClock
    share: Share


class _Folder:
    def __init__(self, root: Path, creator: str = "office") -> None:
        self.folder = root / "share"
        self.folder.mkdir(parents=True)
        self.share = Share.create(self.folder, PASS, creator, cost=10)
        self.clock = FakeClock(T0)

    def lease(self, cid: str, name: str) -> Lease:
        own = Share.unlock(self.folder, self.share.folder_key)
        return Lease(own, cid, name=name, clock=self.clock)

    def run(
        self, seconds: float, *leases: Lease, part: str, active: float | None = None
    ) -> list[Keeper]:
        keepers: list[Keeper] = []
        for _ in range(int(seconds // RENEW)):
            self.clock.advance(RENEW)
            keepers = [lease.renew(part, active=active) for lease in leases]
        return keepers


def scene(why: Why, root: Path, part: str = "invoices", variant: str = "") -> Scene:
    """This computer's view of `part` for `why`. Variants: WAITING "silent" (a computer waited
    for went quiet) or "stalled" (nothing heard from anyone); ELSEWHERE "silent" (the keeper went
    quiet), "starting" (the keeper's claim does not say it acts yet) or "commands" (the keeper
    took them by a one-shot command and runs no tray: its claim never says it acts;
    "commands-idle": and renewed them by commands for longer than settling); BLOCKED "clone"
    (another installation with this id); WAITING "morning" (pc took invoices and quit first, the
    office numbered last and quit; the next morning pc started alone) or "on-close" (pc slept,
    the office died meanwhile, and pc's person declared it gone: it may be numbering on pc's
    close, so the declaration waits for it to be heard); ACTING "last" (the office
    ran beside pc and quit: pc is the last tray); SETTLING "handed" (the office numbered on its
    take, then quit naming pc)."""
    f = _Folder(root, creator="pc" if why in (Why.ACTING, Why.SETTLING, Why.BLOCKED) else "office")
    pc = f.lease("pc", "This PC")
    if why is Why.NOBODY:
        return Scene(pc.look(part), pc, f.clock, f.share)
    if why is Why.SETTLING:
        if variant == "handed":  # the office numbered (its take); it quit, naming pc
            office = f.lease("office", "Office PC")
            pc.renew(part)
            office.renew(part, take=True)
            f.run(SETTLING + 2 * RENEW, office, pc, part=part)
            office.close(part)
            f.clock.advance(RENEW)
        return Scene(pc.renew(part), pc, f.clock, f.share)
    if why is Why.ACTING and variant == "last":  # the office ran beside pc and quit
        office = f.lease("office", "Office PC")
        pc.renew(part)  # the older claim: pc keeps invoices
        f.clock.advance(1)
        f.run(RENEW, pc, office, part="medicines")
        f.run(SETTLING + 2 * RENEW, pc, office, part=part)
        for other in ("medicines", "invoices"):
            office.close(other)
        f.run(RENEW, pc, part="medicines")
        return Scene(pc.renew(part), pc, f.clock, f.share)
    if why is Why.ACTING:  # both parts, alone in the folder this computer made
        for other in ("medicines", "invoices"):
            pc.renew(other)
        f.clock.advance(SETTLING)
        pc.renew("medicines" if part == "invoices" else "invoices")
        return Scene(pc.renew(part), pc, f.clock, f.share)
    if why is Why.ALONE:  # joined a folder made by "office", whose claims never arrived
        f.run(SETTLING + RENEW, pc, part=part)
        return Scene(pc.renew(part), pc, f.clock, f.share)
    if why is Why.BLOCKED:
        f.run(SETTLING + RENEW, pc, part=part)
        if variant == "clone":
            twin = f.lease("pc", "This PC's copy")
            twin.renew(part)
        else:
            other_folder = root / "other"
            other_folder.mkdir()
            Share.create(other_folder, "another passphrase", "laptop", cost=10)
            shutil.copyfile(other_folder / SEAL_NAME, f.folder / SEAL_NAME)
        return Scene(pc.renew(part), pc, f.clock, f.share)
    office = f.lease("office", "Office PC")
    if why is Why.ELSEWHERE:  # "silent": the office went quiet, its claim still holds invoices
        if variant.startswith("commands"):  # this computer keeps them; the office takes them by a
            # command
            f.run(SETTLING + RENEW, pc, part=part)
            f.lease("office", "Office PC").renew(part, take=True)  # one-shot: a Lease of its own
            f.clock.advance(RENEW)
            if variant == "commands-idle":  # ...renewed by a timer's one-shot commands since
                for _ in range((SETTLING + 3 * RENEW) // RENEW):
                    f.lease("office", "Office PC").renew(part)
                    pc.renew(part)
                    f.clock.advance(RENEW)
            return Scene(pc.renew(part), pc, f.clock, f.share)
        other = "medicines" if part == "invoices" else "invoices"
        for p in (other, part):  # the office keeps both: the older claim, the person there
            office.renew(p)
        f.clock.advance(1)
        for p in (other, part):
            pc.renew(p, active=T0 - 3600)
        # One renew past settling: the office's claim then says it acts (`Claim.acting`).
        for _ in range(SETTLING // RENEW + (variant != "starting")):
            f.clock.advance(RENEW)
            for p in (other, part):
                office.renew(p)
                pc.renew(p, active=T0 - 3600)
        if variant == "silent":
            f.run(ALIVE + RENEW, pc, part=part, active=T0 - 3600)
        return Scene(pc.renew(part, active=T0 - 3600), pc, f.clock, f.share)
    laptop = f.lease("laptop", "Laptop")
    if why is Why.AWAY:  # medicines: the person was here, then left; the laptop went silent
        office.close("medicines")
        for _ in range(3):  # the person at this computer; the laptop agrees
            f.clock.advance(RENEW)
            laptop.renew("medicines", active=T0 - 3600)
            pc.renew("medicines")
        left = f.clock.now
        for _ in range((ALIVE + RENEW) // RENEW + 1):  # the laptop is not heard any more
            f.clock.advance(RENEW)
            keeper = pc.renew("medicines", active=left)
        return Scene(keeper, pc, f.clock, f.share)
    if variant == "morning":  # pc took invoices and quit first; the office numbered last
        pc.renew(part, take=True)
        f.run(SETTLING + 2 * RENEW, pc, office, part=part)
        pc.close(part)
        f.run(SETTLING + 2 * RENEW, office, part=part)
        office.close(part)
        f.clock.advance(10 * 3600)
        f.run(ALIVE + 2 * RENEW, pc, part=part)  # the next morning, pc alone: silence
        return Scene(pc.renew(part), pc, f.clock, f.share)
    if variant == "on-close":  # pc slept, its close admitting the office, which died meanwhile
        f.run(SETTLING + 2 * RENEW, office, pc, part=part)
        pc.close(part)
        f.clock.advance(3600)
        f.run(ALIVE + 2 * RENEW, pc, part=part)  # pc wakes: the office is silent
        pc.forget("office")  # the person declares it gone: it may count pc's close, for good
        f.run(SETTLING + RENEW, pc, part=part)
        return Scene(pc.renew(part), pc, f.clock, f.share)
    # WAITING: pc takes invoices; office and laptop have not answered yet.
    f.run(SETTLING, office, laptop, pc, part=part)
    if variant == "silent":  # the laptop stops renewing: it may be gone
        f.run(ALIVE + RENEW, office, pc, part=part)
    if variant == "stalled":  # nothing reaches pc any more: its own sync looks stopped
        f.run(ALIVE + RENEW, pc, part=part)
    pc.renew(part, take=True)
    f.clock.advance(SETTLING)
    if variant == "silent":
        office.renew(part)
    return Scene(pc.renew(part), pc, f.clock, f.share)
