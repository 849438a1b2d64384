"""The tray (app.py) on the real core: its controller and menu, real sealed claims in a folder.

Offscreen Qt: the menu exists and is rendered, nothing is drawn.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from sioul_tray.lease import Lease
from sioul_tray.lease.status import Status, Why
from sioul_tray.share import Share
from sioul_tray.tray.answers import answer
from sioul_tray.tray.app import COUNTDOWN_MS, Tray
from sioul_tray.tray.computers import ComputersWindow
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.model import Action, Icon, Note
from tests.helpers import Present

PASSPHRASE = "tray tests"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    share = tmp_path / "share"
    share.mkdir()
    Share.create(share, PASSPHRASE, "home_pc")
    return share


@pytest.fixture
def tray(qtbot: QtBot, folder: Path, tmp_path: Path) -> Iterator[Tray]:
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    controller = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    notes: list[tuple[str, str, str]] = []

    def notify(k: str, title: str, body: str, _: Sequence[tuple[str, str]]) -> str:
        notes.append((k, title, body))
        return "test"

    t = Tray(controller, notify=notify)
    controller.start()
    yield t
    controller.shutdown()


def peer(folder: Path, computer: str, name: str) -> Lease:
    return Lease(Share.open(folder, PASSPHRASE), computer, name=name)


def test_the_menu_shows_this_computer_keeping_both_parts(tray: Tray) -> None:
    texts = tray.texts()
    assert texts[0] == "This computer: Home PC"  # what "here" means, first
    assert texts[1] == "Medicines: here in 2 min"  # settling: it counts down
    assert texts[2] == "Invoices: here in 2 min"
    assert tray.icon.toolTip().startswith("sioul-tray\nMedicines: here")
    assert tray.state is Icon.SETTLING


def test_the_menu_counts_down_between_ticks(tray: Tray) -> None:
    """While a part settles, the shown view's clock moves on every COUNTDOWN_MS, not only at
    the minute's tick; once nothing settles, the countdown stops."""
    assert tray._countdown.isActive() and tray._countdown.interval() == COUNTDOWN_MS
    assert tray._shown is not None
    view, _ = tray._shown
    tray._shown = (view, time.monotonic() - 50)  # 50 s after the view came
    tray._count_down()
    assert tray.texts()[1:3] == ["Medicines: here in 1 min 10 s", "Invoices: here in 1 min 10 s"]
    settled = dataclasses.replace(
        view,
        parts={p: dataclasses.replace(v, status=Status(Why.ACTING)) for p, v in view.parts.items()},
    )
    tray.render(settled)
    assert not tray._countdown.isActive()
    assert tray.texts()[1:3] == ["Medicines: here", "Invoices: here"]


