"""The real `sioul-tray` process on a virtual X display, docked in Debian's `trayer`.

It docks, its menu opens on a click and shows both parts (a screenshot, copied to docs/menu.png
when SIOUL_UPDATE_DOCS=1), a
second launch hands over to it, and SIGTERM leaves both claims closed on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sioul_tray.lease import Lease
from sioul_tray.share import Share
from sioul_tray.tray import client
from tests.desktop.tray_process import (
    PASSPHRASE,
    ROOT,
    children,
    cli,
    env_for,
    first_missing,
    status,
    stop,
    tray_icons,
)
from tests.desktop.virtual import PrivateBus, TrayHost, VirtualDisplay
from tests.helpers import wait_for

# The fast suite keeps the first two (a real tray docked, its menu, its claims closed on quit);
# the others are slow.
pytestmark = pytest.mark.desktop


def missing() -> str | None:
    return first_missing((VirtualDisplay, TrayHost, PrivateBus),
                         ("xdotool", "xwininfo", "import", "convert"))  # fmt: skip


class Running:
    def __init__(self, home: Path, share: Path, display: VirtualDisplay, proc: Any) -> None:
        self.home = home
        self.share = share
        self.display = display
        self.proc = proc

    def ask(self, *argv: str) -> tuple[int, str] | None:
        return client.ask(self.home / "state", list(argv))

    def menu(self) -> dict[str, Any]:
        answer = self.ask("menu")
        assert answer is not None, "the running tray does not answer"
        return json.loads(answer[1])  # type: ignore[no-any-return]

    def x(self, *args: str) -> str:
        env = dict(self.display.env())
        return subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=20,
                              check=True).stdout  # fmt: skip


@pytest.fixture
def tray(need: Callable[[str | None], None], tmp_path: Path) -> Iterator[Running]:
    need(missing())
    home, share = tmp_path / "home", tmp_path / "share"
    share.mkdir()
    done = cli(home, "setup", "--share", str(share))
    assert done.returncode == 0, done.stderr
    # Another computer keeps invoices, so the menu shows a keeper elsewhere with its time.
    office = Lease(Share.open(share, PASSPHRASE), "office_pc", name="Office PC")
    office.renew("invoices", take=True)
    office.renew("medicines", active=0)
    with VirtualDisplay() as display, TrayHost(display), PrivateBus() as bus:
        env = env_for(home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=bus.address,
                      DBUS_SYSTEM_BUS_ADDRESS=bus.address)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            wait_for(lambda: (status(home) or {}).get("pid") == proc.pid or proc.poll() is not None)
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            yield Running(home, share, display, proc)
        finally:
            stop(proc)


def test_docks_and_the_menu_opens_on_a_click_showing_both_parts(tray: Running) -> None:
    icons = wait_for(lambda: tray_icons(tray.display.display))
    assert len(icons) == 1, icons  # our icon, embedded in trayer's panel
    x, y, w, h = icons[0]
    assert not tray.menu()["visible"]
    tray.x("xdotool", "mousemove", str(x + w // 2), str(y + h // 2), "click", "3")
    menu = wait_for(lambda: (m := tray.menu())["visible"] and m)
    texts = menu["texts"]
    assert texts[1].startswith("Medicines: here")
    assert texts[2] == "Invoices: Office PC (not numbering yet)"  # taken by a command, no tray
    assert "Make invoices here…" in texts and "Quit" in texts
    shot = tray.home / "screen.png"
    tray.x("import", "-window", "root", str(shot))
    # Trim the black, empty root window: what is left is the panel and the open menu.
    menu = tray.home / "menu.png"
    subprocess.run(["convert", str(shot), "-trim", "+repage", str(menu)], check=True, timeout=30)
    assert menu.stat().st_size > 1000
    if os.environ.get("SIOUL_UPDATE_DOCS") == "1":
        # The README's screenshot: refreshed on purpose, never as a side effect of a test run.
        shutil.copyfile(menu, ROOT / "docs" / "menu.png")


def test_sigterm_leaves_both_claims_closed_on_disk(tray: Running) -> None:
    computer = status(tray.home)["computer"]  # type: ignore[index]
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader")
    mine = {p: next(c for c in reader.claims(p) if c.computer == computer)
            for p in ("medicines", "invoices")}  # fmt: skip
    assert not any(c.closed for c in mine.values())
    tray.proc.send_signal(signal.SIGTERM)
    assert tray.proc.wait(15) == 0
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader2")
    for part in ("medicines", "invoices"):
        claim = next(c for c in reader.claims(part) if c.computer == computer)
        assert claim.closed, part
        assert claim.seq > mine[part].seq
    after = status(tray.home)
    assert after is not None and not after["running"]
    assert not any(p["acting"] for p in after["parts"].values())


@pytest.mark.slow
def test_sigint_closes_too(tray: Running) -> None:
    computer = status(tray.home)["computer"]  # type: ignore[index]
    tray.proc.send_signal(signal.SIGINT)
    assert tray.proc.wait(15) == 0
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader")
    assert all(next(c for c in reader.claims(p) if c.computer == computer).closed
               for p in ("medicines", "invoices"))  # fmt: skip


@pytest.mark.slow
def test_a_second_launch_opens_the_running_trays_menu_and_exits(tray: Running) -> None:
    second = subprocess.run(
        [sys.executable, "-m", "sioul_tray.cli"],
        env=env_for(tray.home, DISPLAY=tray.display.display, QT_QPA_PLATFORM="xcb"),
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    assert tray.proc.poll() is None
    wait_for(lambda: tray.menu()["visible"])


@pytest.mark.slow
def test_requests_through_the_running_tray(tray: Running) -> None:
    # Office PC makes invoices: a mark of this computer's is refused, and carried nowhere.
    refused = tray.ask("wrote", "invoices", "41", "nobody.1")
    assert refused is not None and refused[0] == 1 and "does not act on invoices" in refused[1]
    look = tray.ask("look")
    assert look is not None and json.loads(look[1])["running"] is True
    bad = tray.ask("wrote", "recipes", "1", "nobody.1")
    assert bad is not None and bad[0] == 2
    tray.proc.send_signal(signal.SIGTERM)
    tray.proc.wait(15)
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader")
    computer = status(tray.home)["computer"]  # type: ignore[index]
    claim = next(c for c in reader.claims("invoices") if c.computer == computer)
    assert claim.closed and claim.wrote == 0


@pytest.mark.slow
def test_the_command_line_goes_through_the_running_tray(tray: Running) -> None:
    # The tray holds the writer lock: a writing command run on its own would be refused (Busy).
    done = cli(tray.home, "wrote", "invoices", "7", "--token", "nobody.1")
    assert done.returncode == 1 and "does not act on invoices" in done.stdout, done.stderr
    # Office PC took invoices when the fixture started; a take in the same whole second would tie
    # and go to the smaller id. A person's take comes later than that.
    time.sleep(1.1)
    done = cli(tray.home, "take", "invoices")
    assert done.returncode == 0 and "taken here" in done.stdout, done.stderr

    def invoices_here() -> dict[str, Any] | None:
        looked = cli(tray.home, "look", "--json")
        assert looked.returncode == 0, looked.stderr
        invoices: dict[str, Any] = json.loads(looked.stdout)["invoices"]
        assert invoices["source"] == "tray"
        return invoices if invoices["here"] else None

    invoices = wait_for(invoices_here)  # the tray's view follows its renewal within moments
    assert invoices["acting"] is False  # just taken: settling, and Office PC has not seen it
    assert "Invoices: here" in cli(tray.home, "look").stdout
    done = cli(tray.home, "close", "invoices")
    assert done.returncode == 0 and "Closed" in done.stdout, done.stderr
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader")
    computer = status(tray.home)["computer"]  # type: ignore[index]
    claim = next(c for c in reader.claims("invoices") if c.computer == computer)
    assert claim.closed and claim.wrote == 0 and claim.taken is not None  # the mark refused


@pytest.mark.slow
def test_the_demo_docks_and_cleans_up(need: Callable[[str | None], None], tmp_path: Path) -> None:
    need(missing())
    with VirtualDisplay() as display, TrayHost(display), PrivateBus() as bus:
        env = env_for(tmp_path / "home", DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=bus.address, TMPDIR=str(tmp_path))  # fmt: skip
        proc = subprocess.Popen(
            [sys.executable, "-c", "from sioul_tray.tray.demo import run; raise SystemExit(run())"],
            env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert proc.stderr is not None
            first = proc.stderr.readline()
            assert first.startswith("demo: You are here"), first
            wait_for(lambda: tray_icons(display.display))
            folders = list(tmp_path.glob("sioul-tray-demo-*"))
            assert len(folders) == 1 and (folders[0] / "share" / "sioul.seal").exists()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(15) == 0
        finally:
            stop(proc)
    assert not list(tmp_path.glob("sioul-tray-demo-*"))  # nothing left behind
    assert not (tmp_path / "home").exists()  # this installation untouched


@pytest.mark.slow
def test_first_run_window_creates_the_sharing_folder(
    need: Callable[[str | None], None], tmp_path: Path
) -> None:
    need(missing())
    (tmp_path / "Sync").mkdir()  # Syncthing's default folder: the window proposes it
    home = tmp_path / "home"
    with VirtualDisplay() as display, TrayHost(display), PrivateBus() as bus:
        env = env_for(home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb", HOME=str(tmp_path),
                      DBUS_SESSION_BUS_ADDRESS=bus.address,
                      XDG_CONFIG_HOME=str(tmp_path / "config"),
                      XDG_DATA_HOME=str(tmp_path / "data"))  # fmt: skip
        env.pop("SIOUL_PASSPHRASE")
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT)

        def xdotool(*args: str) -> str:
            return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                                  timeout=20).stdout.strip()  # fmt: skip

        try:
            window = wait_for(lambda: xdotool("search", "--name", "Sharing folder"))
            xdotool("windowfocus", "--sync", window.split()[0])
            xdotool("type", "--delay", "10", "horse staple")  # the passphrase field has focus
            xdotool("key", "Tab")
            xdotool("type", "--delay", "10", "horse staple")
            xdotool("key", "Return")
            wait_for(lambda: (status(home) or {}).get("running"))
            folder = tmp_path / "Sync" / "Sioul"
            assert Share.open(folder, "horse staple").folder_id
            assert wait_for(lambda: tray_icons(display.display))
            # "Start sioul-tray when I log in" is on by default, with the menu entry and icon.
            entry = tmp_path / "config" / "autostart" / "org.sioul.tray.desktop"
            assert "X-GNOME-Autostart-enabled=true" in entry.read_text().splitlines()
            assert (tmp_path / "data" / "applications" / "org.sioul.tray.desktop").is_file()
        finally:
            proc.terminate()
            proc.wait(15)


@pytest.mark.slow
def test_the_real_tray_closes_before_system_sleep_and_renews_after(
    need: Callable[[str | None], None], tmp_path: Path
) -> None:
    from tests.desktop.fakes import FakeService

    need(missing())
    home, share = tmp_path / "home", tmp_path / "share"
    share.mkdir()
    assert cli(home, "setup", "--share", str(share)).returncode == 0
    with (
        VirtualDisplay() as display,
        TrayHost(display),
        PrivateBus() as system,
        FakeService(system.address, "logind") as logind,
    ):
        env = env_for(home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SYSTEM_BUS_ADDRESS=system.address)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT)
        try:
            inhibit = logind.wait(lambda e: e["event"] == "inhibit", 20)
            assert inhibit["args"][0] == "sleep" and inhibit["args"][3] == "delay"
            wait_for(lambda: (status(home) or {}).get("running"))
            computer = status(home)["computer"]  # type: ignore[index]
            logind.send(f'set snapshot "{share / "leases"}"')
            logind.wait(lambda e: e["event"] == "set")
            logind.send("sleep")
            released = logind.wait(lambda e: e["event"] == "released", 20)
            reader = Lease(Share.open(share, PASSPHRASE), "reader")
            for part in ("medicines", "invoices"):
                assert next(c for c in reader.claims(part) if c.computer == computer).closed
            # The folder as it was when the inhibitor went is the folder now: closed claims.
            leases = share / "leases"
            now = {str(p.relative_to(leases)): hashlib.sha256(p.read_bytes()).hexdigest()
                   for p in leases.rglob("*") if p.is_file()}  # fmt: skip
            assert released["files"] == now
            assert (status(home) or {}).get("running") is False
            logind.send("wake")
            logind.wait(lambda e: e["event"] == "inhibit", 20)
            wait_for(lambda: (status(home) or {}).get("running"))
            reader = Lease(Share.open(share, PASSPHRASE), "reader2")
            for part in ("medicines", "invoices"):
                assert not next(c for c in reader.claims(part) if c.computer == computer).closed
        finally:
            proc.terminate()
            proc.wait(15)


@pytest.mark.slow
def test_the_real_tray_notifies_a_handover_over_dbus(
    need: Callable[[str | None], None], tmp_path: Path
) -> None:
    from tests.desktop.fakes import FakeService

    need(missing())
    home, share = tmp_path / "home", tmp_path / "share"
    share.mkdir()
    assert cli(home, "setup", "--share", str(share)).returncode == 0
    with (
        VirtualDisplay() as display,
        TrayHost(display),
        PrivateBus() as session,
        FakeService(session.address, "notifications") as server,
    ):
        env = env_for(home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=session.address)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT)
        try:
            wait_for(lambda: (status(home) or {}).get("running"))
            office = Lease(Share.open(share, PASSPHRASE), "office_pc", name="Office PC")
            office.renew("invoices", take=True)
            call = server.wait(lambda e: e.get("member") == "Notify", 10)
            assert call["signature"] == "susssasa{sv}i"
            assert call["args"][0] == "sioul-tray"
            assert call["args"][3] == "Invoices move to Office PC"
            office.renew("invoices")
            time.sleep(1.5)
            assert server.calls("Notify") == []  # once per change, not per renewal
        finally:
            proc.terminate()
            proc.wait(15)


def counted(line: str) -> str:
    """A menu line without its countdown ("Medicines: here in 1 min 40 s")."""
    return re.sub(r" in [0-9].*$", " in …", line)


@pytest.mark.slow
def test_look_while_the_tray_runs_says_what_the_tray_says(tray: Running) -> None:
    """Found by the review: `look` printed "seen since" as the time of the look itself and
    dropped "settling" while the tray's status said settled: false. It now prints the running
    tray's own status, in the same words as the menu."""
    wait_for(lambda: (status(tray.home) or {}).get("running") is True)
    time.sleep(2)  # the look below runs seconds after the tray's own since
    done = cli(tray.home, "look")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    texts = tray.menu()["texts"]
    # After "This computer: …"; a part settling counts down, each answer at its own second.
    assert [counted(line) for line in lines[:2]] == [counted(t) for t in texts[1:3]], (lines, texts)
    assert lines[0].startswith("Medicines: here in ")
    assert not any("no tray runs" in line for line in lines)


