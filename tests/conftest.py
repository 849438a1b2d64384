"""Shared fixtures: a hand-moved clock and a sealed sharing folder.

Desktop tests (display, tray host, D-Bus) skip with a reason for a newcomer who lacks those parts,
and fail instead when ``SIOUL_REQUIRE_DESKTOP=1`` (CI sets it): the `need` fixture of
tests/qtkit.py, used by tests/tray and tests/desktop.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sioul_tray.share import Share
from tests.helpers import FakeClock


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
