"""The protocol's times as one value (`sioul_tray.timing`): the contract's, or a test folder's
scale, never a computer's environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.lease import ALIVE, NEAR, RENEW, SETTLING, UNCLOSED, Lease
from sioul_tray.share import Share
from sioul_tray.timing import CONTRACT, MAX_SCALE, Timing
from tests.helpers import FakeClock, python_env, run_python


def test_the_contract_is_the_default_and_scale_one() -> None:
    assert CONTRACT == Timing() == Timing.scaled(1)
    assert (CONTRACT.renew, CONTRACT.alive, CONTRACT.settling) == (RENEW, ALIVE, SETTLING)
    assert (CONTRACT.unclosed, CONTRACT.near) == (UNCLOSED, NEAR)
    assert CONTRACT.fresh == UNCLOSED - ALIVE and CONTRACT.jump == 2 * RENEW


def test_a_scale_divides_every_time_and_keeps_their_ratios() -> None:
    fast = Timing.scaled(20)
    assert (fast.renew, fast.alive, fast.settling, fast.unclosed, fast.near) == (
        3, 15, 6, 4320, 6
    )  # fmt: skip
    assert fast.fresh == CONTRACT.fresh / 20 and fast.jump == 6
    assert fast.scale == 20


@pytest.mark.parametrize("scale", [0, -1, MAX_SCALE + 1, 2.5, True, "20"])
def test_a_scale_is_a_whole_number_within_bounds(scale: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        Timing.scaled(scale)  # type: ignore[arg-type]


def test_a_lease_on_a_scaled_folder_settles_and_lapses_on_the_folder_times(
    folder: Path, clock: FakeClock
) -> None:
    share = Share.create(folder, "correct horse", "aa", cost=10, timing=Timing.scaled(20))
    aa = Lease(share, "aa", clock=clock)
    assert aa.timing == Timing.scaled(20)
    aa.renew("invoices")
    clock.advance(5)  # under SETTLING / 20 = 6 s
    assert not aa.renew("invoices").acting
    clock.advance(2)
    assert aa.renew("invoices").acting
    aa.renew("medicines")  # the person is at aa: it keeps medicines
    bb = Lease(Share.open(folder, "correct horse"), "bb", clock=clock)
    away = clock.now - 3600
    assert bb.renew("medicines", active=away).computer == "aa"
    clock.advance(14)
    assert bb.renew("medicines", active=away).computer == "aa"
    clock.advance(2)  # aa's claim unheard for over ALIVE / 20 = 15 s: it lapsed
    assert bb.renew("medicines", active=away).computer == "bb"


SUGGESTIVE = {
    name: "20"
    for name in (
        "SIOUL_TIMING", "SIOUL_TIMING_SCALE", "SIOUL_SCALE", "SIOUL_TEST_SCALE",
        "SIOUL_TRAY_SCALE", "SIOUL_TRAY_TIMING", "SIOUL_RENEW", "SIOUL_ALIVE", "SIOUL_SETTLING",
        "SIOUL_UNCLOSED", "SIOUL_NEAR", "SIOUL_FRESH", "RENEW", "ALIVE", "SETTLING", "UNCLOSED",
    )
}  # fmt: skip

SHOW_TIMING = """
from sioul_tray.install import Installation
from sioul_tray.tray.driver import Driver
from tests.helpers import Present
inst = Installation()
lease = inst.lease()
driver = Driver(lease, inst.computer(), Present())
t = driver.timing
print(lease.timing == t, t.renew, t.alive, t.settling, t.unclosed, t.near)
"""


@pytest.mark.parametrize("scale", [None, 20])
def test_the_times_come_from_the_folder_whatever_the_environment_says(
    tmp_path: Path, scale: int | None
) -> None:
    """An installation's lease and its tray's driver, in a process whose environment is full of
    names a person might try: a folder sealed without a scale has the contract's times, one
    sealed on a test's scale has that scale's, and nothing else changes them."""
    folder = tmp_path / "share"
    folder.mkdir()
    timing = CONTRACT if scale is None else Timing.scaled(scale)
    share = Share.create(folder, "correct horse", "aa", cost=10, timing=timing)
    env = python_env(SIOUL_TRAY_HOME=str(tmp_path / "home"), **SUGGESTIVE)
    from sioul_tray.install import Installation

    inst = Installation(tmp_path / "home")
    inst.remember_key(share)
    inst.update_settings(share=str(folder))
    words = run_python(SHOW_TIMING, env)
    assert words[0] == "True"
    assert [float(w) for w in words[1:]] == [
        timing.renew, timing.alive, timing.settling, timing.unclosed, timing.near
    ]  # fmt: skip
