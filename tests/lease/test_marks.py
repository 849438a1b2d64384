"""Issue 39, class 1: the records mark goes back (S6, "a mark never goes back"; S5 beside it).

Real replicas (tests/lease/replicas.py): each computer a real `Lease` on its own replica folder
with its own state directory, and the real tray loop (`tray.driver.Driver`) writing the real
`status.json`, as Sioul reads it. Sioul is told yes for mark 5 on aa; aa's tray is killed and an
older copy of its own claim (mark 2) comes back into its folder while it is down, with its state
file kept, or lost too. With `Fixes.marks_kept` off, the restarted tray says mark 2 (Sioul drops
records 3 to 5 it had handed out and numbers them again) and bb's `must_have` for aa falls to 2
(a keeper after it numbers 3 to 5 again). With it on, neither goes back: the kept state says 5,
and a state lost makes the mark unknown until the person confirms it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from sioul_tray import client
from sioul_tray.lease import RENEW, Lease, statefile
from sioul_tray.lease.rules import EVERY_FIX, Fixes
from sioul_tray.tray.driver import Driver
from tests.lease.replicas import Replicas

OFF = Fixes(marks_kept=False)
HANDS_ON = Fixes(marks_unproven=False)  # marks kept, but claims hand on while a mark is unknown


class Idle:
    """The person is always at the computer."""

    name = "test idle"
    known = True

    def active(self, now: float) -> int:
        return int(now)


class Pair:
    """aa and bb on their replicas, each with a real tray loop writing its status.json."""

    def __init__(self, root: Path, fixes: Fixes) -> None:
        self.r = Replicas(root, ["aa", "bb"])
        self.fixes = fixes
        self.leases: dict[str, Lease] = {}
        self.drivers: dict[str, Driver] = {}
        for c in ("aa", "bb"):
            self.start(c)

    def state_dir(self, c: str) -> Path:
        return self.r.root / "state" / c

    def start(self, c: str) -> Driver:
        lease = self.r.lease(c, fixes=self.fixes)
        clock = self.r.clocks[c]
        driver = Driver(
            lease, c, Idle(), self.state_dir(c), clock=clock, monotonic=clock, ticks=clock
        )
        driver.start()
        self.leases[c], self.drivers[c] = lease, driver
        return driver

    def kill(self, c: str) -> None:
        """The tray is killed: it closes nothing, saves nothing more."""
        del self.leases[c], self.drivers[c]

    def minute(self, *, sync: bool = True) -> None:
        self.r.advance(RENEW)
        for driver in self.drivers.values():
            driver.tick()
        if sync:
            self.r.sync_all()
        for c, driver in self.drivers.items():
            driver.reread()
            if self.status(c)["running"]:  # a stopped status is read for no mark (`client`)
                self.r.told(c, self.invoices(c)["wrote"])

    def status(self, c: str) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads((self.state_dir(c) / "status.json").read_text())
        return doc

    def invoices(self, c: str) -> dict[str, Any]:
        part: dict[str, Any] = self.status(c)["parts"]["invoices"]
        return part

    def verdict(self, c: str) -> client.Verdict:
        clock = self.r.clocks[c]
        return client.judge(
            "invoices", self.status(c), now=clock.now, ticks=clock.now, alive=lambda _pid: True
        )

    def token(self, c: str) -> str:
        found = self.verdict(c)
        assert found.may, found
        return found.token or ""


def told_yes_for_5(
    root: Path, fixes: Fixes, *, reaches: bool = True, backup: Path | None = None
) -> tuple[Pair, bytes]:
    """aa takes invoices and acts; Sioul there is told yes for mark 2 (aa's state directory
    then copied to `backup`), then for mark 5, and bb reads the claim that carries 5 (unless
    not `reaches`: it never leaves aa's replica). Returns the pair and aa's claim as it was at
    mark 2."""
    p = Pair(root, fixes)
    p.minute()
    p.drivers["aa"].take("invoices")
    for _ in range(5):  # past SETTLING, bb acknowledging aa's tenure
        p.minute()
    assert p.verdict("aa").may and not p.verdict("bb").may
    assert p.drivers["aa"].mark("invoices", 2, p.token("aa")) is None
    p.r.said_yes("aa", 2)
    at_2 = p.r.version("aa")
    if backup is not None:
        shutil.copytree(p.state_dir("aa"), backup)
    p.r.advance(10)  # within ALIVE of the last save: a renewal alone is not saved yet
    assert p.drivers["aa"].mark("invoices", 5, p.token("aa")) is None
    p.r.said_yes("aa", 5)
    assert p.invoices("aa")["wrote"] == 5
    if not reaches:
        return p, at_2
    p.r.sync("aa", "bb")
    p.drivers["bb"].reread()
    assert p.invoices("bb")["must_have"] == {"aa": 5}
    return p, at_2


def restarted(p: Pair, at_2: bytes, lose_state: bool) -> Driver:
    """aa killed; its claim at mark 2 comes back into its folder (and its state file is lost);
    aa starts again and runs a few minutes, its claims reaching bb."""
    p.kill("aa")
    p.r.deliver(at_2, "aa", "aa")
    if lose_state:
        share = p.r.shares["aa"]
        statefile.state_file(p.state_dir("aa"), share.folder_id, "aa").unlink()
    p.r.advance(30)
    driver = p.start("aa")
    for _ in range(6):  # past SETTLING again
        p.minute()
    return driver


@pytest.mark.parametrize("kept", [True, False], ids=["marks_kept", "off"])
def test_an_older_own_copy_back_while_the_tray_is_down(tmp_path: Path, kept: bool) -> None:
    p, at_2 = told_yes_for_5(tmp_path, EVERY_FIX if kept else OFF)
    restarted(p, at_2, lose_state=False)
    mine = next(c for c in p.leases["aa"].claims("invoices") if c.computer == "aa")
    if not kept:
        # The bad outcome: the mark said yes to went back, in aa's claim and status (Sioul
        # drops records 3 to 5 and numbers them again), and in bb's must_have.
        assert mine.wrote == 2 and p.invoices("aa")["wrote"] == 2
        assert p.verdict("aa").may and p.verdict("aa").wrote == 2
        assert p.invoices("bb")["must_have"] == {"aa": 2}
        assert any(v.startswith("S6 ") for v in p.r.violations)  # the invariant it breaks
        return
    # The state file held the mark before the yes: the older copy reads as stale.
    assert mine.wrote == 5 and p.invoices("aa")["wrote"] == 5
    assert p.verdict("aa").may and p.verdict("aa").wrote == 5
    assert p.invoices("bb")["must_have"] == {"aa": 5}


@pytest.mark.parametrize("kept", [True, False], ids=["marks_kept", "off"])
def test_an_older_own_copy_back_and_the_state_file_lost(tmp_path: Path, kept: bool) -> None:
    p, at_2 = told_yes_for_5(tmp_path, EVERY_FIX if kept else OFF)
    driver = restarted(p, at_2, lose_state=True)
    if not kept:
        assert p.invoices("aa")["wrote"] == 2
        assert p.invoices("bb")["must_have"] == {"aa": 2}
        assert any(v.startswith("S6 ") for v in p.r.violations)  # the invariant it breaks
        return
    # aa cannot prove its mark: it says no to Sioul, and its mark is unknown, not 2.
    found = p.verdict("aa")
    assert not found.may and found.reason == client.NOT_ACTING
    assert p.invoices("aa")["wrote"] is None
    assert p.invoices("aa")["status"]["cause"] == "mark"
    # bb keeps the highest mark it read of aa, whatever aa's claims say now.
    assert p.invoices("bb")["must_have"] == {"aa": 5}
    assert not p.verdict("bb").may  # and the part stays with aa, which waits
    # A restart of bb's tray keeps it too: its state file holds the mark it raised.
    p.kill("bb")
    p.start("bb")
    p.minute()
    assert p.invoices("bb")["must_have"] == {"aa": 5}
    # The person confirms the mark (`sioul-tray wrote invoices 5 --confirm`).
    assert driver.confirm("invoices", 5) is None
    for _ in range(4):
        p.minute()
    found = p.verdict("aa")
    assert found.may and found.wrote == 5
    mine = next(c for c in p.leases["aa"].claims("invoices") if c.computer == "aa")
    assert mine.wrote == 5
    assert p.invoices("bb")["must_have"] == {"aa": 5}


def test_a_restart_before_the_person_confirms_still_knows_no_mark(tmp_path: Path) -> None:
    """The state file stays lost while the mark is unknown: a second restart does not read a
    whole state file and take the claim's mark 2 as proven. The command line confirms it with
    no tray running, as the tray does."""
    p, at_2 = told_yes_for_5(tmp_path, EVERY_FIX)
    restarted(p, at_2, lose_state=True)
    p.kill("aa")
    p.start("aa")
    p.minute()
    assert p.invoices("aa")["wrote"] is None and not p.verdict("aa").may
    p.kill("aa")
    p.leases["cli"] = lease = p.r.lease("aa")  # `sioul-tray wrote invoices 5 --confirm`
    lease.renew("invoices", wrote=5, confirm=True)
    del p.leases["cli"]
    p.start("aa")
    for _ in range(4):
        p.minute()
    found = p.verdict("aa")
    assert found.may and found.wrote == 5


@pytest.mark.parametrize("unproven", [True, False], ids=["marks_unproven", "off"])
def test_a_take_while_the_mark_is_unknown_waits_for_the_person(
    tmp_path: Path, unproven: bool
) -> None:
    """The claim with mark 5 never left aa's replica before the kill; aa's state is lost and
    its claim at mark 2 is back, so its mark is unknown. bb's person takes invoices: bb must
    not act on an acknowledgement (or a close) of aa's whose `wrote` is 2."""
    p, at_2 = told_yes_for_5(tmp_path, EVERY_FIX if unproven else HANDS_ON, reaches=False)
    driver = restarted(p, at_2, lose_state=True)
    assert p.invoices("aa")["wrote"] is None and not p.verdict("aa").may  # `marks_kept`
    p.drivers["bb"].take("invoices")
    for _ in range(5):  # past SETTLING
        p.minute()
    aa = next(c for c in p.leases["bb"].claims("invoices") if c.computer == "aa")
    if not unproven:
        # The bad outcome: aa acknowledged bb's take with a claim carrying 2; bb numbers 3 to
        # 5 again, which aa's Sioul had handed out.
        assert aa.sees == "bb" and aa.wrote == 2
        assert p.verdict("bb").may and p.verdict("bb").must_have == {"aa": 2}
        assert any(v.startswith("S6 ") for v in p.r.violations)  # the invariant it breaks
        return
    # aa acknowledges itself alone: bb waits for it, and is never told it may by its silence.
    assert aa.sees == "aa" and not aa.closed
    assert p.invoices("aa")["wrote"] is None  # unknown, bb keeping the part or not
    assert not p.verdict("bb").may and "aa" in p.invoices("bb")["waiting"]
    # aa goes to sleep and wakes: no close is written that bb could count.
    p.drivers["aa"].suspend()
    for _ in range(3):
        p.minute()
    aa = next(c for c in p.leases["bb"].claims("invoices") if c.computer == "aa")
    assert not aa.closed and not p.verdict("bb").may
    p.drivers["aa"].resume()
    p.minute()
    assert not p.verdict("bb").may
    # The person confirms aa's mark: its claims hand the part on again, carrying 5.
    assert driver.confirm("invoices", 5) is None
    for _ in range(3):
        p.minute()
    found = p.verdict("bb")
    assert found.may and found.must_have == {"aa": 5}
    assert not p.verdict("aa").may


@pytest.mark.parametrize("forgotten", [True, False], ids=["marks_forgotten", "off"])
def test_a_backup_of_the_state_and_the_own_claim_put_back(tmp_path: Path, forgotten: bool) -> None:
    """aa's state directory and its own claim file are backed up at mark 2; Sioul is told yes
    for mark 5 and bb answers the claim that carries it. aa's tray is killed and both copies
    come back from the backup (issue 39, classes 1 and 3 at once): its state file reads whole
    and says 2, and its own claim agrees. Only bb's claim shows aa a past it forgot (S7,
    `Fixes.restored`); with `marks_forgotten` off, aa distrusts but says mark 2 to Sioul (S6).
    With it, its mark is unknown until the person confirms it, as after a lost state."""
    backup = tmp_path / "backup"
    fixes = EVERY_FIX if forgotten else Fixes(marks_forgotten=False)
    p, at_2 = told_yes_for_5(tmp_path, fixes, backup=backup)
    p.minute()  # bb answers the claim at mark 5
    p.kill("aa")
    shutil.rmtree(p.state_dir("aa"))
    shutil.copytree(backup, p.state_dir("aa"))
    p.r.deliver(at_2, "aa", "aa")
    p.r.advance(30)
    p.start("aa")
    for _ in range(6):
        p.minute()
    if not forgotten:
        assert p.invoices("aa")["wrote"] == 2
        assert any(v.startswith("S6 ") for v in p.r.violations)
        return
    assert p.invoices("aa")["wrote"] is None and p.invoices("aa")["status"]["cause"] == "mark"
    assert not p.verdict("aa").may
    assert p.invoices("bb")["must_have"] == {"aa": 5}
    assert not any(v.startswith("S6 ") for v in p.r.violations)
