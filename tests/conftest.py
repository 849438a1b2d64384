"""Shared test settings.

Desktop tests (display, tray host, D-Bus) skip with a reason for a newcomer who lacks those parts,
and fail instead when ``SIOUL_REQUIRE_DESKTOP=1`` (CI sets it), so a missing install step in CI
cannot hide behind a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sioul_tray.share import Share
from tests.helpers import FakeClock


def require_desktop(available: bool, reason: str) -> None:
    """Skip (newcomer) or fail (CI) when a desktop part the test needs is missing."""
    if available:
        return
    if os.environ.get("SIOUL_REQUIRE_DESKTOP") == "1":
        pytest.fail(f"SIOUL_REQUIRE_DESKTOP=1 but {reason}", pytrace=False)
    pytest.skip(reason)


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
