"""The simulator itself: seeds replay, the sync model delivers what it should, clocks behave."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sioul_tray.lease import RENEW, SETTLING

from .scenarios import Sync, simulate
from .world import EPOCH, Clock, World


def no_delay() -> Sync:
    return Sync(median=1.0, sigma=0.0, cap=1.0)


@pytest.fixture
def world() -> Iterator[World]:
    w = World(3)
    w.add_computers([(c, Clock(), no_delay().delay()) for c in ("aa", "bb", "cc")])
    yield w
    w.close()


def test_same_seed_same_run() -> None:
    one, two = (simulate("everything", 11, 0.08) for _ in range(2))  # about 2 hours
    assert one.calls == two.calls and one.events == two.events
    assert one.double == two.double
    assert one.unattended == two.unattended
    assert one.handover == two.handover
    assert one.flaps == two.flaps


@pytest.mark.slow
def test_same_seed_same_table_in_another_process() -> None:
    """Across processes too: no order may come from string hashing, which changes per process."""
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "tests.simulation", "--scenario", "lifecycle", "--seeds", "1"]
    tables = []
    for hash_seed in ("1", "2"):
        out = subprocess.run(
            [*command, "--days", "0.25"],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        rows = [line for line in out.splitlines() if line.startswith("lifecycle")]
        tables.append([row.rsplit("|", 1)[0] for row in rows])  # all but the speed
    assert tables[0] == tables[1] and tables[0]


def test_another_seed_another_run() -> None:
    assert simulate("calm", 1, 0.1).calls != simulate("calm", 2, 0.1).calls


def test_a_claim_reaches_every_replica_with_the_bytes_of_delivery_time(world: World) -> None:
    a = world.computers["aa"]
    rel = "leases/invoices/aa.lease"
    (a.replica / "leases/invoices").mkdir(parents=True)
    (a.replica / rel).write_bytes(b"first")
    a.client.local_changed(rel)
    (a.replica / rel).write_bytes(b"second")  # rewritten before the upload: one transfer
    world.run(10.0)
    for c in ("bb", "cc"):
        assert (world.computers[c].replica / rel).read_bytes() == b"second"
    assert not list((world.computers["bb"].replica / "leases/invoices").glob(".*"))


def test_stopped_and_stalled_syncs_hold_transfers_back_until_they_resume(world: World) -> None:
    a, b = world.computers["aa"], world.computers["bb"]
    b.client.stalled += 1  # b's downloads stall; its uploads go on
    a.client.stopped += 1
    rel = "leases/medicines/aa.lease"
    (a.replica / "leases/medicines").mkdir(parents=True)
    (a.replica / rel).write_bytes(b"claim")
    a.client.local_changed(rel)
    world.run(100.0)
    assert not (b.replica / rel).exists() and not (world.computers["cc"].replica / rel).exists()
    a.client.stopped -= 1
    a.client.resume()
    world.run(200.0)
    assert (world.computers["cc"].replica / rel).exists() and not (b.replica / rel).exists()
    b.client.stalled -= 1
    b.client.resume()
    world.run(300.0)
    assert (b.replica / rel).read_bytes() == b"claim"


def test_a_phone_moves_files_only_in_its_bursts(world: World) -> None:
    a, phone = world.computers["aa"], world.computers["cc"]
    phone.client.bursty = True
    rel = "leases/invoices/aa.lease"
    (a.replica / "leases/invoices").mkdir(parents=True)
    (a.replica / rel).write_bytes(b"claim")
    a.client.local_changed(rel)
    world.run(1700.0)
    assert not (phone.replica / rel).exists()
    phone.client.in_burst = True
    phone.client.resume()
    world.run(1710.0)
    assert (phone.replica / rel).read_bytes() == b"claim"


def test_an_evicted_claim_is_a_placeholder_until_it_comes_back_current(world: World) -> None:
    a, b = world.computers["aa"], world.computers["bb"]
    rel = "leases/invoices/aa.lease"
    (a.replica / "leases/invoices").mkdir(parents=True)
    (a.replica / rel).write_bytes(b"old")
    a.client.local_changed(rel)
    world.run(10.0)
    b.client.evict(rel)
    assert not (b.replica / rel).exists()
    assert (b.replica / "leases/invoices/.aa.lease.icloud").exists()
    (a.replica / rel).write_bytes(b"new")
    a.client.local_changed(rel)
    world.run(20.0)
    assert not (b.replica / rel).exists()
    b.client.restore(rel)
    world.run(30.0)
    assert (b.replica / rel).read_bytes() == b"new"
    assert not (b.replica / "leases/invoices/.aa.lease.icloud").exists()


def test_clocks_offset_drift_and_step() -> None:
    clock = Clock(offset=-300.0, rate=1.001)
    assert clock.local(0.0) == EPOCH - 300.0
    assert clock.local(1000.0) == pytest.approx(EPOCH - 300.0 + 1001.0)
    assert clock.true_span(RENEW) == pytest.approx(RENEW / 1.001)
    clock.step(60.0)
    assert clock.local(0.0) == EPOCH - 240.0


def test_each_lease_reads_its_own_clock(world: World) -> None:
    world.computers["bb"].clock.step(-600.0)
    for c in world.computers.values():
        world.at(0.0, c.start)
    world.run(SETTLING + 3 * RENEW)
    a, b = world.computers["aa"], world.computers["bb"]
    assert a.lease is not None and b.lease is not None
    own = {claim.computer: claim.renewed for claim in b.lease.claims("invoices")}
    assert b.now() - own["bb"] < RENEW + 1
    assert a.now() - b.now() == pytest.approx(600.0)
    # One computer acts on each part once the claims went round, and it is the same for everyone.
    assert len(world.actors("invoices")) == 1 and len(world.actors("medicines")) == 1


def test_the_loop_jumps_from_event_to_event(world: World) -> None:
    seen: list[object] = []
    world.at(5.0, seen.append, 5.0)
    world.at(86400.0 * 30, seen.append, "later")
    m = world.run(86400.0 * 31)
    assert seen == [5.0, "later"] and m.events == 2 and m.seconds == 86400.0 * 31


def slow_world(nudged: bool) -> World:
    """Three computers whose every transfer takes 20 s: a close never fits logind's 5 s alone."""
    w = World(5)
    slow = Sync(median=20.0, sigma=0.0, cap=20.0)
    w.add_computers([(c, Clock(), slow.delay()) for c in ("aa", "bb", "cc")])
    for c in w.computers.values():
        c.client.nudged = nudged
        w.at(0.0, c.start)
    return w


@pytest.mark.parametrize("nudged", [True, False])
def test_a_nudged_close_leaves_before_sleep_and_releases_the_inhibitor(nudged: bool) -> None:
    w = slow_world(nudged)
    try:
        w.run(300.0)
        a = w.computers["aa"]
        a.sleep()
        w.run(300.0 + 1.0)
        assert a.dozing is not nudged  # the inhibitor is released once the close is sent
        w.run(300.0 + 60.0)
        assert not a.awake and w.measures.closes == 1
        assert w.measures.closes_out == int(nudged)
    finally:
        w.close()


def test_a_nudge_does_not_move_a_stopped_sync() -> None:
    w = slow_world(True)
    try:
        w.run(300.0)
        a = w.computers["aa"]
        a.client.stopped += 1
        a.sleep()
        w.run(300.0 + 10.0)
        assert not a.awake and w.measures.closes_out == 0  # slept after the full delay, unsent
    finally:
        w.close()
