"""A window in a process of its own (`sioul_tray.tray.childwindow`): started once with the tray's
language and state folder, its end told to the caller, and a process that fails at once giving
way to the window in the tray's process. The program is a short Python one standing in for
`sioul-tray` (`autostart.command`), which gets the same arguments.

The tray's own windows through it are in test_tray_computers.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from sioul_tray.tray import autostart, childwindow
from sioul_tray.tray.childwindow import ChildWindow
from tests.helpers import ROOT


def program(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    monkeypatch.setattr(autostart, "command", lambda: [sys.executable, "-c", code])


@pytest.fixture
def parent() -> Iterator[QObject]:
    made = QObject()
    yield made
    for child in made.findChildren(ChildWindow):
        child.close()


def test_without_a_state_folder_it_opens_nothing(parent: QObject) -> None:
    """No tray to ask: the caller shows the window in its own process."""
    assert not ChildWindow("computers", parent).open(None)


def test_a_program_that_does_not_start_is_said(
    parent: QObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autostart, "command", lambda: [str(tmp_path / "no such program")])
    child = ChildWindow("about", parent)
    assert not child.open(tmp_path) and not child.running() and child.process is None


def test_it_starts_once_with_the_tray_s_language_and_state_folder(
    parent: QObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    said = tmp_path / "argv.json"
    program(monkeypatch, f"import json, sys, time; open({str(said)!r}, 'w').write("
                         "json.dumps(sys.argv[1:])); time.sleep(60)")  # fmt: skip
    ended: list[bool] = []
    child = ChildWindow("computers", parent)
    assert child.open(tmp_path / "state", ended.append) and child.running()
    first = child.process
    assert child.open(tmp_path / "state") and child.process is first  # not a second one
    qtbot.waitUntil(lambda: said.exists() and said.stat().st_size > 0, timeout=10_000)
    assert json.loads(said.read_text()) == [
        "--lang", "en", "computers", "--state-dir", str(tmp_path / "state")
    ]  # fmt: skip
    child.close()
    assert ended == [False] and not child.running()  # closed unanswered
    qtbot.wait(100)
    assert ended == [False]  # the end of the process it stopped is not told again


@pytest.mark.parametrize(("code", "well"), [(0, True), (4, False)])
def test_its_end_is_told_whether_it_ended_well(
    parent: QObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot,
    code: int, well: bool,
) -> None:  # fmt: skip
    program(monkeypatch, f"raise SystemExit({code})")
    monkeypatch.setattr(childwindow, "CHILD_CHECK", 0.0)  # past its first seconds at once
    instead: list[str] = []
    ended: list[bool] = []
    child = ChildWindow("folder", parent, instead=lambda: instead.append("here"))
    assert child.open(tmp_path, ended.append)
    qtbot.waitUntil(lambda: ended != [], timeout=10_000)
    assert ended == [well] and instead == [] and child.process is None


def test_a_process_that_fails_at_once_gives_way_to_the_window_here(
    parent: QObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """No display for it, a broken install: the person still gets the window."""
    program(monkeypatch, "raise SystemExit(3)")
    instead: list[str] = []
    ended: list[bool] = []
    child = ChildWindow("about", parent, instead=lambda: instead.append("here"))
    assert child.open(tmp_path, ended.append)
    qtbot.waitUntil(lambda: instead != [], timeout=10_000)
    assert instead == ["here"] and ended == [] and child.process is None


def test_a_window_runs_the_installed_program_not_the_current_folder_s_source(
    parent: QObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    """Found as a person: a tray started from a checkout (`.venv/bin/sioul-tray` there) ran its
    windows as `python -m sioul_tray.cli` in that folder, which loads the checkout's source tree
    (no sioul_tray.resources, no compiled catalogue): the folder window failed after saving the
    folder, About printed a traceback, a French tray's windows were in English."""
    checkout = tmp_path / "checkout"
    (checkout / "sioul_tray").mkdir(parents=True)
    loaded = tmp_path / "the checkout's source ran"
    (checkout / "sioul_tray" / "__init__.py").write_text("")
    (checkout / "sioul_tray" / "cli.py").write_text(
        f"open({str(loaded)!r}, 'w').close()\nraise SystemExit(3)\n"
    )
    monkeypatch.chdir(checkout)
    # The package "installed" is this checkout's, found by its path (tests/helpers.python_env).
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    instead: list[str] = []
    child = ChildWindow("about", parent, instead=lambda: instead.append("here"))
    assert child.open(tmp_path / "state")
    qtbot.wait(2500)
    assert not loaded.exists()
    assert instead == [] and child.running()  # the About box is up, from the installed program
