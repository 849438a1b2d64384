"""Shared fixtures: a hand-moved clock and a sealed sharing folder.

Desktop tests (display, tray host, D-Bus) skip with a reason for a newcomer who lacks those parts,
and fail instead when ``SIOUL_REQUIRE_DESKTOP=1`` (CI sets it): the `need` fixture of
tests/qtkit.py, used by tests/tray and tests/desktop.

Texts are English (the source language) whatever this machine's locale, unless a test asks for
another language; the French catalogue is compiled first when missing or older than its ``.ts``
(a checkout that was never built, or a catalogue just edited).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sioul_tray.share import Share
from sioul_tray.translations import compile_all
from tests.helpers import FakeClock

# Inherited by every child process the tests start (command line, tray, demo).
os.environ["SIOUL_TRAY_LANG"] = "en"
# Into the checkout's package, which the tests import (pytest's pythonpath ["."]).
compile_all(only_stale=True)


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local times in UTC: "08:00" for T0, whatever the machine's zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "share"
    made.mkdir()
    return made


@pytest.fixture
def share(folder: Path) -> Share:
    """A sealed sharing folder made by computer "aa" (cheap key derivation: tests only)."""
    return Share.create(folder, "correct horse", "aa", cost=10)
