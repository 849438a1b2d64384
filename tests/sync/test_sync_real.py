"""With two real Syncthing instances on loopback (tests/sync/syncthing_pair.py): a nudged claim
leaves at once, find() reads a real config.xml, completion and connections say what happened.

The folder keeps Syncthing's default watcher (fsWatcherDelayS 10): its aggregator scans a change
only once the file has been left alone for more than half the delay, so an unnudged file cannot
leave within 5 s of being written. A claim that arrives within 3 s was sent by the nudge.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sioul_tray.files import write_atomic
from sioul_tray.sync import Nudger, Syncthing, SyncToolError, find
from sioul_tray.sync.report import SyncReport, ask
from tests.helpers import wait_for
from tests.sync.conftest import self_signed
from tests.sync.syncthing_pair import FOLDER_ID, Instance, SyncthingPair, missing

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def running_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncthingPair | None]:
    """Started once for the module; None without the syncthing program (`pair` says so)."""
    if missing() is not None:
        yield None
        return
    with SyncthingPair(tmp_path_factory.mktemp("syncthing")) as pair:
        pair.lay_out_share()
        yield pair


@pytest.fixture
def pair(
    need: Callable[[str | None], None], running_pair: SyncthingPair | None
) -> Iterator[SyncthingPair]:
    need(missing())
    assert running_pair is not None
    if not running_pair.b.running:  # a test stopped B and failed before starting it again
        running_pair.b.start()
        running_pair.wait_connected()
    yield running_pair


@pytest.fixture
def syncthing(pair: SyncthingPair) -> Syncthing:
    found = find(pair.a.folder, [pair.a.config_path])
    assert found is not None
    return found


@pytest.fixture
def nudger(syncthing: Syncthing) -> Iterator[Nudger]:
    made = Nudger(syncthing)
    yield made
    made.close()


def arrival(path: Path, data: bytes, timeout: float) -> float | None:
    """When `path` holds exactly `data` (time.monotonic), or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if path.read_bytes() == data:
                return time.monotonic()
        except OSError:
            pass
        time.sleep(0.01)
    return None


def test_a_nudged_claim_leaves_at_once(pair: SyncthingPair, nudger: Nudger) -> None:
    claim = pair.a.folder / "leases" / "medicines" / "nudged_a.lease"
    control = pair.a.folder / "leases" / "invoices" / "control_a.lease"
    data, other = os.urandom(200), os.urandom(200)
    write_atomic(control, other)  # written first, never nudged
    write_atomic(claim, data)
    written = time.monotonic()
    nudger.nudge(claim)
    came = arrival(pair.b.folder / claim.relative_to(pair.a.folder), data, timeout=5)
    assert came is not None, f"not arrived in 5 s; nudger problem: {nudger.problem}"
    assert came - written < 3.0
    # Only the nudged file was scanned: the other one waits for the watcher.
    assert not (pair.b.folder / control.relative_to(pair.a.folder)).exists()
    assert nudger.flush(1) and nudger.problem is None and nudger.scans == 1


def test_find_reads_the_real_config_and_completion_follows(
    pair: SyncthingPair, syncthing: Syncthing, nudger: Nudger
) -> None:
    assert syncthing.folder.id == FOLDER_ID
    assert syncthing.folder.path == pair.a.folder
    assert set(syncthing.folder.devices) == {pair.a.device_id, pair.b.device_id}
    assert syncthing.gui is not None
    assert (syncthing.gui.port, syncthing.gui.api_key) == (pair.a.gui_port, pair.a.api_key)
    client = syncthing.client()
    client.ping()
    assert client.my_id() == pair.a.device_id

    claim = pair.a.folder / "leases" / "invoices" / "nudged_b.lease"
    data = os.urandom(200)
    write_atomic(claim, data)
    nudger.nudge(claim)
    assert nudger.sent_to_all(5), nudger.problem
    # Complete means B has it, byte for byte, already.
    assert (pair.b.folder / "leases" / "invoices" / "nudged_b.lease").read_bytes() == data
    done = client.completion(FOLDER_ID, pair.b.device_id)
    assert done.complete and done.percent == 100 and done.need_items == 0
    assert client.status(FOLDER_ID).state in ("idle", "scanning", "syncing")


