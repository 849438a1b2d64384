"""The controller with a scripted lease: when it renews, re-reads, closes, and what it publishes.

The scripted lease records every call; the tests against the real core on a real folder are in
test_tray_app.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from sioul_tray.lease import CONTRACT
from sioul_tray.lease.lease import Reading, Snapshot
from sioul_tray.lease.status import Status, Waited, Why
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.model import Note, View


@dataclass(frozen=True)
class K:
    part: str
    computer: str | None = "pc"
    name: str | None = "This PC"
    here: bool = True
    since: float | None = 1000.0
    settled: bool = True
    others_heard: bool = True
    agreed: bool = True
    acting: bool = True
    waiting: tuple[str, ...] = ()
    blocked: str | None = None

    @property
    def status(self) -> Status:
        """What the core would say with these flags (this double tests scheduling, not words:
        the words are tested on real leases in test_tray_model.py)."""
        if self.computer is None:
            return Status(Why.NOBODY)
        if not self.here:
            return Status(Why.ELSEWHERE, self.computer, self.name, int(self.since or 0), live=True)
        if self.acting:
            return Status(Why.ACTING, self.computer, self.name)
        if not self.settled:
            return Status(Why.SETTLING, self.computer, self.name, until=int(self.since or 0))
        waited = tuple(Waited(c, c, None) for c in self.waiting)
        return Status(Why.WAITING, self.computer, self.name, waiting=waited)


@dataclass(frozen=True)
class C:
    computer: str
    name: str
    closed: bool = False
    tenure: int | None = 7
    wrote: int = 0


class ScriptedLease:
    timing = CONTRACT

    def __init__(self) -> None:
        self.keepers = {"medicines": K("medicines"), "invoices": K("invoices")}
        self.calls: list[tuple[Any, ...]] = []
        self.fail: OSError | None = None
        self.jumped = False

    def renew(
        self,
        part: str,
        active: float | None = None,
        take: bool = False,
        wrote: int | None = None,
        *,
        confirm: bool = False,
    ) -> K:
        self.calls.append(("renew", part, active, take, wrote))
        if self.fail is not None:
            raise self.fail
        return self.keepers[part]

    def close(self, part: str, wrote: int | None = None) -> None:
        self.calls.append(("close", part, wrote))

    def look(self, part: str) -> K:
        self.calls.append(("look", part))
        return self.keepers[part]

    def claims(self, part: str) -> list[C]:
        return [C("pc", "This PC"), C("office", "Office PC")]

    def forget(self, computer: str) -> None:
        self.calls.append(("forget", computer))

    def forget_counts_from(self, computer: str) -> int | None:
        return None

    def forget_stands_on_close(self, computer: str) -> bool:
        return False

    def tick(
        self,
        part: str,
        *,
        renew: bool = True,
        active: float | None = None,
        wrote: int | None = None,
        take: bool = False,
    ) -> Reading:
        """`Lease.tick`, recorded as the renew or look it stands for."""
        keeper = self.renew(part, active, take, wrote) if renew else self.look(part)
        return Reading(keeper, self.last_read(part))  # type: ignore[arg-type]  # K for Keeper

    def last_read(self, part: str) -> Snapshot:
        return Snapshot(self.claims(part), {"office": 990}, {}, [], self.jumped)  # type: ignore[arg-type]

    def count(self, kind: str) -> int:
        return sum(1 for c in self.calls if c[0] == kind)


class FixedActive:
    name = "test idle"
    known = True

    def __init__(self) -> None:
        self.value = 900

    def active(self, now: float) -> int:
        return self.value


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.mono = 0.0

    def __call__(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.mono


Setup = tuple[Controller, ScriptedLease, Clock, list[Note]]


@pytest.fixture
def setup(qtbot: QtBot, tmp_path: Path) -> Iterator[Setup]:
    lease = ScriptedLease()
    clock = Clock()
    folder = tmp_path / "share"
    (folder / "leases" / "invoices").mkdir(parents=True)
    (folder / "leases" / "medicines").mkdir(parents=True)
    # The scripted lease answers with K, a double of Keeper: not a LeaseLike to mypy.
    c = Controller(lease, "pc", folder, FixedActive(), tmp_path / "state",  # type: ignore[arg-type]
                   clock=clock, monotonic=clock.monotonic, interval_ms=60_000)  # fmt: skip
    notes: list[Note] = []
    c.notify.connect(notes.append)
    yield c, lease, clock, notes
    c.shutdown()


def status(tmp_path: Path) -> dict[str, Any]:
    written: dict[str, Any] = json.loads((tmp_path / "state" / "status.json").read_text())
    return written


def test_start_renews_both_parts_with_the_idle_time_and_writes_status(
    setup: Setup, tmp_path: Path
) -> None:
    c, lease, _clock, _notes = setup
    views: list[View] = []
    c.changed.connect(views.append)
    c.start()
    assert lease.calls[:2] == [("renew", "medicines", 900, False, None),
                               ("renew", "invoices", 900, False, None)]  # fmt: skip
    assert views and views[-1].parts["invoices"].acting
    assert [c.computer for c in views[-1].others("invoices")] == ["office"]
    s = status(tmp_path)
    assert s["running"] and s["parts"]["invoices"]["acting"] and s["computer"] == "pc"


def test_timer_renews_every_interval(setup: Setup, qtbot: QtBot) -> None:
    c, lease, _clock, _notes = setup
    c.timer.setInterval(50)
    c.start()
    qtbot.waitUntil(lambda: lease.count("renew") >= 6, timeout=2000)


def test_a_claim_landing_in_the_folder_is_read_within_a_second(setup: Setup, qtbot: QtBot) -> None:
    c, lease, _clock, _notes = setup
    c.start()
    before = lease.count("look")
    (c.folder / "leases" / "invoices" / "office.lease").write_bytes(b"x")
    qtbot.waitUntil(lambda: lease.count("look") > before, timeout=1000)


def test_a_new_keeper_seen_in_the_folder_is_acknowledged_at_once(
    setup: Setup, qtbot: QtBot
) -> None:
    c, lease, _clock, notes = setup
    c.start()
    renews = lease.count("renew")
    lease.keepers["invoices"] = K("invoices", "office", "Office PC", here=False, acting=False)
    (c.folder / "leases" / "invoices" / "office.lease").write_bytes(b"x")
    # The renew writes our claim's `sees` for the new keeper without waiting for the timer.
    qtbot.waitUntil(lambda: lease.count("renew") >= renews + 2, timeout=1000)
    assert [n.title for n in notes] == ["Invoices move to Office PC"]


def test_a_mark_not_acted_under_goes_into_no_claim(setup: Setup) -> None:
    """The controller forwards Sioul's mark to the driver (tests/tray/test_tray_driver.py has the
    rule on the real core); refused, it is carried by no renew and no close."""
    c, lease, _clock, _notes = setup
    c.start()
    refused = c.mark("invoices", 17, "desk.1")
    assert refused is not None and "does not act on invoices under desk.1" in refused
    c.tick()
    assert not any(call[-1] == 17 for call in lease.calls)
    with pytest.raises(ValueError, match="no part named"):
        c.mark("recipes", 1, "desk.1")
    c.shutdown()
    assert lease.calls[-2:] == [("close", "medicines", None), ("close", "invoices", None)]


def test_shutdown_closes_once_and_publishes_not_acting(setup: Setup, tmp_path: Path) -> None:
    c, lease, _clock, _notes = setup
    c.start()
    c.shutdown()
    c.shutdown()
    assert lease.count("close") == 2
    s = status(tmp_path)
    assert not s["running"]
    assert not any(p["acting"] for p in s["parts"].values())
    assert not c.timer.isActive()


def test_sleep_closes_and_wake_renews_quietly(setup: Setup) -> None:
    c, lease, clock, notes = setup
    c.start()
    c.suspend()
    assert lease.count("close") == 2 and not c.timer.isActive()
    c.tick()  # a stray timer event while asleep writes nothing
    renews = lease.count("renew")
    lease.keepers["medicines"] = K("medicines", "laptop", "Laptop", here=False, acting=False)
    clock.now += 3600
    c.resume()
    assert lease.count("renew") == renews + 2 and c.timer.isActive()
    assert notes == []  # the catch-up after wake is not news


def test_a_sleep_the_core_saw_is_a_quiet_wake(setup: Setup) -> None:
    """The core sees a gap in its ticks or a clock set (`Snapshot.jumped`); the loop then stays
    quiet about the catch-up and re-shows the icon. The real core's side: test_tray_app.py."""
    c, lease, clock, notes = setup
    woke: list[bool] = []
    c.woke.connect(lambda: woke.append(True))
    c.start()
    clock.now += 60
    c.tick()
    assert woke == []
    lease.keepers["medicines"] = K("medicines", "laptop", "Laptop", here=False, acting=False)
    clock.now += 3600
    lease.jumped = True  # slept without telling anyone
    c.tick()
    assert notes == [] and woke == [True]
    lease.jumped = False
    clock.mono += 60
    clock.now += 60
    lease.keepers["medicines"] = K("medicines")
    c.tick()
    assert [n.title for n in notes] == ["Medicine reminders are here now"]


