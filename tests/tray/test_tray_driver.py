"""The tray's loop without Qt (`tray.driver.Driver`) on the real core: real claims in a folder."""

from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sioul_tray import client, files, history
from sioul_tray.lease import ALIVE, RENEW, SETTLING, UNCLOSED, Lease
from sioul_tray.lease import folder as lease_folder
from sioul_tray.lease import lease as lease_module
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


def test_a_take_is_one_read_and_one_write_of_each_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A take ("Make invoices here") is carried by a tick: each part's folder read once, each
    part's claim written once (it was three of each: a renew, then a tick that renewed invoices
    again)."""
    lease, driver, clock, _ = alone(tmp_path)
    reads: list[Path] = []
    writes: list[Path] = []

    def counted_read(folder: Path, careful: bool = False) -> object:
        reads.append(folder)
        return lease_folder.read_folder(folder, careful)

    def counted_write(path: Path, data: bytes, *, sync: bool = True) -> None:
        writes.append(path)
        files.write_atomic(path, data, sync=sync)

    monkeypatch.setattr(lease_module, "read_folder", counted_read)
    monkeypatch.setattr(lease_module, "write_atomic", counted_write)
    clock.advance(5)
    keeper = driver.take("invoices")
    assert keeper.here and keeper.part == "invoices"
    assert sorted(p.name for p in reads) == ["invoices", "medicines"]
    assert sorted(p.parent.name for p in writes) == ["invoices", "medicines"]
    (mine,) = lease.claims("invoices")
    assert mine.taken is not None and not mine.closed


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


def test_a_laptop_asleep_for_a_weekend_without_the_inhibitor_acts_on_nothing_at_wake(
    tmp_path: Path,
) -> None:
    """Desk keeps invoices and sleeps without closing (no inhibitor): its status.json still
    says `acting`. Over the weekend Lap takes invoices and, once Desk has been silent for
    UNCLOSED and the person, asked, says it is gone, numbers. At wake, before Desk's tray has
    ticked, a Sioul that trusted `acting` in the file would number beside Lap; the verdict's
    bound, on the wall clock and on the boot clock that counted the sleep, says it lapsed."""
    (tmp_path / "share").mkdir()
    share = Share.create(tmp_path / "share", PASSPHRASE, "desk", cost=10)
    clock, desk_ticks, ticks = FakeClock(T0), FakeClock(5000.0), FakeClock(9000.0)
    desk = Lease(share, "desk", name="Desk", clock=clock, ticks=desk_ticks)
    state = tmp_path / "state"
    driver = Driver(desk, "desk", Idle(T0), state, clock=clock, monotonic=clock, ticks=desk_ticks)
    others = {
        c: Lease(
            Share.open(tmp_path / "share", PASSPHRASE), c, name=c.title(), clock=clock, ticks=ticks
        )
        for c in ("lap", "kitchen")
    }

    def minute(seconds: float = RENEW, *, desk_awake: bool = True) -> None:
        for c in (clock, desk_ticks, ticks):
            c.advance(seconds)
        if desk_awake:
            driver.tick()
        for lease in others.values():
            lease.renew("invoices")

    driver.start()
    for _ in range(4):
        minute()
    assert client.verdict("invoices", state, now=clock.now, ticks=desk_ticks.now)
    others["lap"].renew("invoices", take=True)
    asleep = clock.now
    while clock.now - asleep < UNCLOSED:
        minute(4 * RENEW, desk_awake=False)  # the others renew; Desk sleeps, claims open
    others["lap"].forget("desk")  # a silent keeper is gone only on the person's word
    for _ in range((SETTLING + ALIVE) // RENEW + 2):
        minute(desk_awake=False)
    assert others["lap"].renew("invoices").acting  # Lap numbers invoices

    # Desk wakes; its tray has not ticked yet.
    trusted = json.loads((state / "status.json").read_text())["parts"]["invoices"]["acting"]
    assert trusted is True  # a Sioul reading `acting` alone would number beside Lap
    found = client.verdict("invoices", state, now=clock.now, ticks=desk_ticks.now)
    assert not found and found.reason == client.LAPSED
    driver.tick()
    assert not client.verdict("invoices", state, now=clock.now, ticks=desk_ticks.now)
    assert not desk.renew("invoices").acting


def token_of(path: Path) -> str:
    token = json.loads(path.read_text())["parts"]["invoices"]["token"]
    assert isinstance(token, str)
    return token


def test_a_mark_is_in_the_claim_and_the_status_before_it_is_said_taken(tmp_path: Path) -> None:
    lease, driver, clock, path = alone(tmp_path)
    token = token_of(path)
    assert driver.mark("invoices", 3, token) is None
    (mine,) = lease.claims("invoices")
    assert mine.wrote == 3  # written, not waiting for the next tick
    assert json.loads(path.read_text())["parts"]["invoices"]["wrote"] == 3
    found = client.verdict("invoices", path.parent, now=clock.now, ticks=driver.ticks())
    assert found and found.wrote == 3 and found.token == token
    assert driver.mark("invoices", 3, token) is None  # said again: the same mark
    with pytest.raises(ValueError, match="no part named"):
        driver.mark("recipes", 1, token)


def test_a_mark_under_another_token_or_below_the_last_is_refused(tmp_path: Path) -> None:
    lease, driver, _clock, path = alone(tmp_path)
    token = token_of(path)
    assert driver.mark("invoices", 5, token) is None
    refused = driver.mark("invoices", 6, "desk.1")
    assert refused is not None and "does not act on invoices under desk.1" in refused
    refused = driver.mark("invoices", 4, token)
    assert refused is not None and "below the mark" in refused
    (mine,) = lease.claims("invoices")
    assert mine.wrote == 5


def test_a_mark_after_the_close_before_sleep_is_refused(tmp_path: Path) -> None:
    """The case CI found end to end: Sioul wrote invoice 12 and asked for its mark just as the
    machine went to sleep. The close carried 11 and names the other computer, which numbers once
    it holds 11 records; a mark taken in memory and carried at wake let both make number 12.
    Refused, record 12 is void: the status after wake says 11, and Sioul drops it."""
    lease, driver, clock, path = alone(tmp_path)
    token = token_of(path)
    assert driver.mark("invoices", 11, token) is None
    driver.suspend()
    refused = driver.mark("invoices", 12, token)
    assert refused is not None and "void" in refused
    (mine,) = lease.claims("invoices")
    assert mine.closed and mine.wrote == 11
    clock.advance(RENEW)
    driver.ticks.advance(RENEW)  # type: ignore[attr-defined]
    driver.resume()
    (mine,) = lease.claims("invoices")
    assert not mine.closed and mine.wrote == 11
    assert json.loads(path.read_text())["parts"]["invoices"]["wrote"] == 11
    for _ in range(4):  # settled again
        clock.advance(RENEW)
        driver.ticks.advance(RENEW)  # type: ignore[attr-defined]
        driver.tick()
    found = client.verdict("invoices", path.parent, now=clock.now, ticks=driver.ticks())
    assert found and found.wrote == 11 and found.token != token  # a new tenure; record 12 void
    driver.shutdown()  # a quit closes with the mark too
    (mine,) = lease.claims("invoices")
    assert mine.closed and mine.wrote == 11


def test_a_mark_asked_past_the_verdicts_bound_is_refused(tmp_path: Path) -> None:
    """A tray stopped (SIGSTOP, a hang) past its bound may find the part acted on elsewhere:
    a mark that reaches it late is refused before anything is written."""
    lease, driver, clock, path = alone(tmp_path)
    token = token_of(path)
    clock.advance(RENEW)
    driver.ticks.advance(RENEW)  # type: ignore[attr-defined]
    refused = driver.mark("invoices", 1, token)
    assert refused is not None and "void" in refused
    (mine,) = lease.claims("invoices")
    assert mine.wrote == 0


def test_a_mark_after_the_acknowledgement_of_a_take_is_refused(tmp_path: Path) -> None:
    """Lap takes invoices; Desk's tray reads it and acknowledges with the mark it has. A mark
    asked after that would come too late for Lap, which numbers once Desk's records reach the
    acknowledged mark: refused; the one asked before it is in the acknowledgement."""
    lease, driver, clock, path = alone(tmp_path)
    token = token_of(path)
    lap = Lease(Share.open(tmp_path / "share", PASSPHRASE), "lap", name="Lap", clock=clock)
    lap.renew("invoices")
    assert driver.mark("invoices", 7, token) is None
    lap.renew("invoices", take=True)
    driver.reread()  # the keeper changed: Desk renews at once, acknowledging Lap's take
    desk = next(c for c in lease.claims("invoices") if c.computer == "desk")
    assert desk.sees == "lap" and desk.wrote == 7
    refused = driver.mark("invoices", 8, token)
    assert refused is not None and "void" in refused
    desk = next(c for c in lease.claims("invoices") if c.computer == "desk")
    assert desk.wrote == 7


def test_a_mark_the_asker_no_longer_waits_for_is_refused(tmp_path: Path) -> None:
    """The command line gives up on the tray's answer after a deadline (a tray stopped for a
    while): Sioul, told nothing, may drop the record; a mark taken after that would count it."""
    lease, driver, _clock, path = alone(tmp_path)
    token = token_of(path)
    refused = driver.mark("invoices", 1, token, by=driver.ticks() - 2)
    assert refused is not None and "gave up waiting" in refused
    (mine,) = lease.claims("invoices")
    assert mine.wrote == 0
    assert driver.mark("invoices", 1, token, by=driver.ticks() + 4) is None


def test_each_change_of_hands_is_kept_in_the_history_quiet_ones_too(tmp_path: Path) -> None:
    """What changed hands while the person was away: the changes the tray notifies, and those it
    keeps quiet about just after a wake, each with when, in history.json."""
    _, driver, clock, path = alone(tmp_path)
    kept = history.read(history.path_in(path.parent))
    assert [(c.part, c.kind, c.words()[0]) for c in kept] == [
        ("medicines", "here", "Medicine reminders are here now"),
        ("invoices", "here", "Invoices are made here now"),
    ]
    assert all(c.at == T0 + 2 * RENEW for c in kept)  # the tick that settled both
    driver.suspend()  # sleep...
    clock.advance(3600)
    office = Lease(Share.open(tmp_path / "share", PASSPHRASE), "office", name="Office")
    office.renew("invoices", take=True)  # ...while Office takes invoices
    driver.resume()  # the wake: quiet, the catch-up is not news
    notes: list[str] = []
    driver.notifier.send = lambda note: notes.append(note.title)
    driver.tick()
    assert notes == []
    last = history.read(history.path_in(path.parent))[-1]
    assert (last.part, last.kind, last.computer, last.left, last.at) == (
        "invoices",
        "moves",
        "Office",
        True,
        int(clock.now),
    )
    assert last.words()[1].startswith("This computer no longer makes invoices.")


def test_a_history_that_does_not_read_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text("{not json")
    with pytest.raises(history.Damaged):
        history.read(path)
    # Change.at is whole seconds.
    history.record(path, [history.Change(int(T0), "invoices", "here")])
    assert [c.kind for c in history.read(path)] == ["here"]
    many = [history.Change(int(T0) + i, "medicines", "moves", f"PC {i}") for i in range(80)]
    history.record(path, many)
    kept = history.read(path)
    assert len(kept) == history.KEPT and kept[-1].computer == "PC 79"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")
def test_a_fifo_as_the_record_of_closed_parts_does_not_hold_the_tray(tmp_path: Path) -> None:
    """closed.json made a FIFO kept the tray from ever answering: it is taken as unreadable (both
    parts renew, as before any close), at once."""
    state = tmp_path / "state"
    state.mkdir()
    os.mkfifo(state / "closed.json")
    began = time.monotonic()
    lease, driver, _, _ = alone(tmp_path)
    assert time.monotonic() - began < 2.0
    assert driver.paused == set()
    assert not next(iter(lease.claims("invoices"))).closed
