"""Several computers, each on its own replica of one sharing folder, synced by hand.

The adversarial review's set-up: each computer runs a real `Lease` on its own replica folder with
its own fake clock (and, when asked, its own state directory); "sync" is copying one claim file
into another replica through a temporary and a rename, as a sync tool does, so the tests decide
exactly which version lands where and when.

Every call of a tray started by `Replicas.lease` is followed by a check of the invariants
(`sioul_tray.lease.invariants`, docs/protocol.md "Why it is safe") on the whole world: the
knowledge of every tray still running (a tray whose `Lease` the test dropped, `del a`, is down),
every claim they wrote, at the true time of `advance`. Violations are kept with the calls that led
to them (`Replicas.violations`); tests/lease/conftest.py fails a test whose trays all ran every
fix and broke one.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from sioul_tray.lease import RENEW, Keeper, Lease, invariants, statefile
from sioul_tray.lease.rules import EVERY_FIX, Fixes
from sioul_tray.share import SEAL_NAME, Share
from tests.helpers import T0, FakeClock

PASSPHRASE = "correct horse battery staple"
PART = "invoices"
# Every world made in this process, for the conftest's check at a test's end.
MADE: list[Replicas] = []


class Watched(Lease):
    """A computer's tray on its replica: a real `Lease` whose every call its world checks."""

    world: Replicas
    began: float
    verdict: Keeper | None
    judged_at: float
    all_fixes: bool

    def renew(
        self,
        part: str,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        *,
        confirm: bool = False,
    ) -> Keeper:
        keeper = super().renew(part, active, take, wrote, confirm=confirm)
        self.world.observe(self, part, "take" if take else "renew", keeper)
        return keeper

    def close(self, part: str, wrote: int | None = None) -> None:
        super().close(part, wrote)
        self.world.observe(self, part, "close", None)

    def look(self, part: str) -> Keeper:
        keeper = super().look(part)
        self.world.observe(self, part, "look", keeper)
        return keeper

    def forget(self, computer: str) -> None:
        super().forget(computer)
        self.world.observe(self, PART, f"forget {computer}", None)


class Replicas:
    """Replicas of one folder, one per computer; the first id creates the seal."""

    def __init__(
        self,
        root: Path,
        ids: list[str],
        offsets: dict[str, float] | None = None,
        arrives: float | None = None,
    ) -> None:
        self.root = root
        self.ids = ids
        # The invariants' view: true time, the trays running, every claim written, the calls.
        # `arrives`: the protocol's assumption on deliveries, where a test keeps it (S2).
        self.now = 0.0
        self.arrives = arrives
        self.running: weakref.WeakValueDictionary[str, Watched] = weakref.WeakValueDictionary()
        self.history: dict[str, list[invariants.Written]] = {c: [] for c in ids}
        self.calls: list[str] = []
        self.violations: list[str] = []
        self.all_fixes = True
        # Sioul's records, where a test tracks them (S6): the highest mark each computer said
        # yes to and when, and each `wrote` its status told.
        self.said: dict[str, tuple[int, float]] = {}
        self.statuses: list[tuple[str, float, int | None]] = []
        MADE.append(self)
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
        lease = Watched(
            own, c, name=c.upper(), clock=self.clocks[c], state_dir=state_dir, fixes=fixes
        )
        lease.world, lease.began, lease.verdict, lease.judged_at = self, self.now, None, self.now
        lease.all_fixes = fixes == EVERY_FIX
        self.all_fixes = self.all_fixes and lease.all_fixes
        self.running[c] = lease
        self.calls.append(f"t+{self.now:.0f} {c} starts{'' if state else ' (memory only)'}")
        return lease

    def advance(self, seconds: float) -> None:
        """True time passes for every computer."""
        self.now += seconds
        for clock in self.clocks.values():
            clock.advance(seconds)

    def observe(self, lease: Watched, part: str, call: str, keeper: Keeper | None) -> None:
        """After a call of `lease`: its claim written, its verdict, then every invariant."""
        if part != PART:
            return
        me = lease.computer
        lease.verdict, lease.judged_at = keeper, self.now
        if self.running.get(me) is not lease:
            return  # an older tray of this computer, still called by the test: not the world's
        mine = lease.knowledge(PART).best.get(me)
        written = self.history.setdefault(me, [])
        if mine is not None and (not written or written[-1].claim != mine):
            written.append(invariants.Written(mine, self.now))
        acts = " ACTS" if keeper is not None and keeper.acting else ""
        self.calls.append(f"t+{self.now:.0f} {me} {call}{acts}")
        for v in invariants.check(self.moment()):
            if not any(seen.startswith(f"{v.invariant} ") for seen in self.violations):
                # The first break of each invariant, with the calls that led to it.
                self.violations.append(f"{v}\n  after:\n  " + "\n  ".join(self.calls))

    def said_yes(self, c: str, mark: int) -> None:
        """`c`'s tray said yes to Sioul for `mark` (S6 holds its later claims to it)."""
        self.said[c] = (max(mark, self.said.get(c, (mark, 0.0))[0]), self.now)

    def told(self, c: str, wrote: int | None) -> None:
        """`c`'s status told Sioul its records count up to `wrote` (None: unknown)."""
        self.statuses.append((c, self.now, wrote))

    def moment(self) -> invariants.Moment:
        """The world now, as the invariants read it."""
        minds: dict[str, invariants.Mind] = {}
        for c, lease in list(self.running.items()):
            k = lease.knowledge(PART)
            if k.last_tick is None:
                continue  # started, never called: it knows nothing yet
            since = self.now - lease.judged_at
            verdict = lease.verdict
            minds[c] = invariants.Mind(
                k,
                k.last_tick + since,
                acting=verdict is not None and verdict.acting and since <= lease.timing.renew,
                judged=k.last_tick,
                judged_at=lease.judged_at,
                began=lease.began,
            )
        records = invariants.Records(said_yes=dict(self.said), statuses=tuple(self.statuses))
        return invariants.Moment(self.now, minds, self.history, records, arrives=self.arrives)

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


def in_use(r: Replicas, *leases: Lease, rounds: int = 3, part: str = PART) -> None:
    """A folder in use: each tray renews, the sync delivers everything, a minute passes."""
    for _ in range(rounds):
        for lease in leases:
            lease.renew(part)
        r.sync_all(part)
        r.advance(RENEW)


def acting(*keepers: Keeper) -> list[str]:
    return sorted(k.computer or "?" for k in keepers if k.acting)
