"""The tray's loop without Qt (`tray.driver.Driver`) on the real core: real claims in a folder."""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sioul_tray.lease import RENEW, Lease
from sioul_tray.share import Share
from sioul_tray.tray import driver as driver_module
from sioul_tray.tray.driver import Driver
from tests.helpers import T0, FakeClock

PASSPHRASE = "driver tests"


class Idle:
    """The person was last here at `last` (a wall time)."""

    name = "test idle"
    known = True

    def __init__(self, last: float) -> None:
        self.last = last

    def active(self, now: float) -> int:
        return int(min(self.last, now))


def test_a_take_while_away_then_sleep_leaves_the_claim_closed(tmp_path: Path) -> None:
    """The person is away (the laptop's tray closed both parts), then takes invoices from the
    command line and the laptop sleeps: the claim must go to sleep closed, or the others would
    wait a day for a computer that marks nothing."""
    (tmp_path / "share").mkdir()
    share = Share.create(tmp_path / "share", PASSPHRASE, "lap", cost=10)
    clock = FakeClock(T0)
    idle = Idle(T0)
    lease = Lease(share, "lap", name="Lap", clock=clock)
    driver = Driver(lease, "lap", idle, clock=clock, monotonic=clock, away_after=300)
    driver.start()
    clock.advance(400)
    driver.tick()
    assert driver.away
    assert all(c.closed for c in lease.claims("invoices"))
    driver.take("invoices")
    assert not next(c for c in lease.claims("invoices")).closed
    driver.suspend()
    mine = next(c for c in lease.claims("invoices"))
    assert mine.closed and mine.taken is not None


def alone(
    tmp_path: Path, recheck: Callable[[float], None] = lambda seconds: None
) -> tuple[Lease, Driver, FakeClock, Path]:
    """One computer alone on its folder, with a state directory: it acts once settled."""
    (tmp_path / "share").mkdir()
    share = Share.create(tmp_path / "share", PASSPHRASE, "desk", cost=10)
    clock = FakeClock(T0)
    ticks = FakeClock(5000.0)  # the boot clock, on its own count
    lease = Lease(share, "desk", name="Desk", clock=clock, ticks=ticks)
    state = tmp_path / "state"
    driver = Driver(
        lease, "desk", Idle(T0), state, clock=clock, monotonic=clock, ticks=ticks, recheck=recheck
    )
    driver.start()
    for _ in range(4):  # past SETTLING
        clock.advance(RENEW)
        ticks.advance(RENEW)
        driver.tick()
    return lease, driver, clock, state / "status.json"


def test_the_status_says_until_when_this_computer_acts(tmp_path: Path) -> None:
    lease, driver, clock, path = alone(tmp_path)
    invoices = json.loads(path.read_text())["parts"]["invoices"]
    assert invoices["acting"] is True
    assert invoices["valid_until"] == int(clock.now) + RENEW
    assert invoices["valid_until_boot"] == 5000.0 + 4 * RENEW + RENEW
    (mine,) = lease.claims("invoices")
    assert invoices["token"] == f"desk.{mine.tenure}"
    driver.suspend()  # before sleep: no verdict holds
    after = json.loads(path.read_text())
    assert not after["running"] and not any(p["acting"] for p in after["parts"].values())


def test_a_status_that_cannot_be_written_is_removed_tried_again_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, driver, clock, path = alone(tmp_path)
    assert json.loads(path.read_text())["parts"]["invoices"]["acting"]

    def full(_path: Path, _content: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(_path))

    monkeypatch.setattr(driver_module, "write_status", full)
    clock.advance(RENEW)
    driver.tick()
    assert not path.exists()  # no older verdict left for Sioul to act on
    clock.advance(RENEW)
    driver.tick()  # told at the next publish: the failure persists
    assert driver.view is not None and "No space left on device" in (driver.view.error or "")
    monkeypatch.undo()
    clock.advance(RENEW)
    driver.tick()
    assert json.loads(path.read_text())["parts"]["invoices"]["acting"]
    clock.advance(RENEW)
    driver.tick()
    assert driver.view is not None and driver.view.error is None


def test_a_verdict_acted_on_is_read_again_before_its_bound(tmp_path: Path) -> None:
    asked: list[float] = []
    _, driver, clock, path = alone(tmp_path, asked.append)
    assert asked and asked[-1] <= RENEW / 2  # a reread halfway: the bound never lapses
    until = json.loads(path.read_text())["parts"]["invoices"]["valid_until"]
    clock.advance(asked[-1])
    driver.reread()
    assert json.loads(path.read_text())["parts"]["invoices"]["valid_until"] > until
