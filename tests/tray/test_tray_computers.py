"""The Computers window apart from the tray: the data the tray sends (its shape, in
test_tray_listing.py), the window fed by it through the request (`TraySource`), forgetting from
it, and how the tray starts its process.

The real processes (the tray, the window's own) are in tests/desktop/test_desktop_real_tray.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QProcess
from pytestqt.qtbot import QtBot

from sioul_tray.lease import ALIVE, PARTS, Lease
from sioul_tray.share import Share
from sioul_tray.tray import aboutbox, autostart, childwindow
from sioul_tray.tray.answers import answer
from sioul_tray.tray.app import Tray
from sioul_tray.tray.computers import ComputersWindow, TraySource
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.listing import Listing, Row, forget_question
from sioul_tray.tray.model import Action
from tests.helpers import Present

PASSPHRASE = "computers tests"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    share = tmp_path / "share"
    share.mkdir()
    Share.create(share, PASSPHRASE, "home_pc", cost=10)
    return share


@pytest.fixture
def tray(qtbot: QtBot, folder: Path, tmp_path: Path) -> Iterator[Tray]:
    lease = Lease(Share.open(folder, PASSPHRASE), "home_pc", name="Home PC")
    controller = Controller(lease, "home_pc", folder, Present(), tmp_path / "state")
    made = Tray(controller, notify=lambda k, t, b, a: "test")
    controller.start()
    Lease(Share.open(folder, PASSPHRASE), "office_pc", name="Office PC").renew(
        "invoices", take=True
    )
    Lease(Share.open(folder, PASSPHRASE), "vm_a1", name="vm").renew("medicines")
    Lease(Share.open(folder, PASSPHRASE), "vm_b2", name="vm").renew("medicines")
    (folder / "leases" / "invoices" / "broken.lease").write_bytes(b"not a claim")
    controller.tick()
    yield made
    made.close_windows()
    controller.shutdown()


class Asked:
    """The request socket, as the window's process sees it: answered by the tray's own
    `answers.answer` (the same words a real tray answers)."""

    def __init__(self, tray: Tray | None) -> None:
        self.tray = tray
        self.sent: list[list[str]] = []

    def __call__(self, _state_dir: Path, argv: list[str], **_: Any) -> tuple[int, str] | None:
        self.sent.append(list(argv))
        if self.tray is None:
            return None  # no tray runs
        return answer(self.tray, self.tray.controller, list(argv))


def table(window: ComputersWindow) -> list[list[str]]:
    t = window.table

    def text(r: int, c: int) -> str:
        item = t.item(r, c)
        assert item is not None  # the window fills every cell
        return item.text()

    return [[text(r, c) for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_the_tray_sends_what_the_window_shows(tray: Tray) -> None:
    rc, out = answer(tray, tray.controller, ["computers"])
    assert rc == 0 and out.endswith("\n")
    shown = Listing.from_json(out)
    assert shown.computer == "home_pc"
    assert [(r.computer, r.shown) for r in shown.rows] == [
        ("home_pc", "Home PC"), ("office_pc", "Office PC"),
        ("vm_a1", "vm (vm_a1)"), ("vm_b2", "vm (vm_b2)"),
    ]  # fmt: skip
    assert shown.rows[0].lines[0].startswith("Medicines: here")
    assert shown.rows[1].keeps == ["invoices"] and shown.rows[1].heard is not None
    assert [(p.part, p.file, p.reason) for p in shown.problems] == [
        ("invoices", "broken.lease", "truncated: still syncing or damaged")
    ]
    assert shown.problems[0].folder == str(tray.controller.folder / "leases" / "invoices")
    assert shown.sync is None
    assert Listing.from_json(shown.to_json()) == shown


def test_the_sioul_tray_column_says_running_only_for_claims_heard_renewing(
    qtbot: QtBot,
) -> None:
    """An open claim not heard for ALIVE (a take by the command line, a tray stopped without
    closing) is silent, not running; a closed one is closed."""
    now = 1_800_000_000
    shown = Listing("pc", float(now), rows=[
        Row("pc", "PC", heard=now), Row("lap", "Laptop", heard=now - 60),
        Row("kit", "Kitchen PC", heard=now - ALIVE - 1), Row("off", "Office PC", heard=now,
                                                           closed=list(PARTS)),
    ])  # fmt: skip

    def ask(_state_dir: Path, _argv: list[str], **_: Any) -> tuple[int, str]:
        return 0, shown.to_json() + "\n"

    window = ComputersWindow(TraySource(Path("state"), ask=ask))
    qtbot.addWidget(window)
    column = [row[4] for row in table(window)]
    assert column == ["running", "running", "silent", "closed"]


def test_the_window_fed_by_the_request_shows_what_the_in_process_one_shows(
    tray: Tray, qtbot: QtBot
) -> None:
    here = tray.computers_window()
    assert isinstance(here, ComputersWindow)
    apart = ComputersWindow(TraySource(Path("state"), ask=Asked(tray)))
    qtbot.addWidget(here)
    qtbot.addWidget(apart)
    assert table(apart) == table(here)
    assert table(apart)[0][0] == "Home PC (this computer)"
    assert apart.problems.count() == 1 and apart.absent.isHidden()
    # What changed hands lately, newest first, each with when (the tray's history).
    assert apart.changes.text() == here.changes.text()
    lines = apart.changes.text().splitlines()
    assert "  Invoices move to Office PC (It numbers them once" in lines[0]
    assert not apart.changes.isHidden()
    here.close()


def test_forgetting_from_the_window_asks_the_menus_question_then_the_tray(
    tray: Tray, folder: Path, qtbot: QtBot
) -> None:
    asked = Asked(tray)
    questions: list[tuple[str, str]] = []
    answers = [False, True]

    def confirm(title: str, text: str) -> bool:
        questions.append((title, text))
        return answers.pop(0)

    window = ComputersWindow(TraySource(Path("state"), ask=asked, confirm=confirm))
    qtbot.addWidget(window)
    window.table.selectRow(0)
    assert not window.gone.isEnabled()  # this computer cannot be declared gone
    window.table.selectRow(1)
    assert window.gone.isEnabled()
    window.gone.click()  # declined: nothing sent
    assert ["forget", "office_pc"] not in asked.sent
    window.gone.click()
    assert asked.sent[-2:] == [["forget", "office_pc"], ["computers"]]  # then shown at once
    # The menu's words (Tray.confirm_forget asks the same), with the name as shown.
    assert questions == [forget_question("Office PC")] * 2
    assert questions[0][0] == "Office PC is gone for good"
    mine = next(c for c in Lease(Share.open(folder, PASSPHRASE), "reader").claims("invoices")
                if c.computer == "home_pc")  # fmt: skip
    assert "office_pc" in mine.forgets


def test_without_a_running_tray_the_window_says_so(qtbot: QtBot) -> None:
    window = ComputersWindow(TraySource(Path("state"), ask=Asked(None)))
    qtbot.addWidget(window)
    window.show()
    assert window.absent.isVisible()
    assert window.absent.text().startswith("The tray is not running")
    assert window.table.rowCount() == 0 and not window.gone.isEnabled()
    assert not window.problems.isVisible()


def test_the_window_follows_the_tray_each_second(tray: Tray, qtbot: QtBot) -> None:
    asked = Asked(tray)
    window = ComputersWindow(TraySource(Path("state"), ask=asked))
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: len(asked.sent) >= 2, timeout=3000)
    window.close()  # polling stops with the window
    count = len(asked.sent)
    qtbot.wait(1500)
    assert len(asked.sent) == count


def program(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """The program the tray starts for the window (itself, `autostart.command()`): here a short
    Python program, which gets the same arguments."""
    monkeypatch.setattr(autostart, "command", lambda: [sys.executable, "-c", code])


def test_the_tray_starts_the_window_in_a_process_and_brings_it_forward(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    said = tmp_path / "argv.json"
    program(monkeypatch, f"import json, sys, time; open({str(said)!r}, 'w').write("
                         "json.dumps(sys.argv[1:])); time.sleep(60)")  # fmt: skip
    tray.state_dir = tmp_path / "state"
    assert answer(tray, tray.controller, ["open", "computers"]) == (0, "")
    child = tray.computers_child.process
    assert child is not None and tray.windows == []  # nothing of the window in the tray
    qtbot.waitUntil(lambda: said.exists() and said.stat().st_size > 0, timeout=10_000)
    # In the tray's language, asking this installation's tray.
    assert json.loads(said.read_text()) == [
        "--lang", "en", "computers", "--state-dir", str(tmp_path / "state")
    ]  # fmt: skip
    answer(tray, tray.controller, ["open", "computers"])  # open: brought forward
    assert tray.computers_child.process is child and tray.raised == 1
    assert Listing.from_json(answer(tray, tray.controller, ["computers"])[1]).raised == 1
    assert answer(tray, tray.controller, ["close", "windows"]) == (0, "")
    assert (
        tray.computers_child.process is None and child.state() is QProcess.ProcessState.NotRunning
    )
    qtbot.wait(100)
    assert tray.windows == []  # ended on purpose: no window here in its place


def test_the_window_as_frozen_is_the_bundles_program(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/sioul-tray/sioul-tray")
    assert autostart.command() == ["/opt/sioul-tray/sioul-tray"]  # then `... computers`


def test_a_window_process_that_fails_gives_way_to_the_window_here(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    tray.state_dir = tmp_path / "state"
    monkeypatch.setattr(autostart, "command", lambda: [str(tmp_path / "no such program")])
    window = tray.computers()  # the program does not start
    assert window is not None and tray.windows == [window] and tray.computers_child.process is None
    window.close()
    qtbot.waitUntil(lambda: tray.windows == [], timeout=2000)
    program(monkeypatch, "raise SystemExit(3)")  # it starts, and fails at once
    assert tray.computers() is None and tray.computers_child.process is not None
    qtbot.waitUntil(lambda: len(tray.windows) == 1, timeout=10_000)
    assert tray.computers_child.process is None


# -- the About box, the same way ------------------------------------------------------------------


def test_about_opens_in_a_process_of_its_own_with_the_trays_text(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    said = tmp_path / "argv.json"
    program(monkeypatch, f"import json, sys, time; open({str(said)!r}, 'w').write("
                         "json.dumps(sys.argv[1:])); time.sleep(60)")  # fmt: skip
    tray.state_dir = tmp_path / "state"
    assert answer(tray, tray.controller, ["open", "about"]) == (0, "")
    child = tray.about_child.process
    assert child is not None and tray.windows == []
    qtbot.waitUntil(lambda: said.exists() and said.stat().st_size > 0, timeout=10_000)
    assert json.loads(said.read_text()) == [
        "--lang", "en", "about", "--state-dir", str(tmp_path / "state")
    ]  # fmt: skip
    tray.about()  # open already: not a second process
    assert tray.about_child.process is child
    # What that process shows is what the tray sends.
    code, text = answer(tray, tray.controller, ["about"])
    assert code == 0 and text == tray.about_text() + "\n"
    asked: list[list[str]] = []

    def ask(state_dir: Path, argv: list[str], timeout_ms: int) -> tuple[int, str]:
        asked.append(argv)
        return answer(tray, tray.controller, argv)

    shown = aboutbox.box(aboutbox.text_from(tmp_path / "state", ask))
    assert asked == [["about"]] and shown.text() == tray.about_text()
    assert answer(tray, tray.controller, ["close", "windows"]) == (0, "")
    assert tray.about_child.process is None and child.state() is QProcess.ProcessState.NotRunning


def test_about_without_a_tray_says_so_and_falls_back_here_when_its_process_fails(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    assert "not running" in aboutbox.text_from(tmp_path, lambda *a, **k: None)
    tray.state_dir = tmp_path / "state"
    program(monkeypatch, "raise SystemExit(3)")
    assert tray.about() is None and tray.about_child.process is not None
    qtbot.waitUntil(lambda: len(tray.windows) == 1, timeout=10_000)
    (box,) = tray.windows
    assert box.objectName() == "about" and tray.about_child.process is None
    box.close()
    qtbot.waitUntil(lambda: tray.windows == [], timeout=2000)


# -- "Change sharing folder…", the same way ------------------------------------------------------


def test_the_folder_window_in_its_own_process_says_whether_it_ended_well(
    tray: Tray, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    tray.state_dir = tmp_path / "state"
    said: list[bool] = []
    program(monkeypatch, "raise SystemExit(0)")  # closed, a folder chosen or not
    assert tray.open_setup(said.append) and tray.windows == []
    qtbot.waitUntil(lambda: said == [True], timeout=10_000)
    program(monkeypatch, "raise SystemExit(1)")  # failed, past its first seconds
    monkeypatch.setattr(childwindow, "CHILD_CHECK", 0.0)
    assert tray.open_setup(said.append)
    qtbot.waitUntil(lambda: said == [True, False], timeout=10_000)
    program(monkeypatch, "import time; time.sleep(60)")
    assert tray.open_setup(said.append)
    assert tray.open_setup(said.append)  # open already: brought no second one
    assert answer(tray, tray.controller, ["close", "windows"]) == (0, "")
    assert said == [True, False, False] and tray.setup_child.process is None
    monkeypatch.setattr(autostart, "command", lambda: [str(tmp_path / "no such program")])
    assert not tray.open_setup(said.append)  # the caller shows the window here instead


def test_the_parts_stay_kept_while_the_folder_window_is_open(
    tray: Tray, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """Found trying it as a person: opening "Change sharing folder…" closed both claims, so
    `look` said nobody kept them, and Cancel began the 2 minutes of settling again. Now only a
    folder chosen ends them (by starting again there)."""
    tray.state_dir = tmp_path / "state"
    started_again: list[bool] = []
    saved = [folder]  # the folder saved in the settings (`follow_folder` reads it)

    def follow() -> bool:
        if saved[0] == folder:
            return False
        started_again.append(True)
        return True

    tray.on_folder = follow
    reader = Lease(Share.open(folder, PASSPHRASE), "reader_pc", name="Reader")

    def mine_open() -> bool:
        return all(
            not c.closed for part in PARTS for c in reader.claims(part) if c.computer == "home_pc"
        )

    program(monkeypatch, "import time; time.sleep(60)")  # the window stays open
    tray.run(next(i for i in tray.items if i.action is Action.CHANGE_FOLDER))
    assert tray.setup_child.process is not None
    tray.controller.tick()
    assert tray.controller.timer.isActive() and mine_open()
    tray.close_windows()  # as a cancel
    program(monkeypatch, "raise SystemExit(0)")  # cancelled
    tray.change_folder()
    qtbot.waitUntil(lambda: tray.setup_child.process is None, timeout=10_000)
    assert started_again == [] and tray.controller.timer.isActive() and mine_open()
    saved[0] = tmp_path / "new"
    program(monkeypatch, "raise SystemExit(0)")  # a folder chosen: start again there
    tray.change_folder()
    qtbot.waitUntil(lambda: started_again == [True], timeout=10_000)


def test_the_tray_follows_the_folder_saved_or_says_why_it_stays(
    tray: Tray, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """Found as a person: the folder window (run from a checkout's source) saved the new folder,
    then failed; the tray, told "not changed", stayed on the old one and said nothing."""
    from sioul_tray.errors import SioulError
    from sioul_tray.i18n import Core

    tray.state_dir = tmp_path / "state"
    asked: list[str] = []
    said: list[str] = []
    monkeypatch.setattr(tray, "warn", said.append)

    def follow() -> bool:
        asked.append("follow")
        raise SioulError(Core.mark("this computer has no key for {folder}", folder="/new"))

    tray.on_folder = follow
    program(monkeypatch, "raise SystemExit(1)")  # saved, then failed
    monkeypatch.setattr(childwindow, "CHILD_CHECK", 0.0)  # past its first seconds at once
    tray.change_folder()
    qtbot.waitUntil(lambda: said != [], timeout=10_000)
    assert asked == ["follow"]
    assert said == [
        "The sharing folder was not changed: this computer has no key for /new\n\n"
        f"sioul-tray keeps using {folder}."
    ]
    # Failed before saving anything: nothing changed, and that is said too.
    tray.on_folder = lambda: False
    tray.change_folder()
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10_000)
    assert said[1] == (
        "The sharing folder was not changed: its window ended with an error\n\n"
        f"sioul-tray keeps using {folder}."
    )
    tray.on_folder = lambda: True  # ...or the folder saved was followed
    tray.change_folder()
    qtbot.waitUntil(lambda: tray.setup_child.process is None, timeout=10_000)
    qtbot.wait(100)
    assert len(said) == 2


@pytest.mark.slow
def test_the_folder_window_program_starts_and_waits_for_the_person(tmp_path: Path) -> None:
    import subprocess

    from tests.helpers import python_env

    env = python_env(SIOUL_TRAY_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-m", "sioul_tray.cli", "folder"], env=env,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(4)  # the window is up, waiting for an answer
    finally:
        child.terminate()
        _, err = child.communicate(timeout=20)
    assert "Traceback" not in err


def test_requests_are_checked_as_the_command_line_checks_them(tray: Tray) -> None:
    token = "home_pc.1"
    for words in (["wrote"], ["wrote", "invoices"], ["wrote", "invoices", "3"],
                  ["wrote", "invoices", str(2**64), token], ["wrote", "spoons", "3", token],
                  ["wrote", "invoices", "3", ""], ["wrote", "invoices", "3", token, "soon"],
                  ["wrote", "invoices", "3", token, "nan"], ["take"], ["forget"]):  # fmt: skip
        rc, out = answer(tray, tray.controller, words)
        assert rc == 2 and "cannot do" in out, words
    # The largest mark a claim carries reads; under a token this tray does not act under (it
    # is still settling), it is refused (tests/tray/test_tray_driver.py: taken while acting).
    rc, out = answer(tray, tray.controller, ["wrote", "invoices", str(2**63 - 1), token])
    assert rc == 1 and "does not act on invoices under home_pc.1" in out
    rc, out = answer(tray, tray.controller, ["wrote", "invoices", "3", token, "0.5"])
    assert rc == 1 and "gave up waiting" in out  # a boot-clock time long past
    assert tray.controller.driver.wrote["invoices"] is None  # nothing taken from them
