"""The real tray on a folder that real Syncthing syncs (tests/sync/syncthing_pair.py), beside a
second installation on the other Syncthing's copy: a take through the real sync shows in the tray,
a close before a sleep (the fake logind on a private system bus) has reached the other copy by the
time the tray lets the machine sleep, within logind's delay, and with Syncthing stopped the menu
says so."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sioul_tray.install import Installation
from sioul_tray.lease import PARTS, Lease
from sioul_tray.share import Share
from sioul_tray.tray import client
from tests.desktop.fakes import FakeService
from tests.desktop.tray_process import PASSPHRASE, ROOT, cli, env_for, first_missing, status, stop
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay
from tests.helpers import wait_for
from tests.sync.syncthing_pair import FOLDER_ID, SyncthingPair
from tests.sync.syncthing_pair import missing as no_syncthing

pytestmark = [pytest.mark.desktop, pytest.mark.slow]


def missing() -> str | None:
    return first_missing((VirtualDisplay, TrayHost, PrivateBus)) or no_syncthing()


@pytest.fixture
def pair(need: Callable[[str | None], None], tmp_path: Path) -> Iterator[SyncthingPair]:
    need(missing())
    with SyncthingPair(tmp_path / "syncthing") as running:
        yield running


def claims_in(share: Path, computer: str) -> dict[str, bool]:
    """{part: closed} of `computer`'s claims as this copy of the folder holds them."""
    reader = Lease(Share.open(share, PASSPHRASE), "reader_x1")
    return {part: c.closed for part in PARTS for c in reader.claims(part) if c.computer == computer}


def test_a_take_and_a_close_before_sleep_go_through_real_syncthing(
    pair: SyncthingPair, tmp_path: Path
) -> None:
    a_share, b_share = pair.a.folder / "sioul", pair.b.folder / "sioul"
    a_home, b_home = tmp_path / "a-home", tmp_path / "b-home"
    a_env = {"STCONFDIR": str(pair.a.config_path.parent)}  # where the tray finds Syncthing
    b_env = {"STCONFDIR": str(pair.b.config_path.parent)}
    a_share.mkdir()
    done = cli(a_home, "setup", "--share", str(a_share), **a_env)
    assert done.returncode == 0, done.stderr
    pair.a.post(f"/rest/db/scan?folder={FOLDER_ID}")
    wait_for(lambda: (b_share / "sioul.seal").is_file(), 30, why="the seal to reach b")
    done = cli(b_home, "setup", "--share", str(b_share), **b_env)
    assert done.returncode == 0, done.stderr
    a_id, b_id = Installation(a_home).computer(), Installation(b_home).computer()
    with (
        VirtualDisplay() as display,
        TrayHost(display),
        PrivateBus() as session,
        PrivateBus() as system,
        FakeService(system.address, "logind") as logind,
    ):
        env = env_for(a_home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=session.address,
                      DBUS_SYSTEM_BUS_ADDRESS=system.address, **a_env)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            wait_for(
                lambda: (status(a_home) or {}).get("pid") == proc.pid or proc.poll() is not None
            )
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            logind.wait(lambda e: e["event"] == "inhibit")
            # The tray's claims reach b's copy through Syncthing, nudged.
            wait_for(lambda: claims_in(b_share, a_id) == {"medicines": False, "invoices": False},
                     10, why="the tray's claims to reach b")  # fmt: skip

            # "Make invoices here" on b, from its command line: the tray shows it within seconds
            # (nudged on b's side, read by the tray's folder watcher on a's).
            began = time.monotonic()
            done = cli(b_home, "take", "invoices", **b_env)
            assert done.returncode == 0, done.stderr
            wait_for(lambda: (status(a_home) or {}).get("parts", {}).get("invoices", {})
                     .get("keeper") == b_id, 10, why="the take to reach the tray")  # fmt: skip
            took = time.monotonic() - began
            assert took < 5.0  # Syncthing's watcher alone takes 7 to 10 s for one way

            # Sleep: when the tray lets go of the inhibitor, its closes are in b's copy already.
            logind.send("sleep")
            asked = time.monotonic()
            logind.wait(lambda e: e["event"] == "released")
            held = time.monotonic() - asked
            assert claims_in(b_share, a_id) == {"medicines": True, "invoices": True}
            assert held < 5.0  # logind's delay (the fake's InhibitDelayMaxUSec is unset: 5 s)
            logind.send("wake")
            wait_for(lambda: claims_in(b_share, a_id) == {"medicines": False, "invoices": False},
                     10, why="the renewals after wake to reach b")  # fmt: skip
            # Syncthing stopped: the menu says so (asked at once, then every 30 s), no guess.
            pair.a.stop()
            wait_for(lambda: "Syncthing does not answer (is it running?)" in menu(a_home),
                     40, why="the menu to say Syncthing does not answer")  # fmt: skip
        finally:
            stop(proc)


def menu(home: Path) -> list[str]:
    answer = client.ask(home / "state", ["menu"])
    return list(json.loads(answer[1])["texts"]) if answer is not None else []