def test_a_folder_error_is_shown_not_raised(setup: Setup, tmp_path: Path) -> None:
    c, lease, _clock, _notes = setup
    c.start()
    lease.fail = FileNotFoundError(2, "No such file or directory", "/media/share")
    c.tick()
    assert c.view is not None
    assert c.view.error == "No such file or directory (/media/share)"
    assert c.view.parts["invoices"].acting  # last known keepers stay on screen


def test_take_and_forget(setup: Setup) -> None:
    c, lease, _clock, _notes = setup
    c.start()
    c.take("invoices")
    assert ("renew", "invoices", 900, True, None) in lease.calls
    c.forget("laptop")
    assert ("forget", "laptop") in lease.calls


def test_status_file_is_rewritten_on_change_only(setup: Setup, tmp_path: Path) -> None:
    c, lease, clock, _notes = setup
    c.start()
    path = tmp_path / "state" / "status.json"
    first = status(tmp_path)["parts"]["invoices"]["valid_until"]
    clock.now += 60
    c.tick()
    # Acting: each renew moves the verdict's bound, and the file says so.
    assert status(tmp_path)["parts"]["invoices"]["valid_until"] == first + 60
    for part in lease.keepers:
        lease.keepers[part] = replace(lease.keepers[part], acting=False, settled=False)
    c.tick()
    assert status(tmp_path)["parts"]["invoices"]["acting"] is False
    unchanged = path.stat().st_mtime_ns, path.read_text()
    clock.now += 60
    c.tick()
    assert (path.stat().st_mtime_ns, path.read_text()) == unchanged  # nothing changed
    assert not list(path.parent.glob(".~*"))  # no temporary left behind


