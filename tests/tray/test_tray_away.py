"""Which machines close their claims once the person has been away (`sioul_tray.tray.away`): a
laptop, told by a system battery in a power-supply folder laid out as Linux's
/sys/class/power_supply, here in tmp_path.

The driver applying `away_after` is in test_tray_controller.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.tray.away import AWAY_AFTER, away_after, sleeps_when_idle


def supply(power: Path, name: str, **files: str) -> None:
    """One power supply as the kernel lists it: each file with its value and a line end."""
    (power / name).mkdir(parents=True)
    for file, value in files.items():
        (power / name / file).write_text(value + "\n", encoding="ascii")


def test_a_desktop_on_mains_stays_on(tmp_path: Path) -> None:
    supply(tmp_path, "AC", type="Mains", online="1")
    supply(tmp_path, "ucsi-source-psy-USBC000:001", type="USB")
    assert not sleeps_when_idle(tmp_path, "linux")
    assert away_after(tmp_path, "linux") is None


def test_a_laptop_s_battery_makes_it_sleep_when_idle(tmp_path: Path) -> None:
    supply(tmp_path, "AC", type="Mains")
    supply(tmp_path, "BAT1", type="Battery", scope="System")
    assert sleeps_when_idle(tmp_path, "linux")
    assert away_after(tmp_path, "linux") == AWAY_AFTER == 300.0


def test_a_battery_without_a_scope_is_the_system_s(tmp_path: Path) -> None:
    """Most laptops' batteries say no scope: only a device's (a mouse, a headset) says one."""
    supply(tmp_path, "BAT0", type="Battery")
    assert sleeps_when_idle(tmp_path, "linux")


def test_wireless_devices_batteries_do_not_make_a_laptop(tmp_path: Path) -> None:
    supply(tmp_path, "hidpp_battery_0", type="Battery", scope="Device")
    supply(tmp_path, "hid-00:1f:20:aa:bb:cc-battery", type="Battery", scope="Device")
    assert not sleeps_when_idle(tmp_path, "linux")


@pytest.mark.parametrize("unreadable", ["directory", "not-ascii", "missing"])
def test_a_supply_whose_type_does_not_read_is_no_battery(tmp_path: Path, unreadable: str) -> None:
    (tmp_path / "BAT0").mkdir()
    if unreadable == "directory":
        (tmp_path / "BAT0" / "type").mkdir()
    elif unreadable == "not-ascii":
        (tmp_path / "BAT0" / "type").write_bytes("Batterié\n".encode())
    assert not sleeps_when_idle(tmp_path, "linux")


def test_no_power_supply_folder_is_a_machine_that_stays_on(tmp_path: Path) -> None:
    assert not sleeps_when_idle(tmp_path / "absent", "linux")
    (tmp_path / "file").write_text("not a folder")
    assert not sleeps_when_idle(tmp_path / "file", "linux")


@pytest.mark.parametrize("platform", ["win32", "darwin", "freebsd14"])
def test_elsewhere_than_linux_claims_close_at_sleep_only(tmp_path: Path, platform: str) -> None:
    supply(tmp_path, "BAT0", type="Battery")
    assert not sleeps_when_idle(tmp_path, platform)
    assert away_after(tmp_path, platform) is None
