"""The About box's own process: the text asked of the running tray over its socket, what it says
when no tray answers, the box itself, and `main` showing it in the tray's language."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from sioul_tray.tray import aboutbox, single
from tests.helpers import python_env

ABOUT = "sioul-tray 9.9\nReads the sharing folder /srv/share\n"
NOT_RUNNING = "The tray is not running: start sioul-tray to see what it uses."

# Stands in for `sioul-tray about`: the box is read back and closed as soon as it shows.
SHOW_AND_CLOSE = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from sioul_tray.tray import aboutbox
real = aboutbox.box
def box(text):
    made = real(text)
    def report():
        print(json.dumps([made.windowTitle(), made.text(), made.isVisible()]), flush=True)
        made.close()  # the last window: the application's loop ends
    QTimer.singleShot(0, report)
    return made
aboutbox.box = box
sys.exit(aboutbox.main(Path(sys.argv[1]), sys.argv[2]))
"""


class Listening:
    """A running tray's request server (`single.Server`): what it heard, what it answers."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.heard: list[list[str]] = []
        self.answer = (0, ABOUT)
        self.server = single.Server(state, self.handle)

    def handle(self, argv: list[str]) -> tuple[int, str]:
        self.heard.append(argv)
        return self.answer


@pytest.fixture
def tray(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Listening]:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)  # the socket under the state folder
    made = Listening(tmp_path / "state")
    assert made.server.listen()
    yield made
    made.server.close()


def text_while_serving(qtbot: QtBot, state: Path) -> str:
    """`text_from` from a thread (it blocks), while the test's event loop serves the request."""
    got: list[str] = []
    thread = threading.Thread(target=lambda: got.append(aboutbox.text_from(state)))
    thread.start()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=10_000)
    return got[0]


def test_the_text_is_the_running_tray_s_answer_to_about(qtbot: QtBot, tray: Listening) -> None:
    assert text_while_serving(qtbot, tray.state) == ABOUT.rstrip("\n")  # no blank line under it
    assert tray.heard == [["about"]]


def test_without_a_tray_it_says_none_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert aboutbox.text_from(tmp_path / "state") == NOT_RUNNING


def test_a_tray_s_refusal_is_never_shown_as_its_about_text(qtbot: QtBot, tray: Listening) -> None:
    """An older tray without the `about` request answers with an error code and its words."""
    tray.answer = (2, "sioul-tray: the running tray did not understand the request\n")
    assert text_while_serving(qtbot, tray.state) == NOT_RUNNING
    assert tray.heard == [["about"]]


def test_the_box_shows_the_text_with_the_tray_s_icon(qtbot: QtBot) -> None:
    shown = aboutbox.box(ABOUT.rstrip("\n"))
    qtbot.addWidget(shown)
    assert shown.objectName() == "about" and shown.windowTitle() == "About sioul-tray"
    assert shown.text() == ABOUT.rstrip("\n")
    pixmap = shown.iconPixmap()
    assert not pixmap.isNull() and (pixmap.width(), pixmap.height()) == (48, 48)


def test_main_shows_the_tray_s_text_in_the_language_it_is_given(
    qtbot: QtBot, tray: Listening
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SHOW_AND_CLOSE, str(tray.state), "fr"],
        env=python_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        # The child asks this process's server: the event loop serves while it runs.
        qtbot.waitUntil(lambda: child.poll() is not None, timeout=30_000)
    finally:
        if child.poll() is None:
            child.kill()
        out, err = child.communicate(timeout=10)
    assert child.returncode == 0, err
    assert json.loads(out) == ["À propos de sioul-tray", ABOUT.rstrip("\n"), True]
    assert tray.heard == [["about"]]