def test_a_peer_taking_invoices_shows_in_the_menu_within_two_seconds(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    office = peer(folder, "office_pc", "Office PC")
    start = time.monotonic()
    office.renew("invoices", take=True)
    # Its claim does not say it numbers yet: it has only just taken them.
    shown = "Invoices: Office PC (not numbering yet)"
    qtbot.waitUntil(lambda: tray.texts()[2] == shown, timeout=2000)
    assert time.monotonic() - start < 2.0
    # The tray acknowledged the new keeper in its own claim at once, not a minute later.
    qtbot.waitUntil(
        lambda: any(c.computer == "home_pc" and c.sees == "office_pc"
                    for c in office.claims("invoices")),
        timeout=2000,
    )  # fmt: skip
    assert "Make invoices here…" in tray.texts()
    assert [n.title for n in tray.sent] == ["Invoices move to Office PC"]


def test_a_computer_named_like_another_is_told_apart_in_menu_and_notes(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    # Two installations on computers with one host name: the person must see which one.
    twin = peer(folder, "home_pc_k3x9", "Home PC")
    twin.renew("invoices", take=True)
    qtbot.waitUntil(
        lambda: tray.texts()[2] == "Invoices: Home PC (home_pc_k3x9) (not numbering yet)",
        timeout=2000,
    )
    assert [n.title for n in tray.sent] == ["Invoices move to Home PC (home_pc_k3x9)"]
    # A name nobody else has is shown alone (the twin closes: a take in the same second as
    # its own would lose the tie to the smaller id).
    twin.close("invoices")
    peer(folder, "office_pc", "Office PC").renew("invoices", take=True)
    qtbot.waitUntil(
        lambda: tray.texts()[2] == "Invoices: Office PC (not numbering yet)", timeout=2000
    )


def test_make_invoices_here_takes_them_back(tray: Tray, folder: Path, qtbot: QtBot) -> None:
    office = peer(folder, "office_pc", "Office PC")
    office.renew("invoices", take=True)
    qtbot.waitUntil(lambda: "Office PC" in tray.texts()[2], timeout=2000)
    assert answer(tray, tray.controller, ["take", "invoices"])[0] == 0
    assert tray.texts()[2].startswith("Invoices: here")
    assert office.look("invoices").computer == "home_pc"


def cells(window: QWidget) -> list[list[str]]:
    table = window.table  # type: ignore[attr-defined]
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]  # fmt: skip


def test_computers_window_lists_computers_and_unreadable_files(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    peer(folder, "office_pc", "Office PC").renew("medicines")
    (folder / "leases" / "invoices" / "broken.lease").write_bytes(b"not a claim")
    tray.controller.tick()
    window = tray.computers()
    assert isinstance(window, ComputersWindow)  # no state_dir: opened in this process
    qtbot.addWidget(window)
    rows = cells(window)
    assert [r[0] for r in rows] == ["Home PC (this computer)", "Office PC"]  # one row each
    assert rows[0][1] == "Medicines, Invoices" and rows[0][4] == "running"
    assert rows[1][2] == "just now" and rows[1][4] == "running"
    assert not window.table.verticalHeader().isVisible()  # no row numbers
    problems = window.problems
    assert [problems.item(i).text() for i in range(problems.count())] == [
        "leases/invoices/broken.lease: truncated: still syncing or damaged"
    ]
    # It fits its content at its default size: every column as wide as its content and header
    # asks, all within the table's width (nothing cut, nothing to scroll to).
    window.show()
    qtbot.waitExposed(window)
    table, header = window.table, window.table.horizontalHeader()
    wants = [max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
             for c in range(table.columnCount())]  # fmt: skip
    assert all(header.sectionSize(c) >= w for c, w in enumerate(wants))
    assert sum(header.sectionSize(c) for c in range(table.columnCount())) <= (
        table.viewport().width()
    )


def test_computers_window_is_live_and_tells_twins_apart(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    window = tray.computers()
    assert isinstance(window, ComputersWindow)  # no state_dir: opened in this process
    qtbot.addWidget(window)
    assert [r[0] for r in cells(window)] == ["Home PC (this computer)"]
    peer(folder, "vm_a1", "vm").renew("invoices")
    peer(folder, "vm_b2", "VM").renew("medicines")
    tray.controller.tick()  # the window follows each tick (and each reread)
    assert [r[0] for r in cells(window)] == ["Home PC (this computer)", "vm (vm_a1)", "VM (vm_b2)"]


def test_a_computer_is_declared_gone_from_the_window(
    tray: Tray, folder: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    peer(folder, "office_pc", "Office PC").renew("invoices")
    tray.controller.tick()
    asked: list[str] = []
    # The question is asked as a risky one (No by default): only then is it answered yes here.

    def confirm(title: str, text: str, risky: bool = False) -> bool:
        asked.append(title)
        return risky

    monkeypatch.setattr(tray, "_confirm", confirm)
    window = tray.computers()
    assert isinstance(window, ComputersWindow)  # no state_dir: opened in this process
    qtbot.addWidget(window)
    assert not window.gone.isEnabled()  # nothing chosen
    window.table.selectRow(0)
    assert not window.gone.isEnabled()  # this computer cannot be declared gone
    window.table.selectRow(1)
    assert window.gone.isEnabled()
    window.gone.click()
    assert asked == ["Office PC is gone for good"]
    mine = next(c for c in peer(folder, "reader", "Reader").claims("invoices")
                if c.computer == "home_pc")  # fmt: skip
    assert "office_pc" in mine.forgets


def test_a_closed_computers_window_is_freed(tray: Tray, qtbot: QtBot) -> None:
    window = tray.computers()
    assert isinstance(window, ComputersWindow)  # no state_dir: opened in this process
    destroyed: list[bool] = []
    window.destroyed.connect(lambda: destroyed.append(True))
    window.close()
    qtbot.waitUntil(lambda: bool(destroyed), timeout=2000)
    assert tray.windows == []
    tray.controller.tick()  # no update reaches the freed window


def test_notes_reach_the_notifier(tray: Tray) -> None:
    tray.controller.notify.emit(Note("k", "Title", "Body"))
    assert tray.sent[-1] == Note("k", "Title", "Body")


def mine(folder: Path, part: str) -> object:
    reader = peer(folder, "reader", "Reader")
    return next(c for c in reader.claims(part) if c.computer == "home_pc")


def test_close_and_renew_requests_per_part(tray: Tray, folder: Path) -> None:
    c = tray.controller
    rc, out = answer(tray, c, ["close", "medicines"])
    assert rc == 0 and out.startswith("Closed: medicines")
    c.tick()  # the timer does not reopen a part closed on request
    assert mine(folder, "medicines").closed  # type: ignore[attr-defined]
    assert not mine(folder, "invoices").closed  # type: ignore[attr-defined]
    rc, out = answer(tray, c, ["renew", "medicines"])
    assert rc == 0 and out.startswith("Medicines: ")
    assert not mine(folder, "medicines").closed  # type: ignore[attr-defined]


def test_a_part_closed_on_request_stays_closed_when_the_tray_restarts(
    tray: Tray, folder: Path, tmp_path: Path
) -> None:
    answer(tray, tray.controller, ["close", "invoices"])
    tray.controller.shutdown()  # quit: both closed
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    again = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    again.start()  # the next login
    try:
        assert mine(folder, "invoices").closed  # type: ignore[attr-defined]
        assert not mine(folder, "medicines").closed  # type: ignore[attr-defined]
        answer(tray, again, ["renew", "invoices"])
        assert not mine(folder, "invoices").closed  # type: ignore[attr-defined]
        assert json.loads((tmp_path / "state" / "closed.json").read_text()) == {"closed": []}
    finally:
        again.shutdown()


def test_a_close_that_cannot_be_recorded_is_said_and_holds_while_the_tray_runs(
    tray: Tray, folder: Path, tmp_path: Path
) -> None:
    record = tmp_path / "state" / "closed.json"
    record.mkdir()  # a folder where the record should be: no rename lands there, even as root
    c = tray.controller
    rc, out = answer(tray, c, ["close", "invoices"])
    assert rc == 1, out
    assert out.startswith("Closed: invoices") and str(record) in out
    assert "until the tray quits" in out
    c.tick()
    assert c.paused == {"invoices"}
    assert mine(folder, "invoices").closed  # type: ignore[attr-defined]
    rc, out = answer(tray, c, ["renew", "invoices"])
    assert rc == 1 and str(record) in out  # the stale record would close it at the next start
    assert not mine(folder, "invoices").closed  # type: ignore[attr-defined]


def test_a_damaged_record_of_closed_parts_reopens_both(folder: Path, tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "closed.json").write_text("{not json")
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    c = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    c.start()
    try:
        assert c.paused == set()
        assert not mine(folder, "invoices").closed  # type: ignore[attr-defined]
    finally:
        c.shutdown()


def test_other_requests(tray: Tray) -> None:
    c = tray.controller
    assert answer(tray, c, ["ping"]) == (0, "pong\n")
    assert answer(tray, c, ["close", "recipes"])[0] == 2
    assert answer(tray, c, ["launch", "rockets"])[0] == 2
    rc, out = answer(tray, c, ["forget", "home_pc"])  # the core refuses: said, not raised
    assert rc == 1 and out == "sioul-tray: this computer cannot declare itself gone\n"
    rc, out = answer(tray, c, ["look"])
    import json

    look = json.loads(out)
    assert rc == 0 and look["running"] and look["parts"]["medicines"]["here"]


def test_the_command_line_does_the_work_itself_when_no_tray_runs(tmp_path: Path) -> None:
    import io

    from sioul_tray.tray import client

    out = io.StringIO()
    assert client.through_tray(tmp_path / "state", ["take", "invoices"], out) is None
    assert client.through_tray(tmp_path / "state", ["setup"], out) is None  # never forwarded
    assert out.getvalue() == ""


def test_a_tick_scans_each_part_s_folder_once(
    tray: Tray, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The controller publishes what the tick's renewals read (`Lease.tick`): one scan of
    each part's folder a tick (it was four: `claims` read every folder again)."""
    from sioul_tray.lease import lease as lease_module
    from sioul_tray.lease.folder import read_folder

    peer(folder, "office_pc", "Office PC").renew("invoices")
    scanned: list[Path] = []
    real = read_folder  # lease.py's, imported from folder.py

    def counted(where: Path, careful: bool = False) -> object:
        scanned.append(where)
        return real(where, careful)

    monkeypatch.setattr(lease_module, "read_folder", counted)
    tray.controller.tick()
    assert sorted(p.name for p in scanned) == ["invoices", "medicines"]
    # ... and the menu lists the other computer read by that same scan.
    assert tray.controller.view is not None
    assert [c.computer for c in tray.controller.view.others("invoices")] == ["office_pc"]


def test_a_gap_the_core_sees_is_a_wake(qtbot: QtBot, folder: Path, tmp_path: Path) -> None:
    """A fake clock an hour on between two ticks: the core settles again and says it jumped;
    the loop re-shows the icon (`woke`) and keeps the catch-up quiet."""
    from tests.helpers import FakeClock

    clock = FakeClock()
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC", clock=clock)
    controller = Controller(lease, "home_pc", folder, Present(), tmp_path / "state", clock=clock)
    woke: list[bool] = []
    controller.woke.connect(lambda: woke.append(True))
    controller.start()
    clock.advance(60)
    controller.tick()
    assert woke == []
    clock.advance(3600)
    controller.tick()
    assert woke == [True]
    assert controller.view is not None
    assert controller.view.parts["invoices"].status.why.value == "settling"
    controller.shutdown()


def test_about_says_which_sync_tool_syncs_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sioul_tray.install import Installation
    from sioul_tray.sync.nudger import Nudger
    from sioul_tray.sync.syncthing import find
    from sioul_tray.tray.app import sync_line

    home = tmp_path / "home"
    for variable in ("STCONFDIR", "STHOMEDIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "OneDrive"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(home))
    share = home / "Dropbox" / "Sioul"
    share.mkdir(parents=True)
    inst = Installation(tmp_path / "sioul")
    assert (
        sync_line(inst, share) == "none found; the sync tool sends the claims when it notices them"
    )
    (home / ".dropbox").mkdir()
    (home / ".dropbox" / "info.json").write_text(
        json.dumps({"personal": {"path": str(home / "Dropbox")}})
    )
    assert sync_line(inst, share) == "Dropbox, found; it sends the claims when it notices them"

    # Syncthing syncs it, and is asked: About says so, and says when the last request failed.
    config = home / ".config" / "syncthing" / "config.xml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '<configuration version="36"><folder id="sioul-1" label="Sioul" path="~/Dropbox">'
        "</folder><gui><address>127.0.0.1:9</address><apikey>k</apikey></gui></configuration>"
    )
    found = find(share)
    assert found is not None
    inst.nudger = Nudger(found)
    try:
        assert sync_line(inst, share) == "Syncthing, asked to send each claim at once"
        inst.nudger.nudge(share / "leases" / "invoices" / "pc.lease")
        assert inst.nudger.flush(5)
        assert sync_line(inst, share).startswith(
            "Syncthing, asked to send each claim at once; the last request failed: Syncthing "
            "does not answer at 127.0.0.1:9"
        )
    finally:
        inst.send_pending(0)


def test_without_a_system_tray_a_window_stands_in_until_one_appears(
    tray: Tray, qtbot: QtBot
) -> None:
    from sioul_tray.tray.app import STANDIN_AFTER

    tray_here = False
    tray.tray_available = lambda: tray_here
    tray.show()
    assert tray.standin is None  # a tray host may start just after the session: not yet
    for _ in range(STANDIN_AFTER - 1):
        tray.show()
    standin = tray.standin
    assert standin is not None and standin.isVisible()
    texts = standin.texts()
    assert texts[1].startswith("Medicines: here") and texts[2].startswith("Invoices: here")
    assert {"Computers…", "About sioul-tray", "Quit"} <= set(texts)
    assert "AppIndicator" in standin.findChild(QWidget, "hint").text()
    tray.popup()  # a second launch brings the window forward instead of a menu nobody sees
    assert standin.isVisible()
    old, tip = tray.icon, tray.icon.toolTip()
    tray_here = True  # a tray host started
    qtbot.waitUntil(lambda: tray.standin is None, timeout=5000)  # looked for every 2 s
    assert tray.icon is not old and tray.icon.isVisible()
    assert tray.icon.contextMenu() is tray.menu and tray.icon.toolTip() == tip


def test_about_says_what_this_run_reads(tray: Tray) -> None:
    tray.more_about = lambda: ["Sync tool: none found"]
    text = tray.about_text()
    assert text.startswith("sioul-tray ")
    # The name a person reads everywhere first, the id as a detail.
    for line in ("This computer: Home PC (id home_pc)", "Idle time from: test idle",
                 "Sync tool: none found"):  # fmt: skip
        assert line in text.splitlines()
    assert text.endswith("https://github.com/sioul/sioul-tray/tree/main/docs")


def test_a_risky_question_keeps_things_as_they_are_on_return(tray: Tray, qtbot: QtBot) -> None:
    """Declaring a computer gone is asked with No as the default button; a plain question
    (making invoices here) with Yes."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    seen: list[str] = []

    def press_return() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.defaultButton().text().replace("&", ""))
        box.defaultButton().click()

    QTimer.singleShot(0, press_return)
    assert tray._confirm("Office PC is gone for good", "Treat it so?", risky=True) is False
    QTimer.singleShot(0, press_return)
    assert tray._confirm("Make invoices here", "Make them here?") is True
    assert seen == ["No", "Yes"]


def test_start_at_login_stays_unticked_when_it_cannot_be_set(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Qt ticks the box before the command runs; a command that fails says why and the box
    shows the truth again, in the menu and in the window that stands in for it."""
    from sioul_tray.tray import autostart
    from sioul_tray.tray.standin import StandIn

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "autostart").write_text("a file where the folder should be")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: warned.append(text))
    tray._count_down()
    tray.standin = StandIn(tray.run)
    tray._count_down()
    at = next(i for i, item in enumerate(tray.items) if item.action is Action.AUTOSTART)
    assert not autostart.enabled() and not tray.actions[at].isChecked()

    tray.actions[at].trigger()  # as a click: ticked, then the command runs and fails
    assert len(warned) == 1 and not autostart.enabled()
    said = f"Start at login did not work:\n\n{autostart.xdg_file().parent}/"
    assert warned[0].startswith(said) and warned[0].endswith(f": {os.strerror(errno.ENOTDIR)}")
    assert not tray.actions[at].isChecked()
    [box] = [b for b, item in tray.standin.checkables if item.action is Action.AUTOSTART]
    box.click()
    assert len(warned) == 2 and not box.isChecked()


def test_open_sharing_folder_says_where_it_is_when_no_file_manager_opens_it(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    # Offscreen, Qt opens no file manager: as on a machine that has none.
    tray.run(next(i for i in tray.items if i.action is Action.OPEN_FOLDER))
    assert [w.objectName() for w in tray.windows] == ["folder"]
    box = tray.windows[0]
    assert isinstance(box, QMessageBox) and box.isVisible() and not box.isModal()
    assert box.text() == f"No file manager opened the sharing folder. It is:\n\n{folder}"
    box.close()
    qtbot.waitUntil(lambda: tray.windows == [], timeout=2000)


def test_windows_open_and_close_on_request(tray: Tray, qtbot: QtBot) -> None:
    assert answer(tray, tray.controller, ["open", "computers"]) == (0, "")
    assert len(tray.windows) == 1 and tray.windows[0].isVisible()
    assert answer(tray, tray.controller, ["close", "windows"]) == (0, "")
    qtbot.waitUntil(lambda: tray.windows == [], timeout=2000)  # closed and freed
    assert answer(tray, tray.controller, ["open", "about"]) == (0, "")
    assert [w.objectName() for w in tray.windows] == ["about"]  # here: no state folder (a test)
    assert answer(tray, tray.controller, ["close", "windows"]) == (0, "")
    qtbot.waitUntil(lambda: tray.windows == [], timeout=2000)
    assert answer(tray, tray.controller, ["open", "nothing"])[0] == 2  # no such window


def test_quit_asks_first_when_nobody_else_would_keep_the_parts(
    tray: Tray, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QApplication

    from sioul_tray.tray.model import Action, Item

    asked: list[str] = []
    quits: list[bool] = []
    monkeypatch.setattr(QApplication, "quit", lambda: quits.append(True))
    answer = False

    def confirm(title: str, text: str, risky: bool = False) -> bool:
        asked.append(text)
        return answer

    monkeypatch.setattr(tray, "_confirm", confirm)
    quit_item = Item("Quit", Action.QUIT)
    tray.run(quit_item)  # alone on its folder: no other computer would remind or number
    assert len(asked) == 1 and "No other computer will remind medicines" in asked[0]
    assert quits == []  # the person said no
    answer = True
    tray.run(quit_item)
    assert quits == [True]


def test_the_last_tray_offers_to_make_invoices_here_before_it_quits(
    tray: Tray, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """Issue 42: where the Quit question offers it (tests/tray/test_tray_morning.py says when),
    "Make them here, then quit" takes invoices before the close that quitting writes; "Quit"
    only quits; Cancel, the default, changes nothing."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from sioul_tray.tray import model
    from sioul_tray.tray.model import Action, Item, QuitQuestion

    quits: list[bool] = []
    takes: list[str] = []
    monkeypatch.setattr(QApplication, "quit", lambda: quits.append(True))
    monkeypatch.setattr(tray.controller, "take", lambda part="invoices": takes.append(part))
    asked = QuitQuestion("Tomorrow, invoices are numbered on Office PC. Make them here instead?",
                         offers_take=True)  # fmt: skip
    monkeypatch.setattr(model, "quit_question", lambda view: asked)
    quit_item = Item("Quit", Action.QUIT)

    def press(label: str | None) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox) and box.objectName() == "quit"
        assert box.text() == asked.text
        button = (
            box.defaultButton()
            if label is None
            else next(b for b in box.buttons() if b.text().replace("&", "") == label)
        )
        button.click()

    QTimer.singleShot(0, lambda: press(None))  # Return: Cancel
    tray.run(quit_item)
    assert (quits, takes) == ([], [])
    QTimer.singleShot(0, lambda: press("Quit"))
    tray.run(quit_item)
    assert (quits, takes) == ([True], [])
    QTimer.singleShot(0, lambda: press("Make them here, then quit"))
    tray.run(quit_item)
    assert (quits, takes) == ([True, True], ["invoices"])
