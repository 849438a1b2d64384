"""The Nudger (`sioul_tray.sync.nudger`): a claim file written is sent by Syncthing at once, from
a thread of its own; the writer never waits, failures are kept for the tray, never raised."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from sioul_tray.sync import Nudger
from sioul_tray.sync.syncthing import Client, Config, Gui, Syncthing
from tests.sync.conftest import FakeSyncthing
from tests.sync.stkit import FOLDER_ID, PEER, completion, folder_at, syncthing_at


@pytest.fixture
def share_root(tmp_path: Path) -> Path:
    root = tmp_path / "Sync"
    (root / "share" / "leases" / "medicines").mkdir(parents=True)
    return root


def test_a_nudge_scans_the_file_relative_to_the_folder_root(
    fake: FakeSyncthing, share_root: Path
) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "leases" / "medicines" / "aa.lease")
        assert nudger.flush(5)
        assert [(a.method, a.query) for a in fake.scans()] == [
            ("POST", {"folder": [FOLDER_ID], "sub": ["share/leases/medicines/aa.lease"]})
        ]
        assert nudger.problem is None and nudger.scans == 1
    finally:
        nudger.close()


def test_nudges_queued_while_a_scan_runs_go_in_one_request(
    fake: FakeSyncthing, share_root: Path
) -> None:
    medicines = share_root / "share" / "leases" / "medicines"
    fake.gate.clear()  # the first scan is held until the others are queued
    # A patient client: the held scan must not time out while the test queues.
    nudger = Nudger(syncthing_at(share_root, fake.gui()), Client(fake.gui(), timeout=5))
    try:
        nudger.nudge(medicines / "aa.lease")
        deadline = time.monotonic() + 5
        while not fake.scans() and time.monotonic() < deadline:
            time.sleep(0.005)
        for name in ("bb.lease", "bb.lease", "cc.lease", "bb.lease"):
            nudger.nudge(medicines / name)
        assert not nudger.flush(0.05)  # held: not sent yet
        fake.gate.set()
        assert nudger.flush(5)
        subs = [a.query["sub"] for a in fake.scans()]
        assert subs == [
            ["share/leases/medicines/aa.lease"],
            ["share/leases/medicines/bb.lease", "share/leases/medicines/cc.lease"],
        ]
        assert nudger.scans == 2
    finally:
        fake.gate.set()
        nudger.close()


def test_nudge_never_waits_for_syncthing(fake: FakeSyncthing, share_root: Path) -> None:
    fake.gate.clear()
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        began = time.monotonic()
        for n in range(50):
            nudger.nudge(share_root / "share" / f"{n}.lease")
        assert time.monotonic() - began < 0.1
    finally:
        fake.gate.set()
        nudger.close()


def test_failures_are_kept_not_raised(tmp_path: Path, closed_port: int, share_root: Path) -> None:
    gui = Gui("x", "127.0.0.1", closed_port, False, "k", tmp_path)
    nudger = Nudger(syncthing_at(share_root, gui))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem == (
            f"Syncthing does not answer at 127.0.0.1:{closed_port}: connection refused"
        )
        assert nudger.scans == 0
        assert not nudger.sent_to_all(1)  # asked, failed, kept: never raised
    finally:
        nudger.close()


def test_a_file_outside_the_folder_is_a_problem_not_a_scan(
    fake: FakeSyncthing, share_root: Path, tmp_path: Path
) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(tmp_path / "elsewhere.lease")
        assert nudger.flush(2)
        assert nudger.problem is not None and "is outside Syncthing's folder" in nudger.problem
        assert fake.scans() == []
        nudger.nudge(share_root / "share" / "aa.lease")  # a scan that works clears it
        assert nudger.flush(2)
        assert nudger.problem is None and len(fake.scans()) == 1
    finally:
        nudger.close()


def test_the_problem_clears_once_syncthing_answers_again(
    fake: FakeSyncthing, share_root: Path
) -> None:
    fake.answers["/rest/db/scan"] = (500, b"folder is paused\n")
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem is not None and nudger.problem.endswith("folder is paused")
        del fake.answers["/rest/db/scan"]
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem is None
    finally:
        nudger.close()


def test_flush_with_nothing_queued_and_after_close(fake: FakeSyncthing, share_root: Path) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    assert nudger.flush(0)
    nudger.close()
    nudger.nudge(share_root / "share" / "aa.lease")  # ignored once closed
    assert nudger.flush(0)
    assert fake.scans() == []
    assert not any(t.name == "sioul-nudger" and t.is_alive() for t in threading.enumerate())


def test_nudger_sent_to_all(fake: FakeSyncthing, share_root: Path) -> None:
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.sent_to_all(2)
        assert [a.path for a in fake.asked] == [
            "/rest/db/scan",
            "/rest/system/connections",
            "/rest/db/completion",
        ]
        fake.completions = {PEER: completion(80, 1)}
        assert not nudger.sent_to_all(0.2)
    finally:
        nudger.close()


def test_the_nudgers_sent_to_all_never_raises_on_an_odd_answer(
    fake: FakeSyncthing, share_root: Path
) -> None:
    fake.answers["/rest/db/completion"] = (200, b'{"completion": 100, "needItems": 1e999}')
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    try:
        assert not nudger.sent_to_all(1)  # on the tray's thread, before sleep
        assert nudger.problem is not None and "unexpected data" in nudger.problem
    finally:
        nudger.close()


def test_close_sends_what_was_queued_first(fake: FakeSyncthing, share_root: Path) -> None:
    """A claim closed at quit is nudged, then the nudger closed: that scan still goes."""
    nudger = Nudger(syncthing_at(share_root, fake.gui()))
    for part in ("medicines", "invoices"):
        nudger.nudge(share_root / "share" / "leases" / part / "aa.lease")
    nudger.close()
    sent = [sub for asked in fake.scans() for sub in asked.query["sub"]]
    assert sent == ["share/leases/medicines/aa.lease", "share/leases/invoices/aa.lease"]


def test_a_syncthing_without_a_gui_is_a_problem_saying_why(share_root: Path) -> None:
    folder = folder_at(share_root)
    problem = "Syncthing's GUI and REST API are switched off in ~/.config/syncthing/config.xml"
    config = Config(Path("config.xml"), None, problem, (folder,), ())
    nudger = Nudger(Syncthing(config, None, folder))
    try:
        nudger.nudge(share_root / "share" / "aa.lease")
        assert nudger.flush(2)
        assert nudger.problem == problem and nudger.scans == 0
        assert not nudger.sent_to_all(1)
    finally:
        nudger.close()