def test_connections_say_when_b_is_gone(
    pair: SyncthingPair, syncthing: Syncthing, nudger: Nudger
) -> None:
    client = syncthing.client()
    assert client.connections()[pair.b.device_id].connected
    assert ask(syncthing, client) == SyncReport(True, connected=1)
    pair.b.stop()
    stopped = time.time()
    try:
        gone = wait_for(
            lambda: not client.connections()[pair.b.device_id].connected,
            10,
            why="A to see B gone",
        )
        assert gone
        # Nobody connected: nothing can be sent, so nothing is waited for.
        began = time.monotonic()
        assert nudger.sent_to_all(2)
        assert time.monotonic() - began < 1.5
        # What the menu says instead of a guess: not connected to b, since when it last saw it.
        report = ask(syncthing, client)
        assert report.answering and not report.paused and report.connected == 0
        (device,) = report.unconnected
        assert device.name == "b"
        assert device.last_seen is not None and abs(device.last_seen - stopped) < 30
    finally:
        pair.b.start()
        pair.wait_connected()
    assert client.connections()[pair.b.device_id].connected


def test_the_command_line_sends_its_claims_before_it_exits(
    pair: SyncthingPair, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sioul_tray.cli import main
    from sioul_tray.share import Share

    share = pair.a.folder / "person"
    share.mkdir()
    Share.create(share, "syncthing test phrase", "creator", cost=10)
    # This installation finds A's Syncthing as a person's would: through its config's place.
    monkeypatch.setenv("STHOMEDIR", str(pair.a.home))
    monkeypatch.setenv("SIOUL_TRAY_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SIOUL_PASSPHRASE", "syncthing test phrase")
    assert main(["setup", "--share", str(share)]) == 0
    began = time.monotonic()
    assert main(["renew", "invoices"]) == 0  # writes the claim, nudges, waits at most 1 s
    mine = next((share / "leases" / "invoices").glob("*.lease"))
    there = pair.b.folder / mine.relative_to(pair.a.folder)
    came = arrival(there, mine.read_bytes(), 5)
    assert came is not None and came - began < 3.0  # the watcher alone takes over 5 s
    began = time.monotonic()
    assert main(["close", "invoices"]) == 0  # the close before a sleep, as the command line says
    came = arrival(there, mine.read_bytes(), 5)
    assert came is not None and came - began < 3.0

    # Without the nudge (SIOUL_TRAY_NO_NUDGE=1), the same renew waits for the watcher.
    monkeypatch.setenv("SIOUL_TRAY_NO_NUDGE", "1")
    assert main(["renew", "invoices"]) == 0
    assert arrival(there, mine.read_bytes(), 3.0) is None


def test_a_real_syncthing_over_https_is_asked_through_its_own_certificate_only(
    need: Callable[[str | None], None], tmp_path: Path
) -> None:
    """The pin against what Syncthing itself makes: its https-cert.pem, written on first start
    beside config.xml. Another certificate there (as if another program answered) gets no key."""
    need(missing())
    solo, peer = Instance(tmp_path, "solo", tls=True), Instance(tmp_path, "peer")
    solo.configure(peer)
    solo.start()
    try:
        found = find(solo.folder, [solo.config_path])
        assert found is not None and found.gui is not None and found.gui.tls
        client = found.client(timeout=5)
        assert client.my_id() == solo.device_id
        own = solo.home / "https-cert.pem"
        mine = own.read_bytes()
        foreign, _ = self_signed(tmp_path)  # another key pair, "syncthing" too
        own.write_bytes(foreign.read_bytes())
        with pytest.raises(SyncToolError, match="not Syncthing's own"):
            client.my_id()
        own.write_bytes(mine)
        assert client.my_id() == solo.device_id
    finally:
        solo.stop()
