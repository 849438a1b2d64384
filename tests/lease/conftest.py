"""Fixtures for the lease tests: a fake clock and a cheap sharing folder in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from leasekit import FakeClock, make_share

from sioul_tray.share import Share


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def share(tmp_path: Path) -> Share:
    return make_share(tmp_path / "sync")
