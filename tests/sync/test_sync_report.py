"""What Syncthing says of the folder's sync (`sync.report`), against the REST stand-in; the real
pair's version is in test_sync_real.py. And the words the menu makes of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sioul_tray import phrases
from sioul_tray.sync.report import SyncReport, Unconnected, Watch, ask
from sioul_tray.sync.syncthing import Client, Config, Device, Folder, Gui, Syncthing
from tests.helpers import wait_for
from tests.sync.stkit import FOLDER_ID, ME, PEER, THIRD, connection

if TYPE_CHECKING:
    from tests.sync.conftest import FakeSyncthing

Start = Callable[..., "FakeSyncthing"]
SEEN = "2026-11-30T10:12:03.123456789+01:00"  # as Syncthing writes it: nanoseconds, an offset


def shared(gui: Gui) -> Syncthing:
    folder = Folder(FOLDER_ID, "Sioul", Path("/srv/Sync"), "sendreceive", False, (ME, PEER, THIRD))
    devices = (Device(ME, "here", False), Device(PEER, "Laptop", False))  # THIRD has no name
    config = Config(gui.config, gui, None, (folder,), devices)
    return Syncthing(config, gui, folder)


@pytest.fixture
def fake(start_fake: Start) -> FakeSyncthing:
    server = start_fake()
    server.connections = {ME: connection(False), PEER: connection(False), THIRD: connection(True)}
    stats = {
        ME: {"lastSeen": "1970-01-01T01:00:00+01:00"},
        PEER: {"lastSeen": SEEN, "lastConnectionDurationS": 3600},
        THIRD: {"lastSeen": "2026-12-01T08:00:00Z"},
    }
    server.answers["/rest/stats/device"] = (200, json.dumps(stats).encode())
    server.answers[f"/rest/config/folders/{FOLDER_ID}"] = (
        200,
        json.dumps({"id": FOLDER_ID, "paused": False}).encode(),
    )
    return server


def test_a_computer_syncthing_is_not_connected_to_with_when_it_last_saw_it(
    fake: FakeSyncthing,
) -> None:
    report = ask(shared(fake.gui()), Client(fake.gui()))
    seen = datetime.fromisoformat("2026-11-30T10:12:03.123456+01:00").timestamp()
    assert report == SyncReport(True, unconnected=(Unconnected("Laptop", seen),), connected=1)


def test_a_paused_folder_and_a_device_never_seen(fake: FakeSyncthing) -> None:
    fake.answers[f"/rest/config/folders/{FOLDER_ID}"] = (200, b'{"paused": true}')
    fake.connections[THIRD] = connection(False)
    fake.answers["/rest/stats/device"] = (
        200,
        b'{"%s": {"lastSeen": "1970-01-01T00:00:00Z"}}' % THIRD.encode(),
    )
    report = ask(shared(fake.gui()), Client(fake.gui()))
    assert report.paused and report.connected == 0
    assert report.unconnected == (Unconnected("Laptop", None), Unconnected("CCCCCCC", None))


def test_syncthing_not_answering_or_refusing_the_key(
    fake: FakeSyncthing, tmp_path: Path, closed_port: int
) -> None:
    gone = Gui("x", "127.0.0.1", closed_port, False, "k", tmp_path)
    report = ask(shared(gone), Client(gone))
    assert not report.answering and "connection refused" in (report.problem or "")
    wrong = fake.gui(api_key="not the key")
    report = ask(shared(wrong), Client(wrong))
    assert not report.answering and report.problem


def test_the_watch_keeps_the_last_answer(fake: FakeSyncthing) -> None:
    told: list[SyncReport | None] = []
    watch = Watch(shared(fake.gui()), every=0.05, changed=lambda: told.append(watch.report))
    try:
        wait_for(lambda: watch.report is not None and watch.report.connected == 1, 5)
        fake.connections[THIRD] = connection(False)
        wait_for(lambda: watch.report is not None and watch.report.connected == 0, 5)
    finally:
        watch.close()
    # Told once per different answer, not at every question.
    assert [r.connected for r in told if r is not None] == [1, 0]


@pytest.mark.parametrize(
    "odd",
    [b"[" * 200_000, b"[" * 900 + b"]" * 900, b'{"paused": "no"}'],
    ids=["nested-200k", "nested-900", "text"],
)
def test_the_watch_outlives_any_answer(fake: FakeSyncthing, odd: bytes) -> None:
    """The menu's Syncthing line is this thread's: an answer, however odd, is a problem it
    reports, and it keeps asking."""
    path = f"/rest/config/folders/{FOLDER_ID}"
    good = fake.answers[path]
    fake.answers[path] = (200, odd)
    watch = Watch(shared(fake.gui()), every=0.05)
    try:
        wait_for(lambda: watch.report is not None and not watch.report.answering, 5)
        assert watch.report is not None and "Syncthing" in (watch.report.problem or "")
        fake.answers[path] = good
        wait_for(lambda: watch.report is not None and watch.report.answering, 5)
    finally:
        watch.close()


def test_the_watch_outlives_a_surprise_of_its_own(fake: FakeSyncthing) -> None:
    """Whatever goes wrong in a round (here, the one told of a change fails once), the next
    round comes: the thread never dies."""
    told: list[SyncReport | None] = []

    def changed() -> None:
        told.append(watch.report)
        if len(told) == 1:
            raise RuntimeError("a surprise")

    watch = Watch(shared(fake.gui()), every=0.05, changed=changed)
    try:
        wait_for(lambda: len(told) == 1, 5)
        fake.connections[THIRD] = connection(False)
        wait_for(lambda: len(told) == 2, 5)
    finally:
        watch.close()


def test_the_words(fake: FakeSyncthing) -> None:
    assert phrases.sync_lines(SyncReport(False, problem="refused")) == [
        "Syncthing does not answer (is it running?)"
    ]
    report = ask(shared(fake.gui()), Client(fake.gui()))
    (line,) = phrases.sync_lines(report)
    assert line.startswith("Syncthing is not connected to Laptop since ")
    assert phrases.sync_lines(SyncReport(True, connected=2)) == []
