"""The tray's loop without Qt (`tray.driver.Driver`) on the real core: real claims in a folder."""

from __future__ import annotations

from pathlib import Path

from sioul_tray.lease import Lease
from sioul_tray.share import Share
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