@pytest.mark.slow
def test_without_a_tray_host_a_window_stands_in_until_one_starts(
    need: Callable[[str | None], None], tmp_path: Path
) -> None:
    need(missing())
    home, share = tmp_path / "home", tmp_path / "share"
    share.mkdir()
    assert cli(home, "setup", "--share", str(share)).returncode == 0
    with VirtualDisplay() as display, PrivateBus() as bus:  # no tray host yet
        env = env_for(home, DISPLAY=display.display, QT_QPA_PLATFORM="xcb",
                      DBUS_SESSION_BUS_ADDRESS=bus.address,
                      DBUS_SYSTEM_BUS_ADDRESS=bus.address)  # fmt: skip
        proc = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli"], env=env, cwd=ROOT,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip

        def standin() -> list[str]:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^sioul-tray$"],
                                   env=display.env(), capture_output=True, text=True,
                                   timeout=20).stdout  # fmt: skip
            return found.split()

        try:
            # A person on a desktop without a tray sees the tray's content in a window.
            assert wait_for(standin, 30, why="the stand-in window"), proc.stderr
            assert tray_icons(display.display) == []
            with TrayHost(display):  # a tray host starts after sioul-tray (login order)
                assert wait_for(lambda: tray_icons(display.display), 15, why="the icon to dock")
                wait_for(lambda: not standin(), 10, why="the stand-in window to go")
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(15) == 0
        finally:
            stop(proc)


