"""For the tray and desktop tests: offscreen Qt, PySide6 loaded as the tray loads it, and
skip-or-fail for the desktop parts (imported by tests/tray/conftest.py and
tests/desktop/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from tests.helpers import need_or_skip

# The controller and the menu model need no screen: Qt draws nowhere.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sioul_tray.tray import pyside

# PySide6 loaded as the tray loads it.
pyside.load()


@pytest.fixture
def need() -> Callable[[str | None], None]:
    """`need(missing)`: skip when `missing` names a missing part; fail under SIOUL_REQUIRE_DESKTOP=1
    (CI), so an install step lost from CI cannot hide behind a skip."""
    return need_or_skip