def test_parts_folders_appearing_later_are_watched(qtbot: QtBot, tmp_path: Path) -> None:
    lease = ScriptedLease()
    folder = tmp_path / "share"
    folder.mkdir()
    # As in `setup`: K stands in for Keeper.
    c = Controller(lease, "pc", folder, FixedActive(), None, interval_ms=60_000)  # type: ignore[arg-type]
    c.start()
    try:
        assert c.watcher.directories() == [str(folder)]
        (folder / "leases" / "invoices").mkdir(parents=True)
        (folder / "leases" / "medicines").mkdir()
        qtbot.waitUntil(
            lambda: (
                sorted(c.watcher.directories())
                == sorted(str(folder / "leases" / p) for p in ("invoices", "medicines"))
            ),
            timeout=2000,
        )
        looks = lease.count("look")
        (folder / "leases" / "medicines" / "laptop.lease").write_bytes(b"x")
        qtbot.waitUntil(lambda: lease.count("look") > looks, timeout=1000)
    finally:
        c.shutdown()


def test_a_part_settling_here_is_read_again_when_it_settles(setup: Setup, qtbot: QtBot) -> None:
    """The driver asks to be woken at the settling's end (`until` + 1 s), not at the next tick."""
    c, lease, clock, _notes = setup
    c.start()
    lease.keepers["invoices"] = replace(
        lease.keepers["invoices"], acting=False, settled=False, since=clock.now
    )
    c.tick()
    looks = lease.count("look")
    qtbot.waitUntil(lambda: lease.count("look") > looks, timeout=3000)
    # Over a told sleep the request is dropped with the timers.
    c.tick()
    c.suspend()
    looks = lease.count("look")
    qtbot.wait(1500)
    assert lease.count("look") == looks


def test_a_machine_that_sleeps_when_idle_closes_once_the_person_is_away(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """`away_after`: both parts closed once, then only read; renewed when the person is back."""
    lease, clock, active = ScriptedLease(), Clock(), FixedActive()
    folder = tmp_path / "share"
    (folder / "leases" / "invoices").mkdir(parents=True)
    (folder / "leases" / "medicines").mkdir(parents=True)
    # As in `setup`: K stands in for Keeper.
    c = Controller(lease, "pc", folder, active, None,  # type: ignore[arg-type]
                   clock=clock, monotonic=clock.monotonic, interval_ms=60_000,
                   away_after=300)  # fmt: skip
    try:
        c.start()
        assert lease.count("renew") == 2  # away 100 s: renewed
        clock.now += 250
        clock.mono += 250
        c.tick()
        assert lease.count("close") == 2 and lease.count("renew") == 2  # away 350 s: closed
        clock.now += 60
        clock.mono += 60
        c.tick()
        c.reread()
        assert lease.count("close") == 2 and lease.count("renew") == 2  # closed once, read only
        # Nobody here to read a note: quiet until past the next tick, renewed at each.
        assert c.driver.notifier.quiet_until > clock.monotonic() + 60
        active.value = int(clock.now)  # back
        clock.now += 60
        clock.mono += 60
        c.tick()
        assert lease.count("renew") == 4 and not c.driver.away
        # The catch-up of the person's own leaving is quiet a moment, as after a wake.
        assert clock.monotonic() < c.driver.notifier.quiet_until <= clock.monotonic() + 10
    finally:
        c.shutdown()
    assert lease.count("close") == 4


def test_only_a_machine_with_a_system_battery_sleeps_when_idle(tmp_path: Path) -> None:
    from sioul_tray.tray.away import AWAY_AFTER, away_after

    power = tmp_path / "power_supply"
    (power / "AC").mkdir(parents=True)
    (power / "AC" / "type").write_text("Mains\n")
    (power / "hidpp_battery_0").mkdir()
    (power / "hidpp_battery_0" / "type").write_text("Battery\n")
    (power / "hidpp_battery_0" / "scope").write_text("Device\n")  # a mouse's
    assert away_after(power, "linux") is None
    (power / "BAT0").mkdir()
    (power / "BAT0" / "type").write_text("Battery\n")
    assert away_after(power, "linux") == AWAY_AFTER
    assert away_after(power, "win32") is None
    assert away_after(tmp_path / "none", "linux") is None