@pytest.mark.slow
def test_the_computers_window_runs_in_a_process_of_its_own(tray: Running) -> None:
    computer = status(tray.home)["computer"]  # type: ignore[index]
    # What the window shows, as the tray sends it: this computer first, then Office PC.
    answer = tray.ask("computers")
    assert answer is not None and answer[0] == 0
    shown = json.loads(answer[1])
    assert [(r["computer"], r["shown"]) for r in shown["rows"]] == [
        (computer, shown["rows"][0]["shown"]),
        ("office_pc", "Office PC"),
    ]
    assert shown["rows"][1]["keeps"] == ["invoices"]
    assert shown["rows"][0]["lines"][0].startswith("Medicines: here")
    assert shown["problems"] == [] and shown["sync"] is None

    assert tray.ask("open", "computers") == (0, "")
    child = wait_for(lambda: children(tray.proc.pid), why="the window's process")
    assert len(child) == 1

    def window_of(pid: int) -> list[str]:
        found = subprocess.run(
            ["xdotool", "search", "--name", "^Computers — sioul-tray$"],
            env=dict(tray.display.env()), capture_output=True, text=True, timeout=20,
        ).stdout.split()  # fmt: skip
        return [w for w in found if tray.x("xdotool", "getwindowpid", w).strip() == str(pid)]

    assert wait_for(lambda: window_of(child[0]), timeout=30, why="the Computers window")
    # A second "Computers…" brings the open window forward: no second process.
    assert tray.ask("open", "computers") == (0, "")
    time.sleep(1.5)
    assert children(tray.proc.pid) == child
    assert json.loads(tray.ask("computers")[1])["raised"] == 1  # type: ignore[index]

    # "Gone for good…" in the window sends this request (after the menu's question: tested in
    # tests/tray/test_tray_computers.py); the tray, the one writer, writes it in its claim.
    assert tray.ask("forget", "office_pc") == (0, "office_pc is declared gone for good.\n")
    reader = Lease(Share.open(tray.share, PASSPHRASE), "reader")
    mine = next(c for c in reader.claims("invoices") if c.computer == computer)
    assert "office_pc" in mine.forgets

    assert tray.ask("close", "windows") == (0, "")
    wait_for(lambda: not children(tray.proc.pid), why="the window's process to end")
    assert not window_of(child[0])

    # Opened again, it goes when the tray quits.
    assert tray.ask("open", "computers") == (0, "")
    child = wait_for(lambda: children(tray.proc.pid), why="the window's process")
    wait_for(lambda: window_of(child[0]), timeout=30, why="the Computers window")
    tray.proc.send_signal(signal.SIGTERM)
    assert tray.proc.wait(15) == 0
    wait_for(lambda: not Path(f"/proc/{child[0]}").exists(), why="the window's process to end")
